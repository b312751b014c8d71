/**
 * Data read by the same boundary rules everywhere (src/ops/data-rules.ts): repeated data items
 * counted once, values outside the documented domain and items outside the period asked for left
 * out of every figure and said in a note, in `report`, `data`, `status` and `apply --verify`.
 * The service's repeats come from the emulator's `repeat_data` fault; the values no test can have
 * from data stored through its control API; times outside the period from a client that adds
 * them to each answer (the emulator keeps to the period it is asked for).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MonitoringClient } from '../../src/api/client.js';
import type { DataQuery, MonitorData, MonitoringApi } from '../../src/api/types.js';
import { runData } from '../../src/cli/data-run.js';
import { runStatus } from '../../src/cli/status-run.js';
import { DEFAULT_CREDENTIALS } from '../../src/emulator/index.js';
import { verifyRoundTrips } from '../../src/mailpath/verify.js';
import { admitData, leftOutNote, noneLeftOut, MAX_ROUND_TRIP_MS } from '../../src/api/data-rules.js';
import { buildReport, resolvePeriod, type Report } from '../../src/ops/report.js';
import { runReport } from '../../src/cli/report-run.js';
import { normalizeDataItem } from '../../src/api/normalize.js';
import { apiCall, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { startLyingProxy } from '../helpers/lying-proxy.js';
import { captureIo } from '../helpers/io.js';
import { v1Env } from './helpers.js';

const DAY = 86_400;
const NOW = Date.UTC(2026, 10, 10, 0, 0, 30) / 1000;
/** Two whole days: 576 tests of a 5-minute monitor. */
const TWO_DAYS = { since: '2026-11-01', until: '2026-11-03' };

let emu: TestEmulator;
let mx: string;
let odd: string;

const client = () => new MonitoringClient({ baseUrl: emu.url, username: DEFAULT_CREDENTIALS.v1.user, password: DEFAULT_CREDENTIALS.v1.password });

async function report(api: MonitoringApi, monitors: string[]): Promise<Report> {
  return buildReport(api, { period: resolvePeriod(TWO_DAYS, NOW), now: () => NOW, monitors });
}

async function withClient<T>(run: (api: MonitoringClient) => Promise<T>): Promise<T> {
  const api = client();
  try {
    return await run(api);
  } finally {
    await api.close();
  }
}

/** The figures without the notes: what must not change when the service repeats itself. */
const figuresOf = (r: Report) => ({ account: r.account, groups: r.groups, monitors: r.monitors });

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
  await emu.control.setClock(NOW);
  // Enough random failures that lone failed tests exist: repeated, each would look like an outage.
  await emu.control.simulation({ failure_rate: 0.05, seed: 'data-boundary' });
  const mon = async (label: string) =>
    (await apiCall(emu, 'POST', '/v1/Config/Monitor/', { body: { type: 'smtp', label, timer: 5, time_zone: 'UTC', ip_address: 'mx', test_account: 'p@example.org' } })).json
      .monitor.id as string;
  mx = await mon('mx-eu-1');
  odd = await mon('mx-odd');
  await emu.control.history({ days: 12 });
  const from = Date.UTC(2026, 10, 1) / 1000;
  await emu.control.setData(odd, [
    { utc_mktime: from + 300, value: 1200, failed: false },
    { utc_mktime: from + 600, value: 1e308, failed: false },
    { utc_mktime: from + 900, value: -5000, failed: false },
    { utc_mktime: from + 1200, value: 1400, failed: false },
    { utc_mktime: from + 1500, value: 1600, failed: false },
  ]);
}, 60_000);
afterAll(() => emu.close());
beforeEach(() => emu.control.clearFaults());

