/**
 * `npm run bench`: the scale benchmark (issue 8).
 *
 * Starts the emulator as its own process, seeds a large account through the control API, injects
 * a latency on every API call, and measures monsync as a real child process
 * (`node bin/monsync.js plan|apply ...`); CPU time and peak RSS come from the child itself through
 * a preloaded probe (test/bench/probe.mjs, getrusage at exit). Requests are counted by the
 * emulator's request log, not by monsync.
 *
 * Options: --latency <ms> (50)  --reps <n> (3)  --monitors <n> (10000)  --creates <n> (1000)
 *          --parallelism <list> (1,8,32)  --per-resource-sample <n> (all)  --skip-apply
 *          --skip-per-resource  --out <file> (bench-results/latest.json)
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { control, liveObjects, seedAccount, writeApplyConfig, writeConfig } from './account.mjs';
import { LIST_PATHS, makeGetter } from './http-get.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = join(ROOT, 'bin/monsync.js');
const PROBE = pathToFileURL(join(ROOT, 'test/bench/probe.mjs')).href;
const CREDS = { MONSYNC_USERNAME: 'demo@example.com', MONSYNC_PASSWORD: 'demo-password' };

// ---- options -----------------------------------------------------------------------------------
function parseArgs(argv) {
  const o = {
    latency: 50,
    reps: 3,
    monitors: 10_000,
    creates: 1000,
    parallelism: [1, 8, 32],
    perResourceSample: null,
    skipApply: false,
    skipPerResource: false,
    out: join(ROOT, 'bench-results/latest.json'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = () => {
      const x = argv[++i];
      if (x === undefined) throw new Error(`${a} needs a value`);
      return x;
    };
    if (a === '--latency') o.latency = Number(v());
    else if (a === '--reps') o.reps = Number(v());
    else if (a === '--monitors') o.monitors = Number(v());
    else if (a === '--creates') o.creates = Number(v());
    else if (a === '--parallelism') o.parallelism = v().split(',').map(Number);
    else if (a === '--per-resource-sample') o.perResourceSample = Number(v());
    else if (a === '--skip-apply') o.skipApply = true;
    else if (a === '--skip-per-resource') o.skipPerResource = true;
    else if (a === '--out') o.out = resolve(v());
    else throw new Error(`unknown option ${a}`);
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
  const child = spawn(process.execPath, nodeArgs, {
    cwd: ROOT,
    env: { ...process.env, ...CREDS, NO_COLOR: '1', MONSYNC_BENCH_PROBE: probeFile, ...env },
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

async function startEmulatorProcess() {
  const child = spawn(process.execPath, [BIN, 'emulator', '--port', '0', '--seed', 'empty'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise((res, rej) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const m = /listening on (\S+)/.exec(buf);
      if (m) res(m[1]);
    });
    child.on('exit', (c) => rej(new Error(`emulator exited with ${c} before listening`)));
  });
  child.stderr.resume();
  return { url, child, stop: () => child.kill('SIGTERM') };
}

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

async function timeDirectFetch(url, latency) {
  const { get, close } = makeGetter(url, { user: CREDS.MONSYNC_USERNAME, password: CREDS.MONSYNC_PASSWORD, sockets: 4 });
  const per = {};
  const t0 = performance.now();
  await Promise.all(
    LIST_PATHS.map(async (p) => {
      const t = performance.now();
      const body = await get(p);
      per[p] = { ms: performance.now() - t, bytes: body.length };
    }),
  );
  const ms = performance.now() - t0;
  close();
  return { ms, per, latency };
}

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

function summaryOf(stdout) {
  if (/No changes\. The account matches the configuration\./.test(stdout)) return { create: 0, update: 0, delete: 0 };
  const m = /Plan: (\d+) to add, (\d+) to change, (\d+) to destroy\./.exec(stdout);
  return m ? { create: Number(m[1]), update: Number(m[2]), delete: Number(m[3]) } : null;
}
const same = (a, b) => a && b && a.create === b.create && a.update === b.update && a.delete === b.delete;

// ---- main ------------------------------------------------------------------------------------------
async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (!existsSync(join(ROOT, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const benchStart = performance.now();
  const load = { start: loadavg()[0], cores: cpus().length };
  log(`monsync bench: ${o.monitors} monitors, latency ${o.latency} ms, ${o.reps} reps (load ${load.start.toFixed(2)} on ${load.cores} cores)`);
  const work = mkdtempSync(join(tmpdir(), 'monsync-bench-'));
  const emu = await startEmulatorProcess();
  const url = emu.url;
  const onSignal = () => {
    emu.stop();
    rmSync(work, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const result = { version: 1, date: new Date().toISOString(), commit: gitCommit(), node: process.version, options: { ...o, out: undefined }, load };
  try {
    // ---- seed the large account ---------------------------------------------------------------
    let t = performance.now();
    const objs = liveObjects({ monitors: o.monitors });
    const ids = await seedAccount(url, objs);
    const sz = objs.sizes;
    result.account = {
      managed_monitors: sz.monitors,
      unmanaged_monitors: sz.unmanagedSmtp + sz.otherType,
      alerts: ids.alerts.length,
      groups: ids.groups.length,
      destinations: ids.destinations.length,
      seed_ms: performance.now() - t,
    };
    log(`seeded ${ids.monitors.length} monitors, ${ids.alerts.length} alerts, ${ids.groups.length} groups, ${ids.destinations.length} destinations in ${f0(result.account.seed_ms)} ms`);
    const expects = {};
    for (const s of ['base', 'changed', 'renamed']) expects[s] = writeConfig(join(work, s), s, { monitors: o.monitors });

    // ---- the emulator itself, without injected latency ---------------------------------------
    await control(url, 'DELETE', 'faults');
    const emuRuns = [];
    await timeEachList(url); // warm-up: the emulator's first answers run unoptimised code
    for (let i = 0; i < 3; i++) emuRuns.push(await timeEachList(url));
    result.emulator = Object.fromEntries(
      LIST_PATHS.map((p) => [p, { ms: median(emuRuns.map((r) => r.per[p].ms)), bytes: emuRuns[0].per[p].bytes }]),
    );
    log(`emulator list endpoints at 0 ms latency: ${LIST_PATHS.map((p) => `${p} ${f0(result.emulator[p].ms)} ms (${f1(result.emulator[p].bytes / 1e6)} MB)`).join(', ')}`);
    await setLatency(url, o.latency);

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

    // ---- floor -----------------------------------------------------------------------------------
    const floorRuns = [];
    const fetchRuns = [];
    const parseRuns = [];
    for (let i = 0; i < o.reps + 2; i++) {
      await clearLog(url);
      const r = await measure([join(ROOT, 'test/bench/floor.mjs'), url]);
      if (r.code !== 0) throw new Error(`floor failed: ${r.stderr}`);
      floorRuns.push({ ...r, requests: await requestCount(url) });
      fetchRuns.push((await timeDirectFetch(url, o.latency)).ms);
      const q = await measure([join(ROOT, 'test/bench/floor.mjs'), url, '--parse']);
      if (q.code !== 0) throw new Error(`floor --parse failed: ${q.stderr}`);
      parseRuns.push(q);
    }
    result.floor_parse = {
      wall_ms: median(parseRuns.map((r) => r.wall_ms)),
      cpu_ms: median(parseRuns.map((r) => r.cpu_ms)),
      max_rss_mb: median(parseRuns.map((r) => r.max_rss_mb)),
    };
    result.floor = {
      wall_ms: median(floorRuns.map((r) => r.wall_ms)),
      fetch_only_ms: median(fetchRuns),
      cpu_ms: median(floorRuns.map((r) => r.cpu_ms)),
      max_rss_mb: median(floorRuns.map((r) => r.max_rss_mb)),
      requests: floorRuns[0].requests,
    };
    log(`floor: process ${f0(result.floor.wall_ms)} ms, fetch only ${f0(result.floor.fetch_only_ms)} ms, fetch and JSON.parse ${f0(result.floor_parse.wall_ms)} ms`);

    // ---- the configuration alone (validate: same files, no network) -----------------------------
    const validateRuns = [];
    for (let i = 0; i < o.reps; i++) {
      const r = await measure([BIN, 'validate', join(work, 'base')]);
      if (r.code !== 0) throw new Error(`validate failed: ${r.stderr.slice(0, 2000)}`);
      validateRuns.push(r);
    }
    result.validate = {
      wall_ms: median(validateRuns.map((r) => r.wall_ms)),
      cpu_ms: median(validateRuns.map((r) => r.cpu_ms)),
      max_rss_mb: Math.max(...validateRuns.map((r) => r.max_rss_mb)),
    };
    log(`validate (config load only): ${f0(result.validate.wall_ms)} ms, cpu ${f0(result.validate.cpu_ms)} ms, peak ${f0(result.validate.max_rss_mb)} MB`);

    // ---- plans -----------------------------------------------------------------------------------
    result.plans = {};
    const planNames = { base: 'plan, no changes', changed: 'plan, 1% changed', renamed: 'plan, 100 renamed' };
    for (let rep = 0; rep < o.reps; rep++) {
      // Scenarios interleaved, so a burst of load on the machine does not land on one of them only.
      for (const s of ['base', 'changed', 'renamed']) {
        await clearLog(url);
        const r = await measure([BIN, 'plan', join(work, s), '--url', url], { env: { MONSYNC_TIMINGS: '1' } });
        const got = summaryOf(r.stdout);
        const timings = /Timings: configuration (\d+) ms, account read (\d+) ms .*diff (\d+) ms/.exec(r.stderr);
        if (timings) r.phases = { config_ms: Number(timings[1]), account_ms: Number(timings[2]), diff_ms: Number(timings[3]) };
        if (r.code !== 0 || !same(got, expects[s])) {
          throw new Error(`${planNames[s]}: exit ${r.code}, plan ${JSON.stringify(got)} where ${JSON.stringify(expects[s])} was expected\n${r.stderr.slice(0, 2000)}`);
        }
        (result.plans[s] ??= { name: planNames[s], runs: [] }).runs.push({ ...r, stdout: undefined, stderr: undefined, requests: await requestCount(url) });
        log(`${planNames[s]} #${rep + 1}: ${f0(r.wall_ms)} ms, cpu ${f0(r.cpu_ms)} ms, peak ${f0(r.max_rss_mb)} MB`);
      }
    }
    for (const p of Object.values(result.plans)) {
      p.wall_ms = median(p.runs.map((r) => r.wall_ms));
      p.cpu_ms = median(p.runs.map((r) => r.cpu_ms));
      p.max_rss_mb = Math.max(...p.runs.map((r) => r.max_rss_mb));
      p.requests = median(p.runs.map((r) => r.requests));
      if (p.runs.every((r) => r.phases)) {
        p.phases = Object.fromEntries(['config_ms', 'account_ms', 'diff_ms'].map((k) => [k, median(p.runs.map((r) => r.phases[k]))]));
      }
    }

    // ---- one read per managed resource -----------------------------------------------------------
    if (!o.skipPerResource) {
      const managed = ids.monitors.slice(0, sz.monitors);
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

    // ---- apply -------------------------------------------------------------------------------------
    if (!o.skipApply) {
      result.apply = [];
      const applyDir = join(work, 'apply');
      const plan = writeApplyConfig(applyDir, o.creates);
      for (const p of o.parallelism) {
        await control(url, 'POST', 'reset', { seed: 'empty' });
        await seedAccount(url, { destinations: objs.destinations, monitors: [], alerts: [], groups: [] });
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
  } finally {
    emu.stop();
    rmSync(work, { recursive: true, force: true });
  }
  result.load.end = loadavg()[0];
  result.total_s = (performance.now() - benchStart) / 1000;

  // ---- targets -------------------------------------------------------------------------------------
  const big = result.plans.base;
  const worstPlan = Math.max(...Object.values(result.plans).map((p) => p.wall_ms));
  const peak = Math.max(...Object.values(result.plans).map((p) => p.max_rss_mb), ...(result.apply ?? []).map((a) => a.max_rss_mb));
  const ap8 = (result.apply ?? []).find((a) => a.parallelism === 8);
  const targets = [
    { target: 'plan (no changes) <= 1.3 x floor (process)', value: big.wall_ms / result.floor.wall_ms, limit: 1.3 },
    { target: 'plan (slowest scenario) <= 1.3 x floor (process)', value: worstPlan / result.floor.wall_ms, limit: 1.3 },
    ...(result.per_resource
      ? [{ target: 'plan (slowest scenario) >= 10x faster than one read per resource', value: result.per_resource.wall_ms / worstPlan, limit: 10, atLeast: true }]
      : []),
    ...(ap8 ? [{ target: 'apply at parallelism 8 <= 1.25 x bound', value: ap8.ratio, limit: 1.25 }] : []),
    { target: 'peak memory of monsync < 300 MB', value: peak, limit: 300, unit: 'MB' },
    { target: '`monsync --help` < 150 ms', value: result.help.wall_ms, limit: 150, unit: 'ms' },
  ].map((x) => ({ ...x, met: x.atLeast ? x.value >= x.limit : x.unit ? x.value < x.limit : x.value <= x.limit }));
  result.targets = targets;

  // ---- print -----------------------------------------------------------------------------------------
  const planRows = Object.values(result.plans).map((p) => [
    p.name,
    f0(p.wall_ms),
    f2(p.wall_ms / result.floor.wall_ms),
    f2(p.wall_ms / result.floor.fetch_only_ms),
    f0(p.requests),
    f0(p.cpu_ms),
    f0(p.max_rss_mb),
  ]);
  planRows.push(['validate: load the YAML only, no network', f0(result.validate.wall_ms), f2(result.validate.wall_ms / result.floor.wall_ms), f2(result.validate.wall_ms / result.floor.fetch_only_ms), '0', f0(result.validate.cpu_ms), f0(result.validate.max_rss_mb)]);
  planRows.push(['floor: fetch the 4 lists (process)', f0(result.floor.wall_ms), '1.00', f2(result.floor.wall_ms / result.floor.fetch_only_ms), f0(result.floor.requests), f0(result.floor.cpu_ms), f0(result.floor.max_rss_mb)]);
  planRows.push(['reference: fetch and JSON.parse the 4 lists (process)', f0(result.floor_parse.wall_ms), f2(result.floor_parse.wall_ms / result.floor.wall_ms), f2(result.floor_parse.wall_ms / result.floor.fetch_only_ms), '4', f0(result.floor_parse.cpu_ms), f0(result.floor_parse.max_rss_mb)]);
  planRows.push(['floor: fetch the 4 lists (in bench)', f0(result.floor.fetch_only_ms), f2(result.floor.fetch_only_ms / result.floor.wall_ms), '1.00', '4', '-', '-']);
  if (result.per_resource) {
    const pr = result.per_resource;
    planRows.push([
      `one read per resource, p=10${pr.extrapolated ? ' (scaled)' : ''}`,
      f0(pr.wall_ms),
      f2(pr.wall_ms / result.floor.wall_ms),
      f2(pr.wall_ms / result.floor.fetch_only_ms),
      f0(pr.requests),
      f0(pr.cpu_ms),
      f0(pr.max_rss_mb),
    ]);
  }
  const lines = [];
  lines.push('');
  lines.push(
    `monsync scale benchmark: ${result.account.managed_monitors} managed + ${result.account.unmanaged_monitors} unmanaged monitors, ` +
      `${result.account.alerts} alerts, ${result.account.groups} groups, ${result.account.destinations} destinations; ` +
      `latency ${o.latency} ms per request; median of ${o.reps}`,
  );
  lines.push(`commit ${result.commit ?? '?'}, node ${process.version}, ${load.cores} cores, load average ${f2(load.start)} at start, ${f2(result.load.end)} at end`);
  lines.push('');
  lines.push(table(planRows, ['plan of the large account', 'wall ms', 'x floor', 'x fetch', 'requests', 'cpu ms', 'peak MB']));
  const phased = Object.values(result.plans).filter((p) => p.phases);
  if (phased.length) {
    lines.push('');
    lines.push(
      table(
        phased.map((p) => [p.name, f0(p.phases.config_ms), f0(p.phases.account_ms), f0(p.phases.diff_ms)]),
        ['inside a plan (MONSYNC_TIMINGS, median ms)', 'configuration', 'account read (alongside)', 'diff'],
      ),
    );
  }
  if (result.apply) {
    lines.push('');
    lines.push(
      table(
        result.apply.map((a) => [
          `apply ${a.creates} creates, p=${a.parallelism}`,
          f0(a.wall_ms),
          f0(a.requests),
          f0(a.bound_ms),
          f2(a.ratio),
          f0(a.engine_ms),
          f2(a.engine_ratio),
          f0(a.cpu_ms),
          f0(a.max_rss_mb),
        ]),
        ['apply (whole process)', 'wall ms', 'requests', 'bound ms', 'x bound', 'engine ms', 'x engine bound', 'cpu ms', 'peak MB'],
      ),
    );
    lines.push(`bound = (requests / parallelism + ${result.apply[0].depth} dependency levels + 2 account reads) x ${o.latency} ms; engine bound = (writes / parallelism + ${result.apply[0].depth}) x ${o.latency} ms`);
  }
  lines.push('');
  lines.push(`--help: ${f0(result.help.wall_ms)} ms (node -e 0 on this machine: ${f0(result.help.node_startup_ms)} ms)`);
  lines.push(
    `emulator, 0 ms latency: ${LIST_PATHS.map((p) => `${p.replace('/v1/Config/', '').replace(/\/$/, '')} ${f0(result.emulator[p].ms)} ms / ${f1(result.emulator[p].bytes / 1e6)} MB`).join(', ')}`,
  );
  lines.push('');
  lines.push(
    table(
      targets.map((x) => [x.target, x.unit ? `${f0(x.value)} ${x.unit}` : `${f2(x.value)}x`, x.met ? 'met' : 'NOT MET']),
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
      if (po.monitors !== o.monitors || po.latency !== o.latency || po.creates !== o.creates) {
        throw new Error('the previous run measured another account or latency');
      }
      for (const [k, p] of Object.entries(result.plans)) {
        const q = prev.plans?.[k];
        if (q) cmp.push([p.name, f0(q.wall_ms), f0(p.wall_ms), f2(p.wall_ms / q.wall_ms)]);
      }
      for (const a of result.apply ?? []) {
        const q = prev.apply?.find((x) => x.parallelism === a.parallelism);
        if (q) cmp.push([`apply p=${a.parallelism}`, f0(q.wall_ms), f0(a.wall_ms), f2(a.wall_ms / q.wall_ms)]);
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
