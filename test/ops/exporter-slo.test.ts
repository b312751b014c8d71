/**
 * The exporter's service-level, membership and build families (issue 46), scraped over HTTP from
 * the exporter's server after reads of an emulator account (clock moved, an outage placed): the
 * objectives of the configuration per monitor, the tests that count against them (failed, or
 * slower than the bound) equal to what the raw test data of the same tests says, one info series
 * per group membership, `monsync_build_info`, and HELP texts that say values are as of the last read.
 */
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExporterMetrics } from '../../src/ops/exporter/metrics.js';
import { settleSeconds } from '../../src/ops/exporter/read.js';
import { startExporterServer, type ExporterServer } from '../../src/ops/exporter/server.js';
import { VERSION } from '../../src/version.js';
import { applyFlow } from '../../src/workflow/apply.js';
import { commandContext } from '../../src/workflow/context.js';
import { exporterReader } from '../../src/workflow/exporter.js';
import { apiCall, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { captureIo } from '../helpers/io.js';
import { v1Env } from './helpers.js';

const config = (extra: { bGroups: string; bSlo: string; aGroups: string }) => `version: 1
defaults:
  monitor:
    timer: 3
    time_zone: UTC
    slo: { objective: 99.5%, window: 30d }
monitors:
  - label: mx-a
    ip_address: mx
    test_account: probe-a@example.org
    slo: { objective: 99.9%, window: 30d, round_trip: 15s }
  - label: mx-b
    ip_address: mx
    test_account: probe-b@example.org
${extra.bSlo}
  - label: mx-c
    ip_address: mx
    test_account: probe-c@example.org
    slo: null
groups:
  - name: inbound
    monitors: [${extra.aGroups}]
  - name: eu
    monitors: [${extra.bGroups}]
`;
const FIRST = config({ aGroups: 'mx-a, mx-b', bGroups: 'mx-b', bSlo: '' });
/** mx-b without an objective of its own, then none at all; mx-a out of every group. */
const SECOND = config({ aGroups: 'mx-b', bGroups: 'mx-b', bSlo: '    slo: null' });

let emu: TestEmulator;
let dir: string;
let server: ExporterServer;
const metrics = new ExporterMetrics({ accounts: false, configuration: true });
const ids: Record<string, string> = {};
const quiet = () => undefined;
const hooks = { progress: quiet, planned: quiet, applying: quiet, started: quiet, finished: quiet, applied: quiet, checking: quiet, checked: quiet, checkFailed: quiet };
const contextFor = (paths: string[]) => commandContext(captureIo(v1Env(emu.url), { cwd: dir, now: Date.now }), paths);

async function scrape(): Promise<string> {
  const res = await request(`${server.url}/metrics`);
  expect(res.statusCode).toBe(200);
  return res.body.text();
}

/** The value of the one series of `name` whose labels include `labels`; undefined when there is none. */
function value(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...m[2]!.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return undefined;
}

/** Tests started in [from, to) of a monitor by its raw data, and those that count against a bound (failed or slower). */
async function rawCounts(id: string, from: number, to: number, boundSeconds: number): Promise<{ tests: number; failed: number; bad: number }> {
  const r = await apiCall<{ data: { value: number | null; failed: boolean; utc_mktime: number }[] }>(emu, 'GET', `/v1/Data/Monitor/${id}/?begin=${from}&end=${to - 1}&average=raw`);
  const items = r.json.data.filter((d) => d.utc_mktime >= from && d.utc_mktime < to && (d.failed || d.value !== null));
  return {
    tests: items.length,
    failed: items.filter((d) => d.failed).length,
    bad: items.filter((d) => d.failed || (d.value !== null && d.value > boundSeconds * 1000)).length,
  };
}

let text = '';
let counted: { from: number; to: number };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'monsync-exporter-slo-'));
  emu = await startTestEmulator({ seed: 'empty' });
  await emu.control.simulation({ failure_rate: 0, seed: 'slo' });
  await writeFile(join(dir, 'monsync.yaml'), FIRST);
  await applyFlow(contextFor(['monsync.yaml']), { parallelism: 4, hooks });
  for (const m of (await emu.control.state()).monitors as { id: string; label: string }[]) ids[m.label] = m.id;
  await emu.control.advance(20 * 60);
  server = await startExporterServer({ host: '127.0.0.1', port: 0, metrics, token: null, ready: () => true });

  const reader = exporterReader(contextFor(['monsync.yaml']), { api: await contextFor(['monsync.yaml']).connect({}), withConfiguration: true, log: quiet });
  const first = await reader.read();
  metrics.readSucceeded(first);
  // Six hours of 3-minute tests; mx-b down for the first half hour of them.
  await emu.control.outage(ids['mx-b']!, 30 * 60);
  await emu.control.advance(6 * 3600);
  const second = await reader.read();
  metrics.readSucceeded(second);
  const settle = settleSeconds([{ ttl: null }]);
  counted = { from: first.atSeconds - settle, to: second.atSeconds - settle };
  text = await scrape();
}, 60_000);

