/**
 * The wall clock of a CLI process, set by the test (test/helpers/clock.mjs is preloaded through
 * NODE_OPTIONS): `clockEnv(ms)` is the environment to add to a child's so that its `Date` starts at
 * `ms`. For output that holds a clock reading and is compared between runs.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const PRELOAD = pathToFileURL(join(import.meta.dirname, 'clock.mjs')).href;

/** `ms` rounded down to its minute: a run that starts there prints that minute for a whole minute. */
export const startOfMinute = (ms: number): number => Math.floor(ms / 60_000) * 60_000;

export function clockEnv(ms: number, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return { NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --import=${PRELOAD}`.trim(), TEST_CLOCK_MS: String(ms) };
}
