/**
 * The service-level rules of examples/prometheus/slo.yml, run by a real Prometheus (Debian's) over
 * what the real exporter (built CLI) served while the emulator's outages burnt budgets.
 *
 * Alert windows are hours long and Prometheus evaluates rules at its own real time, so the hours
 * are made without waiting for them: the emulator's clock is set eight hours back, monitors are
 * made there, and the clock is moved forward step by step up to real now (outages placed on the
 * way); at each step, once the exporter has read the account at that time, its `/metrics` is
 * scraped (OpenMetrics, as Prometheus asks). The scrapes, stamped with the times they were true at,
 * are written as one OpenMetrics file and backfilled with `promtool tsdb create-blocks-from
 * openmetrics`; Prometheus then starts on that TSDB with the rules and a 1 s evaluation interval,
 * and evaluates them at real now over data that ends at real now. Nothing is waited for in real
 * time beyond the exporter's 1 s reads and a few evaluations.
 *
 * Then: the burn-rate alerts fire for the monitors whose outages burn their budget (a long outage
 * now pages; single failed tests every 90 minutes ticket) and stay silent for the others (one old
 * failure; the same failures under a looser objective); the error ratio the rules give over the
 * objective's window is the one of the tests the exporter counted, which are the emulator's tests
 * of that period with the outages' failures; every query of the dashboard's service-level panels
 * finds its series. Every process started here is stopped here.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleSeconds } from '../../src/ops/exporter/read.js';
import { ROOT, buildCli, runCli, startCli, type CliResult } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { mergeScrapes, parseSamples, type TimedScrape } from '../helpers/openmetrics.js';
import { startPrometheus, type TestPrometheus } from '../helpers/prometheus.js';

const EXAMPLES = join(ROOT, 'examples', 'prometheus');
const DASHBOARD = join(ROOT, 'examples', 'grafana', 'monsync-dashboard.json');
/** How far back the clock starts: more than the 6-hour windows, so the 3-day one holds more than they do. */
const HISTORY_SECONDS = 8 * 3600;
const TIMER_SECONDS = 180;
/** A test's result is counted this long after it started (no ttl: the service's 300 s wait and a minute). */
const SETTLE = settleSeconds([{ ttl: null }]);
const OPENMETRICS = 'application/openmetrics-text; version=1.0.0';

const MONITORS = ['mx-fast', 'mx-slow', 'mx-ok', 'mx-lenient'] as const;
type Name = (typeof MONITORS)[number];
const CONFIG = [
  'version: 1',
  'defaults:',
  '  monitor:',
  '    timer: 3',
  '    time_zone: UTC',
  '    slo: { objective: 99.5%, window: 30d }',
  'monitors:',
  ...MONITORS.flatMap((label) => [`  - label: ${label}`, '    ip_address: mx', `    test_account: probe-${label}@example.org`]),
  // The same failures as mx-slow, under an objective that allows them.
  '    slo: { objective: 90%, window: 30d }',
  '',
].join('\n');

let emu: TestEmulator;
let dir: string;
let exporter: { child: ChildProcess; done: Promise<CliResult>; output: () => CliResult } | undefined;
let prometheus: TestPrometheus | undefined;
let prometheusUrl: string;
let ids: Record<Name, string>;
const scrapes: TimedScrape[] = [];
/** Outages placed, emulator time: tests starting in (start, until] fail. */
const outages: { monitor: Name; start: number; until: number }[] = [];
/** When the tests the exporter counted begin and end (the first read and the last scraped one, less SETTLE). */
let counted: { from: number; to: number };
let created: Record<Name, number>;

type Sample = { metric: Record<string, string>; value: [number, string] };

async function getJson(url: string): Promise<{ status: string; data: unknown; error?: string }> {
  const res = await request(url);
  return (await res.body.json()) as { status: string; data: unknown; error?: string };
}

