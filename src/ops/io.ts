/**
 * Where an operator command writes and what it knows of its surroundings. The CLI passes the
 * process's streams; tests pass buffers, their own environment and a fixed clock.
 */
import type { Command } from 'commander';
import { rootOf, useColor } from '../cli/common.js';
import type { Env } from '../api/connect.js';

export interface OpsIo {
  out(text: string): void;
  err(text: string): void;
  /** Colour on stdout / on stderr. */
  color: boolean;
  errColor: boolean;
  env: Env;
  /** Local wall clock, milliseconds. */
  now(): number;
}

export function processIo(cmd: Command): OpsIo {
  const root = rootOf(cmd);
  return {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
    color: useColor(root, process.stdout),
    errColor: useColor(root, process.stderr),
    env: process.env,
    now: () => Date.now(),
  };
}

/** Text with exactly one final newline. */
export function line(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
