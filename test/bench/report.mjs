#!/usr/bin/env node
/**
 * `npm run bench:report`: a month's report of a large account against an emulator with latency.
 *
 * The emulator runs as its own process (`monsync emulator --port 0 --seed empty`); its clock is set
 * to 2026-11-02 00:00:30 UTC, then it is seeded with `--monitors` SMTP monitors (timer 5, so 8,928
 * tests each in October), one alert on every tenth, `--groups` groups, and 35 days of history with
 * one outage on every twentieth monitor (`POST /_emulator/history`). Every API call then waits
 * `--latency` ms, and `monsync report --month 2026-10 --format json` runs as a child process; wall
 * time is from spawn to exit, requests are counted by the emulator's request log, and the report's
 * account-wide test count is checked against the seeded schedule.
 *
 *   npm run bench:report                                   # 1,000 monitors, 50 ms, parallelism 8
 *   npm run bench:report -- --monitors 200 --latency 0 --parallelism 16
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { control } from './account.mjs';
import { startEmulatorProcess } from './emulator.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'monsync.js');
const PROBE = pathToFileURL(join(ROOT, 'test', 'bench', 'probe.mjs')).href;
const CREDS = { MONSYNC_USERNAME: 'demo@example.com', MONSYNC_PASSWORD: 'demo-password' };
const NOW = Date.UTC(2026, 10, 2, 0, 0, 30) / 1000;
const OCT = { from: Date.UTC(2026, 9, 1) / 1000, to: Date.UTC(2026, 10, 1) / 1000 };

const { values: args } = parseArgs({
  options: {
    monitors: { type: 'string', default: '1000' },
    groups: { type: 'string', default: '20' },
    latency: { type: 'string', default: '50' },
    parallelism: { type: 'string', default: '8' },
  },
});
const N = Number(args.monitors);
const G = Number(args.groups);

const startEmulator = () => startEmulatorProcess(BIN, ROOT);

/** The CLI as a child: wall time from spawn to exit; CPU and peak RSS from the preloaded probe (probe.mjs). */
function run(cmd, env, probeFile) {
  return new Promise((res) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', PROBE, BIN, ...cmd], {
      cwd: ROOT,
      env: { ...process.env, ...env, NO_COLOR: '1', MONSYNC_BENCH_PROBE: probeFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => res({ code, stderr, ms: performance.now() - started }));
  });
}

const emu = await startEmulator();
const dir = mkdtempSync(join(tmpdir(), 'monsync-bench-report-'));
try {
  await control(emu.url, 'POST', 'clock', { set: NOW });
  const destinations = [{ id: '701', label: 'ops', destination: 'ops@example.com', type: 'email', subscribed: true }];
  const monitors = Array.from({ length: N }, (_, i) => ({
    id: String(10001 + i), label: `mx-${String(i).padStart(5, '0')}`, type: 'smtp', ip_address: 'mx', port: 25, timer: 5, ttl: 0,
    time_zone: 'UTC', test_account: `probe+${i}@example.org`, meta: {},
  }));
  const alerts = monitors.filter((_, i) => i % 10 === 0).map((m, i) => ({
    id: String(50001 + i), type: 'up-down', monitor: m.id, subject_init: `${m.label} DOWN`, subject_term: `${m.label} UP`,
    message_init: '', message_term: '', timeout: 20, alert_destinations: ['701'], down_only: false, repeat: false,
  }));
  const groups = Array.from({ length: G }, (_, g) => ({ id: String(301 + g), name: `group-${g}`, monitors: monitors.filter((_, i) => i % G === g).map((m) => m.id) }));
  const seedStarted = performance.now();
  await control(emu.url, 'POST', 'seed', { destinations, monitors, alerts, groups });
  const outages = monitors.filter((_, i) => i % 20 === 0).map((m, i) => ({ monitor: m.id, start: OCT.from + ((i * 7919) % 28) * 86_400 + 3600, end: OCT.from + ((i * 7919) % 28) * 86_400 + 3600 + 45 * 60 }));
  await control(emu.url, 'POST', 'history', { days: 35, outages });
  const seedMs = performance.now() - seedStarted;
  await control(emu.url, 'POST', 'faults', { latency_ms: Number(args.latency) });
  await control(emu.url, 'DELETE', 'requests');
  const out = join(dir, 'report.json');
  const probeFile = join(dir, 'probe.json');
  const r = await run(['report', '--month', '2026-10', '--format', 'json', '--out', out, '--parallelism', args.parallelism], { ...CREDS, MONSYNC_URL: emu.url }, probeFile);
  const usage = JSON.parse(readFileSync(probeFile, 'utf8'));
  if (r.code !== 0) throw new Error(`monsync report exited ${r.code}: ${r.stderr}`);
  const { requests } = await control(emu.url, 'GET', 'requests');
  const report = JSON.parse(readFileSync(out, 'utf8'));
  const expectedTests = N * ((OCT.to - OCT.from) / 300);
  const ok = report.account.figures.tests === expectedTests && report.monitors.length === N;
  const result = {
    monitors: N, groups: G, latency_ms: Number(args.latency), parallelism: Number(args.parallelism),
    seed_and_history_s: +(seedMs / 1000).toFixed(1), report_wall_s: +(r.ms / 1000).toFixed(1), report_cpu_s: +((usage.user_ms + usage.system_ms) / 1000).toFixed(1),
    report_peak_rss_mb: Math.round(usage.max_rss_kb / 1024), requests: requests.length, latency_bound_s: +((requests.length * Number(args.latency)) / 1000 / Number(args.parallelism)).toFixed(1),
    tests_read: report.account.figures.tests, tests_expected: expectedTests, outages_found: report.account.figures.outages,
    alerts_counted: report.account.figures.alerts, availability: report.account.figures.availability, check: ok ? 'ok' : 'MISMATCH',
  };
  console.log(JSON.stringify(result, null, 2));
  if (!ok) process.exitCode = 1;
} finally {
  emu.stop();
  rmSync(dir, { recursive: true, force: true });
}
