/**
 * `npm run bench`: the scale benchmark (issues 8 and 20).
 *
 * Starts the emulator as its own process, seeds accounts through the control API and measures
 * monsync as a real child process (`node bin/monsync.js plan|apply ...`); CPU time and peak RSS
 * come from the child itself through a preloaded probe (test/bench/probe.mjs, getrusage at exit).
 * Requests are counted by the emulator's request log, not by monsync.
 *
 * Three profiles of a plan, each against its own reference processes (test/bench/floor.mjs):
 *   - loopback, 5,000 monitors (one alert each, 50 groups), no injected latency (issue 20);
 *   - the large account: 10,000 monitors, 20,000 alerts, 500 groups, `--latency` ms per call;
 *   - the large account over a link of `--bandwidth` Mbit/s (test/bench/throttle.mjs) and the
 *     same latency: what a user on such a line sees.
 * Within a profile, every repetition runs each measured process once, the reference right beside
 * the plan, in an order that is reversed every other repetition, so a burst of load on the machine
 * lands on both; a ratio is the median over the repetitions of the ratio within each.
 *
 * Issue 38 adds: the loopback plan's second floor, `validate` of its configuration, in the same
 * repetitions (a plan overlapping its two reads approaches the slower of the two); `plan
 * --all-accounts` of --accounts accounts sharing the files of --accounts-monitors monitors (one
 * emulator account read by each), beside one account's plan and `validate` of the shared files.
 *
 * Issue 25 adds: configuration styles side by side (`validate` of the same account written as plain
 * YAML, with anchors and merge keys, as one file per monitor, as one JSON inventory; each a ratio to
 * the plain YAML in the same repetition) at each size of --styles; the hostile file (5 anchors used
 * 45,000 times); the large account at --huge monitors (plan and peak memory at --latency); and an
 * apply of --creates under the emulator's rate limit of --rate-limit requests per second.
 *
 * Options: --latency <ms> (50)  --reps <n> (5)  --monitors <n> (10000)  --small <n> (5000, 0 skips)
 *          --bandwidth <Mbit/s> (50, 0 skips)  --creates <n> (1000)  --parallelism <list> (1,8,32)
 *          --per-resource-sample <n> (all)  --skip-apply  --skip-per-resource
 *          --styles <list> (2000,10000; 0 skips)  --huge <n> (50000, 0 skips)  --huge-reps <n> (3)
 *          --rate-limit <requests/s> (50, 0 skips)  --only-scale (only the four parts above; --only-issue-25 is its old name)
 *          --accounts <n> (16, 0 skips)  --accounts-monitors <n> (500)
 *          --only-floors (the styles at 10,000, the loopback 5,000 beside validate, the accounts, a limit of 20/s;
 *          --only-issue-38 is its old name)
 *          --out <file> (bench-results/latest.json)
 *          --node <line> (a pinned Node line, 22, 24 or 26, for every measured process and the emulator:
 *          scripts/node-line.mjs; default MONSYNC_BENCH_NODE, else the node running the bench)
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect as connectTcp } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { control, liveObjects, seedAccount, writeAccountsRepo, writeApplyConfig, writeConfig, writeHostile, writeStyle } from './account.mjs';
import { LIST_PATHS, makeGetter } from './http-get.mjs';
import { startEmulatorProcess as startEmulatorOf } from './emulator.mjs';
import { benchNode, takeNodeOption } from './node.mjs';
import { startThrottle } from './throttle.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = join(ROOT, 'bin/monsync.js');
const FLOOR = join(ROOT, 'test/bench/floor.mjs');
const PROBE = pathToFileURL(join(ROOT, 'test/bench/probe.mjs')).href;
const CREDS = { MONSYNC_USERNAME: 'demo@example.com', MONSYNC_PASSWORD: 'demo-password' };
/**
 * The measured processes' environment: the bench's own, without what makes every node process
 * slower alike without being part of what is measured. NODE_EXTRA_CA_CERTS makes node read and
 * parse a certificate file before any script runs (on a machine that sets it to the system bundle,
 * about 60 ms of CPU and 90 ms of wall time per process, plan and reference alike); NODE_OPTIONS
 * could change either side.
 */
const CHILD_ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS' && k !== 'NODE_OPTIONS'));
/** The loopback account of issue 20: one alert per monitor, 50 groups. */
const SMALL_SHAPE = { alertsPerMonitor: 1, groups: 50 };

// ---- options -----------------------------------------------------------------------------------
const ARGV = process.argv.slice(2);
/** The node every measured process (and the emulator) runs under. */
const NODE = benchNode(takeNodeOption(ARGV));

