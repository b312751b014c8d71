#!/usr/bin/env node
/**
 * `npm run bench:report`: `monsync report --since 30d` of a large account against its floor, a bare
 * Node client making the same requests, measured interleaved in the same run.
 *
 * The emulator runs as its own process (`monsync emulator --port 0 --seed empty`); its clock is set
 * to 2026-11-02 00:00:30 UTC, then it is seeded with `--monitors` SMTP monitors (timer 5: 8,640
 * tests each in 30 days), one alert on every tenth, `--groups` groups, and 35 days of history with
 * one outage on every twentieth monitor (`POST /_emulator/history`). Every API call then waits
 * `--latency` ms. Each of `--rounds` rounds runs, in an order that alternates from round to round:
 * - `monsync report --since 30d --format json` as a child process with the preloaded probe (CPU,
 *   of it the main thread's and the other threads', peak RSS); its requests are taken from the
 *   emulator's request log, and the report's test count is checked against the seeded schedule;
 * - the floor (`report-floor.mjs`, with the same probe): those same requests, as many at a time,
 *   each body downloaded and `JSON.parse`d;
 * - with `--before <bin>`, the same report by another build (e.g. main's), for before/after.
 * It prints the medians, the ratios report/floor (CPU and peak RSS) and the load average.
 *
 *   npm run bench:report                                  # 1,000 monitors, 10 ms, parallelism 8, 2 rounds
 *   npm run bench:report -- --monitors 100 --rounds 3 --before /tmp/main/bin/monsync.js
 *   npm run bench:report -- --monitors 100 --rounds 1 --profile /tmp/prof   # .cpuprofile of each process
 *   npm run bench:report -- --node 24                     # every process under the pinned Node 24 (test/bench/node.mjs)
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { control } from './account.mjs';
import { startEmulatorProcess } from './emulator.mjs';
import { benchNode } from './node.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'monsync.js');
const FLOOR = join(ROOT, 'test', 'bench', 'report-floor.mjs');
const PROBE = pathToFileURL(join(ROOT, 'test', 'bench', 'probe.mjs')).href;
const CREDS = { MONSYNC_USERNAME: 'demo@example.com', MONSYNC_PASSWORD: 'demo-password' };
const NOW = Date.UTC(2026, 10, 2, 0, 0, 30) / 1000;
const DAYS = 30;
/** Where the placed outages go: the 30 days the report reads. */
const FROM = NOW - DAYS * 86_400;

const { values: args } = parseArgs({
  options: {
    monitors: { type: 'string', default: '1000' },
    groups: { type: 'string', default: '20' },
    latency: { type: 'string', default: '10' },
    parallelism: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '2' },
    before: { type: 'string' },
    /** A folder: each measured process writes a V8 CPU profile there (`node --cpu-prof`). */
    profile: { type: 'string' },
    /** A pinned Node line to run every process under (scripts/node-line.mjs); default MONSYNC_BENCH_NODE, else this node. */
    node: { type: 'string' },
  },
});
const NODE = benchNode(args.node);
const N = Number(args.monitors);
const G = Number(args.groups);
const ROUNDS = Number(args.rounds);

const startEmulator = () => startEmulatorProcess(BIN, ROOT, NODE.node);

/**
 * The measured processes' environment: the bench's own without NODE_EXTRA_CA_CERTS and NODE_OPTIONS, as in
 * run.mjs: where the first names the system bundle, node parses it before any script runs (about 60 ms of
 * CPU in the report and the floor alike), which is not what is measured; the second could change either side.
 */
const CHILD_ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS' && k !== 'NODE_OPTIONS'));

