/**
 * `monsync report`'s figures against an emulator holding a month of history with outages placed
 * where this test wants them (`POST /_emulator/history`). Every expected figure is computed here,
 * independently, from the raw data read over plain HTTP in one request per monitor, and alerts
 * from the emulator's outbox: never from the code under test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitoringClient } from '../../src/api/client.js';
import { DEFAULT_CREDENTIALS } from '../../src/emulator/index.js';
import { buildReport, resolvePeriod, type Report } from '../../src/ops/report.js';
import { apiCall, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

const DAY = 86_400;
/** 2026-11-10 00:00:30 UTC: the whole of October 2026 lies in the past, 30 s into a minute. */
const NOW = Date.UTC(2026, 10, 10, 0, 0, 30) / 1000;
const OCT = { from: Date.UTC(2026, 9, 1) / 1000, to: Date.UTC(2026, 10, 1) / 1000 };

let emu: TestEmulator;
let ids: { eu: string; us: string; ping: string };
let alertIds: { eu: string; us: string };
/** Placed outages: one across the month's start, one in the middle, one on the last evening. */
let placed: { monitor: string; start: number; end: number }[];

const client = () =>
  new MonitoringClient({ baseUrl: emu.url, username: DEFAULT_CREDENTIALS.v1.user, password: DEFAULT_CREDENTIALS.v1.password });

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
  await emu.control.setClock(NOW);
  await emu.control.simulation({ failure_rate: 0.02, seed: 'report-test' });
  const d = await emu.control.seed({ destinations: [{ label: 'ops', destination: 'ops@example.com', type: 'email', subscribed: true }] });
  const mon = async (label: string, _type = 'smtp', timer = 5) =>
    (await apiCall(emu, 'POST', '/v1/Config/Monitor/', {
      body: { type: 'smtp', label, timer, time_zone: 'UTC', ip_address: 'mx', test_account: 'probe@example.org' },
    })).json.monitor.id as string;
  // The API creates SMTP monitors only; a Ping monitor (milliseconds, timer 3) comes through the seed.
  const ping = (await emu.control.seed({ monitors: [{ type: 'Ping', label: 'ping-core', timer: 3, time_zone: 'UTC', ip_address: '192.0.2.1', meta: {} }] })).monitors[0]!;
  ids = { eu: await mon('mx-eu-1'), us: await mon('mx-us-1', 'smtp', 10), ping };
  const alert = async (monitor: string) =>
    (await apiCall(emu, 'POST', '/v1/Config/Alert/', {
      body: { type: 'up-down', monitor, subject_init: 'DOWN', subject_term: 'UP', timeout: 20, alert_destinations: d.destinations },
    })).json.alert.id as string;
  alertIds = { eu: await alert(ids.eu), us: await alert(ids.us) };
  await apiCall(emu, 'POST', '/v1/Config/Group/', { body: { name: 'europe', monitors: [ids.eu, ids.ping] } });
  await apiCall(emu, 'POST', '/v1/Config/Group/', { body: { name: 'all-mx', monitors: [ids.eu, ids.us] } });
  placed = [
    { monitor: ids.eu, start: OCT.from - 3 * 3600, end: OCT.from + 2 * 3600 },
    { monitor: ids.eu, start: OCT.from + 14 * DAY + 600, end: OCT.from + 14 * DAY + 600 + 95 * 60 },
    { monitor: ids.us, start: OCT.to - 3 * 3600, end: OCT.to + 3600 },
    // After the month: its alert is in Status/Filter's window up to now and must be taken off.
    { monitor: ids.eu, start: OCT.to + 4 * DAY, end: OCT.to + 4 * DAY + 7200 },
  ];
  await emu.control.history({ days: 45, outages: placed });
}, 60_000);
afterAll(() => emu.close());

interface Item {
  utc_mktime: number;
  failed: boolean;
  value: number | null;
}

/** The raw tests of October, read in one plain request (not through the report's windows). */
async function raw(id: string): Promise<Item[]> {
  const r = await apiCall(emu, 'GET', `/v1/Data/Monitor/${id}/?begin=${OCT.from}&end=${OCT.to - 1}&average=raw`);
  return (r.json.data as Item[]).filter((d) => d.utc_mktime >= OCT.from && d.utc_mktime < OCT.to);
}

