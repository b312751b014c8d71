/**
 * The plan workflow (src/workflow/plan.ts) prints nothing: what it read is reported through
 * its events (src/workflow/events.ts), problems are UserErrors, and the command decides what reaches the terminal.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Progress } from '../../src/workflow/events.js';
import { renderProgress } from '../../src/render/progress.js';
import { UserError } from '../../src/util/errors.js';
import { planFlow } from '../../src/workflow/plan.js';
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
afterEach(() => {
  vi.restoreAllMocks();
});

function silenced() {
  return [vi.spyOn(process.stdout, 'write').mockImplementation(() => true), vi.spyOn(process.stderr, 'write').mockImplementation(() => true)];
}

describe('planFlow', () => {
  it('reports the configuration, the account and the timings through onProgress and writes nothing itself', async () => {
    const writes = silenced();
    const events: Progress[] = [];
    const { plan, desired, live } = await planFlow(contextFor([SMALL]), {}, (p) => events.push(p as Progress));
    expect(writes.map((w) => w.mock.calls.length)).toEqual([0, 0]);
    expect(events.map((e) => e.kind)).toEqual(['configuration', 'reading', 'account', 'timings']);
    expect(events[0]).toEqual({ kind: 'configuration', files: 1, monitors: 2, alerts: 2, groups: 0 });
    // Which account, before its answers are awaited: a slow or failing read names what it reads.
    expect(events[1]).toEqual({ kind: 'reading', url: emu.url, user: 'demo@example.com' });
    expect(renderProgress(events[1]!)).toBe(`Reading account ${emu.url} (demo@example.com) ...\n`);
    expect(events[2]).toMatchObject({ kind: 'account', url: emu.url, monitors: live.monitors.length, destinations: live.destinations.length });
    expect(renderProgress(events[0]!)).toBe('Reading 1 file ... 2 monitors, 2 alerts, 0 groups declared.\n');
    expect(desired.monitors.map((m) => m.label)).toEqual(['mx-primary', 'mx-backup']);
    expect(plan.target).toBe(emu.url);
  });

  it('reports nothing without onProgress', async () => {
    const writes = silenced();
    await planFlow(contextFor([SMALL]), {});
    expect(writes.map((w) => w.mock.calls.length)).toEqual([0, 0]);
  });

  it('refuses a broken configuration as a UserError listing its problems, before any progress about the account', async () => {
    const events: Progress[] = [];
    const run = planFlow(contextFor([join(SMALL, 'missing.yaml')]), {}, (p) => events.push(p as Progress));
    await expect(run).rejects.toBeInstanceOf(UserError);
    await expect(run).rejects.toThrow(/no change was sent to the service/);
    expect(events).toEqual([]);
  });
});
