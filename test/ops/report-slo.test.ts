/**
 * `monsync report` against service-level objectives (issue 46), on an emulator holding weeks of
 * history with outages placed (`POST /_emulator/history`, clock moved): each budget equal to what
 * the raw data read over plain HTTP says (bad = failed, or completed slower than the bound), a
 * group's over its members' tests by its own objective, the day the budget ran out, and the note
 * of a period shorter than the window; then `report PATH` reading the objectives from a configuration.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitoringClient } from '../../src/api/client.js';
import { DEFAULT_CREDENTIALS } from '../../src/emulator/index.js';
import { buildReport, type Report } from '../../src/ops/report.js';
import type { ServiceLevel } from '../../src/model/fields.js';
import { commandContext } from '../../src/workflow/context.js';
import { reportFlow } from '../../src/workflow/report.js';
import { apiCall, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { captureIo } from '../helpers/io.js';
import { v1Env } from './helpers.js';

const DAY = 86_400;
const NOW = Date.UTC(2026, 10, 10, 0, 0, 30) / 1000;
/** A week of November: shorter than a 30-day window. */
const WEEK = { from: Date.UTC(2026, 10, 1) / 1000, to: Date.UTC(2026, 10, 8) / 1000, label: '2026-11-01 to 2026-11-08' };

let emu: TestEmulator;
let ids: { a: string; b: string };
let report: Report;
const A: ServiceLevel = { objective: 0.999, window_seconds: 30 * DAY, round_trip_seconds: 20 };
const B: ServiceLevel = { objective: 0.99, window_seconds: 7 * DAY };
const GROUP: ServiceLevel = { objective: 0.995, window_seconds: 7 * DAY, round_trip_seconds: 40 };

const client = () => new MonitoringClient({ baseUrl: emu.url, username: DEFAULT_CREDENTIALS.v1.user, password: DEFAULT_CREDENTIALS.v1.password });

interface Item {
  utc_mktime: number;
  failed: boolean;
  value: number | null;
}

async function raw(id: string): Promise<Item[]> {
  const r = await apiCall(emu, 'GET', `/v1/Data/Monitor/${id}/?begin=${WEEK.from}&end=${WEEK.to - 1}&average=raw`);
  return (r.json.data as Item[]).filter((d) => d.utc_mktime >= WEEK.from && d.utc_mktime < WEEK.to);
}

const isBad = (d: Item, bound?: number) => d.failed || (bound !== undefined && d.value !== null && d.value > bound * 1000);

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
  await emu.control.setClock(NOW);
  await emu.control.simulation({ failure_rate: 0, seed: 'report-slo' });
  const mon = async (label: string) =>
    (await apiCall(emu, 'POST', '/v1/Config/Monitor/', { body: { type: 'smtp', label, timer: 5, time_zone: 'UTC', ip_address: 'mx', test_account: 'probe@example.org' } })).json.monitor.id as string;
  ids = { a: await mon('mx-a'), b: await mon('mx-b') };
  await apiCall(emu, 'POST', '/v1/Config/Group/', { body: { name: 'inbound', monitors: [ids.a, ids.b] } });
  // mx-b: three hours down on 3 November (36 tests of 2,016: 1.8% > its 1%); mx-a: twenty minutes on the 5th.
  await emu.control.history({
    days: 20,
    outages: [
      { monitor: ids.b, start: WEEK.from + 2 * DAY + 3600, end: WEEK.from + 2 * DAY + 4 * 3600 },
      { monitor: ids.a, start: WEEK.from + 4 * DAY, end: WEEK.from + 4 * DAY + 1200 },
    ],
  });
  const api = client();
  try {
    report = await buildReport(api, { period: WEEK, now: () => NOW, objectives: { monitors: new Map([['mx-a', A], ['mx-b', B]]), groups: new Map([['inbound', GROUP]]) } });
  } finally {
    await api.close();
  }
}, 60_000);
afterAll(() => emu.close());