describe('report', () => {
  it('counts a repeated data item once: the same tests, failures and outages as without repeats, and a note', async () => {
    const plain = await withClient((api) => report(api, ['mx-eu-1']));
    expect(plain.account.figures.tests).toBe(576);
    expect(plain.monitors[0]!.figures.failed).toBeGreaterThan(0);
    await emu.control.faults({ repeat_data: 2 });
    const repeated = await withClient((api) => report(api, ['mx-eu-1']));
    expect(repeated.account.figures.tests).toBe(576);
    expect(figuresOf(repeated)).toEqual(figuresOf(plain));
    expect(repeated.notes).toContain('Left out of every figure: 576 repeated data items (each test counted once).');
    expect(plain.notes.some((n) => n.startsWith('Left out'))).toBe(false);
  });

  it('leaves values no test can have (1e308 ms, -5,000 ms) out of every figure, and says how many', async () => {
    const r = await withClient((api) => report(api, ['mx-odd']));
    expect(r.monitors[0]!.figures).toMatchObject({ tests: 3, failed: 0, medianMs: 1400, p95Ms: 1600 });
    expect(r.account.figures.p95Ms).toBe(1600);
    expect(r.notes).toContain('Left out of every figure: 2 data items outside the documented domain (a time in whole seconds; a round trip of 0 ms to 1 day).');
  });

  it('leaves out items the service sends from outside the period asked for', async () => {
    const plain = await withClient((api) => report(api, ['mx-eu-1']));
    const stray = await withClient((api) => report(withStrayItems(api), ['mx-eu-1']));
    expect(figuresOf(stray)).toEqual(figuresOf(plain));
    expect(stray.notes.find((n) => n.startsWith('Left out'))).toMatch(/^Left out of every figure: \d+ data items outside the period asked for\.$/);
  });
});

/** A client whose every data answer also holds a test from an hour before `begin` and one a day after `end`. */
function withStrayItems(api: MonitoringClient): MonitoringApi {
  const wrapped = Object.create(api) as MonitoringClient;
  wrapped.getMonitorData = async (id: string, q: DataQuery): Promise<MonitorData> => {
    const data = await api.getMonitorData(id, q);
    const item = (t: number) => ({ value: 1e5, failed: true, error: 'stray', samples: null, alert_matches: [], time: '', utc_time: '', utc_mktime: t });
    return { ...data, data: [item(data.begin - 3600), ...data.data, item(data.end + DAY)] };
  };
  return wrapped;
}

describe('data', () => {
  it('charts a repeated data item once and says how many repeats were left out', async () => {
    const io = () => captureIo(v1Env(emu.url), { now: () => NOW * 1000 });
    const plain = io();
    expect(await runData('mx-eu-1', { since: '6h', average: 'raw' }, plain)).toBe(0);
    await emu.control.faults({ repeat_data: 3 });
    const repeated = io();
    expect(await runData('mx-eu-1', { since: '6h', average: 'raw' }, repeated)).toBe(0);
    const points = Number(/\(raw tests, (\d+) points\)/.exec(plain.stdout)![1]);
    expect(points).toBeGreaterThanOrEqual(71);
    expect(repeated.stdout).toBe(plain.stdout.replace(/\n$/, `\nLeft out of every figure: ${2 * points} repeated data items (each test counted once).\n`));
    const json = captureIo(v1Env(emu.url), { now: () => NOW * 1000 });
    await runData('mx-eu-1', { since: '6h', average: 'raw', json: true }, json);
    const body = JSON.parse(json.stdout);
    expect(body.data).toHaveLength(points);
    expect(body.left_out).toEqual({ repeated: 2 * points, out_of_domain: 0, outside_period: 0, contradicting: 0 });
  });

  it('leaves values no test can have out of the chart and its summary', async () => {
    const o = captureIo(v1Env(emu.url), { now: () => NOW * 1000 });
    expect(await runData('mx-odd', { since: '10d', average: 'raw' }, o)).toBe(0);
    expect(o.stdout).toContain('(raw tests, 3 points)');
    expect(o.stdout).toContain('min 1.20 s · avg 1.40 s · max 1.60 s · failures 0 of 3');
    expect(o.stdout).toContain('Left out of every figure: 2 data items outside the documented domain');
  });
});

describe('status', () => {
  it('dates an outage from its first failed test even when a value no test can have sits in it, with a note', async () => {
    const { now } = await emu.control.clock();
    const t = now - 3600;
    await emu.control.setData(mx, [
      { utc_mktime: t, value: 900, failed: false },
      { utc_mktime: t + 300, value: null, failed: true, error: 'no response' },
      { utc_mktime: t + 600, value: -5000, failed: false },
      { utc_mktime: t + 900, value: null, failed: true, error: 'no response' },
    ]);
    await emu.control.setAlertActive(mx, true);
    try {
      const io = captureIo(v1Env(emu.url), { now: () => now * 1000 });
      expect(await runStatus({}, io)).toBe(3);
      const since = new Date((t + 300) * 1000).toISOString().slice(0, 16).replace('T', ' ');
      expect(io.stdout).toContain(`since ${since} UTC`);
      expect(io.stdout).toContain('Left out of every figure: 1 data item outside the documented domain');
    } finally {
      await emu.control.setAlertActive(mx, false);
    }
  });
});