/** Outages computed the plain way: scan for a failed test after a completed one (or the start); two or more in a row. */
function expectedOutages(items: Item[]): { start: number; end: number; tests: number }[] {
  const out: { start: number; end: number; tests: number }[] = [];
  for (let i = 0; i < items.length; i++) {
    if (!items[i]!.failed || (i > 0 && items[i - 1]!.failed)) continue;
    let j = i;
    while (j < items.length && items[j]!.failed) j++;
    if (j - i >= 2) out.push({ start: items[i]!.utc_mktime, end: j < items.length ? items[j]!.utc_mktime : OCT.to, tests: j - i });
  }
  return out;
}

function nearestRank(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.ceil((p / 100) * s.length) - 1]!;
}

async function downMessages(monitor: string): Promise<number> {
  const messages = await emu.control.outbox();
  return messages.filter((m) => m.monitor === monitor && m.kind === 'down' && m.time > OCT.from && m.time <= OCT.to).length;
}

let report: Report;

describe('buildReport over October 2026', () => {
  beforeAll(async () => {
    const api = client();
    try {
      const period = resolvePeriod({ month: '2026-10' }, NOW);
      report = await buildReport(api, { period, now: () => NOW });
    } finally {
      await api.close();
    }
  }, 60_000);

  it('counts tests, failures and availability per monitor as the raw data gives them', async () => {
    for (const m of report.monitors) {
      const items = await raw(m.id);
      const failed = items.filter((i) => i.failed).length;
      expect(m.figures.tests).toBe(items.length);
      expect(m.figures.failed).toBe(failed);
      expect(m.figures.availability).toBeCloseTo(((items.length - failed) / items.length) * 100, 10);
    }
    // Sanity of the seeded month itself: a test every timer minutes over 31 days.
    const eu = report.monitors.find((m) => m.id === ids.eu)!;
    expect(eu.figures.tests).toBe((31 * DAY) / 300);
  });

  it('finds every outage (start, end, length in tests), the placed ones among them, and the longest', async () => {
    let lone = 0;
    for (const m of report.monitors) {
      const items = await raw(m.id);
      lone += items.filter((d, i) => d.failed && !items[i - 1]?.failed && !items[i + 1]?.failed).length;
      const expected = expectedOutages(items);
      expect(m.outages.map((o) => ({ start: o.start, end: o.end, tests: o.tests }))).toEqual(expected);
      expect(m.figures.longestOutageSeconds).toBe(expected.length ? Math.max(...expected.map((o) => o.end - o.start)) : null);
    }
    // The random failures (2%) leave lone failed tests: counted as failures, not as outages.
    expect(lone).toBeGreaterThan(0);
    const eu = report.monitors.find((m) => m.id === ids.eu)!;
    // The outage running when the month began starts with the month's first test.
    expect(eu.outages[0]).toMatchObject({ start: (await raw(ids.eu))[0]!.utc_mktime, ongoing: false });
    expect(eu.outages[0]!.end).toBeGreaterThan(placed[0]!.end);
    const mid = placed[1]!;
    // Tests in (start, end] fail: the first at the next 5-minute slot after start.
    expect(eu.outages.some((o) => o.start > mid.start && o.start <= mid.start + 300 && o.tests >= 19)).toBe(true);
    const us = report.monitors.find((m) => m.id === ids.us)!;
    expect(us.outages.at(-1)).toMatchObject({ ongoing: true, end: OCT.to });
  });

  it('gives the response time median and 95th percentile of the completed tests', async () => {
    for (const m of report.monitors) {
      const values = (await raw(m.id)).filter((i) => !i.failed && i.value !== null).map((i) => Math.round(i.value!));
      expect([m.figures.medianMs, m.figures.p95Ms]).toEqual([nearestRank(values, 50), nearestRank(values, 95)]);
    }
  });

  it('counts the alerts triggered within the month, as the outbox recorded them', async () => {
    const eu = report.monitors.find((m) => m.id === ids.eu)!;
    const us = report.monitors.find((m) => m.id === ids.us)!;
    expect(eu.figures.alerts).toBe(await downMessages(ids.eu));
    expect(us.figures.alerts).toBe(await downMessages(ids.us));
    // The placed outages are long enough (> 20 min) to trigger: at least one each.
    expect(eu.figures.alerts).toBeGreaterThanOrEqual(1);
    // The outbox holds the alerts before and after October too: the counts above are October's only.
    const all = (await emu.control.outbox()).filter((m) => m.monitor === ids.eu && m.kind === 'down').length;
    expect(all).toBeGreaterThan(eu.figures.alerts!);
    expect(report.monitors.find((m) => m.id === ids.ping)!.figures.alerts).toBe(0);
    expect(alertIds.eu).not.toBe(alertIds.us);
  });

  it('adds up tests for groups and the account, never averages of availabilities', async () => {
    const byId = new Map<string, Item[]>();
    for (const id of Object.values(ids)) byId.set(id, await raw(id));
    const sum = (list: string[]) => {
      const items = list.flatMap((id) => byId.get(id)!);
      const failed = items.filter((i) => i.failed).length;
      return { tests: items.length, failed, availability: ((items.length - failed) / items.length) * 100 };
    };
    const check = (f: { tests: number; failed: number; availability: number | null }, e: ReturnType<typeof sum>) => {
      expect(f.tests).toBe(e.tests);
      expect(f.failed).toBe(e.failed);
      expect(f.availability).toBeCloseTo(e.availability, 10);
    };
    check(report.account.figures, sum(Object.values(ids)));
    check(report.groups.find((g) => g.name === 'europe')!.figures, sum([ids.eu, ids.ping]));
    check(report.groups.find((g) => g.name === 'all-mx')!.figures, sum([ids.eu, ids.us]));
    const pooled = Object.values(ids).flatMap((id) => byId.get(id)!.filter((i) => !i.failed).map((i) => Math.round(i.value!)));
    expect(report.account.figures.medianMs).toBe(nearestRank(pooled, 50));
    expect(report.account.figures.days).toHaveLength(31);
    // Daily response times for the account (its chart), not per group (memory: report-stats.ts Tally).
    expect(report.account.figures.days.every((d) => d.medianMs !== null)).toBe(true);
    expect(report.groups.every((g) => g.figures.days.every((d) => d.medianMs === null && d.tests > 0))).toBe(true);
  });

  it('states its accounting method and reads only the selected monitors with --monitor and --group', async () => {
    expect(report.accounting.join(' ')).toMatch(/consecutive failed tests/);
    const api = client();
    try {
      const period = resolvePeriod({ month: '2026-10' }, NOW);
      const some = await buildReport(api, { period, now: () => NOW, groups: ['europe'], monitors: ['mx-us-1'] });
      expect(some.monitors.map((m) => m.label)).toEqual(['mx-eu-1', 'mx-us-1', 'ping-core']);
      const one = await buildReport(api, { period, now: () => NOW, monitors: ['mx-us-1'] });
      expect(one.monitors.map((m) => m.label)).toEqual(['mx-us-1']);
      expect(one.groups.map((g) => [g.name, g.monitors])).toEqual([['all-mx', 1]]);
      await expect(buildReport(api, { period, now: () => NOW, groups: ['europa'] })).rejects.toThrow(/no group named "europa"; did you mean "europe"/);
      await expect(buildReport(api, { period, now: () => NOW, monitors: ['mx-eu1'] })).rejects.toThrow(/^--monitor: no monitor labelled "mx-eu1"; did you mean "mx-eu-1"/);
    } finally {
      await api.close();
    }
  });
});

