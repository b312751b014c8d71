/**
 * The change phases and the last checks one at a time, on a PlanContext after the identity phases:
 * monitor deletes and what they count, group changes and the order of monitor deletes after them,
 * ambiguous deletes, refs and targets.
 */
import { describe, expect, it } from 'vitest';
import { placeTopLevelAlerts } from '../../../src/plan/phases/alerts.js';
import { matchGroups, planGroupChanges } from '../../../src/plan/phases/groups.js';
import { planMonitorChanges, planMonitorDeletes } from '../../../src/plan/phases/monitor-changes.js';
import { matchMonitors } from '../../../src/plan/phases/monitors.js';
import { refuseAmbiguousDeletes, selectTargets, uniqueRefs } from '../../../src/plan/phases/refs.js';
import type { PlanContext } from '../../../src/plan/phases/context.js';
import type { DesiredState } from '../../../src/model/desired.js';
import type { LiveState } from '../../../src/model/live.js';
import type { Change } from '../../../src/plan/types.js';
import { dGroup, dMonitor, desiredState, liveAlert, liveGroup, liveMonitor, liveState, topAlert } from '../helpers.js';
import { contextFor } from './support.js';

function identified(d: DesiredState, l: LiveState, prune = false): PlanContext {
  const ctx = contextFor(d, l, prune);
  matchMonitors(ctx);
  placeTopLevelAlerts(ctx, d.alerts);
  matchGroups(ctx, d);
  return ctx;
}

describe('monitor changes', () => {
  it('deletes managed monitors nothing declared, and with prune unmanaged ones nothing refers to; counts the rest', () => {
    const live = liveState({
      monitors: [
        liveMonitor({ id: '1', label: 'gone' }),
        liveMonitor({ id: '2', label: 'hand', meta: {} }),
        liveMonitor({ id: '3', label: 'named', meta: {} }),
        liveMonitor({ id: '4', label: 'theirs', meta: { 'managed-by': 'x' } }),
        liveMonitor({ id: '5', label: 'web', type: 'http', meta: {} }),
      ],
      alerts: [liveAlert({ id: 'a', monitor: '5', subject_init: 's' })],
    });
    const d = desiredState({ alerts: [topAlert('named', 'down')] });
    const ctx = identified(d, live, true);
    planMonitorChanges(ctx);
    planMonitorDeletes(ctx);
    expect(ctx.changes.map((c) => [c.action, c.key, c.note, c.effects])).toEqual([
      ['delete', 'gone', undefined, { cascade_alerts: 0 }],
      ['delete', 'hand', { pruned: true }, { cascade_alerts: 0 }],
    ]);
    expect(ctx.monitorDeletes).toHaveLength(2);
    expect(ctx.unmanaged).toMatchObject({ monitors: 2, foreign_monitors: 1, referenced_monitors: 1, other_type_monitors: 1, alerts: 1 });
  });
});

describe('group changes', () => {
  it('a group update that drops a monitor comes before that monitor delete; members in another order are no change', () => {
    const a = liveMonitor({ id: '1', label: 'a' });
    const b = liveMonitor({ id: '2', label: 'b' });
    const live = liveState({ monitors: [a, b], groups: [liveGroup('g1', 'one', [a, b]), liveGroup('g2', 'two', [b, a])] });
    const d = desiredState({ monitors: [dMonitor('a'), dMonitor('b')], groups: [dGroup('one', ['a']), dGroup('two', ['a', 'b'])] });
    const ctx = identified(d, live);
    planMonitorChanges(ctx);
    planMonitorDeletes(ctx);
    planGroupChanges(ctx);
    expect(ctx.changes.map((c) => `${c.action} ${c.key}`)).toEqual(['update one']);
    const dropped = identified(desiredState({ monitors: [dMonitor('a')], groups: [dGroup('one', ['a'])] }), live);
    planMonitorChanges(dropped);
    planMonitorDeletes(dropped);
    planGroupChanges(dropped);
    expect(dropped.monitorDeletes.map((c) => [c.key, c.depends_on])).toEqual([['b', ['group:one']]]);
  });
});

describe('the last checks, refs and targets', () => {
  it('deleting one of two monitors sharing a label is refused; deleting both is not', () => {
    const both = identified(desiredState(), liveState({ monitors: [liveMonitor({ id: '1', label: 'x' }), liveMonitor({ id: '2', label: 'x' })] }));
    planMonitorDeletes(both);
    refuseAmbiguousDeletes(both);
    expect(both.problems).toEqual([]);
    const one = identified(desiredState(), liveState({ monitors: [liveMonitor({ id: '1', label: 'x' }), liveMonitor({ id: '2', label: 'x', meta: {} })] }));
    planMonitorDeletes(one);
    refuseAmbiguousDeletes(one);
    expect(one.problems).toEqual(['monitor "x": this plan would delete id 1, but the account has 2 monitors with this label (ids 1, 2); rename or delete all but one in the service']);
  });

  const change = (p: Partial<Change> & Pick<Change, 'ref' | 'action' | 'key'>): Change => ({
    kind: 'alert',
    id: p.action === 'create' ? null : '1',
    before: null,
    after: null,
    changed: [],
    depends_on: [],
    call: { method: 'POST', path: '/v1/Config/Alert/' },
    ...p,
  });

  it('refs become unique: creates get a counter, the others their id', () => {
    const cs = [
      change({ ref: 'alert:a/b/c', action: 'create', key: 'a / b/c' }),
      change({ ref: 'alert:a/b/c', action: 'create', key: 'a/b / c' }),
      change({ ref: 'alert:x/y', action: 'delete', key: 'x / y', id: '7' }),
      change({ ref: 'alert:x/y', action: 'delete', key: 'x / y', id: '8' }),
    ];
    uniqueRefs(cs);
    expect(cs.map((c) => c.ref)).toEqual(['alert:a/b/c', 'alert:a/b/c#2', 'alert:x/y', 'alert:x/y#8']);
  });

  it('a target keeps matching changes and the creates their bodies refer to, dropping other dependencies', () => {
    const cs = [
      change({ ref: 'monitor:m', action: 'create', kind: 'monitor', key: 'm' }),
      change({ ref: 'alert:m/s', action: 'create', key: 'm / s', monitor: 'm', call: { method: 'POST', path: '/v1/Config/Alert/', body: { monitor: { $ref: 'monitor:m' } } } }),
      change({ ref: 'group:g', action: 'update', kind: 'group', key: 'g' }),
      change({ ref: 'monitor:old', action: 'delete', kind: 'monitor', key: 'old', depends_on: ['group:g'] }),
    ];
    expect(selectTargets(cs, ['m / *']).map((c) => c.ref)).toEqual(['monitor:m', 'alert:m/s']);
    expect(selectTargets(cs, ['old']).map((c) => [c.ref, c.depends_on])).toEqual([['monitor:old', []]]);
  });
});