function parseArgs(argv) {
  const o = {
    latency: 50,
    reps: 5,
    monitors: 10_000,
    small: 5000,
    bandwidth: 50,
    creates: 1000,
    parallelism: [1, 8, 32],
    perResourceSample: null,
    skipApply: false,
    skipPerResource: false,
    styles: [2000, 10_000],
    huge: 50_000,
    hugeReps: 3,
    rateLimit: 50,
    only25: false,
    accounts: 16,
    accountsMonitors: 500,
    only38: false,
    out: join(ROOT, 'bench-results/latest.json'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = () => {
      const x = argv[++i];
      if (x === undefined) throw new Error(`${a} needs a value`);
      return x;
    };
    const n = () => {
      const x = Number(v());
      if (!Number.isFinite(x) || x < 0) throw new Error(`${a} needs a number of 0 or more`);
      return x;
    };
    if (a === '--latency') o.latency = n();
    else if (a === '--reps') o.reps = Math.max(1, Math.round(n()));
    else if (a === '--monitors') o.monitors = n();
    else if (a === '--small') o.small = n();
    else if (a === '--bandwidth') o.bandwidth = n();
    else if (a === '--creates') o.creates = n();
    else if (a === '--parallelism') o.parallelism = v().split(',').map(Number);
    else if (a === '--per-resource-sample') o.perResourceSample = n();
    else if (a === '--skip-apply') o.skipApply = true;
    else if (a === '--skip-per-resource') o.skipPerResource = true;
    else if (a === '--styles') o.styles = v().split(',').map(Number).filter((x) => x > 0);
    else if (a === '--huge') o.huge = n();
    else if (a === '--huge-reps') o.hugeReps = Math.max(1, Math.round(n()));
    else if (a === '--rate-limit') {
      o.rateLimit = n();
      o.rateLimitGiven = true;
    }
    else if (a === '--only-scale' || a === '--only-issue-25') o.only25 = true;
    else if (a === '--accounts') o.accounts = Math.round(n());
    else if (a === '--accounts-monitors') o.accountsMonitors = Math.round(n());
    else if (a === '--only-floors' || a === '--only-issue-38') o.only38 = true;
    else if (a === '--out') o.out = resolve(v());
    else throw new Error(`unknown option ${a}`);
  }
  if (o.only38) {
    // Issue 38's parts alone: nothing of the large account, its link, the per-resource model or the applies by parallelism.
    Object.assign(o, { only25: true, styles: o.styles.includes(10_000) ? [10_000] : o.styles, huge: 0, rateLimit: o.rateLimitGiven ? o.rateLimit : 20 });
  } else if (o.only25) {
    o.accounts = 0;
  }
  return o;
}

// ---- processes -----------------------------------------------------------------------------------
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Runs a node child to completion; wall time from spawn to exit, CPU and peak RSS from the probe. */
async function measure(args, { env = {}, probe = true } = {}) {
  const probeFile = join(tmpdir(), `monsync-bench-probe-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  const nodeArgs = probe ? ['--import', PROBE, ...args] : args;
  const started = performance.now();
  const child = spawn(NODE.node, nodeArgs, {
    cwd: ROOT,
    env: { ...CHILD_ENV, ...CREDS, NO_COLOR: '1', MONSYNC_BENCH_PROBE: probeFile, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = [];
  const err = [];
  child.stdout.on('data', (d) => out.push(d));
  child.stderr.on('data', (d) => err.push(d));
  const code = await new Promise((r) => child.on('close', (c) => r(c)));
  const wall_ms = performance.now() - started;
  let usage = null;
  if (probe && existsSync(probeFile)) {
    usage = JSON.parse(readFileSync(probeFile, 'utf8'));
    rmSync(probeFile, { force: true });
  }
  return {
    code,
    wall_ms,
    cpu_ms: usage ? usage.user_ms + usage.system_ms : null,
    max_rss_mb: usage ? usage.max_rss_kb / 1024 : null,
    stdout: Buffer.concat(out).toString('utf8'),
    stderr: Buffer.concat(err).toString('utf8'),
  };
}

const startEmulatorProcess = () => startEmulatorOf(BIN, ROOT, NODE.node);

function gitCommit() {
  const r = spawnSync('git', ['describe', '--always', '--dirty'], { cwd: ROOT, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

// ---- emulator helpers ------------------------------------------------------------------------------
const setLatency = (url, ms) => control(url, 'POST', 'faults', { latency_ms: ms });
const clearLog = (url) => control(url, 'DELETE', 'requests');
async function requestCount(url) {
  const { requests } = await control(url, 'GET', 'requests');
  return requests.length;
}

/** Each list endpoint alone, one after the other: how long the emulator takes to answer it. */
async function timeEachList(url) {
  const { get, close } = makeGetter(url, { user: CREDS.MONSYNC_USERNAME, password: CREDS.MONSYNC_PASSWORD, sockets: 1 });
  const per = {};
  for (const p of LIST_PATHS) {
    const t = performance.now();
    const body = await get(p);
    per[p] = { ms: performance.now() - t, bytes: body.length };
  }
  close();
  return { per };
}

/** The emulator's own answer times at 0 ms latency (median of 3 after a warm-up). */
async function emulatorTimes(url) {
  await control(url, 'DELETE', 'faults');
  const runs = [];
  await timeEachList(url); // warm-up: the emulator's first answers run unoptimised code
  for (let i = 0; i < 3; i++) runs.push(await timeEachList(url));
  return Object.fromEntries(LIST_PATHS.map((p) => [p, { ms: median(runs.map((r) => r.per[p].ms)), bytes: runs[0].per[p].bytes }]));
}

/** The four lists fetched in parallel inside the bench process: no process start, no parsing. */
async function timeDirectFetch(url) {
  const { get, close } = makeGetter(url, { user: CREDS.MONSYNC_USERNAME, password: CREDS.MONSYNC_PASSWORD, sockets: 4 });
  const t0 = performance.now();
  await Promise.all(LIST_PATHS.map((p) => get(p)));
  const ms = performance.now() - t0;
  close();
  return { code: 0, wall_ms: ms, cpu_ms: null, max_rss_mb: null, stdout: '', stderr: '' };
}

/** Seeds an empty account (after a reset) and writes the three configurations for it. */
async function prepareAccount(url, work, name, opts) {
  const t = performance.now();
  await control(url, 'POST', 'reset', { seed: 'empty' });
  const objs = liveObjects(opts);
  const ids = await seedAccount(url, objs);
  const sz = objs.sizes;
  const expects = {};
  for (const s of ['base', 'changed', 'renamed']) expects[s] = writeConfig(join(work, name, s), s, opts);
  const account = {
    managed_monitors: sz.monitors,
    unmanaged_monitors: sz.unmanagedSmtp + sz.otherType,
    alerts: ids.alerts.length,
    groups: ids.groups.length,
    destinations: ids.destinations.length,
    seed_ms: performance.now() - t,
  };
  log(`seeded ${ids.monitors.length} monitors, ${ids.alerts.length} alerts, ${ids.groups.length} groups, ${ids.destinations.length} destinations in ${f0(account.seed_ms)} ms`);
  return { objs, ids, expects, account, dir: (s) => join(work, name, s) };
}

/** A TCP forwarder on 127.0.0.1 (port 0) to the emulator at `url`: another service URL for the same account. */
async function forwardTo(url) {
  const target = new URL(url);
  const sockets = new Set();
  const server = createServer((client) => {
    const upstream = connectTcp(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

// ---- the measured processes ------------------------------------------------------------------------
function summaryOf(stdout) {
  if (/No changes\. The account matches the configuration\./.test(stdout)) return { create: 0, update: 0, delete: 0 };
  const m = /Plan: (\d+) to add, (\d+) to change, (\d+) to destroy\./.exec(stdout);
  return m ? { create: Number(m[1]), update: Number(m[2]), delete: Number(m[3]) } : null;
}
const same = (a, b) => a && b && a.create === b.create && a.update === b.update && a.delete === b.delete;

/** A plan as a user runs it, checked against the expected summary; with its MONSYNC_TIMINGS phases. */
const planJob = (name, dir, url, expect) => ({
  name,
  async run() {
    const r = await measure([BIN, 'plan', dir, '--url', url], { env: { MONSYNC_TIMINGS: '1' } });
    const got = summaryOf(r.stdout);
    if (r.code !== 0 || !same(got, expect)) {
      throw new Error(`${name}: exit ${r.code}, plan ${JSON.stringify(got)} where ${JSON.stringify(expect)} was expected\n${r.stderr.slice(0, 2000)}`);
    }
    const timings = /Timings: configuration (\d+) ms, account read (\d+) ms .*diff (\d+) ms/.exec(r.stderr);
    if (timings) r.phases = { config_ms: Number(timings[1]), account_ms: Number(timings[2]), diff_ms: Number(timings[3]) };
    return r;
  },
});
const floorJob = (name, url, parse) => ({
  name,
  async run() {
    const r = await measure([FLOOR, url, ...(parse ? ['--parse'] : [])]);
    if (r.code !== 0) throw new Error(`${name} failed: ${r.stderr}`);
    return r;
  },
});
const validateJob = (name, dir) => ({
  name,
  async run() {
    const r = await measure([BIN, 'validate', ...[dir].flat()]);
    if (r.code !== 0) throw new Error(`validate failed: ${r.stderr.slice(0, 2000)}`);
    return r;
  },
});
const fetchJob = (name, url) => ({ name, run: () => timeDirectFetch(url) });
/**
 * `validate` of one configuration style, checked to read the whole account (`monitors` monitors);
 * a refusal (a file over the size limit) is recorded with its message instead of failing the bench.
 */
const styleJob = (name, dir, monitors) => ({
  name,
  async run() {
    const r = await measure([BIN, 'validate', dir]);
    const valid = /Valid: .*?(\d+) monitors/.exec(r.stdout);
    if (r.code === 0 && valid && Number(valid[1]) === monitors) return r;
    if (r.code === 1 && !/\n\s+at /.test(r.stderr)) return { ...r, refused: (r.stderr || r.stdout).trim().split('\n')[0] };
    throw new Error(`${name}: exit ${r.code}, ${valid ? valid[1] : 'no'} monitors where ${monitors} were expected\n${r.stderr.slice(0, 2000)}`);
  },
});

/**
 * Runs every job once per repetition, in an order reversed every other repetition (so drift in the
 * machine's load lands on the plan and its references alike). Returns, per job, its runs and the
 * medians; the requests of a job are counted by the emulator when `countUrl` is given.
 */
async function interleaved(jobs, reps, countUrl, label) {
  const out = Object.fromEntries(jobs.map((j) => [j.key, { name: j.name, runs: [] }]));
  for (let rep = 0; rep < reps; rep++) {
    const order = rep % 2 === 0 ? jobs : [...jobs].reverse();
    for (const j of order) {
      if (countUrl) await clearLog(countUrl);
      const r = await j.run();
      if (countUrl) r.requests = await requestCount(countUrl);
      out[j.key].runs.push({ ...r, stdout: undefined, stderr: undefined });
    }
    log(`${label} #${rep + 1}: ${jobs.map((j) => `${j.key} ${f0(out[j.key].runs[rep].wall_ms)}`).join(', ')} ms`);
  }
  for (const p of Object.values(out)) {
    p.wall_ms = median(p.runs.map((r) => r.wall_ms));
    p.cpu_ms = p.runs[0].cpu_ms === null ? null : median(p.runs.map((r) => r.cpu_ms));
    p.max_rss_mb = p.runs[0].max_rss_mb === null ? null : Math.max(...p.runs.map((r) => r.max_rss_mb));
    p.requests = p.runs[0].requests === undefined ? null : median(p.runs.map((r) => r.requests));
    if (p.runs.every((r) => r.phases)) {
      p.phases = Object.fromEntries(['config_ms', 'account_ms', 'diff_ms'].map((k) => [k, median(p.runs.map((r) => r.phases[k]))]));
    }
  }
  return out;
}

/** The loopback plan over the slower of its two floors (fetch-and-parse, validate), in each repetition; the median. */
const slowerFloorRatio = (rows) => median(rows.plan.runs.map((r, i) => r.wall_ms / Math.max(rows.ref.runs[i].wall_ms, rows.validate.runs[i].wall_ms)));

/** The median over the repetitions of a run's wall time over the reference's in the same repetition. */
const pairedRatio = (x, ref) => median(x.runs.map((r, i) => r.wall_ms / ref.runs[i].wall_ms));

// ---- output ------------------------------------------------------------------------------------
const f0 = (x) => (x === null || x === undefined ? '-' : Math.round(x).toLocaleString('en-US'));
const f1 = (x) => (x === null || x === undefined ? '-' : x.toFixed(1));
const f2 = (x) => (x === null || x === undefined ? '-' : x.toFixed(2));
const log = (s) => process.stderr.write(`${s}\n`);

function table(rows, headers) {
  const w = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(w[i]) : String(c).padStart(w[i]))).join('  ');
  return [line(headers), w.map((n) => '-'.repeat(n)).join('  '), ...rows.map(line)].join('\n');
}

