/**
 * Runs the real CLI (`node bin/monsync.js ...`) as a user would, against a test emulator.
 *
 * The CLI is built once into a private package directory (node_modules/.cache/monsync-e2e: a copy
 * of bin/, the compiled dist/, schemas/ linked), never into the repository's dist/: other suites
 * rebuild dist/ while these tests have CLI processes running from it. The build, with its lock and
 * source stamp, is test/helpers/build.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ROOT, binOf, buildCliInto } from './build.js';

export { ROOT };
/**
 * The private package the e2e CLI runs from, one per checkout: node_modules may be shared by several
 * (a git worktree whose node_modules links to the main checkout's), and a build of one checkout's
 * sources must never be run by another's tests (seen: one worktree's e2e ran another's CLI).
 */
export const PKG = join(ROOT, 'node_modules', '.cache', `monsync-e2e-${createHash('sha256').update(ROOT).digest('hex').slice(0, 8)}`);
export const BIN = binOf(PKG);

export const USERNAME = 'demo@example.com';
export const PASSWORD = 'demo-password';

/** Builds the CLI unless the private package already holds the build of the current sources. */
export async function buildCli(): Promise<void> {
  await buildCliInto(PKG);
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Emulator base URL (MONSYNC_URL). */
  url: string;
  cwd?: string;
  /** Added to (or, with undefined values, removed from) the environment. */
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  /** Keep the run out of `transcripts` (a run expected to show a known bug). Default true. */
  record?: boolean;
}

/** A user's environment pointed at the emulator: none of the developer's MONSYNC_* settings, no colour. */
export function cliEnv(url: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('MONSYNC_') && k !== 'FORCE_COLOR' && k !== 'NODE_OPTIONS') env[k] = v;
  }
  Object.assign(env, { NO_COLOR: '1', MONSYNC_URL: url, MONSYNC_USERNAME: USERNAME, MONSYNC_PASSWORD: PASSWORD });
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Every run of this worker, for the output hygiene checks. */
export const transcripts: { args: string[]; result: CliResult }[] = [];

const STACK_FRAME = '    at ';

/** Output a user may see: never a credential, never a stack trace. */
export function expectCleanOutput(r: CliResult, secrets: readonly string[] = [PASSWORD]): void {
  const both = `${r.stdout}\n${r.stderr}`;
  for (const s of secrets) expect(both.includes(s), `output contains the secret ${JSON.stringify(s)}:\n${both}`).toBe(false);
  expect(both.includes(STACK_FRAME), `output contains a stack trace:\n${both}`).toBe(false);
  expect(both, 'internal error').not.toContain('internal error');
}

/**
 * Starts `node bin/monsync.js args` with stdin not a terminal (/dev/null), stdout and stderr piped.
 * Asynchronous, so an emulator in the test process keeps answering.
 */
export function startCli(args: string[], opts: CliOptions): { child: ChildProcess; done: Promise<CliResult>; output: () => CliResult } {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? ROOT,
    env: cliEnv(opts.url, opts.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<CliResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`monsync ${args.join(' ')} did not finish in time\n${stdout}\n${stderr}`));
    }, opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const result = { code: code ?? (signal ? 128 : 1), stdout, stderr };
      if (opts.record !== false) transcripts.push({ args, result });
      resolve(result);
    });
  });
  return { child, done, output: () => ({ code: -1, stdout, stderr }) };
}

/** Runs the CLI to the end; checks the output carries no password and no stack trace. */
export async function runCli(args: string[], opts: CliOptions): Promise<CliResult> {
  const r = await startCli(args, opts).done;
  expectCleanOutput(r);
  return r;
}
