/**
 * The simulated service: tests on the timer, deterministic results, failures, ttl, data averages,
 * hop analysis, determinism of the catch-up. The clock is always advanced, never waited on.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SEED } from '../../src/emulator/seed.js';
import { dayOfChecks } from '../bench/workloads.js';
import { apiCall, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

/** A fixed start, 30 s into a minute, so real time running during a test never crosses a minute check. */
const T0 = 1_717_999_980 + 30;

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
});
afterAll(() => emu.close());
beforeEach(async () => {
  await emu.control.reset('empty');
  await emu.control.setClock(T0);
});

const call = (e: TestEmulator, method: string, path: string, body?: unknown) =>
  apiCall(e, method, path, body === undefined ? {} : { body });

async function smtpMonitor(e: TestEmulator, over: Record<string, unknown> = {}): Promise<string> {
  const r = await call(e, 'POST', '/v1/Config/Monitor/', {
    type: 'smtp',
    label: 'mx-a',
    timer: 5,
    time_zone: 'Europe/Berlin',
    ip_address: 'mx',
    test_account: 'probe@example.org',
    ...over,
  });
  expect(r.status).toBe(200);
  return r.json.monitor.id as string;
}

interface Item {
  value: number | null;
  failed: boolean;
  error: string | null;
  samples: number | null;
  utc_mktime: number;
  time: string;
  utc_time: string;
}

async function data(e: TestEmulator, id: string, q = ''): Promise<Item[]> {
  const r = await call(e, 'GET', `/v1/Data/Monitor/${id}/${q}`);
  expect(r.status).toBe(200);
  return r.json.data as Item[];
}

describe('tests on the timer', () => {
  it('runs a test every timer minutes from creation, the first one timer minutes after it', async () => {
    const id = await smtpMonitor(emu);
    expect(await data(emu, id)).toEqual([]);
    await emu.control.advance(299);
    expect(await data(emu, id)).toEqual([]);
    await emu.control.advance(31 * 60 - 299);
    const items = await data(emu, id, `?begin=${T0 - 3600}`);
    // Created at T0 (or a second later on a slow machine, real time runs on).
    const created = (items[0] as Item).utc_mktime - 300;
    expect(created - T0).toBeGreaterThanOrEqual(0);
    expect(created - T0).toBeLessThanOrEqual(2);
    expect(items.map((i) => i.utc_mktime)).toEqual([1, 2, 3, 4, 5, 6].map((k) => created + k * 300));
    // Local to the monitor's zone (Europe/Berlin is UTC+2 in June), without offset.
    expect(items[0]).toMatchObject({ samples: null, alert_matches: [] });
    expect(items[0]?.utc_time).toBe(new Date((created + 300) * 1000).toISOString().slice(0, 19));
    expect(items[0]?.time).toBe(new Date((created + 300 + 7200) * 1000).toISOString().slice(0, 19));
    for (const i of items) expect(i.value).toBeGreaterThan(0);
  });

  it('a timer change applies from the change on; earlier tests keep their times', async () => {
    const id = await smtpMonitor(emu);
    await emu.control.advance(11 * 60);
    expect((await call(emu, 'PUT', `/v1/Config/Monitor/${id}/`, { timer: 10 })).status).toBe(200);
    await emu.control.advance(30 * 60);
    const times = (await data(emu, id, `?begin=${T0}`)).map((i) => i.utc_mktime);
    expect(times).toHaveLength(5);
    const [t1, t2, t3, t4, t5] = times as [number, number, number, number, number];
    expect(t2 - t1).toBe(300);
    // The new interval counts from the change, about 660 s after creation (t1 - 300).
    expect(t3 - (t1 - 300) - 600).toBeGreaterThanOrEqual(660);
    expect(t3 - (t1 - 300) - 600).toBeLessThanOrEqual(662);
    expect([t4 - t3, t5 - t4]).toEqual([600, 600]);
  });

  it('tests monitors of every type, also with timer given as a string', async () => {
    const ids = (await emu.control.seed(structuredClone(DEFAULT_SEED))).monitors;
    await emu.control.advance(3600);
    const counts: number[] = [];
    for (const id of ids) counts.push((await data(emu, id)).length);
    // www-http (timer "5"), gw-ping (5), dns-mx (10), legacy-mx (10).
    expect(counts).toEqual([12, 12, 6, 6]);
    const http = await data(emu, ids[0] as string);
    // Milliseconds-scale answers for non-SMTP types.
    expect(Math.max(...http.map((i) => i.value ?? 0))).toBeLessThan(3000);
  });
});

