/**
 * `POST /_emulator/history`: a month (or more) of history to report on, with outages placed where
 * a test wants them. Raw data, Status/Filter and the alerts all follow the seeded past.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

/** 30 s into a minute: real time running during a test never crosses a minute check. */
const T0 = 1_790_000_010;
const DAY = 86_400;

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
});
afterAll(() => emu.close());

async function oneMonitor(timeout = 15): Promise<{ monitor: string; alert: string }> {
  await emu.control.reset('empty');
  await emu.control.setClock(T0);
  await emu.control.simulation({ failure_rate: 0 });
  const d = await emu.control.seed({ destinations: [{ label: 'ops', destination: 'ops@example.com', type: 'email', subscribed: true }] });
  const m = await apiCall(emu, 'POST', '/v1/Config/Monitor/', {
    body: { type: 'smtp', label: 'mx-1', timer: 5, time_zone: 'UTC', ip_address: 'mx', test_account: 'probe@example.org' },
  });
  if (m.status !== 200) throw new Error(JSON.stringify(m.json));
  const monitor = m.json.monitor.id as string;
  const a = await apiCall(emu, 'POST', '/v1/Config/Alert/', {
    body: { type: 'up-down', monitor, subject_init: 'DOWN', subject_term: 'UP', timeout, alert_destinations: d.destinations },
  });
  return { monitor, alert: a.json.alert.id as string };
}

describe('POST /_emulator/history', () => {
  it('gives every monitor a month of raw data, a test every timer minutes from 30 days ago', async () => {
    const { monitor } = await oneMonitor();
    const h = await emu.control.history({ days: 30 });
    expect(h.from).toBe(T0 - 30 * DAY);
    expect(h.retention_seconds).toBe(30 * DAY);
    const r = await apiCall(emu, 'GET', `/v1/Data/Monitor/${monitor}/?begin=${T0 - 30 * DAY}&end=${T0}`);
    const data = r.json.data as { utc_mktime: number; failed: boolean }[];
    // First test one timer after the (backdated) creation, then every 5 minutes up to now.
    expect(data[0]?.utc_mktime).toBe(T0 - 30 * DAY + 300);
    expect(data).toHaveLength(Math.floor((30 * DAY) / 300));
    expect(data.every((d) => !d.failed)).toBe(true);
  });

  it('fails exactly the tests starting inside a placed outage, and Status/Filter counts them over the month', async () => {
    const { monitor } = await oneMonitor();
    const start = T0 - 20 * DAY;
    await emu.control.history({ days: 30, outages: [{ monitor, start, end: start + 3600 }] });
    const r = await apiCall(emu, 'GET', `/v1/Data/Monitor/${monitor}/?begin=${T0 - 30 * DAY}&end=${T0}`);
    const failed = (r.json.data as { utc_mktime: number; failed: boolean }[]).filter((d) => d.failed).map((d) => d.utc_mktime);
    const expected: number[] = [];
    for (let t = T0 - 30 * DAY + 300; t <= T0; t += 300) if (t > start && t <= start + 3600) expected.push(t);
    expect(failed).toEqual(expected);
    const f = await apiCall(emu, 'GET', `/v1/Status/Filter/?prefix=mx&t=${30 * DAY}`);
    const entry = (f.json.monitor_list as Record<string, unknown>[])[0];
    expect(entry).toMatchObject({ test_count: 8640, fail_count: expected.length, alert_count: 1 });
  });

  it('replays the alerts over the seeded past: one down and one up message for the outage', async () => {
    const { monitor, alert } = await oneMonitor(15);
    const start = T0 - 10 * DAY;
    await emu.control.history({ days: 30, outages: [{ monitor, start, end: start + 3600 }] });
    const messages = await emu.control.outbox();
    expect(messages.map((m) => [m.kind, m.alert])).toEqual([
      ['down', alert],
      ['up', alert],
    ]);
    expect(messages[0]!.time).toBeGreaterThan(start);
    expect(messages[1]!.time).toBeGreaterThan(start + 3600);
  });

  it('refuses days out of range and outages naming no monitor, with a message naming the field', async () => {
    await oneMonitor();
    const bad = async (body: unknown) => {
      const r = await fetch(`${emu.url}/_emulator/history`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: r.status, error: ((await r.json()) as { error: string }).error };
    };
    expect(await bad({ days: 0 })).toEqual({ status: 400, error: expect.stringContaining('days must be a whole number from 1 to 400') });
    expect(await bad({ days: 30, outages: [{ monitor: '999', start: 1, end: 2 }] })).toEqual({
      status: 400,
      error: expect.stringContaining('outages[0].monitor 999 is not a monitor id'),
    });
    expect(await bad({ days: 30, what: 1 })).toEqual({ status: 400, error: expect.stringContaining('unknown key what') });
  });
});
