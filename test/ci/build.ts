/**
 * Builds dist/ (`tsc -p tsconfig.build.json`) for tests that run `node bin/monsync.js` as a user
 * would. Test files run in parallel processes: a lock makes them build one at a time, and a
 * stamp of the sources skips a build whose output is already there, so no test rewrites dist/
 * while another one is running the CLI from it.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'monsync.js');
const MAIN = join(ROOT, 'dist', 'cli', 'main.js');
const KEY = createHash('sha256').update(ROOT).digest('hex').slice(0, 12);
const LOCK = join(tmpdir(), `monsync-build-${KEY}.lock`);
const STAMP = join(tmpdir(), `monsync-build-${KEY}.stamp`);

function sourcesHash(): string {
  const h = createHash('sha256');
  const walk = (dir: string) => {
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
  for (const f of ['tsconfig.json', 'tsconfig.build.json']) h.update(readFileSync(join(ROOT, f)));
  return h.digest('hex');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function withLock<T>(fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 240_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A lock older than any build is left over from a killed run.
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > 180_000) rmSync(LOCK, { recursive: true, force: true });
      } catch {
        // Released meanwhile.
      }
      if (Date.now() > deadline) throw new Error(`waited too long for the build lock ${LOCK}`);
      await sleep(200);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Builds unless dist/ already holds the build of the current sources. */
export async function buildDist(): Promise<void> {
  await withLock(async () => {
    const hash = sourcesHash();
    if (existsSync(MAIN) && existsSync(STAMP)) {
      const [stamped, mtime] = readFileSync(STAMP, 'utf8').split(' ');
      if (stamped === hash && Number(mtime) === statSync(MAIN).mtimeMs) return;
    }
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
      const child = spawn(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      child.on('exit', (c) => resolve({ code: c ?? 1, output }));
    });
    // Type errors elsewhere in the tree still emit JavaScript; only a build without output is fatal.
    if (code !== 0 && !existsSync(MAIN)) throw new Error(`build failed:\n${output}`);
    if (code !== 0) process.stderr.write(`build reported errors (output emitted anyway):\n${output}\n`);
    writeFileSync(STAMP, `${hash} ${statSync(MAIN).mtimeMs}`);
  });
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a user pointed at the emulator, without anything of the developer's own
 * MONSYNC_* setup and without colour.
 */
export function cliEnv(url: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('MONSYNC_') && k !== 'FORCE_COLOR') env[k] = v;
  return { ...env, NO_COLOR: '1', MONSYNC_URL: url, MONSYNC_USERNAME: 'demo@example.com', MONSYNC_PASSWORD: 'demo-password', ...extra };
}

/** Runs `node <file> args` asynchronously (an emulator in this process must keep answering). */
export function runNode(file: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`node ${file} ${args.join(' ')} did not finish in time\n${stdout}\n${stderr}`));
    }, opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
  });
}

export function monsync(args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<CliResult> {
  return runNode(BIN, args, opts);
}
