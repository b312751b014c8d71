/**
 * The identity phases one at a time, on a PlanContext: ignore, monitors (labels, previous labels,
 * copies, what is blocked), top-level alert homes, groups (names, previous names, copies, members).
 */
import { describe, expect, it } from 'vitest';
import { placeTopLevelAlerts } from '../../../src/plan/phases/alerts.js';
import { matchGroups } from '../../../src/plan/phases/groups.js';
import { applyIgnore } from '../../../src/plan/phases/ignore.js';
import { matchMonitors, resolveLiveMonitor } from '../../../src/plan/phases/monitors.js';
import { dGroup, dMonitor, desiredState, liveAlert, liveGroup, liveMonitor, liveState, topAlert } from '../helpers.js';
import { contextFor } from './support.js';

describe('ignore', () => {
  it('filters ignored monitors (with their alerts) and groups out, counts them, and refuses declared ignored names', () => {
    const live = liveState({
      monitors: [liveMonitor({ id: '1', label: 'legacy-1' }), liveMonitor({ id: '2', label: 'mx' })],
      alerts: [liveAlert({ id: 'a', monitor: '1', subject_init: 's' })],
      groups: [liveGroup('g', 'legacy', ['1'])],
    });
    const problems: string[] = [];
    const seen = applyIgnore(desiredState({ settings: { ignore: ['legacy*'] }, monitors: [dMonitor('mx', {}, { previous_labels: ['legacy-0'] })] }), live, (p) => problems.push(p));
    expect(seen.live.monitors.map((m) => m.id)).toEqual(['2']);
    expect(seen.live.alerts).toEqual([]);
    expect(seen.live.groups).toEqual([]);
    expect([...seen.ignoredMonitorIds]).toEqual(['1']);
    expect(seen.ignoredCount).toBe(2);
    expect(problems).toEqual(['monitoring/main.yaml:1:1: monitor "mx": label "legacy-0" matches settings.ignore']);
  });
});

describe('monitor identity', () => {
  it('an exact label takes its monitor; a previous label takes one nothing else took; copies all ours heal; mixed copies are blocked', () => {
    const live = liveState({
      monitors: [
        liveMonitor({ id: '1', label: 'a' }),
        liveMonitor({ id: '2', label: 'old-b' }),
        liveMonitor({ id: '3', label: 'c' }),
        liveMonitor({ id: '4', label: 'c' }),
        liveMonitor({ id: '5', label: 'd' }),
        liveMonitor({ id: '6', label: 'd', meta: {} }),
      ],
    });
    const ctx = contextFor(desiredState({ monitors: [dMonitor('a'), dMonitor('b', {}, { previous_labels: ['old-b'] }), dMonitor('c'), dMonitor('d')] }), live);
    matchMonitors(ctx);
    const match = (l: string) => ctx.declared.get(l)!.match;
    expect(match('a')).toMatchObject({ live: { id: '1' }, renamedFrom: null });
    expect(match('b')).toMatchObject({ live: { id: '2' }, renamedFrom: 'old-b' });
    expect(match('c')).toMatchObject({ live: { id: '3' } });
    expect([...ctx.duplicateOf].map(([id, kept]) => [id, kept.id])).toEqual([['4', '3']]);
    expect(match('d')).toBeNull();
    expect([...ctx.blocked]).toEqual(['5', '6']);
    expect(ctx.problems).toHaveLength(1);
  });

  it('a reference resolves to a live monitor the plan leaves as it is, or says why not', () => {
    const live = liveState({ monitors: [liveMonitor({ id: '1', label: 'hand', meta: {} }), liveMonitor({ id: '2', label: 'stale' })] });
    const ctx = contextFor(desiredState(), live);
    matchMonitors(ctx);
    expect(resolveLiveMonitor(ctx, 'hand', () => 'ref')?.id).toBe('1');
    expect(resolveLiveMonitor(ctx, 'stale', () => 'ref')).toBeNull();
    expect(resolveLiveMonitor(ctx, 'nowhere', () => 'ref')).toBeNull();
    expect(ctx.problems).toEqual([
      'ref: monitor "stale" (id 2) is marked managed-by: "mail-team" but not declared, so this plan would delete it; declare it or drop the reference',
      'ref: no monitor "nowhere" in the configuration or the account',
    ]);
  });
});

describe('alert homes', () => {
  it('a top-level alert joins its declared monitor, or the live monitor it names, which then counts as referenced', () => {
    const live = liveState({ monitors: [liveMonitor({ id: 'w', label: 'web', type: 'http', meta: {} })] });
    const ctx = contextFor(desiredState({ monitors: [dMonitor('mx')], alerts: [topAlert('mx', 'a'), topAlert('web', 'b'), topAlert('web', 'c')] }), live);
    matchMonitors(ctx);
    placeTopLevelAlerts(ctx, [topAlert('mx', 'a'), topAlert('web', 'b'), topAlert('web', 'c')]);
    expect(ctx.declared.get('mx')!.extraAlerts!.map((a) => a.subject_init)).toEqual(['a']);
    expect([...ctx.liveHomes.values()].map((h) => [h.live.id, h.desired.map((a) => a.subject_init)])).toEqual([['w', ['b', 'c']]]);
    expect([...ctx.referenced]).toEqual(['w']);
  });
});

describe('group identity', () => {
  it('names, previous names and copies; members resolved to ids or to the refs of monitor creates', () => {
    const m = liveMonitor({ id: '1', label: 'mx' });
    const live = liveState({ monitors: [m], groups: [liveGroup('12', 'prod', [m]), liveGroup('11', 'prod', []), liveGroup('20', 'old-eu', [])] });
    const d = desiredState({ monitors: [dMonitor('mx'), dMonitor('new')], groups: [dGroup('prod', ['mx', 'new']), dGroup('eu', [], ['old-eu'])] });
    const ctx = contextFor(d, live);
    matchMonitors(ctx);
    matchGroups(ctx, d);
    const byName = (n: string) => ctx.groupMatches.get(ctx.desiredGroups.get(n)!);
    expect(byName('prod')).toMatchObject({ live: { id: '11' }, renamedFrom: null });
    expect(byName('eu')).toMatchObject({ live: { id: '20' }, renamedFrom: 'old-eu' });
    expect([...ctx.groupDuplicateOf].map(([id, kept]) => [id, kept.id])).toEqual([['12', '11']]);
    expect(ctx.desiredMembers.get(ctx.desiredGroups.get('prod')!)).toEqual([
      { id: '1', label: 'mx' },
      { id: { $ref: 'monitor:new' }, label: 'new' },
    ]);
  });
});
