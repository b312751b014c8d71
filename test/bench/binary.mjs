#!/usr/bin/env node
/**
 * The single executable's size and start-up (issue 43), beside the same monsync run by node:
 *
 *   npm run bench:binary        # builds it (npm run build:binary), then prints the figures
 *
 * Each command (`--version`, `--help`, `validate examples/realistic`) runs as
 * - `monsync-linux-x64` with the SEA code cache (what `npm run build:binary` makes),
 * - the same executable built without it (--no-code-cache, into a temporary directory),
 * - `node bin/monsync.js` on the pinned Node 26 the executable is made of (scripts/node-line.mjs 26),
 * and `node -e 0` on that Node is the floor. Rounds are interleaved (one run of each variant per
 * round, so a change of load hits all alike); the figures are medians of CPU time (user + system of
 * the child, from bash's `times`, which reads the kernel's accounting of the reaped child) and of
 * wall time. The load average is printed at the start and the end: compare figures only of quiet runs.
 *
 * BENCH_ROUNDS sets the number of rounds (default 21).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const BINARY = join(ROOT, 'monsync-linux-x64');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 21);

function fail(message) {
  rmSync(work, { recursive: true, force: true });
  process.stderr.write(`bench:binary: ${message}\n`);
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'monsync-bench-binary-'));

/** Runs argv once under bash; returns CPU ms of the child (bash's `times`) and wall ms. */
function measure(argv) {
  const script = 'start=$EPOCHREALTIME; "$@" >/dev/null 2>"$BENCH_ERR"; rc=$?; end=$EPOCHREALTIME; times; echo "$rc $start $end"';
  const env = { PATH: process.env.PATH, NO_COLOR: '1', BENCH_ERR: join(work, 'stderr') };
  // stdin /dev/null, as in a CI step: a pipe there costs node about 100 ms of CPU at start (measured).
  const r = spawnSync('bash', ['-c', script, 'bench', ...argv], { cwd: ROOT, encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = r.stdout.trim().split('\n');
  const [rc, start, end] = lines[2].split(' ');
  if (rc !== '0') fail(`${argv.join(' ')} exited ${rc}: ${readFileSync(env.BENCH_ERR, 'utf8').trim()}`);
  // `times`: the shell's own user/sys, then its children's: "0m0.041s 0m0.012s".
  const secs = (s) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(s);
    return Number(m[1]) * 60 + Number(m[2]);
  };
  const [user, sys] = lines[1].split(' ').map(secs);
  return { cpu: (user + sys) * 1000, wall: (Number(end) - Number(start)) * 1000 };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const node26 = spawnSync(process.execPath, [join(ROOT, 'scripts', 'node-line.mjs'), '26'], { encoding: 'utf8' });
if (node26.status !== 0) fail(node26.stderr.trim());
const NODE = node26.stdout.trim();
try {
  statSync(BINARY);
} catch {
  fail('no monsync-linux-x64: run `npm run build:binary` first (npm run bench:binary does)');
}

try {
  const noCache = join(work, 'monsync-no-code-cache');
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-binary.mjs'), '--no-code-cache', '--output', noCache], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) fail('the build without code cache failed');

  const commands = [['--version'], ['--help'], ['validate', 'examples/realistic']];
  const variants = [{ name: '`node -e 0` (Node 26)', argv: [NODE, '-e', '0'], floor: true }];
  for (const args of commands) {
    const label = args.join(' ');
    variants.push({ name: `\`${label}\`: executable, code cache`, argv: [BINARY, ...args] });
    variants.push({ name: `\`${label}\`: executable, no code cache`, argv: [noCache, ...args] });
    variants.push({ name: `\`${label}\`: \`node bin/monsync.js\` (Node 26)`, argv: [NODE, join(ROOT, 'bin', 'monsync.js'), ...args] });
  }
  const load = [loadavg()[0]];
  for (const v of variants) measure(v.argv); // warm the page cache: every variant reads its files once first
  const samples = variants.map(() => ({ cpu: [], wall: [] }));
  for (let round = 0; round < ROUNDS; round++) {
    variants.forEach((v, i) => {
      const m = measure(v.argv);
      samples[i].cpu.push(m.cpu);
      samples[i].wall.push(m.wall);
    });
  }
  load.push(loadavg()[0]);

  const mb = (p) => (statSync(p).size / 1e6).toFixed(1);
  const out = [];
  out.push(`monsync-linux-x64: ${mb(BINARY)} MB with the code cache, ${mb(noCache)} MB without; node ${mb(NODE)} MB as fetched`);
  out.push(`${ROUNDS} interleaved rounds; load average ${load[0].toFixed(2)} at the start, ${load[1].toFixed(2)} at the end (${cpus().length} cores)`);
  out.push('');
  out.push('| run | CPU ms (median) | wall ms (median) |');
  out.push('|---|---:|---:|');
  variants.forEach((v, i) => out.push(`| ${v.name} | ${median(samples[i].cpu).toFixed(0)} | ${median(samples[i].wall).toFixed(0)} |`));
  process.stdout.write(`${out.join('\n')}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
