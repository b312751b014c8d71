/**
 * Alerts over time (service-notes.md): inactivity past `timeout` triggers, `repeat` at doubling
 * gaps, one up message on recovery (none with `down_only`), unsubscribed destinations recorded as
 * not delivered, pauses, and the status endpoints that report it all. The clock is advanced minute
 * by minute; nothing waits on real time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiCall, startTestEmulator, type OutboxMessage, type TestEmulator } from '../helpers/emulator.js';

/** 30 s into a minute: real time running during a test never crosses a minute check. */
const T0 = 1_717_999_980 + 30;

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
});
afterAll(() => emu.close());

const call = (e: TestEmulator, method: string, path: string, body?: unknown) =>
  apiCall(e, method, path, body === undefined ? {} : { body });

interface Account {
  monitor: string;
  alert: string;
  dests: { ops: string; sms: string; legacy: string };
}

/** One SMTP monitor (timer 5, Europe/Berlin) with one alert to two subscribed and one unsubscribed destination. */
async function account(e: TestEmulator, alert: Record<string, unknown> = {}, label = 'mx-eu-1'): Promise<Account> {
  await e.control.reset('empty');
  await e.control.setClock(T0);
  await e.control.simulation({ failure_rate: 0 });
  const d = await e.control.seed({
    destinations: [
      { label: 'ops-mail', destination: 'ops@example.com', type: 'email', subscribed: true },
      { label: 'oncall-sms', destination: '+15555550100', type: 'sms', subscribed: true },
      { label: 'legacy-mail', destination: 'legacy@example.com', type: 'EMAIL', subscribed: false },
    ],
  });
  const [ops, sms, legacy] = d.destinations as [string, string, string];
  const m = await call(e, 'POST', '/v1/Config/Monitor/', {
    type: 'smtp', label, timer: 5, time_zone: 'Europe/Berlin', ip_address: 'mx', test_account: 'probe@example.org',
  });
  const a = await call(e, 'POST', '/v1/Config/Alert/', {
    type: 'up-down',
    monitor: m.json.monitor.id,
    subject_init: `${label} DOWN`,
    subject_term: `${label} UP`,
    message_init: 'the test message did not come back',
    message_term: 'recovered',
    timeout: 15,
    alert_destinations: [ops, sms, legacy],
    ...alert,
  });
  expect(a.status).toBe(200);
  return { monitor: m.json.monitor.id, alert: a.json.alert.id, dests: { ops, sms, legacy } };
}

async function now(e: TestEmulator): Promise<number> {
  return (await e.control.clock()).now;
}

/** Advances `n` minutes one at a time, reading the outbox after each (as a watching operator would). */
async function minutes(e: TestEmulator, n: number, each?: (now: number, out: OutboxMessage[]) => void | Promise<void>): Promise<void> {
  for (let i = 0; i < n; i++) {
    const t = (await e.control.advance(60)).now;
    const out = await e.control.outbox();
    await each?.(t, out);
  }
}

/**
 * Unix seconds of the latest test reply (the filter's last_test), from the last hour. A test still in
 * flight (no reply yet, not complete, no error) will still reply, later: the clock moves on a
 * minute at a time until none is, so the reply returned is the last one to come before an outage.
 */
async function lastReply(e: TestEmulator, label = 'mx-eu-1'): Promise<number> {
  for (;;) {
    const f = (await call(e, 'GET', `/v1/Status/Filter/?prefix=${label}&t=3600`)).json.monitor_list[0];
    const inFlight = f.last_test.flag === false && f.last_test.time_term === null && f.last_test.error === null;
    if (!inFlight) {
      expect(f.last_test.flag).toBe(true);
      return Date.parse(`${f.last_test.utc_time_term}Z`) / 1000;
    }
    await e.control.advance(60);
  }
}

/** The first whole-minute check strictly more than `timeout` minutes after `reply`. */
const triggerAt = (reply: number, timeout: number): number => (Math.floor((reply + timeout * 60) / 60) + 1) * 60;