async function query(expr: string): Promise<Sample[]> {
  const r = await getJson(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
  expect(r.status, `${expr}: ${r.error ?? ''}`).toBe('success');
  return (r.data as { result: Sample[] }).result;
}

const byMonitor = (samples: Sample[]): Record<string, number> => Object.fromEntries(samples.map((s) => [s.metric.monitor!, Number(s.value[1])]));

/**
 * Scrapes the exporter once it has read the account at `target` or later: the values of that read,
 * stamped with its time on the service's clock (monsync_last_read_success_timestamp_seconds).
 */
async function scrapeAfter(exporterUrl: string, target: number): Promise<TimedScrape> {
  const until = Date.now() + 20_000;
  for (;;) {
    const res = await request(`${exporterUrl}/metrics`, { headers: { accept: OPENMETRICS } });
    const body = await res.body.text();
    expect(res.statusCode).toBe(200);
    const read = parseSamples(body).find((s) => s.name === 'monsync_last_read_success_timestamp_seconds');
    if (read && read.value >= target) return { atSeconds: read.value, body };
    if (Date.now() > until) throw new Error(`the exporter did not read the account at ${target} (last read ${read?.value}):\n${exporter?.output().stderr}`);
    await sleep(100);
  }
}

/**
 * Whether `t` is a safe time for a read: no test of any monitor starts within 20 s of `t - SETTLE`
 * (the edge of what a read counts), so which tests a read counts does not hang on a second.
 */
function phase(t: number, monitor: Name): number {
  return (((t - SETTLE - created[monitor]) % TIMER_SECONDS) + TIMER_SECONDS) % TIMER_SECONDS;
}

/** The tests of `monitor` the exporter counted, and those of them inside an outage. */
function expectedCounts(monitor: Name): { tests: number; bad: number } {
  let tests = 0;
  let bad = 0;
  for (let t = created[monitor] + TIMER_SECONDS; t <= counted.to; t += TIMER_SECONDS) {
    if (t <= counted.from) continue;
    tests++;
    if (outages.some((o) => o.monitor === monitor && o.start < t && t <= o.until)) bad++;
  }
  return { tests, bad };
}

beforeAll(async () => {
  for (const tool of ['prometheus', 'promtool']) {
    // A missing tool fails the suite (never skips it): .ci/run installs the Debian package.
    expect(spawnSync(tool, ['--version']).status, `${tool} must be installed (Debian package prometheus)`).toBe(0);
  }
  dir = await mkdtemp(join(tmpdir(), 'monsync-slo-burn-e2e-'));
  emu = await startTestEmulator({ seed: 'empty' });
  await emu.control.simulation({ failure_rate: 0 });
  await buildCli();
  const start = Math.floor(Date.now() / 1000) - HISTORY_SECONDS;
  await emu.control.setClock(start);
  await mkdir(join(dir, 'cfg'));
  await writeFile(join(dir, 'cfg', 'monsync.yaml'), CONFIG);
  const applied = await runCli(['apply', 'cfg/', '--auto-approve'], { url: emu.url, cwd: dir });
  expect(applied.code, applied.stderr).toBe(0);
  const state = (await emu.control.state()) as { monitors: { id: string; label: Name }[]; monitor_sim: { monitor: string; created: number; segments: { timer: number }[] }[] };
  ids = Object.fromEntries(state.monitors.map((m) => [m.label, m.id])) as Record<Name, string>;
  created = Object.fromEntries(MONITORS.map((n) => [n, state.monitor_sim.find((s) => s.monitor === ids[n])!.created])) as Record<Name, number>;
  for (const n of MONITORS) expect(state.monitor_sim.find((s) => s.monitor === ids[n])!.segments.map((s) => s.timer)).toEqual([3]);
  const spread = Math.max(...Object.values(created)) - Math.min(...Object.values(created));
  expect(spread).toBeLessThan(5);

  // The reads happen on a one-minute grid whose every point is 25-35 s after a settle edge of every
  // monitor (so 145-155 s before the next): a read some seconds late counts the same tests.
  const latest = Math.max(...Object.values(created));
  let base = start + 12 * 60;
  while (!MONITORS.every((n) => phase(base, n) >= 25 && phase(base, n) <= 35) || (base - SETTLE - latest) % 60 !== 30) base++;
  const end = start + HISTORY_SECONDS;
  const at = (minutesAfterBase: number) => base + minutesAfterBase * 60;
  // Where the outages start (grid points, so 25-35 s after a test started: one 180 s outage fails one test).
  const single = [120, 210, 300, 390].map(at); // mx-slow and mx-lenient: one failed test every 90 minutes
  const old = at(18); // mx-ok: one failed test, more than 6 hours before the end
  const fastFrom = base + Math.floor((end - 45 * 60 - base) / 60) * 60; // mx-fast: down for the last 45 minutes and on
  const plan = new Set<number>([base, old, ...single, fastFrom]);
  for (let t = base; t < end - 65 * 60; t += 15 * 60) plan.add(t);
  for (let t = fastFrom - 20 * 60; t < end - 12 * 60; t += 3 * 60) plan.add(t);
  const steps = [...plan].sort((a, b) => a - b);

  await emu.control.setClock(base);
  exporter = startCli(['exporter', 'cfg/', '--listen', '127.0.0.1:0', '--interval', '1s'], { url: emu.url, cwd: dir, timeoutMs: 600_000 });
  const started = Date.now();
  while (!/listening on /.test(exporter.output().stdout)) {
    if (Date.now() - started > 30_000) throw new Error(`the exporter did not start:\n${exporter.output().stderr}`);
    await sleep(50);
  }
  const exporterUrl = /listening on (\S+)/.exec(exporter.output().stdout)![1]!;

  const step = async (t: number) => {
    await emu.control.setClock(t);
    if (t === old) outages.push({ monitor: 'mx-ok', ...(await outage('mx-ok', TIMER_SECONDS)) });
    if (single.includes(t)) for (const n of ['mx-slow', 'mx-lenient'] as const) outages.push({ monitor: n, ...(await outage(n, TIMER_SECONDS)) });
    if (t === fastFrom) outages.push({ monitor: 'mx-fast', ...(await outage('mx-fast', 4 * 3600)) });
    const scrape = await scrapeAfter(exporterUrl, t);
    // Late by less than the grid's margin (a grid point is 25-35 s after a settle edge, or 85-95, or 145-155): the read counted what a read at `t` counts.
    expect(scrape.atSeconds - t, `read at ${scrape.atSeconds} for ${t}`).toBeLessThan(20);
    scrapes.push(scrape);
  };
  const outage = async (n: Name, seconds: number) => {
    const o = await emu.control.outage(ids[n], seconds);
    return { start: o.until - seconds, until: o.until };
  };
  for (const t of steps) await step(t);
  // Then a read a minute up to real now, the last one at most a minute old when Prometheus starts.
  for (let t = steps.at(-1)! + 60; t <= Date.now() / 1000 - 2; t += 60) {
    if (t < end - 12 * 60) continue;
    await step(t);
  }
  counted = { from: base - SETTLE, to: scrapes.at(-1)!.atSeconds - SETTLE };
  exporter.child.kill('SIGTERM');
  expect((await exporter.done).code).toBe(0);

  // The scrapes as Prometheus would have stored them, and Prometheus on them.
  await writeFile(join(dir, 'scrapes.om'), mergeScrapes(scrapes));
  const blocks = spawnSync('promtool', ['tsdb', 'create-blocks-from', 'openmetrics', join(dir, 'scrapes.om'), join(dir, 'tsdb')], { encoding: 'utf8' });
  expect(blocks.status, blocks.stdout + blocks.stderr).toBe(0);
  // The rules as they are, but for the window group's 5-minute interval: its first evaluation must come soon.
  await writeFile(join(dir, 'slo.yml'), (await readFile(join(EXAMPLES, 'slo.yml'), 'utf8')).replace(/^(\s+interval:) 5m$/m, '$1 1s'));
  await writeFile(join(dir, 'prometheus.yml'), ['global:', '  evaluation_interval: 1s', 'rule_files:', `  - ${join(dir, 'slo.yml')}`, ''].join('\n'));
  prometheus = await startPrometheus(dir);
  prometheusUrl = prometheus.url;
}, 300_000);

afterAll(async () => {
  await prometheus?.stop();
  if (exporter && exporter.child.exitCode === null) exporter.child.kill('SIGKILL');
  await emu?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

interface Alert {
  labels: Record<string, string>;
  state: string;
}

/** The firing burn-rate alerts as `monitor severity long_window`, sorted. */
async function firing(): Promise<string[]> {
  const r = await getJson(`${prometheusUrl}/api/v1/alerts`);
  const alerts = (r.data as { alerts: Alert[] }).alerts.filter((a) => a.labels.alertname === 'MailErrorBudgetBurn' && a.state === 'firing');
  return alerts.map((a) => `${a.labels.monitor} ${a.labels.severity} ${a.labels.long_window}`).sort();
}

describe('the burn-rate alerts in a real Prometheus, over hours of the exporter made by moving the emulator clock', () => {
  it('backfilled hours of scrapes that end at real now', () => {
    expect(scrapes.length).toBeGreaterThan(40);
    expect(scrapes.at(-1)!.atSeconds - scrapes[0]!.atSeconds).toBeGreaterThan(7 * 3600);
    expect(Date.now() / 1000 - scrapes.at(-1)!.atSeconds).toBeLessThan(120);
  });

  it('page and ticket for a monitor down for the last 45 minutes, ticket for failures every 90 minutes, and stay silent for the others', async () => {
    const expected = ['mx-fast page 1h', 'mx-fast page 6h', 'mx-fast ticket 3d', 'mx-slow ticket 3d'];
    // Alerts have no `for`: they fire at the first evaluation of the rules that sees the burn.
    const until = Date.now() + 20_000;
    let last: string[] = [];
    while (Date.now() < until) {
      last = await firing();
      if (JSON.stringify(last) === JSON.stringify(expected)) break;
      await sleep(250);
    }
    expect(last, `burn rates 1h ${JSON.stringify(byMonitor(await query('monsync_monitor:slo_burn_rate:rate1h')))}, 6h ${JSON.stringify(byMonitor(await query('monsync_monitor:slo_burn_rate:rate6h')))}\n${(prometheus?.log() ?? '').slice(-3000)}`).toEqual(expected);
    // mx-ok's failure is in its 3-day window, not its 6-hour one; mx-lenient burns its 10% budget at 0.25x.
    const burn6h = byMonitor(await query('monsync_monitor:slo_burn_rate:rate6h'));
    expect(burn6h['mx-ok']).toBe(0);
    expect(burn6h['mx-lenient']).toBeGreaterThan(0);
    expect(burn6h['mx-lenient']).toBeLessThan(1);
    expect(byMonitor(await query('monsync_monitor:slo_burn_rate:rate3d'))['mx-ok']).toBeGreaterThan(0);
  });

  it('give over the objective window the budget monsync report gives over the same tests: those the exporter counted, the emulator tests of that period with the outages failed', async () => {
    let ratio: Record<string, number> = {};
    const until = Date.now() + 20_000;
    while (Date.now() < until && Object.keys(ratio).length < MONITORS.length) {
      ratio = byMonitor(await query('monsync_monitor:slo_errors:ratio_window'));
      if (Object.keys(ratio).length < MONITORS.length) await sleep(250);
    }
    const left = byMonitor(await query('monsync_monitor:slo_error_budget_remaining:ratio_window'));
    const last = parseSamples(scrapes.at(-1)!.body);
    const counter = (name: string, n: Name) => last.find((s) => s.name === name && s.labels.id === ids[n])!.value;
    for (const n of MONITORS) {
      const truth = expectedCounts(n);
      expect({ monitor: n, tests: counter('monsync_monitor_tests_total', n), bad: counter('monsync_monitor_slo_bad_tests_total', n) }).toEqual({ monitor: n, ...truth });
      expect(ratio[n], n).toBeCloseTo(truth.bad / truth.tests, 12);
      const budget = n === 'mx-lenient' ? 0.1 : 0.005;
      expect(left[n], n).toBeCloseTo(1 - truth.bad / truth.tests / budget, 9);
    }
    // `monsync report` over the same tests (those that started in the period the exporter counted) gives the same budget.
    const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');
    const report = await runCli(['report', 'cfg/', '--since', iso(counted.from), '--until', iso(counted.to), '--format', 'json'], { url: emu.url, cwd: dir });
    expect(report.code, report.stderr).toBe(0);
    const budgets = (JSON.parse(report.stdout) as { monitors: { label: string; budget?: { tests: number; bad: number; attainment: number; leftPercent: number } }[] }).monitors;
    for (const n of MONITORS) {
      const b = budgets.find((m) => m.label === n)!.budget!;
      expect({ monitor: n, tests: b.tests, bad: b.bad }).toEqual({ monitor: n, ...expectedCounts(n) });
      expect(1 - ratio[n]!, n).toBeCloseTo(b.attainment / 100, 9);
      expect(left[n], n).toBeCloseTo(b.leftPercent / 100, 9);
    }
    expect(expectedCounts('mx-slow').bad).toBe(4);
    expect(expectedCounts('mx-ok').bad).toBe(1);
  });

  it('finds the series of every query of the dashboard service-level panels', async () => {
    const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as { panels: { title: string; type: string; targets?: { expr: string }[] }[] };
    const row = dashboard.panels.findIndex((p) => p.type === 'row' && p.title.startsWith('Service levels'));
    const exprs = dashboard.panels.slice(row + 1).flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr.replaceAll('$account', '.*').replaceAll('$monitor', '.*') })));
    expect(exprs.length).toBeGreaterThan(3);
    for (const { panel, expr } of exprs) {
      expect(Object.keys(byMonitor(await query(expr))).sort(), `${panel}: ${expr}`).toEqual([...MONITORS].sort());
    }
  });
});
