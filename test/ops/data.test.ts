import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runData } from '../../src/cli/data.js';
import type { MonitorData } from '../../src/api/types.js';
import { buildChart, summarize } from '../../src/ops/chart.js';
import { renderDataText } from '../../src/render/ops-data.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { captureIo } from '../helpers/io.js';
import { seedAccount, v1Env, type OpsAccount } from './helpers.js';

describe('chart', () => {
  const p = (value: number | null, failed = false) => ({ value, failed });

  it('one column per point up to the width, levels between the lowest and highest value', () => {
    const chart = buildChart([p(100), p(200), p(800), p(100)], 60);
    expect(chart.columns.map((c) => c.level)).toEqual([0, 1, 7, 0]);
    expect([chart.low, chart.high]).toEqual([100, 800]);
  });

  it('more points than columns: each column holds the slowest of its points, and any failure marks it', () => {
    const points = Array.from({ length: 120 }, (_, i) => p(i === 7 ? 5000 : 100, i === 50));
    const chart = buildChart(points, 60);
    expect(chart.columns).toHaveLength(60);
    expect(chart.columns.every((c) => c.points === 2)).toBe(true);
    expect(chart.columns[3]).toMatchObject({ value: 5000, level: 7, failed: false });
    expect(chart.columns[25]).toMatchObject({ failed: true });
    expect(chart.columns.filter((c) => c.failed)).toHaveLength(1);
  });

  it('a flat series sits mid-height; a column without values has no level', () => {
    expect(buildChart([p(5), p(5)]).columns.map((c) => c.level)).toEqual([3, 3]);
    expect(buildChart([p(null, true), p(5)]).columns.map((c) => c.level)).toEqual([null, 3]);
    expect(buildChart([]).columns).toEqual([]);
  });

  it('summary: min / avg / max over values, failures over points', () => {
    expect(summarize([p(100), p(300), p(null, true), p(200, true)])).toEqual({
      points: 4, measured: 3, min: 100, avg: 200, max: 300, failures: 2,
    });
    expect(summarize([])).toMatchObject({ min: null, avg: null, max: null, failures: 0 });
  });

  it('renders bars, failure marks, the time span and the summary', () => {
    const t0 = Date.UTC(2024, 5, 3, 10, 0) / 1000;
    const item = (i: number, value: number | null, failed = false, error: string | null = null) => ({
      value, failed, error, samples: null, alert_matches: [], time: '', utc_time: '', utc_mktime: t0 + i * 300,
    });
    const data: MonitorData = {
      begin: t0 - 60, end: t0 + 3600, monitor: '1', monitor_label: 'mx-eu-1',
      data: [item(0, 400), item(1, 450), item(2, null, true, 'no reply within ttl'), item(3, 2400), item(4, 400)],
    };
    expect(renderDataText(data, { color: false, sinceSeconds: 3600, average: 'raw' }).split('\n')).toEqual([
      'mx-eu-1 — response time, last 1h (raw tests, 5 points)',
      '',
      '  ▁▁✗█▁  ▁ 400 ms  █ 2.40 s',
      '  2024-06-03 10:00 UTC → 2024-06-03 10:20 UTC',
      '',
      'min 400 ms · avg 913 ms · max 2.40 s · failures 1 of 5 (20.0%)  (✗ marks failed tests)',
      'last failure 2024-06-03 10:10 UTC: no reply within ttl',
      '',
    ]);
    const coloured = renderDataText(data, { color: true, sinceSeconds: 3600, average: 'raw' });
    expect(coloured).toContain('\u001b[31m✗');
    const many = { ...data, data: Array.from({ length: 7 }, (_, i) => item(i, 100 * (i + 1))) };
    expect(renderDataText(many, { color: false, sinceSeconds: 3600, average: 'raw', width: 5 }).split('\n').slice(2, 4)).toEqual([
      '  ▁▂▅▆█  ▁ 100 ms  █ 700 ms',
      '  2024-06-03 10:00 UTC → 2024-06-03 10:30 UTC, each mark the slowest of 1–2 points',
    ]);
    expect(renderDataText({ ...data, data: [] }, { color: false, sinceSeconds: 86_400, average: 'hour', timer: 10 })).toBe(
      'mx-eu-1 — response time, last 1d (hourly averages, 0 points)\nNo data for mx-eu-1 between 2024-06-03 09:59 UTC and 2024-06-03 11:00 UTC.\n' +
        "A new monitor's first test runs about 10 minutes after it is created, then every 10 minutes: a monitor applied just now has no data yet.\n",
    );
  });
});