/** A node script as a child with the probe preloaded: wall time from spawn to exit; CPU and peak RSS from the probe (probe.mjs). */
function run(script, cmd, env, probeFile) {
  return new Promise((res) => {
    const started = performance.now();
    const prof = args.profile ? ['--cpu-prof', '--cpu-prof-dir', resolve(args.profile)] : [];
    const child = spawn(NODE.node, [...prof, '--import', PROBE, script, ...cmd], {
      cwd: ROOT,
      env: { ...CHILD_ENV, ...env, NO_COLOR: '1', MONSYNC_BENCH_PROBE: probeFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      const usage = JSON.parse(readFileSync(probeFile, 'utf8'));
      const cpu_s = (usage.user_ms + usage.system_ms) / 1000;
      // The main thread's share, where the probe could read it (Linux): the rest is V8's and libuv's threads.
      const main_s = usage.main_thread_ms === null ? null : usage.main_thread_ms / 1000;
      res({ code, stdout, stderr, wall_s: (performance.now() - started) / 1000, cpu_s, main_s, rss_mb: usage.max_rss_kb / 1024 });
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round1 = (x) => Math.round(x * 10) / 10;

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
  const outages = monitors.filter((_, i) => i % 20 === 0).map((m, i) => ({ monitor: m.id, start: FROM + ((i * 7919) % 28) * 86_400 + 3600, end: FROM + ((i * 7919) % 28) * 86_400 + 3600 + 45 * 60 }));
  await control(emu.url, 'POST', 'history', { days: 35, outages });
  const seedMs = performance.now() - seedStarted;
  await control(emu.url, 'POST', 'faults', { latency_ms: Number(args.latency) });
  const env = { ...CREDS, MONSYNC_URL: emu.url };
  const expectedTests = N * ((DAYS * 86_400) / 300);
  const jobs = {
    report: async (bin = BIN) => {
      await control(emu.url, 'DELETE', 'requests');
      const out = join(dir, 'report.json');
      const r = await run(bin, ['report', '--since', `${DAYS}d`, '--format', 'json', '--out', out, '--parallelism', args.parallelism], env, join(dir, 'probe.json'));
      if (r.code !== 0) throw new Error(`monsync report exited ${r.code}: ${r.stderr}`);
      const { requests } = await control(emu.url, 'GET', 'requests');
      // The floor replays exactly these (the first report's), in the order they were made.
      if (bin === BIN) writeFileSync(join(dir, 'paths.txt'), requests.filter((q) => q.method === 'GET').map((q) => `${q.path}?${new URLSearchParams(q.query)}`).join('\n'));
      const report = JSON.parse(readFileSync(out, 'utf8'));
      // 30 days back from a now 30 s into a 5-minute slot: 8,640 slots per monitor, give or take the one in flight.
      const tests = report.account.figures.tests;
      if (Math.abs(tests - expectedTests) > N || report.monitors.length !== N) throw new Error(`report read ${tests} tests of ${report.monitors.length} monitors, expected about ${expectedTests} of ${N}`);
      return { ...r, requests: requests.length, tests, outages: report.account.figures.outages };
    },
    floor: async () => {
      const r = await run(FLOOR, [emu.url, join(dir, 'paths.txt'), '--parallelism', args.parallelism], env, join(dir, 'probe.json'));
      if (r.code !== 0) throw new Error(`floor exited ${r.code}: ${r.stderr}`);
      return { ...r, ...JSON.parse(r.stdout) };
    },
  };
  // Round 0 runs this build's report first: it writes the requests the floor replays.
  const results = { report: [], floor: [], before: [] };
  const loads = [];
  for (let i = 0; i < ROUNDS; i++) {
    const order = i % 2 === 0 ? ['report', 'floor', 'before'] : ['before', 'floor', 'report'];
    for (const name of order) {
      if (name === 'before' && !args.before) continue;
      loads.push(loadavg()[0]);
      results[name].push(name === 'before' ? await jobs.report(resolve(args.before)) : await jobs[name]());
    }
  }
  // CPU to the hundredth of a second, and the ratios from the medians unrounded: a 100-monitor floor is about 1 s, where tenths would move a ratio by up to 0.1.
  const round2 = (x) => Math.round(x * 100) / 100;
  const summary = (list) =>
    list.length === 0
      ? undefined
      : {
          cpu_s: round2(median(list.map((r) => r.cpu_s))),
          // CPU of the main thread and of the others (V8's compiles and collections, libuv): null without /proc.
          ...(list.every((r) => r.main_s !== null)
            ? { main_thread_cpu_s: round2(median(list.map((r) => r.main_s))), other_threads_cpu_s: round2(median(list.map((r) => r.cpu_s - r.main_s))) }
            : { main_thread_cpu_s: null, other_threads_cpu_s: null }),
          rss_mb: Math.round(median(list.map((r) => r.rss_mb))),
          wall_s: round1(median(list.map((r) => r.wall_s))),
          runs: list.map((r) => ({ cpu_s: round2(r.cpu_s), rss_mb: Math.round(r.rss_mb) })),
        };
  const raw = (list) => (list.length === 0 ? undefined : { cpu_s: median(list.map((r) => r.cpu_s)), rss_mb: median(list.map((r) => r.rss_mb)) });
  const rep = raw(results.report);
  const flo = raw(results.floor);
  const bef = raw(results.before);
  const result = {
    node: NODE.version, monitors: N, groups: G, days: DAYS, latency_ms: Number(args.latency), parallelism: Number(args.parallelism), rounds: ROUNDS,
    seed_and_history_s: round1(seedMs / 1000), requests: results.report[0].requests, floor_requests: results.floor[0].requests, floor_data_items: results.floor[0].items, tests_read: results.report[0].tests, tests_expected: expectedTests, outages_found: results.report[0].outages,
    report: summary(results.report), floor: summary(results.floor), ...(bef ? { before: summary(results.before) } : {}),
    cpu_ratio: +(rep.cpu_s / flo.cpu_s).toFixed(2), rss_ratio: +(rep.rss_mb / flo.rss_mb).toFixed(2),
    ...(bef ? { before_cpu_ratio: +(bef.cpu_s / flo.cpu_s).toFixed(2), before_rss_ratio: +(bef.rss_mb / flo.rss_mb).toFixed(2) } : {}),
    load_average_1m: { min: round1(Math.min(...loads)), max: round1(Math.max(...loads)) },
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  emu.stop();
  rmSync(dir, { recursive: true, force: true });
}
