/**
 * Review findings in the planner (src/plan/diff.ts), each pinned by a test that failed before its fix.
 */
import { describe, expect, it } from 'vitest';
import { diff } from '../../src/plan/diff.js';
import { executePlan } from '../../src/apply/execute.js';
import { parseSavedPlan, serializePlan } from '../../src/apply/saved-plan.js';
import { dAlert, desiredState, dMonitor, liveState } from '../plan/helpers.js';
import { FakeApi } from '../apply/fake-api.js';

const opts = { target: 'http://127.0.0.1:1', now: new Date('2026-01-01T00:00:00Z') };

describe('diff: change refs are unique even when labels and subjects contain "/"', () => {
  // monitor "a" with alert "b/c" and monitor "a/b" with alert "c" both made the ref `alert:a/b/c`:
  // apply then refused one of them ("the plan has two changes with ref") and a saved plan was invalid.
  const desired = desiredState({
    monitors: [dMonitor('a', {}, { alerts: [dAlert('b/c')] }), dMonitor('a/b', {}, { alerts: [dAlert('c')] })],
  });

  it('gives every change its own ref', () => {
    const plan = diff(desired, liveState({}), opts);
    const refs = plan.changes.map((c) => c.ref);
    expect(new Set(refs).size).toBe(refs.length);
  });

  it('the plan saves, loads and applies completely', async () => {
    const plan = diff(desired, liveState({}), opts);
    expect(parseSavedPlan(serializePlan(plan)).ok).toBe(true);
    const api = new FakeApi();
    const result = await executePlan(plan, api, { parallelism: 4, owner: desired.settings.owner });
    expect(result.failed).toBe(0);
    expect(result.done).toBe(4);
  });
});