describe('monsync data (emulator)', () => {
  let emu: TestEmulator;
  let acct: OpsAccount;
  const now = Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    emu = await startTestEmulator({ seed: 'empty' });
    acct = await seedAccount(emu);
    const items = [
      { utc_mktime: now - 30 * 3600, value: 9999, failed: false }, // outside the default 24h
      { utc_mktime: now - 3 * 3600, value: 500, failed: false },
      { utc_mktime: now - 3 * 3600 + 300, value: 700, failed: false },
      { utc_mktime: now - 2 * 3600, value: null, failed: true, error: 'timeout' },
      { utc_mktime: now - 3600, value: 1500, failed: false },
    ];
    await emu.control.setData(acct.monitors.eu, items);
  });
  afterAll(async () => {
    await emu.close();
  });

  const io = () => captureIo(v1Env(emu.url), { now: () => Date.now() });

  it('charts the last 24h by default, asking for begin = now - since', async () => {
    const o = io();
    expect(await runData('mx-eu-1', { since: '24h', average: 'raw' }, o)).toBe(0);
    const lines = o.stdout.split('\n');
    expect(lines[0]).toBe('mx-eu-1 — response time, last 1d (raw tests, 4 points)');
    expect(lines[2]).toBe('  ▁▂✗█  ▁ 500 ms  █ 1.50 s');
    expect(lines[5]).toBe('min 500 ms · avg 900 ms · max 1.50 s · failures 1 of 4 (25.0%)  (✗ marks failed tests)');
    const req = (await emu.control.requests()).find((r) => r.path.startsWith('/v1/Data/'));
    expect(req?.path).toBe(`/v1/Data/Monitor/${acct.monitors.eu}/`);
    expect(Math.abs(Number(req?.query.begin) - (now - 86_400))).toBeLessThanOrEqual(5);
    expect(req?.query.average).toBe('raw');
  });

  it('--since widens the window; --average hour asks the service for hourly averages', async () => {
    const wide = io();
    await runData('mx-eu-1', { since: '2d', average: 'raw' }, wide);
    expect(wide.stdout).toContain('(raw tests, 5 points)');
    const hourly = io();
    await runData('mx-eu-1', { since: '24h', average: 'hour' }, hourly);
    expect(hourly.stdout).toMatch(/hourly averages, [34] points/);
    // The failure figure counts hours, and says so.
    expect(hourly.stdout).toMatch(/failures \d+ of [34] hours .*\(counted per hour, not per test\)/);
    const daily = io();
    await runData('mx-eu-1', { since: '2d', average: 'day' }, daily);
    expect(daily.stdout).toMatch(/\(daily averages, [1-3] points?\)/);
    expect(daily.stdout).toMatch(/failures \d+ of [1-3] days .*\(counted per day, not per test\)/);
  });

  it("asks for the window on the service's clock when that clock was moved", async () => {
    await emu.control.advance(6 * 3600);
    try {
      await emu.control.clearRequests();
      const o = io();
      expect(await runData('mx-eu-1', { since: '1h', average: 'raw' }, o)).toBe(0);
      const req = (await emu.control.requests()).find((r) => r.path.startsWith('/v1/Data/'));
      const { now: emulatorNow } = await emu.control.clock();
      expect(Math.abs(Number(req?.query.begin) - (emulatorNow - 3600))).toBeLessThanOrEqual(5);
    } finally {
      await emu.control.advance(-6 * 3600);
    }
  });

  it('--json passes the canonical data through', async () => {
    const o = io();
    await runData('mx-eu-1', { since: '24h', average: 'raw', json: true }, o);
    const json = JSON.parse(o.stdout);
    expect(Object.keys(json)).toEqual(['begin', 'end', 'monitor', 'monitor_label', 'data']);
    expect(json.monitor).toBe(acct.monitors.eu);
    expect(json.data.map((d: { value: number | null }) => d.value)).toEqual([500, 700, null, 1500]);
    expect(json.data[2]).toMatchObject({ failed: true, error: 'timeout', utc_mktime: now - 2 * 3600 });
  });

  it('a monitor without data says so; bad options and labels are refused', async () => {
    const o = io();
    await runData('mx-us-1', { since: '24h', average: 'raw' }, o);
    expect(o.stdout).toMatch(/^mx-us-1 — .*\nNo data for mx-us-1 between .*\nA new monitor's first test runs about \d+ minutes after it is created/);
    await expect(runData('mx-eu-1', { since: 'yesterday', average: 'raw' }, io())).rejects.toThrow(/--since: "yesterday" is not a duration/);
    await expect(runData('mx-eu-1', { since: '24h', average: 'week' }, io())).rejects.toThrow('--average must be raw, hour or day, got "week"');
    await expect(runData('mx-eu', { since: '24h', average: 'raw' }, io())).rejects.toThrow(/no monitor labelled "mx-eu"; did you mean "mx-eu-1"/);
  });
});
