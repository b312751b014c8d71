/**
 * The one output convention of the command runners (src/cli/<command>-run.ts): they write through an
 * `Output` and read their surroundings from a `CommandIo`, never from `process` directly, so tests run
 * them in-process with buffers, their own environment and a fixed clock. stdout carries the result
 * (a plan, a table, YAML); stderr carries progress, warnings and problems.
 */
import type { Command } from 'commander';
import type { Env } from '../api/connect.js';
import { terminalSafe } from '../util/safe-text.js';
import { rootOf, useColor } from './common.js';

export interface Output {
  /** Writes to stdout exactly the text given: the runner ends its own lines. */
  out(text: string): void;
  /** Writes to stderr exactly the text given. */
  err(text: string): void;
  /** Colour on stdout (a person is looking; see useColor). */
  color: boolean;
  /** Colour on stderr. */
  errColor: boolean;
}

/** An Output and what else a runner may know of where it runs. */
export interface CommandIo extends Output {
  env: Env;
  /** The directory relative paths are read from and shown against. */
  cwd: string;
  /** Local wall clock, milliseconds. */
  now(): number;
}

/**
 * The process's streams, environment, directory and clock, with colour as `--no-color`, NO_COLOR and
 * the terminal decide. Everything written is made terminal-safe (util/safe-text.ts, terminalSafe):
 * the renderers quote what they show, and this is the one place nothing printed gets past.
 */
export function processIo(cmd: Command): CommandIo {
  const root = rootOf(cmd);
  const color = useColor(root, process.stdout);
  const errColor = useColor(root, process.stderr);
  const outSequences = { sequences: color || Boolean(process.stdout.isTTY) };
  const errSequences = { sequences: errColor || Boolean(process.stderr.isTTY) };
  return {
    out: (s) => process.stdout.write(terminalSafe(s, outSequences)),
    err: (s) => process.stderr.write(terminalSafe(s, errSequences)),
    color,
    errColor,
    env: process.env,
    cwd: process.cwd(),
    now: () => Date.now(),
  };
}
