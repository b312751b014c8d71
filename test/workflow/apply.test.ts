/**
 * The apply workflow (src/workflow/apply.ts) prints nothing: it tells its events what happened, in
 * order, asks through `confirm` before its first write, and stops starting calls when its signal
 * is aborted. The views that turn the events into text or JSON are test/cli/apply.test.ts's.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MonitoringClient } from '../../src/api/client.js';
import { DEFAULT_CREDENTIALS } from '../../src/emulator/index.js';
import { applyFlow, type ApplyQuestion } from '../../src/workflow/apply.js';
import { isProgress, type Events, type WorkflowEvent } from '../../src/workflow/events.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { startLyingProxy } from '../helpers/lying-proxy.js';
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

/** The apply events' names as these tests note them (the progress of reads by its kind). */
const NAMES: Partial<Record<WorkflowEvent['kind'], string>> = {
  planned: 'planned',
  applying: 'applying',
  'change-started': 'started',
  'change-finished': 'finished',
  applied: 'applied',
  checking: 'checking',
  checked: 'checked',
  'check-failed': 'checkFailed',
};

/** Events noted by name, in order. */
function recorder(): { events: Events; calls: string[] } {
  const calls: string[] = [];
  return { calls, events: (e) => void calls.push(isProgress(e) ? `progress:${e.kind}` : (NAMES[e.kind] ?? e.kind)) };
}

const writes = async () => (await emu.control.requests()).filter((r) => r.method !== 'GET' && !r.path.includes('token'));

describe('applyFlow', () => {
  it('tells its hooks what happened, in order, and writes nothing to the terminal itself', async () => {
    const out = [vi.spyOn(process.stdout, 'write').mockImplementation(() => true), vi.spyOn(process.stderr, 'write').mockImplementation(() => true)];
    const { events, calls } = recorder();
    const outcome = await applyFlow(contextFor([SMALL]), { parallelism: 1 }, events);
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
    const { events, calls } = recorder();
    const outcome = await applyFlow(contextFor([SMALL]), { parallelism: 4,
      confirm: async (q) => (asked.push(q), 'no'),
    }, events);
    expect(outcome).toMatchObject({ status: 'declined', interrupted: false });
    expect(asked.map((q) => [q.url, q.user, q.plan.changes.length > 0])).toEqual([[emu.url, 'demo@example.com', true]]);
    expect(calls.at(-1)).toBe('planned');
    expect(await writes()).toEqual([]);
  });

  it('starts no call once its signal is aborted, and says the run was interrupted', async () => {
    const controller = new AbortController();
    const outcome = await applyFlow(contextFor([SMALL]), { parallelism: 1,
      signal: controller.signal,
    }, (e) => e.kind === 'applying' && controller.abort());
    expect(outcome.status).toBe('applied');
    if (outcome.status !== 'applied') return;
    expect(outcome.result.interrupted).toBe(true);
    expect(outcome.result.notStarted).toBe(outcome.plan.changes.length);
    expect(outcome.check).toBe('none');
    expect(await writes()).toEqual([]);
  });

  // Issue 36, item 9: SIGTERM while the final check waited on a 429 took 51 s to end the run.
  it("ends its final check at once when its signal is aborted while the read waits on a 429's Retry-After", async () => {
    // The second monitor list read (the final check's) is answered 429 Retry-After: 30.
    const proxy = await startLyingProxy(emu.url, [
      { path: '/v1/Config/Monitor/', every: 2, times: 1, answer: { status: 429, headers: { 'retry-after': '30' }, body: { error: 'slow down' } } },
    ]);
    const controller = new AbortController();
    const asked: number[] = [];
    const { v1 } = DEFAULT_CREDENTIALS;
    // A wait that never ends by itself: only the signal can end it, so no real time passes.
    const sleep = (ms: number) => {
      asked.push(ms);
      setImmediate(() => controller.abort());
      return new Promise<void>(() => {});
    };
    const { events, calls } = recorder();
    try {
      const ctx = contextFor([SMALL]);
      const outcome = await applyFlow({ ...ctx, connect: async () => new MonitoringClient({ baseUrl: proxy.url, username: v1.user, password: v1.password, sleep }) }, {
        parallelism: 1,
        signal: controller.signal,
      }, events);
      expect(proxy.lied.size, 'the final check was answered 429').toBe(1);
      expect(asked).toEqual([expect.any(Number)]);
      expect(asked[0]).toBeGreaterThan(29_000);
      expect(outcome.status).toBe('applied');
      if (outcome.status !== 'applied') return;
      expect(outcome.result.done).toBe(outcome.plan.changes.length);
      expect(outcome.check).toBe('failed');
      expect(calls.slice(-2)).toEqual(['checking', 'checkFailed']);
    } finally {
      await proxy.close();
    }
  }, 20_000);
});