async function v1Active(e: TestEmulator, monitor: string): Promise<boolean> {
  const s = (await call(e, 'GET', '/v1/Status/')).json;
  const entry = s.monitor_list.find((x: { id: string }) => x.id === monitor);
  expect(s.global_alert_active).toBe(entry.alert_active);
  return entry.alert_active;
}

describe('a forced outage', () => {
  it('triggers the alert once the last reply is older than timeout minutes, not a minute before', async () => {
    const acct = await account(emu);
    await minutes(emu, 20);
    const reply = await lastReply(emu);
    const start = await now(emu);
    const o = await emu.control.outage(acct.monitor, 3600);
    expect(o).toEqual({ monitor: acct.monitor, until: start + 3600 });
    const expected = triggerAt(reply, 15);
    expect(expected - start).toBeGreaterThan(10 * 60);
    let seen = false;
    await minutes(emu, 30, async (t, out) => {
      if (t < expected) {
        expect(out).toEqual([]);
        expect(await v1Active(emu, acct.monitor)).toBe(false);
        return;
      }
      seen = true;
      const { ops, sms, legacy } = acct.dests;
      expect(out).toEqual(
        [ops, sms, legacy].map((destination) => ({
          time: expected,
          alert: acct.alert,
          monitor: acct.monitor,
          destination,
          kind: 'down',
          subject: 'mx-eu-1 DOWN',
          body: 'the test message did not come back',
          delivered: destination !== legacy,
        })),
      );
      expect(await v1Active(emu, acct.monitor)).toBe(true);
    });
    expect(seen).toBe(true);
    // Without repeat: nothing more while it stays down.
    await minutes(emu, 20);
    expect(await emu.control.outbox()).toHaveLength(3);
    expect(await emu.control.outbox(expected + 1)).toEqual([]);
  });

  it('repeat: down again 10, 20, 40, 80 minutes apart; one up message on recovery; then quiet', async () => {
    const acct = await account(emu, { repeat: true });
    await minutes(emu, 20);
    const first = triggerAt(await lastReply(emu), 15);
    const start = await now(emu);
    await emu.control.outage(acct.monitor, 4 * 3600);
    await minutes(emu, 4 * 60);
    const downs = (await emu.control.outbox()).filter((m) => m.destination === acct.dests.ops);
    expect(downs.map((m) => m.time - first)).toEqual([0, 600, 1800, 4200, 9000]);
    expect(downs.every((m) => m.kind === 'down')).toBe(true);
    // Next would be 160 minutes after the last one: past the end of the outage.
    expect(first + 9000 + 160 * 60).toBeGreaterThan(start + 4 * 3600);

    const ended = await emu.control.outage(acct.monitor, 0);
    expect(ended.monitor).toBe(acct.monitor);
    const before = (await emu.control.outbox()).length;
    await minutes(emu, 15);
    const ups = (await emu.control.outbox()).slice(before);
    expect(ups.map((m) => [m.kind, m.destination, m.delivered, m.subject, m.body])).toEqual([
      ['up', acct.dests.ops, true, 'mx-eu-1 UP', 'recovered'],
      ['up', acct.dests.sms, true, 'mx-eu-1 UP', 'recovered'],
      ['up', acct.dests.legacy, false, 'mx-eu-1 UP', 'recovered'],
    ]);
    // The up message goes at the first minute check after the first reply since the outage.
    const items = (await call(emu, 'GET', `/v1/Data/Monitor/${acct.monitor}/?begin=${start}`)).json.data;
    const back = items.find((i: { failed: boolean; utc_mktime: number }) => !i.failed && i.utc_mktime > start + 4 * 3600);
    const replied = back.utc_mktime + Math.max(1, Math.round(back.value / 1000));
    expect(ups[0]?.time).toBe(Math.ceil(replied / 60) * 60);
    expect(await v1Active(emu, acct.monitor)).toBe(false);
    await minutes(emu, 60);
    expect((await emu.control.outbox()).length).toBe(before + 3);
  });

  it('down_only: no up message, but the reset is recorded, so the next outage triggers again', async () => {
    const acct = await account(emu, { down_only: true });
    await minutes(emu, 10);
    await emu.control.outage(acct.monitor, 3600);
    await minutes(emu, 60);
    expect(await v1Active(emu, acct.monitor)).toBe(true);
    await minutes(emu, 30);
    expect(await v1Active(emu, acct.monitor)).toBe(false);
    expect((await emu.control.outbox()).map((m) => m.kind)).toEqual(['down', 'down', 'down']);
    await emu.control.outage(acct.monitor, 3600);
    await minutes(emu, 60);
    const out = await emu.control.outbox();
    expect(out.map((m) => m.kind)).toEqual(['down', 'down', 'down', 'down', 'down', 'down']);
    expect(out[3]!.time - out[0]!.time).toBeGreaterThan(60 * 60);
  });

  it('reports the alert on /v1/Status, /v2/status and /v1/Status/Filter', async () => {
    const acct = await account(emu, { repeat: true });
    await call(emu, 'POST', '/v1/Config/Monitor/', {
      type: 'smtp', label: 'mx-quiet', timer: 5, time_zone: 'UTC', ip_address: 'mx', test_account: 'q@example.org',
    });
    // Tokens live an hour of emulator time: one per call.
    const v2 = async (q = '') => (await apiCall(emu, 'GET', `/v2/status${q}`, { auth: `Bearer ${await emu.token()}` })).json;
    await minutes(emu, 20);
    expect(await v2()).toEqual({ global_alert_active: false, monitors: [] });
    await emu.control.outage(acct.monitor, 2 * 3600);
    await minutes(emu, 60);

    expect(await v2()).toEqual({
      global_alert_active: true,
      monitors: [{ id: acct.monitor, label: 'mx-eu-1', type: 'smtp', alert_active: true }],
    });
    expect((await v2('?all=true')).monitors.map((m: { alert_active: boolean }) => m.alert_active)).toEqual([true, false]);
    const v1 = (await call(emu, 'GET', '/v1/Status/')).json;
    expect(v1.global_alert_active).toBe(true);
    expect(v1.monitor_list.map((m: { alert_active: boolean }) => m.alert_active)).toEqual([true, false]);

    const t = 3 * 3600;
    const f = (await call(emu, 'GET', `/v1/Status/Filter/?prefix=mx-&t=${t}`)).json;
    expect(f.t).toBe(t);
    const [eu, quiet] = f.monitor_list;
    const end = await now(emu);
    const items = (await call(emu, 'GET', `/v1/Data/Monitor/${acct.monitor}/?begin=${end - t + 1}&end=${end}`)).json.data;
    const downs = (await emu.control.outbox()).filter((m) => m.destination === acct.dests.ops);
    expect(eu).toMatchObject({
      monitor: acct.monitor,
      label: 'mx-eu-1',
      alert_active: true,
      // The trigger and its repeats (10 and 20 minutes later) within the hour of outage.
      alert_count: downs.length,
      test_count: items.length,
      fail_count: items.filter((i: { failed: boolean }) => i.failed).length,
    });
    expect(downs.length).toBe(3);
    // 12 tests started in the outage; the latest is in flight: failed only once no reply can come.
    expect(eu.fail_count).toBe(11);
    const lastDown = downs[downs.length - 1]!.time;
    // Local time of the monitor's zone (UTC+2 in June), without offset.
    expect(eu.last_alert).toEqual({ alert: acct.alert, monitor: acct.monitor, time: new Date((lastDown + 7200) * 1000).toISOString().slice(0, 19) });
    const [failedLast, last] = [items[items.length - 2], items[items.length - 1]];
    // In flight (API 2.7): started, no reply yet, no error yet, not complete.
    expect(last).toMatchObject({ value: null, failed: false, error: null });
    expect(eu.last_test).toEqual({
      duration: null,
      error: null,
      flag: false,
      time_init: last.time,
      time_term: null,
      utc_mktime: last.utc_mktime,
      utc_time_init: last.utc_time,
      utc_time_term: null,
    });
    expect(eu.last_failed).toEqual({
      duration: null,
      error: 'no response: the test message did not come back',
      flag: false,
      time_init: failedLast.time,
      time_term: null,
      utc_mktime: failedLast.utc_mktime,
      utc_time_init: failedLast.utc_time,
      utc_time_term: null,
    });
    expect(quiet).toMatchObject({ alert_active: false, alert_count: 0, fail_count: 0, last_alert: null, last_failed: null });
    // Its latest test started moments ago too: in flight, its reply not in yet.
    expect(quiet.last_test).toMatchObject({ flag: false, error: null, duration: null, time_term: null, utc_time_term: null });
    expect(quiet.last_test).not.toHaveProperty('complete');

    // A shorter period counts only what happened in it.
    const recent = (await call(emu, 'GET', '/v1/Status/Filter/?prefix=mx-eu&t=600')).json.monitor_list[0];
    expect(recent.test_count).toBe(2);
    expect(recent.alert_count).toBe(downs.filter((m) => m.time > end - 600).length);
  });
});