/** Rows of a profile: wall, x reference (paired), requests, CPU, peak. */
function profileTable(title, rows, ref) {
  return table(
    rows.map((p) => [p.name, f0(p.wall_ms), p === ref ? '1.00' : f2(pairedRatio(p, ref)), f0(p.requests), f0(p.cpu_ms), f0(p.max_rss_mb)]),
    [title, 'wall ms', 'x ref', 'requests', 'cpu ms', 'peak MB'],
  );
}

// ---- main ------------------------------------------------------------------------------------------
async function main() {
  const o = parseArgs(ARGV);
  if (!existsSync(join(ROOT, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const benchStart = performance.now();
  const load = { start: loadavg()[0], cores: cpus().length };
  log(`monsync bench: ${o.monitors} monitors (and ${o.small} on loopback), latency ${o.latency} ms, ${o.bandwidth} Mbit/s, ${o.reps} reps (load ${load.start.toFixed(2)} on ${load.cores} cores)`);
  const work = mkdtempSync(join(tmpdir(), 'monsync-bench-'));
  const emu = await startEmulatorProcess();
  const url = emu.url;
  let throttle = null;
  const onSignal = () => {
    emu.stop();
    rmSync(work, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const result = {
    version: 2,
    date: new Date().toISOString(),
    commit: gitCommit(),
    node: `v${NODE.version}`,
    options: { ...o, out: undefined },
    load,
    env_removed: ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS'].filter((k) => process.env[k] !== undefined),
  };
  let large;
  try {
    // ---- --help ----------------------------------------------------------------------------------
    const helpRuns = [];
    const nodeRuns = [];
    for (let i = 0; i < 7; i++) {
      nodeRuns.push((await measure(['-e', '0'], { probe: false })).wall_ms);
      const h = await measure([BIN, '--help'], { probe: false });
      if (h.code !== 0 || !/Usage: monsync/.test(h.stdout)) throw new Error(`monsync --help failed: ${h.stderr}`);
      helpRuns.push(h.wall_ms);
    }
    result.help = { wall_ms: median(helpRuns), node_startup_ms: median(nodeRuns), runs: helpRuns };
    log(`--help ${f0(result.help.wall_ms)} ms (node -e 0: ${f0(result.help.node_startup_ms)} ms)`);

    // ---- configuration styles and the hostile file (issue 25), offline ----------------------------
    if (o.styles.length) {
      result.styles = [];
      for (const n of o.styles) {
        const dir = join(work, `styles-${n}`);
        writeConfig(join(dir, 'plain'), 'base', { monitors: n });
        const written = Object.fromEntries(['anchors', 'files', 'json'].map((st) => [st, writeStyle(join(dir, st), st, { monitors: n })]));
        const rows = await interleaved(
          [
            { key: 'plain', ...styleJob('plain YAML, `defaults:`, files of 1,000 monitors', join(dir, 'plain'), n) },
            { key: 'anchors', ...styleJob('anchors and merge keys (`<<: *monitor`, `<<: *alert`)', join(dir, 'anchors'), n) },
            { key: 'files', ...styleJob(`\`defaults:\` and one file per monitor (${f0(written.files.files)} files)`, join(dir, 'files'), n) },
            { key: 'json', ...styleJob(`one pretty-printed JSON inventory (${f1(written.json.bytes / 1e6)} MB)`, join(dir, 'json'), n) },
          ],
          o.reps,
          null,
          `styles ${n}`,
        );
        for (const r of Object.values(rows)) r.refused = r.runs.find((x) => x.refused)?.refused ?? null;
        result.styles.push({ monitors: n, written, rows });
        rmSync(dir, { recursive: true, force: true });
      }
      const hdir = join(work, 'hostile');
      const hostileFile = writeHostile(hdir);
      const runs = [];
      for (let i = 0; i < o.reps; i++) {
        const r = await measure([BIN, 'validate', hdir]);
        if (r.code > 1 || /\n\s+at /.test(r.stderr)) throw new Error(`the hostile file crashed validate: exit ${r.code}\n${r.stderr.slice(0, 2000)}`);
        runs.push({ wall_ms: r.wall_ms, cpu_ms: r.cpu_ms, max_rss_mb: r.max_rss_mb, code: r.code, message: r.code === 0 ? 'read' : r.stderr.trim().split('\n')[0] });
      }
      result.hostile = { bytes: hostileFile.bytes, wall_ms: median(runs.map((r) => r.wall_ms)), max_rss_mb: Math.max(...runs.map((r) => r.max_rss_mb)), outcome: runs[0].message, runs };
      log(`hostile file (${f0(hostileFile.bytes / 1000)} KB): ${f0(result.hostile.wall_ms)} ms, ${result.hostile.outcome}`);
    }

    // ---- loopback, 5,000 monitors (issue 20) --------------------------------------------------------
    if (o.small > 0 && (!o.only25 || o.only38)) {
      const acc = await prepareAccount(url, work, 'small', { monitors: o.small, ...SMALL_SHAPE });
      const emulator = await emulatorTimes(url);
      const rows = await interleaved(
        [
          { key: 'plan', ...planJob('plan, no changes', acc.dir('base'), url, acc.expects.base) },
          { key: 'ref', ...floorJob('reference: fetch and JSON.parse the 4 lists (process)', url, true) },
          { key: 'validate', ...validateJob('validate: the configuration alone, no network', acc.dir('base')) },
        ],
        o.reps,
        url,
        `loopback ${o.small}`,
      );
      result.small = { account: acc.account, latency_ms: 0, emulator, rows, ratio: pairedRatio(rows.plan, rows.ref), slower_ratio: slowerFloorRatio(rows) };
    }

    // ---- accounts sharing files (issue 38) ------------------------------------------------------------
    if (o.accounts > 0) {
      const acc = await prepareAccount(url, work, 'accounts', { monitors: o.accountsMonitors, ...SMALL_SHAPE });
      const repo = writeAccountsRepo(acc.dir('base'), o.accounts);
      // Each account at a port of its own, forwarded to the one emulator: two accounts of one run on
      // one service URL and login are refused (they would undo each other's writes).
      const forwards = await Promise.all(repo.names.map(() => forwardTo(url)));
      const env = Object.fromEntries(repo.names.flatMap((n, i) => [[`MONSYNC_${n.toUpperCase()}_URL`, forwards[i].url], [`MONSYNC_${n.toUpperCase()}_USERNAME`, CREDS.MONSYNC_USERNAME], [`MONSYNC_${n.toUpperCase()}_PASSWORD`, CREDS.MONSYNC_PASSWORD]]));
      const accountsJob = (name, args, plans) => ({
        name,
        async run() {
          const r = await measure([BIN, 'plan', repo.file, ...args], { env });
          const none = (r.stdout.match(/No changes\. The account matches the configuration\./g) ?? []).length;
          if (r.code !== 0 || none !== plans) throw new Error(`${name}: exit ${r.code}, ${none} plans without changes where ${plans} were expected\n${r.stderr.slice(0, 2000)}`);
          return r;
        },
      });
      const rows = await interleaved(
        [
          { key: 'all', ...accountsJob(`plan --all-accounts (${o.accounts} accounts)`, ['--all-accounts'], o.accounts) },
          { key: 'one', ...accountsJob('plan --account of one of them', ['--account', repo.names[0]], 1) },
          { key: 'validate', ...validateJob('validate: the shared files alone, once', [repo.file, repo.shared]) },
        ],
        o.reps,
        url,
        `accounts ${o.accounts} x ${o.accountsMonitors}`,
      );
      for (const f of forwards) f.close();
      result.accounts = { count: o.accounts, monitors: o.accountsMonitors, files: repo.files, rows, ratio: pairedRatio(rows.all, rows.one) };
      rmSync(join(work, 'accounts'), { recursive: true, force: true });
    }

    // ---- the large account, loopback with latency ---------------------------------------------------
    if (!o.only25) {
    large = await prepareAccount(url, work, 'large', { monitors: o.monitors });
    result.account = large.account;
    result.emulator = await emulatorTimes(url);
    log(`emulator list endpoints at 0 ms latency: ${LIST_PATHS.map((p) => `${p} ${f0(result.emulator[p].ms)} ms (${f1(result.emulator[p].bytes / 1e6)} MB)`).join(', ')}`);
    await setLatency(url, o.latency);
    const rows = await interleaved(
      [
        { key: 'base', ...planJob('plan, no changes', large.dir('base'), url, large.expects.base) },
        { key: 'ref', ...floorJob('reference: fetch and JSON.parse the 4 lists (process)', url, true) },
        { key: 'changed', ...planJob('plan, 1% changed', large.dir('changed'), url, large.expects.changed) },
        { key: 'floor', ...floorJob('floor: fetch the 4 lists (process)', url, false) },
        { key: 'renamed', ...planJob('plan, 100 renamed', large.dir('renamed'), url, large.expects.renamed) },
        { key: 'fetch', ...fetchJob('floor: fetch the 4 lists (in bench)', url) },
        { key: 'validate', ...validateJob('validate: load the YAML only, no network', large.dir('base')) },
      ],
      o.reps,
      url,
      `large ${o.monitors}`,
    );
    result.large = { latency_ms: o.latency, rows };

    // ---- the large account over a limited link ------------------------------------------------------
    if (o.bandwidth > 0) {
      throttle = await startThrottle(url, o.bandwidth * 1e6);
      const wan = await interleaved(
        [
          { key: 'plan', ...planJob('plan, no changes', large.dir('base'), throttle.url, large.expects.base) },
          { key: 'ref', ...floorJob('reference: fetch and JSON.parse the 4 lists (process)', throttle.url, true) },
          { key: 'fetch', ...fetchJob('floor: fetch the 4 lists (in bench)', throttle.url) },
        ],
        o.reps,
        url,
        `${o.bandwidth} Mbit/s`,
      );
      const bytes = LIST_PATHS.reduce((n, p) => n + result.emulator[p].bytes, 0);
      result.wan = { bandwidth_mbit: o.bandwidth, latency_ms: o.latency, bytes, wire_ms: (bytes * 8 * 1000) / (o.bandwidth * 1e6), rows: wan };
      await throttle.close();
      throttle = null;
    }

    // ---- one read per managed resource -----------------------------------------------------------
    if (!o.skipPerResource) {
      const { ids, objs } = large;
      const managed = ids.monitors.slice(0, objs.sizes.monitors);
      let paths = [
        ...managed.map((id) => `/v1/Config/Monitor/${id}/`),
        ...ids.alerts.map((id) => `/v1/Config/Alert/${id}/`),
        ...ids.groups.map((id) => `/v1/Config/Group/${id}/`),
      ];
      const total = paths.length;
      if (o.perResourceSample && o.perResourceSample < total) {
        // Every k-th path, so the sample has each kind in proportion.
        const k = total / o.perResourceSample;
        paths = Array.from({ length: o.perResourceSample }, (_, i) => paths[Math.floor(i * k)]);
      }
      const idsFile = join(work, 'ids.json');
      writeFileSync(idsFile, JSON.stringify({ paths }));
      await clearLog(url);
      log(`one read per resource: ${paths.length} reads at parallelism 10 (about ${f0((paths.length / 10) * o.latency / 1000)} s) ...`);
      const r = await measure([join(ROOT, 'test/bench/per-resource.mjs'), url, idsFile, '10']);
      if (r.code !== 0) throw new Error(`per-resource model failed: ${r.stderr}`);
      const scale = total / paths.length;
      result.per_resource = {
        reads: paths.length,
        resources: total,
        measured_wall_ms: r.wall_ms,
        // Exact when not sampled; a sample is scaled by count (reads at fixed parallelism and latency).
        wall_ms: r.wall_ms * scale,
        extrapolated: scale !== 1,
        cpu_ms: r.cpu_ms * scale,
        max_rss_mb: r.max_rss_mb,
        requests: (await requestCount(url)) * scale,
      };
      log(`one read per resource: ${f0(r.wall_ms)} ms${scale !== 1 ? ` for ${paths.length}, scaled to ${f0(result.per_resource.wall_ms)} ms for ${total}` : ''}`);
    }

    }

    // ---- apply -------------------------------------------------------------------------------------
    if (!o.skipApply && !o.only25) {
      result.apply = [];
      const applyDir = join(work, 'apply');
      const plan = writeApplyConfig(applyDir, o.creates);
      for (const p of o.parallelism) {
        await control(url, 'POST', 'reset', { seed: 'empty' });
        await seedAccount(url, { destinations: large.objs.destinations, monitors: [], alerts: [], groups: [] });
        await setLatency(url, o.latency);
        await clearLog(url);
        log(`apply of ${o.creates} creates at parallelism ${p} ...`);
        const r = await measure([BIN, 'apply', applyDir, '--url', url, '--auto-approve', '--parallelism', String(p)]);
        const requests = await requestCount(url);
        const complete = /Apply complete: (\d+) added, 0 changed, 0 destroyed in ([\d.]+) s \((\d+) requests?/.exec(r.stdout);
        const converged = /No changes\. The account matches the configuration\./.test(r.stdout.split('Checking ...')[1] ?? '');
        if (r.code !== 0 || !complete || Number(complete[1]) !== o.creates || !converged) {
          throw new Error(`apply at parallelism ${p}: exit ${r.code}\n${r.stdout.slice(-1500)}\n${r.stderr.slice(-1500)}`);
        }
        const writes = Number(complete[3]);
        // Every request is one latency; at most p run at once; a dependency level (and each of the
        // two account reads, before and after) cannot overlap the one before it.
        const rounds = requests / p + plan.depth + 2;
        const bound_ms = rounds * o.latency;
        const engine_ms = Number(complete[2]) * 1000;
        const engine_bound_ms = (writes / p + plan.depth) * o.latency;
        result.apply.push({
          parallelism: p,
          creates: o.creates,
          depth: plan.depth,
          requests,
          writes,
          wall_ms: r.wall_ms,
          cpu_ms: r.cpu_ms,
          max_rss_mb: r.max_rss_mb,
          bound_ms,
          ratio: r.wall_ms / bound_ms,
          engine_ms,
          engine_bound_ms,
          engine_ratio: engine_ms / engine_bound_ms,
        });
        log(`apply p=${p}: ${f0(r.wall_ms)} ms for ${requests} requests, bound ${f0(bound_ms)} ms (x${f2(r.wall_ms / bound_ms)})`);
      }
    }

    // ---- the large account at --huge monitors (issue 25) ---------------------------------------------
    if (o.huge > 0) {
      const t = performance.now();
      await control(url, 'POST', 'reset', { seed: 'empty' });
      await clearLog(url);
      const objs = liveObjects({ monitors: o.huge });
      const ids = await seedAccount(url, objs);
      const dir = join(work, 'huge');
      const expect = writeConfig(dir, 'base', { monitors: o.huge });
      log(`seeded ${ids.monitors.length} monitors, ${ids.alerts.length} alerts for the plan of ${o.huge} in ${f0(performance.now() - t)} ms`);
      await setLatency(url, o.latency);
      const rows = await interleaved(
        [
          { key: 'plan', ...planJob('plan, no changes', dir, url, expect) },
          { key: 'ref', ...floorJob('reference: fetch and JSON.parse the 4 lists (process)', url, true) },
        ],
        o.hugeReps,
        url,
        `huge ${o.huge}`,
      );
      result.huge = {
        monitors: o.huge,
        alerts: ids.alerts.length,
        groups: ids.groups.length,
        latency_ms: o.latency,
        rows,
        ratio: pairedRatio(rows.plan, rows.ref),
      };
      await control(url, 'POST', 'reset', { seed: 'empty' });
      rmSync(dir, { recursive: true, force: true });
    }

    // ---- apply under a rate limit (issue 25) ---------------------------------------------------------
    if (o.rateLimit > 0) {
      const applyDir = join(work, 'apply-limited');
      writeApplyConfig(applyDir, o.creates);
      const p = 8;
      await control(url, 'POST', 'reset', { seed: 'empty' });
      await seedAccount(url, { destinations: liveObjects({ monitors: 0 }).destinations, monitors: [], alerts: [], groups: [] });
      await control(url, 'POST', 'faults', { latency_ms: o.latency, rate_limit_per_second: o.rateLimit });
      await clearLog(url);
      log(`apply of ${o.creates} creates at parallelism ${p} under a limit of ${o.rateLimit} requests/s (about ${f0(o.creates / o.rateLimit)} s) ...`);
      const r = await measure([BIN, 'apply', applyDir, '--url', url, '--auto-approve', '--parallelism', String(p)]);
      const { requests: log429 } = await control(url, 'GET', 'requests');
      const complete = /Apply complete: (\d+) added, 0 changed, 0 destroyed/.exec(r.stdout);
      const converged = /No changes\. The account matches the configuration\./.test(r.stdout.split('Checking ...')[1] ?? '');
      if (r.code !== 0 || !complete || Number(complete[1]) !== o.creates || !converged) {
        throw new Error(`apply under a rate limit: exit ${r.code}\n${r.stdout.slice(-1500)}\n${r.stderr.slice(-1500)}`);
      }
      const requests = log429.length;
      const refused = log429.filter((e) => e.status === 429).length;
      // The limit's own bound: the requests it admitted, at its rate.
      const bound_ms = ((requests - refused) / o.rateLimit) * 1000;
      result.rate_limited = {
        per_second: o.rateLimit,
        parallelism: p,
        creates: o.creates,
        requests,
        refused,
        refused_share: refused / requests,
        wall_ms: r.wall_ms,
        bound_ms,
        ratio: r.wall_ms / bound_ms,
        cpu_ms: r.cpu_ms,
        max_rss_mb: r.max_rss_mb,
      };
      log(`apply under ${o.rateLimit}/s: ${f0(r.wall_ms)} ms for ${requests} requests (${refused} answered 429), bound ${f0(bound_ms)} ms (x${f2(r.wall_ms / bound_ms)})`);
      await control(url, 'DELETE', 'faults');
    }
  } finally {
    await throttle?.close();
    emu.stop();
    rmSync(work, { recursive: true, force: true });
  }
  result.load.end = loadavg()[0];
  result.total_s = (performance.now() - benchStart) / 1000;

  // ---- targets -------------------------------------------------------------------------------------
  const L = result.large?.rows;
  const plans = L ? [L.base, L.changed, L.renamed] : [];
  const worstPlan = L ? plans.reduce((a, b) => (b.wall_ms > a.wall_ms ? b : a)) : null;
  const worstRefRatio = L ? Math.max(...plans.map((p) => pairedRatio(p, L.ref))) : null;
  const worstFloorRatio = L ? Math.max(...plans.map((p) => pairedRatio(p, L.floor))) : null;
  const monsyncRows = [...plans, ...(L ? [L.validate] : []), ...(result.small ? [result.small.rows.plan] : []), ...(result.wan ? [result.wan.rows.plan] : [])];
  const peak = Math.max(...monsyncRows.map((p) => p.max_rss_mb), ...(result.apply ?? []).map((a) => a.max_rss_mb));
  const ap8 = (result.apply ?? []).find((a) => a.parallelism === 8);
  /** Per size, the slowest style's validate over the plain one's (paired); a refused style counts as not met. */
  const styleTargets = (result.styles ?? []).map((st) => {
    const others = ['anchors', 'files', 'json'].map((k) => st.rows[k]);
    const refused = others.filter((r) => r.refused);
    const worst = others.reduce((a, b) => (pairedRatio(b, st.rows.plain) > pairedRatio(a, st.rows.plain) ? b : a));
    return {
      target: `every style's validate of ${f0(st.monitors)} <= 1.5 x plain YAML's${refused.length ? ` (refused: ${refused.map((r) => r.name.split(' (')[0]).join(', ')})` : ` (slowest: ${worst.name.split(' (')[0]})`}`,
      value: pairedRatio(worst, st.rows.plain),
      limit: 1.5,
      forceNotMet: refused.length > 0,
    };
  });
  const targets = [
    ...(result.small
      ? [
          { target: `plan of ${f0(o.small)} (loopback) <= 2.0 x reference`, value: result.small.ratio, limit: 2 },
          { target: `plan of ${f0(o.small)} (loopback) <= 1.5 x reference (stretch)`, value: result.small.ratio, limit: 1.5 },
          { target: `plan of ${f0(o.small)} (loopback) <= 1.2 x the slower of reference and validate`, value: result.small.slower_ratio, limit: 1.2 },
        ]
      : []),
    ...(L ? [{ target: `plan of ${f0(o.monitors)} (slowest scenario) <= 2.0 x reference`, value: worstRefRatio, limit: 2 }] : []),
    ...(result.wan ? [{ target: `plan of ${f0(o.monitors)} at ${o.bandwidth} Mbit/s <= 2.0 x reference`, value: pairedRatio(result.wan.rows.plan, result.wan.rows.ref), limit: 2 }] : []),
    ...(L ? [{ target: `plan of ${f0(o.monitors)} (slowest scenario) <= 1.3 x floor (process)`, value: worstFloorRatio, limit: 1.3 }] : []),
    ...(result.per_resource
      ? [{ target: 'plan (slowest scenario) >= 10x faster than one read per resource', value: result.per_resource.wall_ms / worstPlan.wall_ms, limit: 10, atLeast: true }]
      : []),
    ...(ap8 ? [{ target: 'apply at parallelism 8 <= 1.25 x bound', value: ap8.ratio, limit: 1.25 }] : []),
    ...(monsyncRows.length ? [{ target: 'peak memory of monsync < 300 MB', value: peak, limit: 300, unit: 'MB' }] : []),
    { target: '`monsync --help` < 150 ms', value: result.help.wall_ms, limit: 150, unit: 'ms' },
    ...styleTargets,
    ...(result.hostile ? [{ target: `hostile file (5 anchors used 45,000 times) refused or read < 1 s`, value: result.hostile.wall_ms, limit: 1000, unit: 'ms' }] : []),
    ...(result.huge
      ? [
          { target: `plan of ${f0(result.huge.monitors)} at ${result.huge.latency_ms} ms latency < 5 s`, value: result.huge.rows.plan.wall_ms, limit: 5000, unit: 'ms' },
          { target: `plan of ${f0(result.huge.monitors)}: peak memory < 1 GB`, value: result.huge.rows.plan.max_rss_mb, limit: 1024, unit: 'MB' },
        ]
      : []),
    ...(result.rate_limited
      ? [
          { target: `apply under ${result.rate_limited.per_second} requests/s: 429 on <= 2% of requests`, value: result.rate_limited.refused_share * 100, limit: 2, unit: '%', orEqual: true },
          { target: `apply under ${result.rate_limited.per_second} requests/s <= 1.15 x admitted requests / limit`, value: result.rate_limited.ratio, limit: 1.15 },
        ]
      : []),
  ].map((x) => ({ ...x, met: !x.forceNotMet && (x.atLeast ? x.value >= x.limit : x.unit && !x.orEqual ? x.value < x.limit : x.value <= x.limit) }));
  result.targets = targets;

  // ---- print -----------------------------------------------------------------------------------------
  const lines = [];
  lines.push('');
  lines.push(`monsync scale benchmark, median of ${o.reps}; x ref = median over the repetitions of wall / the reference's wall in the same repetition`);
  lines.push(`commit ${result.commit ?? '?'}, node v${NODE.version}, ${load.cores} cores, load average ${f2(load.start)} at start, ${f2(result.load.end)} at end`);
  if (result.env_removed.length) lines.push(`measured without ${result.env_removed.join(' and ')} (set in the bench's environment)`);
  if (result.small) {
    const a = result.small.account;
    lines.push('');
    lines.push(`loopback, no injected latency: ${a.managed_monitors} managed + ${a.unmanaged_monitors} unmanaged monitors, ${a.alerts} alerts, ${a.groups} groups`);
    lines.push(profileTable(`plan of ${f0(a.managed_monitors)}`, Object.values(result.small.rows), result.small.rows.ref));
  }
  if (result.accounts) {
    const x = result.accounts;
    lines.push('');
    lines.push(`${x.count} declared accounts sharing the files of ${f0(x.monitors)} monitors (${x.files} files), each through a port of its own to the same emulator account: x one = paired ratio to one account's plan`);
    lines.push(
      table(
        ['all', 'one', 'validate'].map((k) => [x.rows[k].name, f0(x.rows[k].wall_ms), k === 'one' ? '1.00' : f2(pairedRatio(x.rows[k], x.rows.one)), f0(x.rows[k].requests), f0(x.rows[k].cpu_ms), f0(x.rows[k].max_rss_mb)]),
        ['accounts', 'wall ms', 'x one', 'requests', 'cpu ms', 'peak MB'],
      ),
    );
  }
  const a = result.account;
  if (L) {
  const a = result.account;
  lines.push('');
  lines.push(
    `large account: ${a.managed_monitors} managed + ${a.unmanaged_monitors} unmanaged monitors, ${a.alerts} alerts, ${a.groups} groups, ` +
      `${a.destinations} destinations; latency ${o.latency} ms per request`,
  );
  const largeRows = [L.base, L.changed, L.renamed, L.validate, L.floor, L.ref, L.fetch];
  lines.push(
    table(
      largeRows.map((p) => [p.name, f0(p.wall_ms), f2(pairedRatio(p, L.ref)), f2(pairedRatio(p, L.floor)), f0(p.requests), f0(p.cpu_ms), f0(p.max_rss_mb)]),
      [`plan of ${f0(a.managed_monitors)}`, 'wall ms', 'x ref', 'x floor', 'requests', 'cpu ms', 'peak MB'],
    ),
  );
  const phased = plans.filter((p) => p.phases);
  if (phased.length) {
    lines.push('');
    lines.push(
      table(
        phased.map((p) => [p.name, f0(p.phases.config_ms), f0(p.phases.account_ms), f0(p.phases.diff_ms)]),
        ['inside a plan (MONSYNC_TIMINGS, median ms)', 'configuration', 'account read (alongside)', 'diff'],
      ),
    );
  }
  }
  if (result.wan) {
    const w = result.wan;
    lines.push('');
    lines.push(`the large account over a ${w.bandwidth_mbit} Mbit/s link, latency ${w.latency_ms} ms: ${f1(w.bytes / 1e6)} MB of lists, ${f0(w.wire_ms)} ms on the wire`);
    lines.push(profileTable(`plan of ${f0(a.managed_monitors)}, ${w.bandwidth_mbit} Mbit/s`, Object.values(w.rows), w.rows.ref));
  }
  if (result.per_resource) {
    const pr = result.per_resource;
    lines.push('');
    lines.push(`one read per resource, p=10${pr.extrapolated ? ' (scaled)' : ''}: ${f0(pr.wall_ms)} ms, ${f0(pr.requests)} requests, cpu ${f0(pr.cpu_ms)} ms, peak ${f0(pr.max_rss_mb)} MB`);
  }
  if (result.apply) {
    lines.push('');
    lines.push(
      table(
        result.apply.map((x) => [
          `apply ${x.creates} creates, p=${x.parallelism}`,
          f0(x.wall_ms),
          f0(x.requests),
          f0(x.bound_ms),
          f2(x.ratio),
          f0(x.engine_ms),
          f2(x.engine_ratio),
          f0(x.cpu_ms),
          f0(x.max_rss_mb),
        ]),
        ['apply (whole process)', 'wall ms', 'requests', 'bound ms', 'x bound', 'engine ms', 'x engine bound', 'cpu ms', 'peak MB'],
      ),
    );
    lines.push(`bound = (requests / parallelism + ${result.apply[0].depth} dependency levels + 2 account reads) x ${o.latency} ms; engine bound = (writes / parallelism + ${result.apply[0].depth}) x ${o.latency} ms`);
  }
  for (const st of result.styles ?? []) {
    const R = st.rows;
    lines.push('');
    lines.push(`configuration styles, ${f0(st.monitors)} monitors (${f0(st.monitors * 2)} alerts, 500 groups): \`validate\`, x plain = paired ratio to the plain YAML`);
    lines.push(
      table(
        ['plain', 'anchors', 'files', 'json'].map((k) => [
          R[k].name,
          f0(R[k].wall_ms),
          k === 'plain' ? '1.00' : f2(pairedRatio(R[k], R.plain)),
          f0(R[k].cpu_ms),
          f0(R[k].max_rss_mb),
          R[k].refused ? `refused: ${R[k].refused}` : f1((st.written[k]?.bytes ?? 0) / 1e6) === '0.0' ? '' : `${f1(st.written[k].bytes / 1e6)} MB`,
        ]),
        [`validate of ${f0(st.monitors)}`, 'wall ms', 'x plain', 'cpu ms', 'peak MB', ''],
      ),
    );
  }
  if (result.hostile) {
    const h = result.hostile;
    lines.push('');
    lines.push(`hostile file, 5 anchors used 45,000 times (${f0(h.bytes / 1000)} KB): validate ${f0(h.wall_ms)} ms, peak ${f0(h.max_rss_mb)} MB: ${h.outcome}`);
  }
  if (result.huge) {
    const hg = result.huge;
    lines.push('');
    lines.push(`the large account at ${f0(hg.monitors)} monitors (${f0(hg.alerts)} alerts, ${f0(hg.groups)} groups), latency ${hg.latency_ms} ms, median of ${o.hugeReps}`);
    lines.push(profileTable(`plan of ${f0(hg.monitors)}`, Object.values(hg.rows), hg.rows.ref));
  }
  if (result.rate_limited) {
    const x = result.rate_limited;
    lines.push('');
    lines.push(
      `apply of ${f0(x.creates)} creates at parallelism ${x.parallelism} under the emulator's limit of ${x.per_second} requests/s (latency ${o.latency} ms): ` +
        `${f0(x.wall_ms)} ms, ${f0(x.requests)} requests, ${x.refused} answered 429 (${f1(x.refused_share * 100)}%), bound (admitted requests / limit) ${f0(x.bound_ms)} ms, x${f2(x.ratio)}`,
    );
  }
  lines.push('');
  lines.push(`--help: ${f0(result.help.wall_ms)} ms (node -e 0 on this machine: ${f0(result.help.node_startup_ms)} ms)`);
  if (result.emulator) lines.push(
    `emulator, 0 ms latency: ${LIST_PATHS.map((p) => `${p.replace('/v1/Config/', '').replace(/\/$/, '')} ${f0(result.emulator[p].ms)} ms / ${f1(result.emulator[p].bytes / 1e6)} MB`).join(', ')}`,
  );
  lines.push('');
  lines.push(
    table(
      targets.map((x) => [x.target, x.unit === '%' ? `${f1(x.value)} %` : x.unit ? `${f0(x.value)} ${x.unit}` : `${f2(x.value)}x`, x.met ? 'met' : 'NOT MET']),
      ['target', 'measured', ''],
    ),
  );
  if (load.start > load.cores || result.load.end > load.cores) {
    lines.push('');
    lines.push(`note: the machine was loaded (load average above ${load.cores}); timings are noisy.`);
  }
  lines.push(`total bench time ${f0(result.total_s)} s`);
  process.stdout.write(`${lines.join('\n')}\n`);

  // ---- save, and compare with the previous run ---------------------------------------------------
  mkdirSync(dirname(o.out), { recursive: true });
  if (existsSync(o.out)) {
    try {
      const prev = JSON.parse(readFileSync(o.out, 'utf8'));
      const cmp = [];
      const po = prev.options ?? {};
      if (prev.version !== result.version) throw new Error('the previous run was made by another version of the bench');
      if (po.monitors !== o.monitors || po.latency !== o.latency || po.creates !== o.creates || po.small !== o.small || po.bandwidth !== o.bandwidth) {
        throw new Error('the previous run measured another account, latency or link');
      }
      const pairs = [
        ...(result.small && prev.small ? [[`loopback ${f0(o.small)}: plan`, prev.small.rows.plan, result.small.rows.plan]] : []),
        ...(L ? ['base', 'changed', 'renamed'].map((k) => [L[k].name, prev.large?.rows?.[k], L[k]]) : []),
        ...(result.wan && prev.wan ? [[`${o.bandwidth} Mbit/s: plan`, prev.wan.rows.plan, result.wan.rows.plan]] : []),
      ];
      for (const [name, q, p] of pairs) if (q) cmp.push([name, f0(q.wall_ms), f0(p.wall_ms), f2(p.wall_ms / q.wall_ms)]);
      for (const x of result.apply ?? []) {
        const q = prev.apply?.find((y) => y.parallelism === x.parallelism);
        if (q) cmp.push([`apply p=${x.parallelism}`, f0(q.wall_ms), f0(x.wall_ms), f2(x.wall_ms / q.wall_ms)]);
      }
      if (cmp.length) {
        process.stdout.write(`\ncompared with the previous run (${prev.date}):\n${table(cmp, ['', 'before ms', 'now ms', 'now / before'])}\n`);
      }
      writeFileSync(o.out.replace(/\.json$/, '.previous.json'), JSON.stringify(prev, null, 2));
    } catch (err) {
      // An unreadable or incomparable previous result is only a missing comparison.
      process.stdout.write(`\nno comparison with the previous run: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
  writeFileSync(o.out, JSON.stringify(result, null, 2));
  process.stdout.write(`\nfigures written to ${o.out}\n`);
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
