/**
 * The one output convention of the command runners (src/cli/<command>-run.ts): they write through an
 * `Output` and read their surroundings from a `CommandIo`, never from `process` directly, so tests run
 * them in-process with buffers, their own environment and a fixed clock. stdout carries the result
 * (a plan, a table, YAML); stderr carries progress, warnings and problems.
 */
import type { Command } from 'commander';
import type { CommandIo, InterruptSignal } from '../workflow/io.js';
import { redact, registerEnvSecrets } from '../util/redact.js';
import { terminalSafe } from '../util/safe-text.js';
import { rootOf, useColor } from './common.js';

export type { CommandIo, InterruptSignal, Output } from '../workflow/io.js';

/** The shell's convention: 128 + the signal's number (SIGINT 2 -> 130, SIGTERM 15 -> 143). */
export function exitCodeOf(signal: InterruptSignal): number {
  return signal === 'SIGTERM' ? 143 : 130;
}

/**
 * The process's streams, environment, directory and clock, with colour as `--no-color`, NO_COLOR and
 * the terminal decide. Everything written is made terminal-safe (util/safe-text.ts, terminalSafe):
 * the renderers quote what they show, and this is the one place nothing printed gets past. It is
 * also where secrets are masked (util/redact.ts): every credential variable's value, registered here.
 */
export function processIo(cmd: Command): CommandIo {
  const root = rootOf(cmd);
  const color = useColor(root, process.stdout);
  const errColor = useColor(root, process.stderr);
  const outSequences = { sequences: color || Boolean(process.stdout.isTTY) };
  const errSequences = { sequences: errColor || Boolean(process.stderr.isTTY) };
  registerEnvSecrets(process.env);
  return {
    out: (s) => process.stdout.write(terminalSafe(redact(s), outSequences)),
    err: (s) => process.stderr.write(terminalSafe(redact(s), errSequences)),
    color,
    errColor,
    env: process.env,
    cwd: process.cwd(),
    now: () => Date.now(),
    ...(process.stdout.isTTY ? { terminal: { columns: () => process.stdout.columns ?? 100 } } : {}),
    errTerminal: Boolean(process.stderr.isTTY),
    ...(process.stdin.isTTY
      ? { ask: async (question: string) => (await import('./terminal.js')).askYes(process.stdin, process.stdout, question) }
      : {}),
    interrupts: processInterrupts,
    hangups: processHangups,
  };
}

/** SIGHUP to the handler; with a listener Node no longer ends the process of it (exit 129). */
function processHangups(handler: () => void): () => void {
  const onSignal = () => handler();
  process.on('SIGHUP', onSignal);
  return () => {
    process.off('SIGHUP', onSignal);
  };
}

/**
 * The one place the process's signals are handled: the first Ctrl-C or SIGTERM (what CI systems send
 * to cancel a job) goes to the handler, which lets the run finish cleanly; the same signal again
 * quits at once with the shell's exit code. Nothing else in src/cli listens to signals or exits
 * (SIGHUP: processHangups, for the long-running commands that re-read their files on it).
 */
function processInterrupts(handler: (signal: InterruptSignal) => void): () => void {
  let told = false;
  const onSignal = (signal: InterruptSignal) => {
    if (told) process.exit(exitCodeOf(signal));
    told = true;
    handler(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}