describe('determinism and failures', () => {
  async function series(simSeed: string | number, start: number, failureRate?: number): Promise<(number | null)[]> {
    const e = await startTestEmulator({ seed: 'empty', simSeed, ...(failureRate !== undefined && { failureRate }) });
    try {
      await e.control.setClock(start);
      const id = await smtpMonitor(e, { ttl: 60 });
      await e.control.advance(24 * 3600);
      return (await data(e, id, `?begin=${start}`)).map((i) => (i.failed ? null : i.value));
    } finally {
      await e.close();
    }
  }

  it('the same seed gives the same results, whenever the monitor was created; another seed others', async () => {
    const a = await series('alpha', T0, 0.05);
    expect(a).toHaveLength(288);
    expect(await series('alpha', T0 + 86_400 * 3 + 17, 0.05)).toEqual(a);
    const b = await series('beta', T0, 0.05);
    expect(b).not.toEqual(a);
    expect(b.filter((v) => v === null).length).toBeGreaterThan(0);
  });

  it('reset returns to the start seed; POST /_emulator/simulation changes seed and failure rate', async () => {
    const e = await startTestEmulator({ seed: 'empty', simSeed: 42 });
    try {
      expect(await e.control.simulation()).toMatchObject({ seed: '42', failure_rate: 0.01 });
      expect(await e.control.simulation({ seed: 'other', failure_rate: 0.5 })).toMatchObject({ seed: 'other', failure_rate: 0.5 });
      await e.control.reset('empty');
      expect(await e.control.simulation()).toMatchObject({ seed: '42', failure_rate: 0.01 });
      for (const body of [{ failure_rate: 2 }, { failure_rate: '0.1' }, { seed: '' }, { speed: 1 }]) {
        const r = await fetch(`${e.url}/_emulator/simulation`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        expect(r.status).toBe(400);
      }
    } finally {
      await e.close();
    }
  });

  it('fails about failure_rate of the tests, with an error and no response', async () => {
    await emu.control.simulation({ failure_rate: 0.3 });
    const id = await smtpMonitor(emu);
    await emu.control.advance(2 * 86_400);
    const items = await data(emu, id, `?begin=${T0}`);
    expect(items).toHaveLength(576);
    const failed = items.filter((i) => i.failed);
    expect(failed.length / items.length).toBeGreaterThan(0.22);
    expect(failed.length / items.length).toBeLessThan(0.38);
    for (const f of failed) {
      expect(f.value).toBeNull();
      expect(typeof f.error).toBe('string');
    }
    await emu.control.simulation({ failure_rate: 0 });
    expect((await data(emu, id, `?begin=${T0}`)).filter((i) => i.failed)).toEqual([]);
    await emu.control.simulation({ failure_rate: 1 });
    expect((await data(emu, id, `?begin=${T0}`)).every((i) => i.failed)).toBe(true);
  });

  it('ttl turns a late reply into a failure: the reply time stays, the test is not complete', async () => {
    await emu.control.simulation({ failure_rate: 0 });
    const quick = await smtpMonitor(emu, { label: 'ttl-30', ttl: 30 });
    const none = await smtpMonitor(emu, { label: 'ttl-0', ttl: 0 });
    await emu.control.advance(2 * 86_400);
    const all = await data(emu, quick, `?begin=${T0}`);
    // Tests whose reply is not in yet are in flight (no value, not failed, no error): the newest only.
    const inFlight = all.filter((i) => i.value === null && !i.failed && i.error === null);
    const { now: end } = await emu.control.clock();
    for (const i of inFlight) expect(end - i.utc_mktime).toBeLessThan(300);
    const items = all.filter((i) => !inFlight.includes(i));
    const late = items.filter((i) => i.failed);
    expect(late.length).toBeGreaterThan(5);
    for (const i of items) {
      expect(i.value).not.toBeNull();
      // The reply came later than 30 s exactly when the test failed.
      expect(i.failed).toBe((i.value as number) > 30_000);
      if (i.failed) expect(i.error).toMatch(/^reply after \d+ s, past the ttl of 30 s$/);
    }
    const slow = (await data(emu, none, `?begin=${T0}`)).filter((i) => (i.value as number) > 30_000);
    expect(slow.length).toBeGreaterThan(5);
    expect(slow.every((i) => !i.failed)).toBe(true);

    // The filter's test data objects show the late reply: a duration and time_term, not completed.
    const last = late[late.length - 1] as Item;
    // Before its reply arrives the test is in flight; once it has, it is a late reply.
    await emu.control.setClock(last.utc_mktime + 10);
    const waiting = (await call(emu, 'GET', '/v1/Status/Filter/?prefix=ttl-30&t=60')).json.monitor_list[0];
    expect(waiting.last_test).toMatchObject({ flag: false, error: null, duration: null, time_term: null, utc_mktime: last.utc_mktime });
    await emu.control.setClock(last.utc_mktime + Math.ceil((last.value as number) / 1000) + 1);
    const f = (await call(emu, 'GET', '/v1/Status/Filter/?prefix=ttl-30&t=600')).json.monitor_list[0];
    expect(f.last_failed).toMatchObject({ flag: false, utc_mktime: last.utc_mktime, utc_time_term: null });
    expect(f.last_failed.duration).toBeGreaterThan(30);
    expect(f.last_failed.time_term).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  });
});

describe('monitors of the other types', () => {
  /** One monitor of each type the status endpoints know, seeded as the web UI would have made them. */
  const OTHERS: [string, string][] = [
    ['HTTP', 'web'],
    ['Ping', 'gw'],
    ['DNS Query', 'dns'],
    ['TCP Port', 'tcp'],
    ['SSH Port', 'ssh'],
  ];

  async function seedOthers(e: TestEmulator): Promise<string[]> {
    return (
      await e.control.seed({
        monitors: OTHERS.map(([type, label]) => ({ label, type, ip_address: `${label}.example.org`, timer: 5, time_zone: 'UTC', data_label: 'milliseconds' })),
      })
    ).monitors;
  }

  it('fail with error texts of their own type, never the SMTP one', async () => {
    const ids = await seedOthers(emu);
    const smtp = await smtpMonitor(emu);
    await emu.control.simulation({ failure_rate: 0 });
    await emu.control.advance(600);
    for (const id of [...ids, smtp]) await emu.control.outage(id, 1800);
    await emu.control.advance(1800);
    const outage = new Map<string, Set<string>>();
    for (const [n, id] of [...ids, smtp].entries()) {
      const failed = (await data(emu, id, `?begin=${T0}`)).filter((i) => i.failed);
      expect(failed.length, id).toBeGreaterThanOrEqual(5);
      outage.set(n < ids.length ? (OTHERS[n] as [string, string])[0] : 'SMTP', new Set(failed.map((i) => i.error as string)));
    }
    expect(Object.fromEntries([...outage].map(([k, v]) => [k, [...v]]))).toEqual({
      HTTP: ['connection timed out: no response from the web server'],
      Ping: ['no reply: 100% packet loss'],
      'DNS Query': ['no answer: the query timed out'],
      'TCP Port': ['connection timed out'],
      'SSH Port': ['connection timed out'],
      SMTP: ['no response: the test message did not come back'],
    });

    // Random failures draw from each type's own errors.
    await emu.control.simulation({ failure_rate: 1 });
    await emu.control.advance(3 * 86_400);
    const plausible: Record<string, RegExp> = {
      HTTP: /^(connection (timed out|refused|reset)|HTTP [45]\d\d |TLS handshake)/,
      Ping: /^(no reply|destination host unreachable)/,
      'DNS Query': /^(no answer|SERVFAIL|REFUSED)/,
      'TCP Port': /^connection (timed out|refused|reset)/,
      'SSH Port': /^(connection (timed out|refused|reset)|no SSH banner)/,
    };
    for (const [n, id] of ids.entries()) {
      const [type] = OTHERS[n] as [string, string];
      const errors = new Set((await data(emu, id, `?begin=${T0 + 86_400}`)).map((i) => i.error as string));
      expect(errors.size, type).toBeGreaterThanOrEqual(2);
      for (const e of errors) expect(e, type).toMatch(plausible[type] as RegExp);
    }
  });

  it('fill alert_matches with the alerts whose condition holds at a failed point; SMTP monitors leave it empty', async () => {
    await emu.control.simulation({ failure_rate: 0 });
    const [web] = await seedOthers(emu);
    const smtp = await smtpMonitor(emu);
    // Timeouts of 15 and 30 minutes, and none (the monitor's timer, 5 minutes, counts).
    const { alerts } = await emu.control.seed({
      alerts: [
        { monitor: web, type: 'up-down', subject_init: 'd', subject_term: 'u', timeout: 15 },
        { monitor: web, type: 'up-down', subject_init: 'd', subject_term: 'u', timeout: 30 },
        { monitor: web, type: 'up-down', subject_init: 'd', subject_term: 'u' },
        { monitor: smtp, type: 'up-down', subject_init: 'd', subject_term: 'u', timeout: 5 },
      ],
    });
    const [a15, a30, aTimer] = alerts as [string, string, string];
    await emu.control.advance(20 * 60);
    await emu.control.outage(web as string, 3600);
    await emu.control.outage(smtp, 3600);
    await emu.control.advance(40 * 60);
    // Created 40 minutes into the outage: it matches no earlier point.
    const late = (await emu.control.seed({ alerts: [{ monitor: web, type: 'up-down', subject_init: 'd', subject_term: 'u', timeout: 5 }] })).alerts[0] as string;
    await emu.control.advance(20 * 60);

    const items = (await call(emu, 'GET', `/v1/Data/Monitor/${web}/?begin=${T0}`)).json.data as (Item & { alert_matches: string[] })[];
    const ok = items.filter((i) => !i.failed);
    const failed = items.filter((i) => i.failed);
    expect(ok.map((i) => i.alert_matches)).toEqual(ok.map(() => []));
    expect(failed).toHaveLength(12);
    // The last reply arrived whole seconds after its test started (milliseconds, rounded up).
    const last = ok[ok.length - 1] as Item;
    const replied = last.utc_mktime + Math.ceil((last.value as number) / 1000);
    const lateAt = failed[8]!.utc_mktime - 1;
    for (const i of failed) {
      const since = i.utc_mktime - replied;
      const expected = [
        ...(since > 15 * 60 ? [a15] : []),
        ...(since > 30 * 60 ? [a30] : []),
        ...(since > 5 * 60 ? [aTimer] : []),
        ...(i.utc_mktime > lateAt && since > 5 * 60 ? [late] : []),
      ];
      expect([...i.alert_matches].sort(), String(i.utc_mktime)).toEqual(expected.sort());
    }
    // The 1st failed point matches nothing (its timer has not passed); from the 9th on, every alert matches.
    expect(failed.map((i) => i.alert_matches.length)).toEqual([0, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4, 4]);
    // Averages carry every alert matched in their bucket.
    const hours = (await call(emu, 'GET', `/v1/Data/Monitor/${web}/?begin=${T0}&average=hour`)).json.data as { alert_matches: string[] }[];
    expect(new Set(hours.flatMap((h) => h.alert_matches))).toEqual(new Set([a15, a30, aTimer, late]));

    const mail = (await call(emu, 'GET', `/v1/Data/Monitor/${smtp}/?begin=${T0}`)).json.data as { failed: boolean; alert_matches: string[] }[];
    expect(mail.filter((i) => i.failed).length).toBeGreaterThan(5);
    expect(mail.every((i) => i.alert_matches.length === 0)).toBe(true);
  });
});

describe('data averages and hop analysis', () => {
  it('hour and day averages are the means of the raw tests of each UTC bucket', async () => {
    await emu.control.simulation({ failure_rate: 0.1 });
    const id = await smtpMonitor(emu);
    await emu.control.advance(3 * 86_400);
    const begin = T0;
    const end = T0 + 3 * 86_400;
    const raw = await data(emu, id, `?begin=${begin}&end=${end}`);
    for (const [average, size] of [['hour', 3600], ['day', 86_400]] as const) {
      const avg = await data(emu, id, `?begin=${begin}&end=${end}&average=${average}`);
      const buckets = new Map<number, Item[]>();
      for (const i of raw) {
        const b = Math.floor(i.utc_mktime / size) * size;
        buckets.set(b, [...(buckets.get(b) ?? []), i]);
      }
      expect(avg.map((a) => a.utc_mktime)).toEqual([...buckets.keys()]);
      for (const a of avg) {
        const list = buckets.get(a.utc_mktime) as Item[];
        const values = list.map((i) => i.value).filter((v): v is number => v !== null);
        expect(a.samples).toBe(list.length);
        expect(a.failed).toBe(list.every((i) => i.failed));
        if (values.length) expect(a.value).toBeCloseTo(values.reduce((x, y) => x + y, 0) / values.length, 6);
        else expect(a.value).toBeNull();
      }
      expect(avg.reduce((n, a) => n + (a.samples as number), 0)).toBe(raw.length);
    }
  });

  it('one path of 2 to 4 hops per returned test message, whose durations add up to the round trip', async () => {
    await emu.control.simulation({ failure_rate: 0.2 });
    const id = await smtpMonitor(emu, { ip_address: 'mx:failover', test_account: 'probe@mail.example.net' });
    await emu.control.advance(86_400);
    const items = await data(emu, id, `?begin=${T0}&end=${T0 + 86_400}`);
    const r = await call(emu, 'GET', `/v1/Data/Monitor/Response/${id}/?begin=${T0}&end=${T0 + 86_400}`);
    expect(r.json).toMatchObject({ error: null, begin: T0, end: T0 + 86_400 });
    const analysis = r.json.analysis as { source: string; destination: string; time: number; duration: number }[][];
    const replied = items.filter((i) => i.value !== null);
    expect(analysis).toHaveLength(replied.length);
    expect(replied.length).toBeLessThan(items.length);
    const sizes = new Set<number>();
    analysis.forEach((hops, n) => {
      const item = replied[n] as Item;
      sizes.add(hops.length);
      expect(hops.length).toBeGreaterThanOrEqual(2);
      expect(hops.length).toBeLessThanOrEqual(4);
      expect(hops[0]).toMatchObject({ source: 'probe.mailive.example', time: item.utc_mktime });
      expect(hops[0]?.destination).toMatch(/^mx[12]\.mail\.example\.net$/);
      expect(hops[hops.length - 1]?.destination).toBe('inbound.mailive.example');
      for (let i = 1; i < hops.length; i++) {
        expect(hops[i]?.source).toBe(hops[i - 1]?.destination);
        expect(hops[i]?.time).toBe((hops[i - 1]?.time as number) + (hops[i - 1]?.duration as number));
      }
      for (const h of hops) expect(Number.isInteger(h.duration) && h.duration >= 0).toBe(true);
      const total = hops.reduce((s, h) => s + h.duration, 0);
      expect(total).toBe(Math.max(1, Math.round((item.value as number) / 1000)));
    });
    expect([...sizes].sort()).toEqual([2, 3, 4]);
  });

  it('data set through the control API replaces the simulated data of that monitor only', async () => {
    const a = await smtpMonitor(emu, { label: 'a' });
    const b = await smtpMonitor(emu, { label: 'b' });
    await emu.control.advance(3600);
    await emu.control.setData(a, [{ utc_mktime: T0 + 100, value: 1234 }]);
    expect((await data(emu, a, `?begin=${T0}`)).map((i) => i.value)).toEqual([1234]);
    expect(await data(emu, b, `?begin=${T0}`)).toHaveLength(12);
    expect((await call(emu, 'GET', `/v1/Data/Monitor/Response/${a}/?begin=${T0}`)).json.analysis).toEqual([]);
  });

  it('the all-monitor endpoint filters by meta and keeps the per-monitor shape', async () => {
    await smtpMonitor(emu, { label: 'eu', meta: { region: 'eu' } });
    await smtpMonitor(emu, { label: 'us', meta: { region: 'us' } });
    await emu.control.advance(3600);
    const r = await call(emu, 'GET', `/v1/Data/Monitor/?meta=region:eu&average=hour&begin=${T0}`);
    expect(r.json.monitors).toHaveLength(1);
    expect(r.json.monitors[0]).toMatchObject({ monitor_label: 'eu' });
    expect(r.json.monitors[0].data.reduce((n: number, d: Item) => n + (d.samples as number), 0)).toBe(12);
  });
});

describe('catch-up', () => {
  async function run(steps: number[]): Promise<unknown[]> {
    const e = await startTestEmulator({ seed: 'empty', simSeed: 'catch-up', failureRate: 0.2 });
    try {
      await e.control.setClock(T0);
      const d = await e.control.seed({ destinations: [{ label: 'x', destination: 'x@example.com', type: 'email', subscribed: true }] });
      const id = await smtpMonitor(e);
      await call(e, 'POST', '/v1/Config/Alert/', {
        type: 'up-down', monitor: id, subject_init: 'down', subject_term: 'up', timeout: 10, repeat: true, alert_destinations: d.destinations,
      });
      for (const s of steps) await e.control.advance(s);
      return (await e.control.outbox()).map(({ time, kind }) => ({ time, kind }));
    } finally {
      await e.close();
    }
  }

  it('gives the same messages whether the clock moves in one step or minute by minute', async () => {
    const oneStep = await run([2 * 86_400]);
    expect(oneStep.length).toBeGreaterThan(0);
    expect(await run(Array.from({ length: 48 }, () => 3600))).toEqual(oneStep);
    expect(await run([1, 59, 423, ...Array.from({ length: 287 }, () => 600), 117])).toEqual(oneStep);
  });

  it('keeps a week: older messages and data are dropped', async () => {
    await emu.control.simulation({ failure_rate: 1 });
    const d = await emu.control.seed({ destinations: [{ label: 'x', destination: 'x@example.com', type: 'email', subscribed: true }] });
    const id = await smtpMonitor(emu);
    await call(emu, 'POST', '/v1/Config/Alert/', {
      type: 'up-down', monitor: id, subject_init: 'down', subject_term: 'up', timeout: 10, repeat: true, alert_destinations: d.destinations,
    });
    for (let day = 0; day < 10; day++) await emu.control.advance(86_400);
    const now = (await emu.control.clock()).now;
    // Down messages at 10, 30, 70, ... 5110 and 10230 minutes after the trigger; the last two are
    // younger than a week (give or take the minute of the last check).
    const out = await emu.control.outbox();
    expect(out).toHaveLength(2);
    expect(out.every((m) => m.time >= now - 7 * 86_400 - 60)).toBe(true);
    expect(await data(emu, id, `?begin=${T0}&end=${now - 7 * 86_400 - 1}`)).toEqual([]);
    expect((await data(emu, id, `?begin=${now - 86_400 + 1}`)).length).toBe(288);
  });
});

describe('scale', () => {
  // How fast is a benchmark (issue 34): test/bench/in-process.bench.ts times this same work.
  it('a day of minute checks for 2,000 alerting monitors, and a day of filter counts', () => {
    const { active, rows } = dayOfChecks();
    expect(rows.reduce((n, r) => n + (r.test_count as number), 0)).toBe(2000 * 288);
    // The 200 outages ended hours ago; only the odd run of random failures (5%) alerts now.
    expect(active).toBeLessThan(40);
    expect(rows.slice(0, 200).every((r) => (r.alert_count as number) >= 1)).toBe(true);
  });
});
