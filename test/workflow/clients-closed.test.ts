/**
 * Every client a workflow opens through its command context is closed (or destroyed) by the time
 * the workflow returns, whatever it returns (issue 44: plan's and apply's were handed back open).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyFlow } from '../../src/workflow/apply.js';
import { commandContext, type CommandContext } from '../../src/workflow/context.js';
import { exportFlow } from '../../src/workflow/export.js';
import { planFlow } from '../../src/workflow/plan.js';
import { statusFlow } from '../../src/workflow/status.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { captureIo } from '../helpers/io.js';
import { v1Env } from '../ops/helpers.js';

const SMALL = join(import.meta.dirname, '..', '..', 'examples', 'small');
let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'default' });
});
afterAll(async () => {
  await emu.close();
});

/** The context of `paths`, noting each client its `connect` builds and whether it was closed. */
function watched(paths: string[]): { ctx: CommandContext; clients: { closed: boolean }[] } {
  const inner = commandContext(captureIo(v1Env(emu.url), { cwd: process.cwd(), now: Date.now }), paths);
  const clients: { closed: boolean }[] = [];
  const ctx: CommandContext = {
    ...inner,
    connect: async (choices) => {
      const api = await inner.connect(choices);
      const seen = { closed: false };
      clients.push(seen);
      const close = api.close.bind(api);
      const destroy = api.destroy.bind(api);
      api.close = () => ((seen.closed = true), close());
      api.destroy = () => ((seen.closed = true), destroy());
      return api;
    },
  };
  return { ctx, clients };
}

const allClosed = (clients: { closed: boolean }[]) => clients.length > 0 && clients.every((c) => c.closed);

describe('the clients a workflow opens', () => {
  it('are closed when plan returns', async () => {
    const { ctx, clients } = watched([SMALL]);
    await planFlow(ctx, {});
    expect(allClosed(clients), `${clients.length} opened`).toBe(true);
  });

  it('are closed when apply returns, its final check made', async () => {
    await emu.control.reset('default');
    const { ctx, clients } = watched([SMALL]);
    const outcome = await applyFlow(ctx, { parallelism: 2 });
    expect(outcome.status).toBe('applied');
    expect(allClosed(clients), `${clients.length} opened`).toBe(true);
  });

  it('are closed when a plan fails after the account was read', async () => {
    // The realistic example keeps one warning of the checks on purpose: --strict stops its plan once the account is read.
    const { ctx, clients } = watched([join(SMALL, '..', 'realistic')]);
    await expect(planFlow(ctx, { strict: true })).rejects.toThrow(/--strict stops on warnings/);
    expect(allClosed(clients), `${clients.length} opened`).toBe(true);
  });

  it('are closed when status and export return', async () => {
    for (const run of [(ctx: CommandContext) => statusFlow(ctx, { all: true, describe: true, windows: false }), (ctx: CommandContext) => exportFlow(ctx, { owner: 'monsync' })]) {
      const { ctx, clients } = watched([]);
      await run(ctx);
      expect(allClosed(clients), `${clients.length} opened`).toBe(true);
    }
  });
});
