/**
 * planFlow's configuration load waits for the account read's requests (issue 38): when there is no
 * read to wait for, because the connection failed at once, the failure is the plan's error alone,
 * reported after the configuration, and never an unhandled rejection meanwhile.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/util/errors.js';
import { commandContext } from '../../src/workflow/context.js';
import { planFlow } from '../../src/workflow/plan.js';
import { captureIo } from '../helpers/io.js';

const SMALL = join(import.meta.dirname, '..', '..', 'examples', 'small');
const unhandled: unknown[] = [];
const listener = (reason: unknown) => void unhandled.push(reason);
afterEach(() => {
  process.off('unhandledRejection', listener);
});

describe('planFlow beside a connection that fails at once', () => {
  it('loads the configuration, then reports the connection failure once, with no unhandled rejection', async () => {
    process.on('unhandledRejection', listener);
    const kinds: string[] = [];
    const ctx = commandContext(captureIo({}, { cwd: process.cwd() }), [SMALL]);
    const failing = planFlow(
      {
        ...ctx,
        connect: async () => {
          throw new UserError('account staging expects another URL; nothing was sent');
        },
      },
      {},
      (p) => kinds.push(p.kind),
    );
    await expect(failing).rejects.toThrow('account staging expects another URL');
    // A rejection left unhandled is reported after the turn it happened in.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
    expect(kinds[0]).toBe('configuration');
  });
});