describe('pauses', () => {
  it('a paused alert sends nothing and is hidden; when the pause ends during the outage it triggers at the next check', async () => {
    const acct = await account(emu, { repeat: true });
    await minutes(emu, 20);
    const paused = await now(emu);
    expect((await call(emu, 'POST', `/v1/Pause/Alert/${acct.alert}/`, { seconds: 40 * 60 })).status).toBe(200);
    await emu.control.outage(acct.monitor, 2 * 3600);
    const token = await emu.token();
    await minutes(emu, 39, async (_t, out) => {
      expect(out).toEqual([]);
    });
    // Well past the timeout, still silent and hidden.
    expect(await v1Active(emu, acct.monitor)).toBe(false);
    expect((await apiCall(emu, 'GET', '/v2/status', { auth: `Bearer ${token}` })).json.monitors).toEqual([]);
    const f = (await call(emu, 'GET', '/v1/Status/Filter/?prefix=mx-eu&t=3600')).json.monitor_list[0];
    expect(f).toMatchObject({ alert_active: false, alert_count: 0, last_alert: null });
    expect(f.fail_count).toBeGreaterThan(5);

    await minutes(emu, 3);
    const out = await emu.control.outbox();
    expect(out.map((m) => m.kind)).toEqual(['down', 'down', 'down']);
    // The first minute check at or after the end of the pause.
    expect(out[0]!.time).toBeGreaterThanOrEqual(paused + 40 * 60);
    expect(out[0]!.time).toBeLessThanOrEqual(paused + 40 * 60 + 61);
    expect(await v1Active(emu, acct.monitor)).toBe(true);
    // Repeats count from that trigger.
    await minutes(emu, 11);
    expect((await emu.control.outbox()).map((m) => m.time - out[0]!.time)).toEqual([0, 0, 0, 600, 600, 600]);
  });

  it('pausing a triggered alert hides it and holds its messages; it shows again when the pause expires', async () => {
    const acct = await account(emu, { repeat: true });
    await minutes(emu, 10);
    await emu.control.outage(acct.monitor, 3 * 3600);
    await minutes(emu, 30);
    const trigger = (await emu.control.outbox())[0]!.time;
    expect(await v1Active(emu, acct.monitor)).toBe(true);
    const pausedAt = await now(emu);
    await call(emu, 'POST', `/v1/Pause/Monitor/${acct.monitor}/`, { seconds: 3600 });
    expect(await v1Active(emu, acct.monitor)).toBe(false);
    expect((await call(emu, 'GET', '/v1/Status/Filter/?prefix=mx&t=60')).json.monitor_list[0].alert_active).toBe(false);
    const sent = (await emu.control.outbox()).length;
    await minutes(emu, 59);
    expect((await emu.control.outbox()).length).toBe(sent);
    expect(await v1Active(emu, acct.monitor)).toBe(false);
    await minutes(emu, 2);
    expect(await v1Active(emu, acct.monitor)).toBe(true);
    // The repeat that fell due during the pause (trigger + 30 minutes) goes at the first check after it.
    const after = (await emu.control.outbox()).slice(sent);
    expect(after.map((m) => m.kind)).toEqual(['down', 'down', 'down']);
    expect(after[0]!.time).toBeGreaterThanOrEqual(pausedAt + 3600);
    expect(after[0]!.time).toBeGreaterThan(trigger + 1800);
  });

  it('a recovery during the pause is reported by one up message when it ends; DELETE ends a pause at once', async () => {
    const acct = await account(emu);
    await minutes(emu, 10);
    await emu.control.outage(acct.monitor, 40 * 60);
    await minutes(emu, 30);
    expect((await emu.control.outbox()).map((m) => m.kind)).toEqual(['down', 'down', 'down']);
    await call(emu, 'POST', '/v1/Pause/Alert/', { seconds: 7200 });
    await minutes(emu, 30);
    expect(await emu.control.outbox()).toHaveLength(3);
    const resumedAt = await now(emu);
    expect((await call(emu, 'DELETE', `/v1/Pause/Alert/${acct.monitor}/`)).status).toBe(200);
    await minutes(emu, 1);
    const out = await emu.control.outbox();
    expect(out.slice(3).map((m) => [m.kind, m.delivered])).toEqual([
      ['up', true],
      ['up', true],
      ['up', false],
    ]);
    expect(out[3]!.time).toBe(Math.ceil(resumedAt / 60) * 60);
  });
});

