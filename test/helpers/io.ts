/**
 * A CommandIo (src/cli/output.ts) that keeps what a command runner writes, for running commands
 * in-process: its own environment, directory and clock, no colour unless asked.
 */
import type { Env } from '../../src/api/connect.js';
import type { CommandIo, InterruptSignal } from '../../src/cli/output.js';

export interface CapturedIo extends CommandIo {
  stdout: string;
  stderr: string;
  /** Questions asked through `ask` (with `answers`), in order. */
  asked: string[];
  /** Sends Ctrl-C (or SIGTERM) to the runner, as the process's signal would; false when none listens. */
  interrupt(signal?: InterruptSignal): boolean;
  /** Sends SIGHUP to the runner, as the process's signal would; false when none listens. */
  hangup(): boolean;
}

export interface CaptureOptions {
  now?: number | (() => number);
  color?: boolean;
  cwd?: string;
  /** stdout (and stderr) is a terminal this many columns wide. */
  columns?: number;
  /** A person at a terminal who gives these answers, in order (`ask` present). */
  answers?: ('yes' | 'no' | 'interrupted')[];
}

/** A fixed local clock: 2024-06-03 12:00:00 UTC unless given. */
export const FIXED_NOW = Date.UTC(2024, 5, 3, 12, 0, 0);

export function captureIo(env: Env, opts: CaptureOptions = {}): CapturedIo {
  const now = opts.now ?? FIXED_NOW;
  const answers = [...(opts.answers ?? [])];
  let listener: ((signal: InterruptSignal) => void) | null = null;
  let hangupListener: (() => void) | null = null;
  const io: CapturedIo = {
    stdout: '',
    stderr: '',
    asked: [],
    interrupt: (signal = 'SIGINT') => {
      listener?.(signal);
      return listener !== null;
    },
    hangup: () => {
      hangupListener?.();
      return hangupListener !== null;
    },
    hangups: (handler) => {
      hangupListener = handler;
      return () => {
        hangupListener = null;
      };
    },
    interrupts: (handler) => {
      listener = handler;
      return () => {
        listener = null;
      };
    },
    ...(opts.columns !== undefined ? { terminal: { columns: () => opts.columns! }, errTerminal: true } : {}),
    ...(opts.answers !== undefined
      ? {
          ask: async (question: string) => {
            io.asked.push(question);
            return answers.shift() ?? 'no';
          },
        }
      : {}),
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