describe('apply --verify', () => {
  it('does not report a round trip no test can have: it waits for the next test', async () => {
    const { now } = await emu.control.clock();
    const target = { id: odd, label: 'mx-odd', timer: 5, ttl: null };
    await emu.control.setData(odd, [
      { utc_mktime: now + 60, value: 1e308, failed: false },
      { utc_mktime: now + 360, value: 4000, failed: false },
    ]);
    const [r] = await verifyRoundTrips(client(), [target], { sleep: async () => void (await emu.control.advance(60)), pollMs: 1 });
    expect(r).toMatchObject({ status: 'completed', seconds: 4, testStarted: now + 360 });
    expect(r!.leftOut).toMatchObject({ outOfDomain: 1 });
  });
});

describe('the rules', () => {
  it('keep one item per start time, the settled copy over one in flight, and count the rest', () => {
    const item = (t: number, value: number | null, failed = false) => ({ utc_mktime: t, value, failed });
    const leftOut = noneLeftOut();
    const kept = admitData([item(20, null), item(10, 5), item(20, 7), item(10, 5), item(5, Number.NaN), item(30, Infinity), item(40, MAX_ROUND_TRIP_MS + 1), item(99, 1)], { from: 0, to: 50 }, leftOut);
    expect(kept).toEqual([item(10, 5), item(20, 7)]);
    expect(leftOut).toEqual({ repeated: 2, outOfDomain: 3, outsidePeriod: 1, contradicting: 0 });
    expect(leftOutNote(noneLeftOut())).toBeNull();
    expect(admitData([{ utc_mktime: 1.5, value: 1, failed: false }], { from: 0, to: 9 }, noneLeftOut())).toEqual([]);
  });

  it('leave every copy of a test out when its settled copies disagree, count them as contradicting, and keep agreeing copies once', () => {
    const item = (t: number, value: number | null, failed = false) => ({ utc_mktime: t, value, failed });
    const leftOut = noneLeftOut();
    const kept = admitData([item(10, null, true), item(10, 1300), item(10, null), item(20, 5), item(20, 6), item(30, 7), item(30, 7), item(30, null)], { from: 0, to: 50 }, leftOut);
    expect(kept).toEqual([item(30, 7)]);
    expect(leftOut).toEqual({ repeated: 2, outOfDomain: 0, outsidePeriod: 0, contradicting: 5 });
    expect(leftOutNote(leftOut)).toBe(
      'Left out of every figure: 2 repeated data items (each test counted once). Contradicting: 5 data items left out of every figure: copies of one test that disagree on its result (failed and passed, or two round trips), none of them believed.',
    );
  });
});

