/**
 * Builds the CLI (`tsc -p tsconfig.build.json`) for tests that run `node bin/monsync.js` as a user
 * would, into a target package directory:
 *
 * - the repository itself (ROOT): the build goes to dist/, as `npm run build` does;
 * - any other directory: a private package (bin/ copied, dist/ compiled there, schemas/ linked,
 *   package.json copied), so CLI processes running from it never see another suite rebuild dist/.
 *
 * Test files run in parallel workers: a lock per target makes them build one at a time, and a
 * stamp of the sources skips a build whose output is already there, so no test rewrites a
 * target's dist/ while another one is running the CLI from it.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

/** A lock older than any build is left over from a killed run. */
const STALE_LOCK_MS = 240_000;
const LOCK_WAIT_MS = 300_000;

function sourcesHash(): string {
  const h = createHash('sha256');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else {
        h.update(relative(ROOT, p));
        h.update(readFileSync(p));
      }
    }
  };
  walk(join(ROOT, 'src'));
  for (const f of ['tsconfig.json', 'tsconfig.build.json', 'bin/monsync.js']) h.update(readFileSync(join(ROOT, f)));
  return h.digest('hex');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function withLock<T>(lock: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      } catch {
        // Released meanwhile.
      }
      if (Date.now() > deadline) throw new Error(`waited too long for the build lock ${lock}`);
      await sleep(200);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Where the CLI of a target package directory starts. */
export function binOf(targetDir: string): string {
  return join(targetDir, 'bin', 'monsync.js');
}

/**
 * Builds the CLI into `targetDir` (ROOT: the repository's dist/) unless it already holds the
 * build of the current sources. Returns the path of its bin/monsync.js.
 */
export async function buildCliInto(targetDir: string): Promise<string> {
  const target = resolve(targetDir);
  const inRepo = target === resolve(ROOT);
  const main = join(target, 'dist', 'cli', 'main.js');
  // Lock and stamp live outside the target: the repository gets no stray files.
  // Keyed by the real path: two paths to one directory share its lock and stamp.
  const key = createHash('sha256').update(join(realpathSync(dirname(target)), basename(target))).digest('hex').slice(0, 12);
  const lock = join(tmpdir(), `monsync-build-${key}.lock`);
  const stamp = join(tmpdir(), `monsync-build-${key}.stamp`);

  await withLock(lock, async () => {
    const hash = sourcesHash();
    // The stamp names the output file's mtime too: a build made by someone else (npm run build) is not ours.
    if (existsSync(main) && existsSync(stamp)) {
      const [stamped, mtime] = readFileSync(stamp, 'utf8').split(' ');
      if (stamped === hash && Number(mtime) === statSync(main).mtimeMs) return;
    }
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = [tsc, '-p', 'tsconfig.build.json'];
    if (!inRepo) {
      mkdirSync(join(target, 'bin'), { recursive: true });
      args.push('--outDir', join(target, 'dist'), '--incremental', '--tsBuildInfoFile', join(target, 'tsbuildinfo'));
    }
    const { code, output } = await new Promise<{ code: number; output: string }>((done) => {
      const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      child.on('exit', (c) => done({ code: c ?? 1, output }));
    });
    // Type errors elsewhere in the tree still emit JavaScript; only a build without output is fatal.
    if (code !== 0 && !existsSync(main)) throw new Error(`build failed:\n${output}`);
    if (code !== 0) process.stderr.write(`build reported errors (output emitted anyway):\n${output}\n`);
    if (!inRepo) {
      copyFileSync(join(ROOT, 'bin', 'monsync.js'), binOf(target));
      // dist/config/schema.js reads ../../schemas/monsync.schema.json; export looks for package.json.
      if (!existsSync(join(target, 'schemas'))) symlinkSync(join(ROOT, 'schemas'), join(target, 'schemas'), 'dir');
      copyFileSync(join(ROOT, 'package.json'), join(target, 'package.json'));
    }
    writeFileSync(stamp, `${hash} ${statSync(main).mtimeMs}`);
  });
  return binOf(target);
}