describe('resolvePeriod', () => {
  it('a month is its UTC days; the current month ends now; since/until take durations and dates', () => {
    expect(resolvePeriod({ month: '2026-10' }, NOW)).toEqual({ ...OCT, label: '2026-10' });
    expect(resolvePeriod({ month: '2026-11' }, NOW)).toEqual({ from: Date.UTC(2026, 10, 1) / 1000, to: NOW, label: '2026-11 (to date)' });
    expect(resolvePeriod({ since: '7d' }, NOW)).toMatchObject({ from: NOW - 7 * DAY, to: NOW });
    expect(resolvePeriod({ since: '2026-10-05', until: '2026-10-06' }, NOW)).toMatchObject({ from: OCT.from + 4 * DAY, to: OCT.from + 5 * DAY });
  });

  it('refuses a malformed month, a month with --since, and an empty period, naming the flag', () => {
    expect(() => resolvePeriod({ month: '2026-13' }, NOW)).toThrow(/--month: "2026-13" is not a month/);
    expect(() => resolvePeriod({ month: '2026-10', since: '3d' }, NOW)).toThrow(/--month is a whole month/);
    expect(() => resolvePeriod({ since: '2026-12-01' }, NOW)).toThrow(/--since must be before --until/);
    expect(() => resolvePeriod({ until: 'yesterday' }, NOW)).toThrow(/--until: "yesterday" is not a date/);
  });
});
