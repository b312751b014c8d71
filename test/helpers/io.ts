/**
 * A CommandIo (src/cli/output.ts) that keeps what a command runner writes, for running commands
 * in-process: its own environment, directory and clock, no colour unless asked.
 */
import type { Env } from '../../src/api/connect.js';
import type { CommandIo } from '../../src/cli/output.js';

export interface CapturedIo extends CommandIo {
  stdout: string;
  stderr: string;
}

/** A fixed local clock: 2024-06-03 12:00:00 UTC unless given. */
export const FIXED_NOW = Date.UTC(2024, 5, 3, 12, 0, 0);

export function captureIo(env: Env, opts: { now?: number | (() => number); color?: boolean; cwd?: string } = {}): CapturedIo {
  const now = opts.now ?? FIXED_NOW;
  const io: CapturedIo = {
    stdout: '',
    stderr: '',
    out: (s) => {
      io.stdout += s;
    },
    err: (s) => {
      io.stderr += s;
    },
    color: opts.color ?? false,
    errColor: false,
    env,
    cwd: opts.cwd ?? process.cwd(),
    now: typeof now === 'function' ? now : () => now,
  };
  return io;
}

/** What a runner wrote, as lines without their newlines (none for nothing written). */
export function lines(text: string): string[] {
  return text === '' ? [] : text.replace(/\n$/, '').split('\n');
}