afterAll(async () => {
  await server?.close();
  await emu?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the service-level families', () => {
  it('export each monitor objective of the configuration with the labels of the per-monitor series, and none for a monitor without one', () => {
    const a = { monitor: 'mx-a', id: ids['mx-a']!, type: 'smtp' };
    const b = { monitor: 'mx-b', id: ids['mx-b']!, type: 'smtp' };
    expect(value(text, 'monsync_monitor_slo_objective_ratio', a)).toBe(0.999);
    expect(value(text, 'monsync_monitor_slo_objective_ratio', b)).toBe(0.995);
    expect(value(text, 'monsync_monitor_slo_window_seconds', a)).toBe(2_592_000);
    expect(value(text, 'monsync_monitor_slo_round_trip_bound_seconds', a)).toBe(15);
    expect(value(text, 'monsync_monitor_slo_round_trip_bound_seconds', b)).toBeUndefined();
    for (const name of ['objective_ratio', 'window_seconds', 'bad_tests_total']) {
      expect(value(text, `monsync_monitor_slo_${name}`, { monitor: 'mx-c' })).toBeUndefined();
    }
  });

  it('count as bad the failed tests, and with a bound the slower ones, exactly as the raw data of the counted tests says', async () => {
    const a = { monitor: 'mx-a', id: ids['mx-a']! };
    const b = { monitor: 'mx-b', id: ids['mx-b']! };
    const rawA = await rawCounts(ids['mx-a']!, counted.from, counted.to, 15);
    const rawB = await rawCounts(ids['mx-b']!, counted.from, counted.to, Infinity);
    // The same tests as monsync_monitor_tests_total counts.
    expect(value(text, 'monsync_monitor_tests_total', a)).toBe(rawA.tests);
    expect(value(text, 'monsync_monitor_tests_total', b)).toBe(rawB.tests);
    // No failure but slow replies on mx-a: the bound is what makes them bad.
    expect(rawA.failed).toBe(0);
    expect(rawA.bad).toBeGreaterThan(0);
    expect(value(text, 'monsync_monitor_slo_bad_tests_total', a)).toBe(rawA.bad);
    // The outage on mx-b: ten failed tests, and nothing else counts against its objective (no bound).
    expect(rawB.failed).toBe(10);
    expect(value(text, 'monsync_monitor_slo_bad_tests_total', b)).toBe(rawB.failed);
    expect(value(text, 'monsync_monitor_failed_tests_total', b)).toBe(rawB.failed);
  });

  it('give one info series per group membership, group="" for a monitor in none, and the build', () => {
    expect(value(text, 'monsync_monitor_info', { monitor: 'mx-a', group: 'inbound' })).toBe(1);
    expect(value(text, 'monsync_monitor_info', { monitor: 'mx-b', group: 'inbound' })).toBe(1);
    expect(value(text, 'monsync_monitor_info', { monitor: 'mx-b', group: 'eu' })).toBe(1);
    expect(value(text, 'monsync_monitor_info', { monitor: 'mx-c', id: ids['mx-c']!, group: '' })).toBe(1);
    expect(text.split('\n').filter((l) => l.startsWith('monsync_monitor_info{'))).toHaveLength(4);
    expect(text).toContain(`monsync_build_info{version="${VERSION}",node="${process.versions.node}"} 1`);
  });

  it('say in the HELP of every value read from the service that it is as of the last read', () => {
    const helps = new Map(text.split('\n').filter((l) => l.startsWith('# HELP ')).map((l) => [l.split(' ')[2]!, l]));
    const read = ['monsync_monitor_up', 'monsync_monitor_round_trip_seconds', 'monsync_monitor_last_test_timestamp_seconds', 'monsync_monitor_alert_active', 'monsync_monitor_paused', 'monsync_monitor_paused_seconds_left', 'monsync_monitor_in_maintenance', 'monsync_drift_changes', 'monsync_configuration_valid', 'monsync_monitor_info', 'monsync_monitor_slo_objective_ratio', 'monsync_monitor_slo_window_seconds', 'monsync_monitor_slo_round_trip_bound_seconds'];
    for (const name of read) expect(helps.get(name), name).toContain('As of the last read of the account (every --interval, 60 s by default).');
  });

  it('end the objective series of a monitor whose objective left the configuration, and the info series of a membership that ended', async () => {
    await writeFile(join(dir, 'monsync.yaml'), SECOND);
    await applyFlow(contextFor(['monsync.yaml']), { parallelism: 4, hooks });
    const reader = exporterReader(contextFor(['monsync.yaml']), { api: await contextFor(['monsync.yaml']).connect({}), withConfiguration: true, log: quiet });
    metrics.readSucceeded(await reader.read());
    const after = await scrape();
    for (const name of ['objective_ratio', 'window_seconds', 'bad_tests_total']) {
      expect(value(after, `monsync_monitor_slo_${name}`, { monitor: 'mx-b' })).toBeUndefined();
    }
    expect(value(after, 'monsync_monitor_slo_objective_ratio', { monitor: 'mx-a' })).toBe(0.999);
    expect(value(after, 'monsync_monitor_info', { monitor: 'mx-a', group: 'inbound' })).toBeUndefined();
    expect(value(after, 'monsync_monitor_info', { monitor: 'mx-a', group: '' })).toBe(1);
    expect(value(after, 'monsync_monitor_info', { monitor: 'mx-b', group: 'eu' })).toBe(1);
  });
});
