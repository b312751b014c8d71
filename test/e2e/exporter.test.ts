/**
 * `monsync exporter` (built CLI) scraped by a real Prometheus (Debian package prometheus) on
 * loopback every second, its TSDB in a temporary directory, configured from
 * examples/prometheus/prometheus.yml (the target and intervals replaced) with the example alerting
 * rules: every SMTP monitor has a series; an outage turns its monsync_monitor_up to 0; a change made
 * outside monsync shows as drift until an apply; a failing service makes monsync_up 0 and the
 * exporter recovers; promtool accepts a scrape with a hostile label and the example rules; every
 * query of the Grafana dashboard runs. Every process started here is stopped here.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CREDENTIALS } from '../../src/emulator/index.js';
import { ROOT, buildCli, expectCleanOutput, runCli, startCli, type CliResult } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { startPrometheus, type TestPrometheus } from '../helpers/prometheus.js';

const EXAMPLES = join(ROOT, 'examples', 'prometheus');
const DASHBOARD = join(ROOT, 'examples', 'grafana', 'monsync-dashboard.json');
/** Quotes, a backslash and a new line: what the exposition format must escape. */
const HOSTILE = 'mx "quoted" \\ back\nslash';

let emu: TestEmulator;
let dir: string;
let exporter: { child: ChildProcess; done: Promise<CliResult>; output: () => CliResult };
let exporterUrl: string;
let prometheus: TestPrometheus | undefined;
let prometheusUrl: string;
let ids: { eu: string; us: string; hostile: string };

const cli = (args: string[]) => runCli(args, { url: emu.url, cwd: dir });

async function getJson(url: string): Promise<{ status: string; data: unknown; error?: string }> {
  const res = await request(url);
  return (await res.body.json()) as { status: string; data: unknown; error?: string };
}

type Sample = { metric: Record<string, string>; value: [number, string] };