describe('the catch-up comes first, whatever the request', () => {
  /**
   * An alert (timeout 15, repeat) in an outage, paused for 30 minutes before it triggers; then the
   * clock jumps past the end of the pause at once. Whichever request comes first, the minutes inside
   * the pause must be checked as paused before the expired pause is dropped (issue 14: a first
   * `GET /v1/Pause/Alert/` used to send down messages stamped inside the pause window).
   */
  async function pausedThroughJump(e: TestEmulator): Promise<{ acct: Account; pausedAt: number; bearer: string }> {
    const acct = await account(e, { repeat: true });
    await minutes(e, 10);
    await e.control.outage(acct.monitor, 3 * 3600);
    const bearer = `Bearer ${await e.token()}`;
    const pausedAt = await now(e);
    expect((await call(e, 'POST', `/v1/Pause/Alert/${acct.alert}/`, { seconds: 1800 })).status).toBe(200);
    await e.control.advance(1801);
    return { acct, pausedAt, bearer };
  }

  /** The outbox right after the first request, and 15 minutes later. */
  async function history(e: TestEmulator): Promise<{ atJump: OutboxMessage[]; later: OutboxMessage[] }> {
    const atJump = await e.control.outbox();
    await minutes(e, 15);
    return { atJump, later: await e.control.outbox() };
  }

  async function reference(): Promise<{ atJump: OutboxMessage[]; later: OutboxMessage[] }> {
    const { pausedAt } = await pausedThroughJump(emu);
    await call(emu, 'GET', '/v1/Status/');
    const h = await history(emu);
    // Nothing inside the pause; its end falls between two minute checks, so the trigger comes at the next one.
    expect(h.atJump).toEqual([]);
    const first = (h.later[0] as OutboxMessage).time - (pausedAt + 1800);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThanOrEqual(60);
    // The trigger and, 10 minutes later, its first repeat, to the three destinations.
    expect(h.later.map((m) => m.kind)).toEqual(Array.from({ length: 6 }, () => 'down'));
    return h;
  }

  const FIRST: [string, (e: TestEmulator, acct: Account, bearer: string) => Promise<unknown>][] = [
    ['GET /v1/Pause/Alert/', (e) => call(e, 'GET', '/v1/Pause/Alert/')],
    ['GET /v1/Config/Alert/{id}/', (e, a) => call(e, 'GET', `/v1/Config/Alert/${a.alert}/`)],
    ['GET /v1/Config/Monitor/', (e) => call(e, 'GET', '/v1/Config/Monitor/')],
    ['GET /v2/status', (e, _a, bearer) => apiCall(e, 'GET', '/v2/status', { auth: bearer })],
    ['GET /v1/Data/Monitor/{id}/', (e, a) => call(e, 'GET', `/v1/Data/Monitor/${a.monitor}/`)],
    ['GET /_emulator/state', (e) => e.control.state()],
    [
      'POST /v1/Pause/Monitor/{id}/ of another monitor',
      async (e) => {
        const other = await call(e, 'POST', '/v1/Config/Monitor/', {
          type: 'smtp', label: 'other', timer: 5, time_zone: 'UTC', ip_address: 'mx', test_account: 'o@example.org',
        });
        return call(e, 'POST', `/v1/Pause/Monitor/${other.json.monitor.id}/`, { seconds: 60 });
      },
    ],
  ];

  it.each(FIRST)('a first request %s after the jump sees the same history as GET /v1/Status/', async (_name, first) => {
    const expected = await reference();
    const { acct, bearer } = await pausedThroughJump(emu);
    await first(emu, acct, bearer);
    expect(await history(emu)).toEqual(expected);
  });

  it('a restart from the state file right after the jump keeps the pause that ended meanwhile', async () => {
    const expected = await reference();
    const dir = mkdtempSync(join(tmpdir(), 'monsync-jump-'));
    let b: TestEmulator | undefined;
    try {
      const statePath = join(dir, 'state.json');
      const a = await startTestEmulator({ seed: 'empty', statePath });
      await pausedThroughJump(a);
      await a.close();
      b = await startTestEmulator({ seed: 'empty', statePath });
      expect(await history(b)).toEqual(expected);
    } finally {
      await b?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('control API of the simulation', () => {
  beforeEach(async () => {
    await emu.control.reset('empty');
  });

  it('outage: validates, extends or shortens a running outage, 0 ends it', async () => {
    const acct = await account(emu);
    const bad = async (body: unknown, status = 400) => {
      const r = await fetch(`${emu.url}/_emulator/outage`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(r.status).toBe(status);
      return ((await r.json()) as { error: string }).error;
    };
    expect(await bad({ monitor: '999', seconds: 60 }, 404)).toMatch(/monitor 999 not found/);
    expect(await bad({ monitor: acct.monitor, seconds: -1 })).toMatch(/seconds must be a whole number/);
    expect(await bad({ monitor: acct.monitor, seconds: 1.5 })).toMatch(/seconds/);
    expect(await bad({ monitor: acct.monitor })).toMatch(/seconds/);
    expect(await bad({ seconds: 5 })).toMatch(/monitor must be/);
    expect(await bad({ monitor: acct.monitor, seconds: 5, extra: 1 })).toMatch(/unknown key extra/);

    const t = await now(emu);
    const first = (await emu.control.outage(acct.monitor, 600)).until - t;
    expect(first === 600 || first === 601).toBe(true);
    const longer = (await emu.control.outage(acct.monitor, 3600)).until - t;
    expect(longer === 3600 || longer === 3601).toBe(true);
    await minutes(emu, 7);
    expect((await emu.control.outage(acct.monitor, 0)).until).toBe(await now(emu));
    await minutes(emu, 20);
    const items = (await call(emu, 'GET', `/v1/Data/Monitor/${acct.monitor}/?begin=${T0}`)).json.data;
    // Tests at 5, 10, ... 25 minutes after creation: only the one during the 7 minutes failed.
    expect(items.map((i: { failed: boolean }) => i.failed)).toEqual([true, false, false, false, false]);
  });

  it('outbox: since filters by time; DELETE clears it', async () => {
    const acct = await account(emu);
    await emu.control.outage(acct.monitor, 3600);
    await minutes(emu, 60);
    const all = await emu.control.outbox();
    expect(all).toHaveLength(3);
    expect(await emu.control.outbox(all[0]!.time)).toHaveLength(3);
    expect(await emu.control.outbox(all[0]!.time + 1)).toEqual([]);
    const bad = await fetch(`${emu.url}/_emulator/outbox?since=yesterday`);
    expect(bad.status).toBe(400);
    const del = await fetch(`${emu.url}/_emulator/outbox`, { method: 'DELETE' });
    expect(await del.json()).toEqual({ cleared: 3 });
    expect(await emu.control.outbox()).toEqual([]);
  });

  it('the alert-active override still marks a monitor alerting, and pauses still hide it', async () => {
    const acct = await account(emu);
    await emu.control.setAlertActive(acct.monitor, true);
    expect(await v1Active(emu, acct.monitor)).toBe(true);
    await call(emu, 'POST', `/v1/Pause/Monitor/${acct.monitor}/`, { seconds: 60 });
    expect(await v1Active(emu, acct.monitor)).toBe(false);
    await emu.control.advance(61);
    expect(await v1Active(emu, acct.monitor)).toBe(true);
    // The override sends nothing: messages come from the simulation only.
    expect(await emu.control.outbox()).toEqual([]);
  });
});

describe('persistence', () => {
  it('outages, pauses, alert state and the outbox survive a restart with a state file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'monsync-sim-'));
    try {
      const statePath = join(dir, 'state.json');
      const a = await startTestEmulator({ seed: 'empty', statePath, simSeed: 'persist' });
      const acct = await account(a, { repeat: true });
      const second = await call(a, 'POST', '/v1/Config/Alert/', {
        type: 'up-down', monitor: acct.monitor, subject_init: 'slow', subject_term: 'ok', timeout: 5, alert_destinations: [acct.dests.ops],
      });
      await minutes(a, 10);
      await a.control.outage(acct.monitor, 3 * 3600);
      await call(a, 'POST', `/v1/Pause/Alert/${second.json.alert.id}/`, { seconds: 5 * 3600 });
      await minutes(a, 30);
      const before = await a.control.outbox();
      // The trigger and its first repeat, to three destinations; nothing of the paused alert.
      expect(before.map((m) => m.alert)).toEqual(Array.from({ length: 6 }, () => acct.alert));
      expect(before[3]!.time - before[0]!.time).toBe(600);
      await a.close();

      const b = await startTestEmulator({ seed: 'empty', statePath, simSeed: 'ignored: the state file has its own' });
      try {
        expect(await b.control.outbox()).toEqual(before);
        expect((await b.control.simulation()).seed).toBe('persist');
        expect((await call(b, 'GET', '/v1/Pause/Alert/')).json.alert_list.map((p: { id: string }) => p.id)).toEqual([second.json.alert.id]);
        expect(await v1Active(b, acct.monitor)).toBe(true);
        // Still in the outage: the repeat 30 minutes after the trigger, failures in the data.
        await minutes(b, 40);
        const out = await b.control.outbox();
        expect(out.slice(6).map((m) => [m.kind, m.time - before[0]!.time])).toEqual([
          ['down', 1800],
          ['down', 1800],
          ['down', 1800],
        ]);
        const f = (await call(b, 'GET', '/v1/Status/Filter/?prefix=mx&t=3600')).json.monitor_list[0];
        // Every test failed but the latest, which waits for a reply that will not come (in flight).
        expect(f.last_test).toMatchObject({ flag: false, error: null, time_term: null });
        expect(f.fail_count).toBe(f.test_count - 1);
      } finally {
        await b.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
