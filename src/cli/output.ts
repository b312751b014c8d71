/**
 * The one output convention of the command runners (src/cli/<command>-run.ts): they write through an
 * `Output` and read their surroundings from a `CommandIo`, never from `process` directly, so tests run
 * them in-process with buffers, their own environment and a fixed clock. stdout carries the result
 * (a plan, a table, YAML); stderr carries progress, warnings and problems.
 */
import type { Command } from 'commander';
import type { Env } from '../api/connect.js';
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

/** The process's streams, environment, directory and clock, with colour as `--no-color`, NO_COLOR and the terminal decide. */
export function processIo(cmd: Command): CommandIo {
  const root = rootOf(cmd);
  return {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
    color: useColor(root, process.stdout),
    errColor: useColor(root, process.stderr),
    env: process.env,
    cwd: process.cwd(),
    now: () => Date.now(),
  };
}