describe('error budgets', () => {
  it('count as bad the failed tests and, with a bound, the slower ones, as the raw data says', async () => {
    const items = await raw(ids.a);
    const b = report.monitors.find((m) => m.label === 'mx-a')!.budget!;
    const bad = items.filter((d) => isBad(d, 20)).length;
    const slow = items.filter((d) => !d.failed && d.value !== null && d.value > 20_000).length;
    expect(slow).toBeGreaterThan(0);
    expect(b).toMatchObject({ tests: items.length, bad, slow, objective: 0.999, windowSeconds: 30 * DAY, roundTripSeconds: 20 });
    expect(b.attainment).toBeCloseTo(((items.length - bad) / items.length) * 100, 9);
    expect(b.allowedTests).toBeCloseTo(0.001 * items.length, 9);
    expect(b.leftTests).toBeCloseTo(0.001 * items.length - bad, 9);
    expect(b.allowedSeconds).toBeCloseTo(0.001 * 7 * DAY, 6);
    expect(b.spentSeconds).toBeCloseTo((bad / items.length) * 7 * DAY, 6);
    expect(b.shorterThanWindow).toBe(true);
  });

  it('spend a budget in an outage, on the day it happened, and say the objective was missed', async () => {
    const items = await raw(ids.b);
    const b = report.monitors.find((m) => m.label === 'mx-b')!.budget!;
    const failed = items.filter((d) => d.failed).length;
    expect(failed).toBe(36);
    expect(b).toMatchObject({ tests: items.length, bad: failed, slow: 0, met: false, goneOn: WEEK.from + 2 * DAY, shorterThanWindow: false });
    expect(b.leftPercent!).toBeCloseTo(((0.01 * items.length - failed) / (0.01 * items.length)) * 100, 9);
    expect(b.leftPercent!).toBeLessThan(0);
  });

  it("judge a group by its own objective and bound over all its members' tests", async () => {
    const items = [...(await raw(ids.a)), ...(await raw(ids.b))];
    const g = report.groups.find((x) => x.name === 'inbound')!.budget!;
    expect(g).toMatchObject({ tests: items.length, bad: items.filter((d) => isBad(d, 40)).length, objective: 0.995, roundTripSeconds: 40 });
  });

  it('say when the period is shorter than an objective window', () => {
    expect(report.notes).toContain('The period (7d) is shorter than the window of an objective (30d): each budget is the period\'s own, (1 − objective) × the period, not the window\'s.');
  });

  it('gives no budget without objectives, and leaves every other figure as it was', async () => {
    const api = client();
    try {
      const plain = await buildReport(api, { period: WEEK, now: () => NOW });
      expect(plain.monitors.some((m) => 'budget' in m) || plain.groups.some((g) => 'budget' in g)).toBe(false);
      expect(plain.monitors.map((m) => m.figures)).toEqual(report.monitors.map((m) => m.figures));
      expect(plain.notes.some((n) => n.includes('shorter than the window'))).toBe(false);
    } finally {
      await api.close();
    }
  });

  it('reads the objectives from the configuration given as PATH', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'monsync-report-slo-'));
    try {
      await writeFile(
        join(dir, 'monsync.yaml'),
        `version: 1
defaults:
  monitor:
    timer: 5
    time_zone: UTC
monitors:
  - label: mx-b
    ip_address: mx
    test_account: probe@example.org
    slo: { objective: 99%, window: 7d }
groups:
  - name: inbound
    slo: { objective: 99.5%, window: 7d, round_trip: 40s }
`,
      );
      const ctx = commandContext(captureIo(v1Env(emu.url), { cwd: dir, now: Date.now }), ['monsync.yaml']);
      const r = await reportFlow(ctx, { period: { since: '2026-11-01', until: '2026-11-08' }, concurrency: 4 });
      expect(r.monitors.find((m) => m.label === 'mx-b')!.budget).toEqual(report.monitors.find((m) => m.label === 'mx-b')!.budget);
      expect(r.monitors.find((m) => m.label === 'mx-a')!.budget).toBeUndefined();
      expect(r.groups.find((g) => g.name === 'inbound')!.budget).toEqual(report.groups.find((g) => g.name === 'inbound')!.budget);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
