/**
 * Builds dist/ for tests that run `node bin/monsync.js` as a user would (the build itself, with its
 * lock and source stamp, is test/helpers/build.ts), and runs the CLI from the repository.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, buildCliInto } from '../helpers/build.js';

export { ROOT };
export const BIN = join(ROOT, 'bin', 'monsync.js');

/** Builds unless dist/ already holds the build of the current sources. */
export async function buildDist(): Promise<void> {
  await buildCliInto(ROOT);
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
