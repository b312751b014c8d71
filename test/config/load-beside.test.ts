/**
 * A configuration load leaves room for I/O running beside it on the same thread (plan's account
 * read, issue 38): it starts its CPU work once that I/O is under way, and lets the event loop turn
 * between files, so the answers are taken in while the files are parsed rather than after.
 * Counted in turns of the event loop, never in time.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig, type ConfigSource } from '../../src/config/index.js';
import { monitorYaml, stateOf } from './helpers.js';

/** I/O that needs `turns` turns of the event loop (each a setImmediate, as socket callbacks are). */
function io(turns: number): { done: Promise<void>; finished: () => boolean } {
  let finished = false;
  const done = new Promise<void>((resolve) => {
    const step = (left: number) => (left === 0 ? resolve() : setImmediate(() => step(left - 1)));
    step(turns);
  }).then(() => void (finished = true));
  return { done, finished: () => finished };
}

/**
 * Files given in memory: a load of files on disk turns the event loop while it lists and stats
 * them, which would let I/O through whatever the load does once it parses.
 */
function manyFiles(n: number): ConfigSource[] {
  return Array.from({ length: n }, (_, i) => ({ name: `m-${String(i).padStart(3, '0')}.yaml`, text: `version: 1\nmonitors:\n${monitorYaml(`mx-${i}`)}` }));
}

describe('a load with I/O beside it', () => {
  it('lets the event loop turn between files, so I/O needing many turns ends before the load does', async () => {
    const read = io(40);
    const result = await loadConfig(manyFiles(60), { env: {}, beside: { turnEveryMs: 0 } });
    const endedFirst = read.finished();
    await read.done;
    expect(stateOf(result).monitors).toHaveLength(60);
    expect(endedFirst).toBe(true);
  });

  it('starts parsing only once the I/O beside it is under way', async () => {
    const started = io(20);
    const result = await loadConfig(manyFiles(3), { env: {}, beside: { started: started.done, waitMs: 60_000 } });
    expect(started.finished()).toBe(true);
    expect(stateOf(result).monitors).toHaveLength(3);
  });

  it('without it, is the same load', async () => {
    const opts = { env: {} };
    expect(await loadConfig(manyFiles(5), { ...opts, beside: { turnEveryMs: 0, started: Promise.reject(new Error('the read failed')) } })).toEqual(await loadConfig(manyFiles(5), opts));
  });
});
