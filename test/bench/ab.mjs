#!/usr/bin/env node
/**
 * `node test/bench/ab.mjs`: two or more builds of monsync (or one build under several V8 flags) side by
 * side on one figure a user sees, for a decision about one mechanism: keep it where it gains, drop it
 * where it does not (issues 43 and 44).
 *
 * Each repetition runs every variant once, in an order reversed every other repetition, so drift in the
 * machine's load lands on all of them; the figures are medians of CPU time (user + system, all threads,
 * from the preloaded probe), wall time and peak RSS, with each variant's ratio to the first, and the
 * load average. A variant's stdout must equal the first's (byte for byte, a report's JSON file too):
 * a difference fails the run.
 *
 *   node test/bench/ab.mjs --job plan --monitors 5000 --node 24 \
 *     --variant main=/tmp/main/bin/monsync.js --variant simple=/tmp/simple/bin/monsync.js
 *   node test/bench/ab.mjs --job accounts --node 22,24,26 --variant ...   # plan --all-accounts of 16 x 500
 *   node test/bench/ab.mjs --job report --monitors 100 --variant ...       # report --since 30d --format json
 *   node test/bench/ab.mjs --job help --variant 'cache=bin/monsync.js' --variant-env 'cache=MONSYNC_X=1'
 *
 * Options: --job plan|accounts|report|validate|help|version|plan-small  --monitors <n>  --reps <n> (9)
 *          --node <lines> (the pinned lines of scripts/node-line.mjs, comma-separated; default this node)
 *          --variant NAME=BIN (repeatable)  --node-flags NAME=FLAGS (flags given to node for that variant)
 *          --env NAME=K=V (an environment variable for that variant)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { control, liveObjects, seedAccount, writeAccountsRepo, writeConfig } from './account.mjs';
import { startEmulatorProcess } from './emulator.mjs';
import { benchNodes } from './node.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PROBE = pathToFileURL(join(ROOT, 'test/bench/probe.mjs')).href;
const CREDS = { MONSYNC_USERNAME: 'demo@example.com', MONSYNC_PASSWORD: 'demo-password' };
const CHILD_ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS' && k !== 'NODE_OPTIONS'));

const { values: a } = parseArgs({
  options: {
    job: { type: 'string', default: 'plan' },
    monitors: { type: 'string' },
    reps: { type: 'string', default: '9' },
    node: { type: 'string' },
    variant: { type: 'string', multiple: true, default: [] },
    'node-flags': { type: 'string', multiple: true, default: [] },
    env: { type: 'string', multiple: true, default: [] },
    accounts: { type: 'string', default: '16' },
    /** With a plan: fetch and JSON.parse of the same four lists (test/bench/floor.mjs) beside, its own row. */
    floor: { type: 'boolean', default: false },
    /** Arguments added to the job's command (e.g. `--timeout 600` under valgrind). */
    'extra-args': { type: 'string', default: '' },
    /** With a plan: `validate` of its configuration beside, by the first variant, its own row. */
    validate: { type: 'boolean', default: false },
  },
});
const split = (s) => [s.slice(0, s.indexOf('=')), s.slice(s.indexOf('=') + 1)];
const variants = a.variant.map((v) => {
  const [name, bin] = split(v);
  const flags = a['node-flags'].filter((f) => split(f)[0] === name).flatMap((f) => split(f)[1].split(' ').filter(Boolean));
  const env = Object.fromEntries(a.env.filter((e) => split(e)[0] === name).map((e) => split(split(e)[1])));
  return { name, bin: resolve(bin), flags, env };
});
if (variants.length < 1) throw new Error('give at least one --variant NAME=BIN');
const REPS = Number(a.reps);
const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function measure(node, flags, args, env, cwd = ROOT) {
  const probeFile = join(tmpdir(), `monsync-ab-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  return new Promise((res, rej) => {
    const started = performance.now();
    const child = spawn(node, [...flags, '--import', PROBE, ...args], { cwd, env: { ...CHILD_ENV, ...CREDS, NO_COLOR: '1', MONSYNC_BENCH_PROBE: probeFile, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', rej);
    child.on('close', (code) => {
      const wall = performance.now() - started;
      const u = JSON.parse(readFileSync(probeFile, 'utf8'));
      rmSync(probeFile, { force: true });
      res({ code, stdout, stderr, wall_ms: wall, cpu_ms: u.user_ms + u.system_ms, rss_mb: u.max_rss_kb / 1024 });
    });
  });
}

/** A free port forwarded to the emulator: another service URL for the same account (accounts must not share one). */
async function forwardTo(url) {
  const { createServer, connect } = await import('node:net');
  const target = new URL(url);
  const server = createServer((c) => {
    const up = connect(Number(target.port), target.hostname);
    for (const s of [c, up]) s.on('error', () => undefined);
    c.pipe(up).pipe(c);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  server.unref();
  return `http://127.0.0.1:${server.address().port}`;
}

/** The job: its arguments, environment and (for a report) the file whose bytes must match too. */
async function prepare(job, emuUrl, work) {
  const n = a.monitors === undefined ? undefined : Number(a.monitors);
  if (job === 'help') return { args: ['--help'], env: {} };
  if (job === 'version') return { args: ['--version'], env: {} };
  if (job === 'validate-realistic') return { args: ['validate', join(ROOT, 'examples/realistic')], env: {} };
  if (job === 'plan' || job === 'validate' || job === 'plan-small') {
    const monitors = n ?? (job === 'plan-small' ? 50 : 5000);
    await control(emuUrl, 'POST', 'reset', { seed: 'empty' });
    const opts = { monitors, alertsPerMonitor: 1, groups: Math.min(50, Math.max(1, monitors / 100)) };
    await seedAccount(emuUrl, liveObjects(opts));
    writeConfig(join(work, 'cfg'), 'base', opts);
    if (job === 'validate') return { args: ['validate', join(work, 'cfg')], env: {} };
    return { args: ['plan', join(work, 'cfg'), '--url', emuUrl], env: {}, floor: [join(ROOT, 'test/bench/floor.mjs'), emuUrl, '--parse'], validate: ['validate', join(work, 'cfg')] };
  }
  if (job === 'accounts') {
    const opts = { monitors: n ?? 500, alertsPerMonitor: 1, groups: 50 };
    await control(emuUrl, 'POST', 'reset', { seed: 'empty' });
    await seedAccount(emuUrl, liveObjects(opts));
    writeConfig(join(work, 'cfg'), 'base', opts);
    const repo = writeAccountsRepo(join(work, 'cfg'), Number(a.accounts));
    const env = {};
    for (const name of repo.names) {
      const p = `MONSYNC_${name.toUpperCase()}_`;
      Object.assign(env, { [`${p}URL`]: await forwardTo(emuUrl), [`${p}USERNAME`]: CREDS.MONSYNC_USERNAME, [`${p}PASSWORD`]: CREDS.MONSYNC_PASSWORD });
    }
    return { args: ['plan', repo.file, '--all-accounts'], env };
  }
  if (job === 'report') {
    const N = n ?? 100;
    const NOW = Date.UTC(2026, 10, 2, 0, 0, 30) / 1000;
    const FROM = NOW - 30 * 86_400;
    await control(emuUrl, 'POST', 'reset', { seed: 'empty' });
    await control(emuUrl, 'POST', 'clock', { set: NOW });
    const monitors = Array.from({ length: N }, (_, i) => ({ id: String(10001 + i), label: `mx-${String(i).padStart(5, '0')}`, type: 'smtp', ip_address: 'mx', port: 25, timer: 5, ttl: 0, time_zone: 'UTC', test_account: `probe+${i}@example.org`, meta: {} }));
    const alerts = monitors.filter((_, i) => i % 10 === 0).map((m, i) => ({ id: String(50001 + i), type: 'up-down', monitor: m.id, subject_init: `${m.label} DOWN`, subject_term: `${m.label} UP`, message_init: '', message_term: '', timeout: 20, alert_destinations: ['701'], down_only: false, repeat: false }));
    const groups = Array.from({ length: 20 }, (_, g) => ({ id: String(301 + g), name: `group-${g}`, monitors: monitors.filter((_, i) => i % 20 === g).map((m) => m.id) }));
    await control(emuUrl, 'POST', 'seed', { destinations: [{ id: '701', label: 'ops', destination: 'ops@example.com', type: 'email', subscribed: true }], monitors, alerts, groups });
    const outages = monitors.filter((_, i) => i % 20 === 0).map((m, i) => ({ monitor: m.id, start: FROM + ((i * 7919) % 28) * 86_400 + 3600, end: FROM + ((i * 7919) % 28) * 86_400 + 3600 + 45 * 60 }));
    await control(emuUrl, 'POST', 'history', { days: 35, outages });
    // The period ends well before the service's now: every run reads the same settled tests.
    await control(emuUrl, 'POST', 'clock', { set: NOW + 3600 });
    await control(emuUrl, 'POST', 'faults', { latency_ms: 10 });
    const out = join(work, 'report.json');
    return { args: ['report', '--since', '30d', '--until', '2026-11-02T00:00Z', '--format', 'json', '--out', out, '--parallelism', '8'], env: { MONSYNC_URL: emuUrl }, file: out };
  }
  throw new Error(`unknown --job ${job}`);
}

const nodes = benchNodes(a.node);
// The emulator under a pinned node, never under a wrapper (valgrind).
const emu = await startEmulatorProcess(variants[0].bin, ROOT, nodes.find((n) => !n.node.endsWith('.sh'))?.node ?? process.execPath);
const work = mkdtempSync(join(tmpdir(), 'monsync-ab-'));
const results = [];
try {
  const job = await prepare(a.job, emu.url, work);
  job.args.push(...a['extra-args'].split(' ').filter(Boolean));
  // The references beside a plan: their own rows, their output not compared.
  if (a.floor && job.floor) variants.push({ name: 'floor', script: job.floor, flags: [], env: {}, reference: true });
  if (a.validate && job.validate) variants.push({ name: 'validate', script: [variants[0].bin, ...job.validate], flags: [], env: {}, reference: true });
  for (const { line, node } of nodes) {
    const runs = Object.fromEntries(variants.map((v) => [v.name, []]));
    const loads = [loadavg()[0]];
    let reference = null;
    let complaintsFirst = null;
    for (let rep = 0; rep < REPS + 1; rep++) {
      const order = rep % 2 === 0 ? variants : [...variants].reverse();
      for (const v of order) {
        const r = await measure(node, v.flags, v.script ?? [v.bin, ...job.args], { ...job.env, ...v.env });
        if (r.code !== 0) throw new Error(`${v.name} on ${line}: exit ${r.code}\n${r.stderr.slice(0, 3000)}`);
        if (v.reference) {
          if (rep > 0) runs[v.name].push(r);
          continue;
        }
        const output = `${r.stdout}${job.file ? readFileSync(job.file, 'utf8') : ''}`.replace(/\b\d+(\.\d+)? s\b/g, 'T s').replace(/"generatedAt": \d+/, '"generatedAt": T');
        if (reference === null) reference = output;
        else if (output !== reference) {
          const { writeFileSync } = await import('node:fs');
          writeFileSync(join(tmpdir(), 'ab-first.out'), reference);
          writeFileSync(join(tmpdir(), `ab-${v.name}.out`), output);
          throw new Error(`${v.name} on ${line}: its output differs from the first run's (${join(tmpdir(), 'ab-first.out')}, ${join(tmpdir(), `ab-${v.name}.out`)})`);
        }
        // A warning or an error one variant prints and the first does not (a V8 flag the line lacks) fails the run.
        const complaints = r.stderr.split('\n').filter((l) => /error|warning|unrecognized/i.test(l)).join('\n');
        if (complaintsFirst === null) complaintsFirst = complaints;
        else if (complaints !== complaintsFirst) throw new Error(`${v.name} on ${line}: stderr differs:\n${r.stderr.slice(0, 2000)}`);
        // The first repetition warms the machine's file cache: not counted.
        if (rep > 0) runs[v.name].push(r);
      }
      loads.push(loadavg()[0]);
    }
    const first = median(runs[variants[0].name].map((r) => r.cpu_ms));
    const rows = variants.map((v) => {
      const rs = runs[v.name];
      const cpu = median(rs.map((r) => r.cpu_ms));
      return { variant: v.name, cpu_ms: Math.round(cpu), wall_ms: Math.round(median(rs.map((r) => r.wall_ms))), rss_mb: Math.round(median(rs.map((r) => r.rss_mb))), cpu_x_first: +(cpu / first).toFixed(3) };
    });
    const result = { job: a.job, monitors: a.monitors ?? null, node: line, version: nodes.find((x) => x.line === line).version, reps: REPS, load: { min: +Math.min(...loads).toFixed(1), max: +Math.max(...loads).toFixed(1) }, rows };
    results.push(result);
    process.stderr.write(`${JSON.stringify(result)}\n`);
  }
} finally {
  emu.stop();
  rmSync(work, { recursive: true, force: true });
}
console.log(JSON.stringify(results, null, 2));
