/**
 * Review findings in the planner (src/plan/diff.ts), each pinned by a test that failed before its fix.
 */
import { describe, expect, it } from 'vitest';
import { diff, PlanError } from '../../src/plan/diff.js';
import { executePlan } from '../../src/apply/execute.js';
import { parseSavedPlan, serializePlan } from '../../src/apply/saved-plan.js';
import { dAlert, desiredState, dMonitor, liveAlert, liveMonitor, liveState, topAlert } from '../plan/helpers.js';
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


describe('diff: a declared alert never silently rewrites a live alert of another type', () => {
  // Only up-down alerts can be created, but HTTP and other monitors carry other alert types. An
  // up-down alert declared with the subject of such an alert was planned as an update whose PUT
  // body carries `type: "up-down"`: the plan text showed at most a subject or timeout change, while
  // apply converted the other alert into an up-down one.
  it('is a problem the user must resolve, not an update', () => {
    const web = liveMonitor({ id: 'h1', label: 'www-http', type: 'http', meta: {} });
    const live = liveState({
      monitors: [web],
      alerts: [liveAlert({ id: 'a1', monitor: 'h1', subject_init: 'www down', type: 'threshold', timeout: null })],
    });
    const desired = desiredState({ alerts: [topAlert('www-http', 'www down', { timeout: 5 })] });
    let err: unknown;
    try {
      diff(desired, live, opts);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PlanError);
    expect((err as PlanError).problems.join('\n')).toMatch(/threshold/);
  });
});

describe('diff: an alert whose type the service did not report', () => {
  it('is still updated as before (only a known other type is refused)', () => {
    const web = liveMonitor({ id: 'h1', label: 'www-http', type: 'http', meta: {} });
    const live = liveState({ monitors: [web], alerts: [liveAlert({ id: 'a1', monitor: 'h1', subject_init: 'www down', type: '', timeout: 10 })] });
    const plan = diff(desiredState({ alerts: [topAlert('www-http', 'www down', { timeout: 5 })] }), live, opts);
    expect(plan.changes.map((c) => [c.action, c.id, c.changed])).toEqual([['update', 'a1', ['timeout']]]);
  });
});