describe('values that are not JSON numbers, and repeats that disagree (issue 45)', () => {
  const first = Date.UTC(2026, 10, 1) / 1000;
  /** The data answers of mx-odd with a string, a "NaN", a null start and two disagreeing copies of one test added. */
  const lying = () =>
    startLyingProxy(emu.url, [
      {
        path: new RegExp(`^/v1/Data/Monitor/${odd}/?$`),
        rewrite: (body) => {
          const items = body['data'] as Record<string, unknown>[];
          // Only into the answer whose period holds them (report reads a month in pieces).
          if (!((body['begin'] as number) <= first + 2000 && first + 2700 <= (body['end'] as number))) return body;
          const like = (over: Record<string, unknown>) => ({ value: 1, failed: false, error: null, samples: null, alert_matches: [], time: '2026-11-01T00:40:00', utc_time: '2026-11-01T00:40:00', ...over });
          return {
            ...body,
            data: [
              ...items,
              like({ utc_mktime: first + 2000, value: 'NaN' }),
              like({ utc_mktime: first + 2100, value: '4000' }),
              like({ utc_mktime: null, value: 900 }),
              // A lying first copy: failed; the second says the same test passed in 1.3 s.
              like({ utc_mktime: first + 2400, value: null, failed: true, error: 'no response' }),
              like({ utc_mktime: first + 2400, value: 1300, failed: false, error: null }),
              // Agreeing copies: one test.
              like({ utc_mktime: first + 2700, value: 1500, failed: false }),
              like({ utc_mktime: first + 2700, value: 1500, failed: false }),
            ],
          };
        },
      },
    ]);

  it('data exits 0, leaves a string, "NaN" and a null start out as outside the documented domain, and the contradicting copies out in their own note', async () => {
    const proxy = await lying();
    try {
      const plainJson = captureIo(v1Env(emu.url), { now: () => NOW * 1000 });
      expect(await runData('mx-odd', { since: '10d', average: 'raw', json: true }, plainJson)).toBe(0);
      const plain = JSON.parse(plainJson.stdout);
      const o = captureIo(v1Env(proxy.url), { now: () => NOW * 1000 });
      expect(await runData('mx-odd', { since: '10d', average: 'raw' }, o), o.stderr).toBe(0);
      // What the service stored, and the agreeing copies' 1500 once.
      expect(o.stdout).toContain(`(raw tests, ${plain.data.length + 1} points)`);
      expect(o.stdout).toContain(`Left out of every figure: 1 repeated data item (each test counted once); ${plain.left_out.out_of_domain + 3} data items outside the documented domain`);
      expect(o.stdout).toContain('Contradicting: 2 data items left out of every figure: copies of one test that disagree on its result (failed and passed, or two round trips), none of them believed.');
      const json = captureIo(v1Env(proxy.url), { now: () => NOW * 1000 });
      expect(await runData('mx-odd', { since: '10d', average: 'raw', json: true }, json)).toBe(0);
      const body = JSON.parse(json.stdout);
      expect(body.left_out).toEqual({ repeated: 1, out_of_domain: plain.left_out.out_of_domain + 3, outside_period: 0, contradicting: 2 });
      expect(body.data).toHaveLength(plain.data.length + 1);
    } finally {
      await proxy.close();
    }
  });

  it('report exits 0 and counts neither the lying failed copy nor its contradiction, saying both in notes', async () => {
    const proxy = await lying();
    try {
      const r = await withClientAt(proxy.url, (api) => report(api, ['mx-odd']));
      expect(r.monitors[0]!.figures).toMatchObject({ tests: 4, failed: 0 });
      expect(r.notes).toContain('Left out of every figure: 1 repeated data item (each test counted once); 5 data items outside the documented domain (a time in whole seconds; a round trip of 0 ms to 1 day).');
      expect(r.notes).toContain('Contradicting: 2 data items left out of every figure: copies of one test that disagree on its result (failed and passed, or two round trips), none of them believed.');
      const c = captureIo(v1Env(proxy.url), { now: () => NOW * 1000 });
      expect(await runReport({ since: '30d', monitor: ['mx-odd'], format: 'text', parallelism: '4' }, c), c.stderr).toBe(0);
    } finally {
      await proxy.close();
    }
  });

  it('normalizes a data item whose number fields are not JSON numbers instead of refusing the answer', () => {
    const base = { value: 1, failed: false, error: null, samples: null, alert_matches: [], time: 't', utc_time: 'u', utc_mktime: 10 };
    for (const [field, v] of [['value', 'NaN'], ['value', '4000'], ['value', {}], ['samples', '3'], ['utc_mktime', null], ['utc_mktime', '10']] as const) {
      const item = normalizeDataItem({ ...base, [field]: v });
      const leftOut = noneLeftOut();
      expect([field, v, admitData([item], { from: 0, to: 100 }, leftOut)]).toEqual([field, v, []]);
      expect(leftOut.outOfDomain).toBe(1);
    }
  });
});

async function withClientAt<T>(url: string, run: (api: MonitoringClient) => Promise<T>): Promise<T> {
  const api = new MonitoringClient({ baseUrl: url, username: DEFAULT_CREDENTIALS.v1.user, password: DEFAULT_CREDENTIALS.v1.password });
  try {
    return await run(api);
  } finally {
    await api.close();
  }
}