async function query(expr: string): Promise<Sample[]> {
  const r = await getJson(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
  expect(r.status, `${expr}: ${r.error ?? ''}`).toBe('success');
  return (r.data as { result: Sample[] }).result;
}

/** Polls Prometheus (which scrapes every second) until `check` holds; fails with what was last seen. */
async function eventually(expr: string, check: (s: Sample[]) => boolean, timeoutMs = 45_000): Promise<Sample[]> {
  const until = Date.now() + timeoutMs;
  let last: Sample[] = [];
  while (Date.now() < until) {
    last = await query(expr);
    if (check(last)) return last;
    await sleep(250);
  }
  throw new Error(`${expr} never satisfied the check; last answer ${JSON.stringify(last)}\nexporter log:\n${exporter.output().stderr}`);
}

const valueOf = (s: Sample[]) => (s.length === 1 ? Number(s[0]!.value[1]) : NaN);

const CONFIG = [
  'version: 1',
  'defaults:',
  '  monitor:',
  '    timer: 5',
  '    time_zone: UTC',
  'monitors:',
  '  - label: mx-eu-1',
  '    ip_address: mx',
  '    test_account: probe-eu@example.org',
  '  - label: mx-us-1',
  '    ip_address: mx',
  '    test_account: probe-us@example.org',
  '',
].join('\n');

beforeAll(async () => {
  for (const tool of ['prometheus', 'promtool']) {
    // A missing tool fails the suite (never skips it): .ci/run installs the Debian package.
    expect(spawnSync(tool, ['--version']).status, `${tool} must be installed (Debian package prometheus)`).toBe(0);
  }
  dir = await mkdtemp(join(tmpdir(), 'monsync-exporter-e2e-'));
  emu = await startTestEmulator({ seed: 'empty' });
  await emu.control.simulation({ failure_rate: 0 });
  await buildCli();
  await mkdir(join(dir, 'cfg'));
  await writeFile(join(dir, 'cfg', 'monsync.yaml'), CONFIG);
  expect((await cli(['apply', 'cfg/', '--auto-approve'])).code).toBe(0);
  // A monitor made outside monsync, with a label the exposition must escape (not managed: no drift).
  const seeded = await emu.control.seed({
    monitors: [{ label: HOSTILE, type: 'smtp', ip_address: 'mx', test_account: 'probe-x@example.org', timer: 5, time_zone: 'UTC', meta: {} }],
  });
  const monitors = (await emu.control.state()).monitors as { id: string; label: string }[];
  ids = { eu: monitors.find((m) => m.label === 'mx-eu-1')!.id, us: monitors.find((m) => m.label === 'mx-us-1')!.id, hostile: seeded.monitors[0]! };
  // Tests to show: twenty minutes of them.
  await emu.control.advance(20 * 60);

  exporter = startCli(['exporter', 'cfg/', '--listen', '127.0.0.1:0', '--interval', '1s'], { url: emu.url, cwd: dir, timeoutMs: 600_000 });
  const started = Date.now();
  while (!/listening on /.test(exporter.output().stdout)) {
    if (Date.now() - started > 30_000) throw new Error(`the exporter did not start:\n${exporter.output().stderr}`);
    await sleep(50);
  }
  exporterUrl = /listening on (\S+)/.exec(exporter.output().stdout)![1]!;

  // The example's scrape configuration, pointed at this exporter, scraping and evaluating every second.
  const example = await readFile(join(EXAMPLES, 'prometheus.yml'), 'utf8');
  const config = example
    .replace(/scrape_interval: \S+/, 'scrape_interval: 1s')
    .replace(/evaluation_interval: \S+/, 'evaluation_interval: 1s')
    .replace(/127\.0\.0\.1:19816/g, new URL(exporterUrl).host)
    .replace('- alerts.yml', `- ${join(EXAMPLES, 'alerts.yml')}`)
    .replace('- slo.yml', `- ${join(dir, 'slo.yml')}`);
  // The service-level rules as they are, but for the window group's 5-minute interval: its rules must have run.
  await writeFile(join(dir, 'slo.yml'), (await readFile(join(EXAMPLES, 'slo.yml'), 'utf8')).replace(/^(\s+interval:) 5m$/m, '$1 1s'));
  expect(config).toMatch(new RegExp(`targets: \\[.?${new URL(exporterUrl).host}`));
  await writeFile(join(dir, 'prometheus.yml'), config);
  prometheus = await startPrometheus(dir);
  prometheusUrl = prometheus.url;
}, 120_000);

afterAll(async () => {
  const stopped = prometheus?.stop();
  if (exporter && exporter.child.exitCode === null) exporter.child.kill('SIGKILL');
  await stopped;
  await emu?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

describe('monsync exporter scraped by Prometheus', () => {
  it('gives every SMTP monitor a series, the hostile label included, and Prometheus scrapes it as up', async () => {
    await eventually('up{job="monsync"}', (s) => valueOf(s) === 1);
    const series = await eventually('monsync_monitor_up{type="smtp"}', (s) => s.length === 3);
    expect(series.map((s) => s.metric.id).sort()).toEqual([ids.eu, ids.us, ids.hostile].sort());
    expect(series.find((s) => s.metric.id === ids.hostile)!.metric.monitor).toBe(HOSTILE);
    expect(series.every((s) => s.value[1] === '1')).toBe(true);
    await eventually('monsync_monitor_round_trip_seconds{monitor="mx-eu-1"}', (s) => valueOf(s) > 0);
  }, 120_000);

  it('turns monsync_monitor_up to 0 for a monitor in an outage, once the clock moves past its tests', async () => {
    await emu.control.outage(ids.eu, 3600);
    await emu.control.advance(15 * 60);
    await eventually(`monsync_monitor_up{id="${ids.eu}"}`, (s) => valueOf(s) === 0);
    // The others still come back.
    expect(valueOf(await query(`monsync_monitor_up{id="${ids.us}"}`))).toBe(1);
    await emu.control.outage(ids.eu, 0);
  }, 120_000);

  it('shows a change made outside monsync as drift, and an apply brings it back to 0', async () => {
    await eventually('sum(monsync_drift_changes)', (s) => valueOf(s) === 0);
    const res = await request(`${emu.url}/v1/Config/Monitor/${ids.us}/`, {
      method: 'PUT',
      headers: { authorization: emu.v1Auth, 'content-type': 'application/json' },
      body: JSON.stringify({ port: 2525 }),
    });
    await res.body.text();
    expect(res.statusCode).toBe(200);
    await eventually('monsync_drift_changes{action="change"}', (s) => valueOf(s) > 0);
    expect((await cli(['apply', 'cfg/', '--auto-approve'])).code).toBe(0);
    await eventually('sum(monsync_drift_changes)', (s) => valueOf(s) === 0);
    expect(valueOf(await query('monsync_configuration_valid'))).toBe(1);
  }, 120_000);

  it('keeps serving the last values with monsync_up 0 while the service fails, and recovers', async () => {
    await emu.control.faults({ error_rate: 1, path_prefix: '/v1/' });
    await eventually('monsync_up', (s) => valueOf(s) === 0);
    expect((await query('monsync_monitor_up{type="smtp"}')).length).toBe(3);
    await emu.control.clearFaults();
    await eventually('monsync_up', (s) => valueOf(s) === 1);
    await eventually('monsync_service_requests_total{code="503"}', (s) => valueOf(s) > 0);
    expect(exporter.output().stderr).toMatch(/the read failed \(1 in a row\), keeping the last values/);
  }, 120_000);

  it('passes promtool check metrics on a scrape holding the hostile label', async () => {
    const res = await request(`${exporterUrl}/metrics`);
    const scrape = await res.body.text();
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(scrape).toContain('monitor="mx \\"quoted\\" \\\\ back\\nslash"');
    const check = spawnSync('promtool', ['check', 'metrics'], { input: scrape, encoding: 'utf8' });
    expect(`${check.stdout}${check.stderr}`).toBe('');
    expect(check.status).toBe(0);
  });

  it('passes promtool check rules and test rules on every example rule file, all of which Prometheus loads and evaluates', async () => {
    const files = (await readdir(EXAMPLES)).filter((f) => f.endsWith('.yml')).sort();
    const ruleFiles = files.filter((f) => f !== 'prometheus.yml' && !f.endsWith('.test.yml'));
    expect(ruleFiles).toEqual(['alerts.yml', 'slo.yml']);
    const config = await readFile(join(EXAMPLES, 'prometheus.yml'), 'utf8');
    for (const file of ruleFiles) {
      // Every rule file is in the example scrape configuration, and has its unit tests.
      expect(config).toContain(`- ${file}`);
      const tests = file.replace(/\.yml$/, '.test.yml');
      expect(files).toContain(tests);
      const rules = spawnSync('promtool', ['check', 'rules', file], { cwd: EXAMPLES, encoding: 'utf8' });
      expect(rules.status, rules.stdout + rules.stderr).toBe(0);
      const tested = spawnSync('promtool', ['test', 'rules', tests], { cwd: EXAMPLES, encoding: 'utf8' });
      expect(tested.status, tested.stdout + tested.stderr).toBe(0);
    }
    const loaded = await getJson(`${prometheusUrl}/api/v1/rules`);
    const groups = (loaded.data as { groups: { file: string; rules: { name: string; health: string; lastError?: string }[] }[] }).groups;
    expect([...new Set(groups.map((g) => basename(g.file)))].sort()).toEqual(ruleFiles);
    const all = groups.flatMap((g) => g.rules);
    expect([...new Set(all.filter((r) => !r.name.includes(':')).map((r) => r.name))].sort()).toEqual([
      'MailAlertActiveNotPaused',
      'MailErrorBudgetBurn',
      'MailRoundTripDown',
      'MonitoringDriftPresent',
      'MonsyncCannotReadService',
      'MonsyncConfigurationInvalid',
      'MonsyncExporterDown',
    ]);
    expect(all.filter((r) => r.health !== 'ok'), JSON.stringify(all)).toEqual([]);
  });

  it('runs every query of the Grafana dashboard on that Prometheus, each finding series (the service levels: slo-burn.test.ts)', async () => {
    const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as {
      panels: { title: string; type: string; targets?: { expr: string }[] }[];
      templating: { list: { name: string; type: string; query: string | { query: string } }[] };
    };
    // Grafana's variables as a dashboard showing every account and monitor over the last hour would set them.
    const expand = (expr: string) => expr.replaceAll('$account', '.*').replaceAll('$monitor', '.*').replaceAll('$__rate_interval', '1m').replaceAll('$__range', '1h');
    // The panels after the service-level row read the recording rules of slo.yml over monitors with objectives:
    // Prometheus parses and answers them here; slo-burn.test.ts finds their series.
    const serviceLevels = dashboard.panels.findIndex((p) => p.type === 'row' && p.title.startsWith('Service levels'));
    expect(serviceLevels).toBeGreaterThan(0);
    const exprs = dashboard.panels.flatMap((p, i) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: expand(t.expr), mustFind: i < serviceLevels })));
    expect(exprs.filter((e) => e.mustFind).length).toBeGreaterThan(5);
    for (const { panel, expr, mustFind } of exprs) {
      const found = await query(expr);
      if (mustFind) expect(found.length, `${panel}: ${expr}`).toBeGreaterThan(0);
    }
    const values: Record<string, unknown> = {};
    for (const v of dashboard.templating.list.filter((v) => v.type === 'query')) {
      const q = typeof v.query === 'string' ? v.query : v.query.query;
      const m = /^label_values\((.+), (\w+)\)$/.exec(q);
      expect(m, q).not.toBeNull();
      values[v.name] = (await getJson(`${prometheusUrl}/api/v1/label/${m![2]}/values?match[]=${encodeURIComponent(expand(m![1]!))}`)).data;
    }
    expect(values.monitor).toEqual(expect.arrayContaining(['mx-eu-1', 'mx-us-1', HOSTILE]));
    // Without declared accounts no series has one: All (".*") is what shows them.
    expect(values.account).toEqual([]);
  });

  it('ends on SIGTERM within a few seconds, exit 0, with no credential or stack trace in its output', async () => {
    const started = Date.now();
    exporter.child.kill('SIGTERM');
    const result = await exporter.done;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.code).toBe(0);
    expectCleanOutput(result, [DEFAULT_CREDENTIALS.v1.password]);
    expect(result.stderr).toMatch(/SIGTERM: stopping/);
  });
});
