/**
 * The apply workflow (src/workflow/apply.ts) prints nothing: it tells its hooks what happened, in
 * order, asks through `confirm` before its first write, and stops starting calls when its signal
 * is aborted. The views that turn the hooks into text or JSON are test/cli/apply.test.ts's.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyFlow, type ApplyHooks, type ApplyQuestion } from '../../src/workflow/apply.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { v1Env } from '../ops/helpers.js';
import { commandContext } from '../../src/workflow/context.js';
import { captureIo } from '../helpers/io.js';

const SMALL = join(import.meta.dirname, '..', '..', 'examples', 'small');
let emu: TestEmulator;
/** The command context of a run against the test emulator (the v1 login), reading `paths`. */
const contextFor = (paths: string[]) => commandContext(captureIo(v1Env(emu.url), { cwd: process.cwd(), now: Date.now }), paths);

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'default' });
});
afterAll(async () => {
  await emu.close();
});
beforeEach(async () => {
  await emu.control.reset('default');
  await emu.control.clearRequests();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Hooks that note each call by name (progress by its kind), in order. */
function recorder(): { hooks: ApplyHooks; calls: string[] } {
  const calls: string[] = [];
  const note = (name: string) => () => void calls.push(name);
  return {
    calls,
    hooks: {
      progress: (p) => void calls.push(`progress:${p.kind}`),
      planned: note('planned'),
      applying: note('applying'),
      started: note('started'),
      finished: note('finished'),
      applied: note('applied'),
      checking: note('checking'),
      checked: note('checked'),
      checkFailed: note('checkFailed'),
    },
  };
}

const writes = async () => (await emu.control.requests()).filter((r) => r.method !== 'GET' && !r.path.includes('token'));

describe('applyFlow', () => {
  it('tells its hooks what happened, in order, and writes nothing to the terminal itself', async () => {
    const out = [vi.spyOn(process.stdout, 'write').mockImplementation(() => true), vi.spyOn(process.stderr, 'write').mockImplementation(() => true)];
    const { hooks, calls } = recorder();
    const outcome = await applyFlow(contextFor([SMALL]), { parallelism: 1, hooks });
    expect(out.map((w) => w.mock.calls.length)).toEqual([0, 0]);
    expect(outcome.status).toBe('applied');
    if (outcome.status !== 'applied') return;
    const n = outcome.plan.changes.length;
    expect(n).toBeGreaterThan(0);
    expect(outcome.check).toBe('matches');
    expect(calls).toEqual([
      'progress:configuration',
      'progress:reading',
      'progress:account',
      'progress:timings',
      'planned',
      'applying',
      // parallelism 1: each change starts after the previous one finished.
      ...Array.from({ length: n }, () => ['started', 'finished']).flat(),
      'applied',
      'checking',
      'checked',
    ]);
  });

  it('asks before its first write, naming the account; a "no" sends nothing', async () => {
    const asked: ApplyQuestion[] = [];
    const { hooks, calls } = recorder();
    const outcome = await applyFlow(contextFor([SMALL]), { parallelism: 4,
      hooks,
      confirm: async (q) => (asked.push(q), 'no'),
    });
    expect(outcome).toMatchObject({ status: 'declined', interrupted: false });
    expect(asked.map((q) => [q.url, q.user, q.plan.changes.length > 0])).toEqual([[emu.url, 'demo@example.com', true]]);
    expect(calls.at(-1)).toBe('planned');
    expect(await writes()).toEqual([]);
  });

  it('starts no call once its signal is aborted, and says the run was interrupted', async () => {
    const controller = new AbortController();
    const { hooks } = recorder();
    const outcome = await applyFlow(contextFor([SMALL]), { parallelism: 1,
      hooks: { ...hooks, applying: () => controller.abort() },
      signal: controller.signal,
    });
    expect(outcome.status).toBe('applied');
    if (outcome.status !== 'applied') return;
    expect(outcome.result.interrupted).toBe(true);
    expect(outcome.result.notStarted).toBe(outcome.plan.changes.length);
    expect(outcome.check).toBe('none');
    expect(await writes()).toEqual([]);
  });
});
