/**
 * Review findings in the apply engine (src/apply/execute.ts).
 */
import { describe, expect, it } from 'vitest';
import { executePlan } from '../../src/apply/execute.js';
import type { Change, Plan } from '../../src/plan/types.js';
import { FakeApi, refused } from '../apply/fake-api.js';
import { deleteChange, OWNER } from '../apply/plan-builder.js';

function planOf(changes: Change[]): Plan {
  return {
    format_version: 1,
    created_at: '2026-01-01T00:00:00.000Z',
    target: 'http://127.0.0.1:0',
    files: [],
    options: { prune: false, targets: [], owner: OWNER },
    changes,
    summary: { create: 0, update: 0, delete: changes.length },
    unmanaged: { monitors: 0, alerts: 0, groups: 0, other_type_monitors: 0, ignored: 0 },
    fingerprint: 'x',
    warnings: [],
  };
}

describe('executePlan: a refused delete is "already gone" only when the service says the id is unknown', () => {
  // The "already gone" test matched the bare word "unknown", so a delete the service refused with
  // "unknown error" (or "unknown field ...") was reported as done: apply said "Apply complete" and
  // exited 0 while the monitor was still there.
  it.each(['Unknown error', 'unknown error, try again later', 'cannot delete: unknown state'])('%s fails the delete', async (text) => {
    const api = new FakeApi({ fault: (c) => (c.name === 'deleteMonitor' ? { type: 'fail', error: refused('deleteMonitor', text) } : undefined) });
    const m = api.seedMonitor('mx-old');
    const result = await executePlan(planOf([deleteChange('monitor', 'mx-old', m.id)]), api, { parallelism: 1, owner: OWNER });
    expect(result.results[0]).toMatchObject({ status: 'failed' });
    expect(result.failed).toBe(1);
  });

  it.each(['Unknown group id 9', 'unknown id "9"', 'group 9 not found', 'no such group', 'group does not exist'])('%s counts as already gone', async (text) => {
    const api = new FakeApi({ fault: (c) => (c.name === 'deleteGroup' ? { type: 'fail', error: refused('deleteGroup', text) } : undefined) });
    const result = await executePlan(planOf([deleteChange('group', 'old', '9')]), api, { parallelism: 1, owner: OWNER });
    expect(result.results[0]).toMatchObject({ status: 'done', note: 'already gone' });
  });
});
