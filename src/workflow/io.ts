/**
 * What a command knows of where it runs (the one output convention of the command runners and the
 * workflows under them): it writes through an `Output` and reads its surroundings from a `CommandIo`,
 * never from `process` directly, so tests run commands in-process with buffers, their own environment
 * and a fixed clock. stdout carries the result (a plan, a table, YAML); stderr carries progress,
 * warnings and problems. `processIo` (src/cli/output.ts) is the process's own.
 */
import type { Env } from '../api/connect.js';

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
  /** stdout is a terminal (live lines are redrawn in place): its width now. Absent: a pipe or file. */
  terminal?: { columns(): number };
  /** stderr is a terminal (time passing is drawn while the account is read). */
  errTerminal?: boolean;
  /** Asks a person a yes/no question on the terminal; absent when stdin is not a terminal. */
  ask?: (question: string) => Promise<'yes' | 'no' | 'interrupted'>;
  /**
   * Ctrl-C and SIGTERM: `handler` is told of the first one until the returned function is called
   * (the same signal again quits at once). Absent: nothing interrupts the run.
   */
  interrupts?: (handler: (signal: InterruptSignal) => void) => () => void;
  /**
   * SIGHUP (what `systemctl reload` and `kill -HUP` send to a daemon): `handler` is told of each one
   * until the returned function is called, and the process does not end of it. Absent: none comes.
   */
  hangups?: (handler: () => void) => () => void;
}

export type InterruptSignal = 'SIGINT' | 'SIGTERM';
