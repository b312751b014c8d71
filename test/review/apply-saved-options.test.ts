/**
 * `apply --plan FILE --target X` ran the whole saved plan: --target (and --prune) were silently
 * ignored, so with --auto-approve in CI apply did more than the command line asked for.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { runApply } from '../../src/cli/apply-run.js';
import { UserError } from '../../src/util/errors.js';

describe('apply --plan FILE with plan-shaping options', () => {
  const cmd = new Command();
  it.each([
    [{ target: ['mx-*'] }],
    [{ prune: true }],
  ])('%o is refused before anything is read or sent', async (extra) => {
    const run = runApply([], { plan: '/nonexistent/plan.json', parallelism: '8', autoApprove: true, url: 'http://127.0.0.1:9', ...extra }, cmd);
    await expect(run).rejects.toBeInstanceOf(UserError);
    await expect(run).rejects.toThrow(/--plan/);
  });
});
