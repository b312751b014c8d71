/**
 * The rules of docs/semantics.md, one test (or a few) named after each rule: identity,
 * ownership, adoption, conflicts, ignore, prune, renames, alert matching, deletion cascades,
 * duplicates that heal (issue 12 §2), near misses (issue 12 §7) and the seven rules of issue 19.
 */
import { describe, expect, it } from 'vitest';
import { diff, PlanError, type DiffOptions } from '../../src/plan/diff.js';
import { checkDeletes } from '../../src/apply/safety.js';
import type { LiveState } from '../../src/model/live.js';
import type { DesiredState } from '../../src/model/desired.js';
import type { Change, Plan } from '../../src/plan/types.js';
import {
  NOW,
  OWNER,
  TARGET,
  dAlert,
  dGroup,
  dMonitor,
  desiredState,
  dest,
  liveAlert,
  liveGroup,
  liveMonitor,
  liveState,
  simulateApply,
  topAlert,
} from './helpers.js';

const opts = (p: Partial<DiffOptions> = {}): DiffOptions => ({ target: TARGET, now: NOW, ...p });
const plan = (d: DesiredState, l: LiveState, p: Partial<DiffOptions> = {}): Plan => diff(d, l, opts(p));
const brief = (p: Plan): string[] => p.changes.map((c) => `${c.action} ${c.kind} ${c.key} ${c.id ?? ''}`.trim());
const deletes = (p: Plan): Change[] => p.changes.filter((c) => c.action === 'delete');
function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof PlanError) return e.problems;
    throw e;
  }
  throw new Error('expected a PlanError');
}

describe('duplicates that monsync could have made heal (issue 12 §2)', () => {
  // Two applies racing leave every monitor, alert and group twice, all marked with this owner.
  const raced = (): LiveState => {
    const a = liveMonitor({ id: '10104', label: 'mx-1' });
    const b = liveMonitor({ id: '10124', label: 'mx-1' });
    return liveState({
      monitors: [a, b],
      alerts: [
        liveAlert({ id: '20001', monitor: '10104', subject_init: 'mx-1 down', alert_destinations: ['d1'] }),
        liveAlert({ id: '20002', monitor: '10124', subject_init: 'mx-1 down', alert_destinations: ['d1'] }),
      ],
      groups: [liveGroup('301', 'prod', [a]), liveGroup('302', 'prod', [b])],
      destinations: [dest('d1', 'ops')],
    });
  };
  const config = desiredState({
    monitors: [dMonitor('mx-1', {}, { alerts: [dAlert('mx-1 down', { alert_destinations: ['ops'] })] })],
    groups: [dGroup('prod', ['mx-1'])],
  });

  it('copies of a declared monitor that all carry this owner marker: the extra copy is deleted as a duplicate of the kept one', () => {
    const p = plan(config, raced());
    expect(brief(p)).toEqual(['delete monitor mx-1 10124', 'delete group prod 302']);
    expect(deletes(p)[0]!).toMatchObject({ note: { duplicate_of: '10104' }, effects: { cascade_alerts: 1 } });
    expect(deletes(p)[1]!.note).toEqual({ duplicate_of: '301' });
  });

  it('applying the healing plan converges: the next plan is empty and one of each is left', () => {
    const live = raced();
    const after = simulateApply(live, plan(config, live));
    expect(plan(config, after).changes).toEqual([]);
    expect(after.monitors.map((m) => m.id)).toEqual(['10104']);
    expect(after.alerts.map((a) => a.id)).toEqual(['20001']);
    expect(after.groups.map((g) => [g.id, g.members.map((m) => m.id)])).toEqual([['301', ['10104']]]);
  });

  it('the copy that groups and alerts point at is kept, whatever its id; memberships move to it', () => {
    const bare = liveMonitor({ id: '10104', label: 'mx-1' });
    const used = liveMonitor({ id: '10124', label: 'mx-1' });
    const live = liveState({
      monitors: [bare, used],
      alerts: [liveAlert({ id: '20002', monitor: '10124', subject_init: 'mx-1 down', alert_destinations: ['d1'] })],
      groups: [liveGroup('301', 'prod', [bare, used]), liveGroup('302', 'edge', [used])],
      destinations: [dest('d1', 'ops')],
    });
    const d = desiredState({ ...config, groups: [dGroup('prod', ['mx-1']), dGroup('edge', ['mx-1'])] });
    const p = plan(d, live);
    expect(brief(p)).toEqual(['update group prod 301', 'delete monitor mx-1 10104']);
    expect(p.changes[1]!.note).toMatchObject({ duplicate_of: '10124' });
    expect(p.changes[0]!.call.body).toEqual({ name: 'prod', monitors: ['10124'], replace: true });
    expect(p.changes[1]!.depends_on).toEqual(['group:prod']);
  });

  it('otherwise the lowest id is kept, in numeric order', () => {
    const live = liveState({ monitors: [liveMonitor({ id: '10', label: 'mx' }), liveMonitor({ id: '9', label: 'mx' })] });
    const p = plan(desiredState({ monitors: [dMonitor('mx')] }), live);
    expect(brief(p)).toEqual(['delete monitor mx 10']);
    expect(p.changes[0]!.note?.duplicate_of).toBe('9');
  });

  it('the kept copy is updated to the configuration like any matched monitor', () => {
    const live = liveState({ monitors: [liveMonitor({ id: '1', label: 'mx', timer: 10 }), liveMonitor({ id: '2', label: 'mx', timer: 10 })] });
    const p = plan(desiredState({ monitors: [dMonitor('mx', { timer: 5 })] }), live);
    expect(brief(p)).toEqual(['update monitor mx 1', 'delete monitor mx 2']);
  });

  it('copies found by a previous label heal too: the kept one is renamed', () => {
    const live = liveState({ monitors: [liveMonitor({ id: '1', label: 'old' }), liveMonitor({ id: '2', label: 'old' })] });
    const p = plan(desiredState({ monitors: [dMonitor('new', {}, { previous_labels: ['old'] })] }), live);
    expect(brief(p)).toEqual(['update monitor new 1', 'delete monitor old 2']);
    expect(p.changes[1]!.note?.duplicate_of).toBe('1');
  });

  it('a copy of one declared alert is deleted as its duplicate before a lone leftover is paired: the missing alert is created', () => {
    // Owned monitor declaring "A down" and "B down"; A was deleted and a copy of B added behind monsync's back.
    const live = liveState({
      monitors: [liveMonitor({ id: '1', label: 'm1' })],
      alerts: [liveAlert({ id: '50002', monitor: '1', subject_init: 'B down' }), liveAlert({ id: '50003', monitor: '1', subject_init: 'B down' })],
    });
    const p = plan(desiredState({ monitors: [dMonitor('m1', {}, { alerts: [dAlert('A down'), dAlert('B down')] })] }), live);
    expect(brief(p)).toEqual(['create alert m1 / A down', 'delete alert m1 / B down 50003']);
    expect(deletes(p)[0]!.note).toEqual({ duplicate_of: '50002' });
  });

  it('copies that do not all carry this owner marker still stop the plan', () => {
    const live = liveState({ monitors: [liveMonitor({ id: '1', label: 'mx' }), liveMonitor({ id: '2', label: 'mx', meta: {} })] });
    expect(problemsOf(() => plan(desiredState({ monitors: [dMonitor('mx')] }), live))).toEqual([
      'monitoring/main.yaml:1:1: monitor "mx": the account has 2 monitors with this label (ids 1, 2); rename or delete all but one in the service',
    ]);
  });

  it('a copy that a group this configuration does not declare lists stops the plan: deleting it would change that group', () => {
    const a = liveMonitor({ id: '1', label: 'mx' });
    const b = liveMonitor({ id: '2', label: 'mx' });
    const live = liveState({ monitors: [a, b], alerts: [liveAlert({ id: 'x', monitor: '1', subject_init: 's' })], groups: [liveGroup('9', 'by hand', [b])] });
    const problems = problemsOf(() => plan(desiredState({ monitors: [dMonitor('mx', {}, { alerts: [dAlert('s')] })] }), live));
    expect(problems.join('\n')).toMatch(/copy id 2 .*group "by hand" \(id 9\), which this configuration does not declare/);
  });

  it('duplicate groups with a declared name heal: the lowest id is kept with the declared members', () => {
    const m = liveMonitor({ id: '1', label: 'mx' });
    const live = liveState({ monitors: [m], groups: [liveGroup('12', 'prod', [m]), liveGroup('11', 'prod', [])] });
    const p = plan(desiredState({ monitors: [dMonitor('mx')], groups: [dGroup('prod', ['mx'])] }), live);
    expect(brief(p)).toEqual(['update group prod 11', 'delete group prod 12']);
    expect(p.changes[1]!.note).toEqual({ duplicate_of: '11' });
  });

  it('duplicate alerts on a managed monitor: the extra copy is deleted as a duplicate of the kept one', () => {
    const live = liveState({
      monitors: [liveMonitor({ id: '1', label: 'mx' })],
      alerts: [liveAlert({ id: '8', monitor: '1', subject_init: 'down' }), liveAlert({ id: '7', monitor: '1', subject_init: 'down' })],
    });
    const p = plan(desiredState({ monitors: [dMonitor('mx', {}, { alerts: [dAlert('down')] })] }), live);
    expect(brief(p)).toEqual(['delete alert mx / down 8']);
    expect(p.changes[0]!.note).toEqual({ duplicate_of: '7' });
  });

  it('alert copies on a monitor this configuration does not own heal when they are identical; copies that differ stop the plan', () => {
    const web = liveMonitor({ id: 'w', label: 'web', type: 'http', meta: {}, groups: null });
    const copy = (id: string, timeout: number) => liveAlert({ id, monitor: 'w', subject_init: 'web down', timeout });
    const d = desiredState({ alerts: [topAlert('web', 'web down', { timeout: 5 })] });
    const same = plan(d, liveState({ monitors: [web], alerts: [copy('1', 5), copy('2', 5)] }));
    expect(brief(same)).toEqual(['delete alert web / web down 2']);
    expect(same.changes[0]!.note).toEqual({ duplicate_of: '1' });
    expect(problemsOf(() => plan(d, liveState({ monitors: [web], alerts: [copy('1', 5), copy('2', 9)] })))).toEqual([
      'monitoring/main.yaml:1:1: alert "web / web down": monitor "web" (id w) has 2 alerts with this subject that differ (ids 1, 2); delete all but one in the service',
    ]);
  });

  it('deletes of duplicates count against the delete threshold like any delete', () => {
    const monitors = Array.from({ length: 12 }, (_, i) => liveMonitor({ id: String(100 + i), label: 'mx' }));
    const p = plan(desiredState({ monitors: [dMonitor('mx')] }), liveState({ monitors }));
    expect(p.summary.delete).toBe(11);
    expect(checkDeletes(p, 12).ok).toBe(false);
    expect(checkDeletes(p, 12, { force: true }).ok).toBe(true);
  });

  it('managed copies nobody declares any more are all deleted, without a problem', () => {
    const live = liveState({ monitors: [liveMonitor({ id: '1', label: 'gone' }), liveMonitor({ id: '2', label: 'gone' })] });
    expect(brief(plan(desiredState(), live))).toEqual(['delete monitor gone 1', 'delete monitor gone 2']);
  });
});

describe('near misses are pointed out (issue 12 §7)', () => {
  const live = (label: string, meta: Record<string, string> = {}) => liveState({ monitors: [liveMonitor({ id: '10005', label, meta })] });
  it.each([
    ['legacy-mx', 'Legacy-MX', 'case'],
    [' legacy-mx', 'legacy-mx', 'spaces'],
    ['legacy-mx ', ' Legacy-MX', 'case and spaces'],
  ] as const)('unmanaged %j declared as %j (differs only in %s): a create that notes the live one', (liveLabel, declared, differs) => {
    const p = plan(desiredState({ monitors: [dMonitor(declared)] }), live(liveLabel));
    expect(brief(p)).toEqual([`create monitor ${declared}`]);
    expect(p.changes[0]!.note).toEqual({ near_miss: { label: liveLabel, id: '10005', differs } });
  });

  it('with --prune a near miss stops the plan instead of deleting the monitor the configuration most likely means', () => {
    const problems = problemsOf(() => plan(desiredState({ monitors: [dMonitor('Legacy-MX')] }), live('legacy-mx'), { prune: true }));
    expect(problems).toEqual([
      'monitoring/main.yaml:1:1: monitor "Legacy-MX": the account has unmanaged monitor "legacy-mx" (id 10005), whose label differs only in case, and --prune would delete it while creating "Legacy-MX". To adopt it, use its exact label or add "legacy-mx" to previous_labels; otherwise delete or rename it in the service',
    ]);
    const renamed = plan(desiredState({ monitors: [dMonitor('Legacy-MX', {}, { previous_labels: ['legacy-mx'] })] }), live('legacy-mx'), { prune: true });
    expect(brief(renamed)).toEqual(['update monitor Legacy-MX 10005']);
  });

  it('a managed, foreign or exactly matched live monitor is no near miss', () => {
    const managed = plan(desiredState({ monitors: [dMonitor('MX')] }), live('mx', { 'managed-by': OWNER }));
    // The managed one is deleted; with the same fields, the create is noted as its likely rename instead.
    expect(managed.changes.find((c) => c.action === 'create')!.note).toEqual({ looks_like_rename_of: 'mx' });
    const foreign = plan(desiredState({ monitors: [dMonitor('MX')] }), live('mx', { 'managed-by': 'them' }));
    expect(foreign.changes[0]!.note).toBeUndefined();
    const taken = plan(desiredState({ monitors: [dMonitor('MX'), dMonitor('mx')] }), live('mx'));
    expect(taken.changes.find((c) => c.action === 'create')!.note).toBeUndefined();
  });
});

describe('issue 19: one rule each', () => {
  it('1. deleting a monitor names the alerts of other types it takes with it', () => {
    const live = liveState({
      monitors: [liveMonitor({ id: '5', label: 't00' })],
      alerts: [
        liveAlert({ id: 'a', monitor: '5', subject_init: 'down' }),
        liveAlert({ id: 'b', monitor: '5', subject_init: 'slow', type: 'threshold' }),
      ],
    });
    const p = plan(desiredState(), live);
    expect(p.changes[0]!.note).toEqual({ cascade_subjects: ['down', 'slow'] });
    expect(p.changes[0]!.effects).toEqual({ cascade_alerts: 2, other_type_alerts: [{ id: 'b', type: 'threshold', subject_init: 'slow' }] });
  });

  it('1. apply refuses to delete a monitor carrying alerts the API cannot create again, unless forced', () => {
    const live = liveState({
      monitors: [liveMonitor({ id: '5', label: 't00' })],
      alerts: [liveAlert({ id: 'b', monitor: '5', subject_init: 'slow', type: 'threshold' })],
    });
    const p = plan(desiredState(), live);
    const refused = checkDeletes(p, 1);
    expect(refused.ok).toBe(false);
    expect(refused.ok ? '' : refused.message).toMatch(/1 alert of another type .*cannot create again.*--force/);
    expect(refused.ok ? [] : refused.deletes).toEqual(['monitor "t00" (id 5) and its 1 alert (threshold "slow")']);
    expect(checkDeletes(p, 1, { force: true }).ok).toBe(true);
    expect(checkDeletes(p, 1, { maxDeletes: 100 }).ok).toBe(false);
  });

  describe('2. old and new name both live: the plan stops when it would delete the old one, for monitors, groups and alerts alike', () => {
    it('monitors', () => {
      const live = liveState({ monitors: [liveMonitor({ id: '1', label: 'old' }), liveMonitor({ id: '2', label: 'new' })] });
      expect(problemsOf(() => plan(desiredState({ monitors: [dMonitor('new', {}, { previous_labels: ['old'] })] }), live)).join()).toMatch(
        /has both monitor "new" \(id 2\) and monitor "old" \(id 1\), named by previous_labels/,
      );
    });

    it('groups, when --prune would delete the old one; without it the old one is left alone', () => {
      const live = liveState({ groups: [liveGroup('1', 'prod', []), liveGroup('2', 'production', [])] });
      const d = desiredState({ groups: [dGroup('production', [], ['prod'])] });
      expect(problemsOf(() => plan(d, live, { prune: true })).join()).toMatch(
        /group "production".*has both group "production" \(id 2\) and group "prod" \(id 1\), named by previous_names/,
      );
      const p = plan(d, live);
      expect(p.changes).toEqual([]);
      expect(p.unmanaged.groups).toBe(1);
    });

    it('alerts on a monitor this configuration owns (the old one would be deleted); on others it is left alone', () => {
      const live = liveState({
        monitors: [liveMonitor({ id: '1', label: 'mx' }), liveMonitor({ id: 'w', label: 'web', type: 'http', meta: {}, groups: null })],
        alerts: [
          liveAlert({ id: 'o', monitor: '1', subject_init: 'old' }),
          liveAlert({ id: 'n', monitor: '1', subject_init: 'new' }),
          liveAlert({ id: 'wo', monitor: 'w', subject_init: 'old' }),
          liveAlert({ id: 'wn', monitor: 'w', subject_init: 'new' }),
        ],
      });
      const owned = desiredState({ monitors: [dMonitor('mx', {}, { alerts: [dAlert('new', { previous_subjects: ['old'] })] })] });
      expect(problemsOf(() => plan(owned, live)).join()).toMatch(
        /alert "mx \/ new".*has both alert "new" \(id n\) and alert "old" \(id o\), named by previous_subjects/,
      );
      const top = desiredState({ monitors: [dMonitor('mx', {}, { alerts: [dAlert('new'), dAlert('old')] })], alerts: [topAlert('web', 'new', { previous_subjects: ['old'] })] });
      expect(plan(top, live).changes).toEqual([]);
    });
  });

  it('3. a subject change without previous_subjects: an update on a monitor this configuration owns; on one it does not, a create and a warning naming the old alert', () => {
    const live = liveState({
      monitors: [liveMonitor({ id: '1', label: 'mx' }), liveMonitor({ id: 'w', label: 'web', type: 'http', meta: {}, groups: null })],
      alerts: [liveAlert({ id: 'a', monitor: '1', subject_init: 'mx down' }), liveAlert({ id: 'b', monitor: 'w', subject_init: 'web down' })],
    });
    const d = desiredState({
      monitors: [dMonitor('mx', {}, { alerts: [dAlert('mx DOWN', { subject_term: 'mx down (reset)' })] })],
      alerts: [topAlert('web', 'web DOWN', { subject_term: 'web down (reset)' })],
    });
    const p = plan(d, live);
    expect(brief(p)).toEqual(['update alert mx / mx DOWN a', 'create alert web / web DOWN']);
    expect(p.warnings).toEqual([
      'alert "web / web DOWN": monitor "web" also has alert "web down" (id b), which this plan leaves alone; if it is this alert under an earlier subject, add "web down" to previous_subjects to update it instead of adding a second alert',
    ]);
  });

  it('4. ignore wins over membership: an ignored monitor stays a member of a declared group, which lists only what it can see', () => {
    const m = liveMonitor({ id: '1', label: 'mx' });
    const old = liveMonitor({ id: '2', label: 'legacy-1' });
    const live = liveState({ monitors: [m, old], groups: [liveGroup('g', 'prod', [m, old])] });
    const d = desiredState({ settings: { ignore: ['legacy-*'] }, monitors: [dMonitor('mx')], groups: [dGroup('prod', ['mx'])] });
    expect(plan(d, live).changes).toEqual([]);
    const emptied = plan(desiredState({ ...d, groups: [dGroup('prod', [])] }), live);
    expect(emptied.changes[0]!.call.body).toEqual({ name: 'prod', monitors: ['2'], replace: true });
  });

  it('5. prune keeps an unmanaged monitor that a declared group or top-level alert names, and counts it', () => {
    const live = liveState({
      monitors: [liveMonitor({ id: '1', label: 'grouped', meta: {} }), liveMonitor({ id: '2', label: 'alerted', meta: {} }), liveMonitor({ id: '3', label: 'lonely', meta: {} })],
    });
    const d = desiredState({ groups: [dGroup('g', ['grouped'])], alerts: [topAlert('alerted', 's')] });
    const p = plan(d, live, { prune: true });
    expect(deletes(p).map((c) => c.key)).toEqual(['lonely']);
    expect(p.unmanaged).toMatchObject({ monitors: 2, referenced_monitors: 2 });
    // Counted without --prune too: the hint then says exactly what --prune would delete (prune-hint.test.ts).
    expect(plan(d, live).unmanaged).toMatchObject({ monitors: 3, referenced_monitors: 2 });
  });

  describe('6. a group without a monitors key does not manage its membership; monitors: [] empties it', () => {
    const m = liveMonitor({ id: '1', label: 'mx' });
    const live = liveState({ monitors: [m], groups: [liveGroup('g', 'prod', [m])] });
    const unmanagedMembers = (name: string, previous: string[] = []) => ({ ...dGroup(name, [], previous), monitors: null });

    it('declaring an existing group by name only changes nothing', () => {
      expect(plan(desiredState({ monitors: [dMonitor('mx')], groups: [unmanagedMembers('prod')] }), live).changes).toEqual([]);
    });
    it('monitors: [] empties it', () => {
      expect(brief(plan(desiredState({ monitors: [dMonitor('mx')], groups: [dGroup('prod', [])] }), live))).toEqual(['update group prod g']);
    });
    it('a rename sends the name alone, so the members stay', () => {
      const c = plan(desiredState({ monitors: [dMonitor('mx')], groups: [unmanagedMembers('production', ['prod'])] }), live).changes;
      expect(c.map((x) => [x.changed, x.call.body])).toEqual([[['name'], { name: 'production' }]]);
    });
    it('a create makes it empty', () => {
      const c = plan(desiredState({ groups: [unmanagedMembers('new')] }), liveState({})).changes;
      expect(c.map((x) => [x.changed, x.call.body])).toEqual([[['name'], { name: 'new' }]]);
    });
  });

  it('7. a declared label shared by a managed and a hand-made monitor is one problem, not also a delete', () => {
    const live = liveState({ monitors: [liveMonitor({ id: '10004', label: 'mx' }), liveMonitor({ id: '10005', label: 'mx', meta: {} })] });
    expect(problemsOf(() => plan(desiredState({ monitors: [dMonitor('mx')] }), live))).toHaveLength(1);
  });

  it('7. alerts of other types on managed monitors are counted apart from undeclared alerts on monitors left alone', () => {
    const live = liveState({
      monitors: [liveMonitor({ id: '1', label: 'mx' }), liveMonitor({ id: '2', label: 'hand', meta: {} })],
      alerts: [liveAlert({ id: 'a', monitor: '1', subject_init: 'slow', type: 'threshold' }), liveAlert({ id: 'b', monitor: '2', subject_init: 'x' })],
    });
    const p = plan(desiredState({ monitors: [dMonitor('mx')] }), live);
    expect(p.changes).toEqual([]);
    expect(p.unmanaged).toMatchObject({ monitors: 1, alerts: 1, other_type_alerts: 1 });
  });
});

describe('issue 23: timeouts where the service needs them, and conflicts listed in README', () => {
  it('a top-level alert without a timeout on a monitor of another type is created without one', () => {
    const live = liveState({ monitors: [liveMonitor({ id: '7', label: 'www-http', type: 'http', meta: {} })] });
    const p = plan(desiredState({ alerts: [topAlert('www-http', 'www down', { timeout: null })] }), live);
    expect(brief(p)).toEqual(['create alert www-http / www down']);
    expect(p.changes[0]!.call.body).not.toHaveProperty('timeout');
  });

  it('a top-level alert without a timeout on an SMTP monitor stops the plan: SMTP alerts need one', () => {
    const live = liveState({ monitors: [liveMonitor({ id: '8', label: 'legacy-mx', meta: {} })] });
    expect(problemsOf(() => plan(desiredState({ alerts: [topAlert('legacy-mx', 'mx down', { timeout: null })] }), live))).toEqual([
      expect.stringContaining(
        'alert "legacy-mx / mx down": monitor "legacy-mx" is an SMTP monitor, whose alerts need a timeout; set it here or in defaults.alert',
      ),
    ]);
  });

  it("a top-level alert on a monitor carrying another owner's marker stops the plan (README, Conflicts)", () => {
    const live = liveState({ monitors: [liveMonitor({ id: '9', label: 'their-mx', meta: { 'managed-by': 'other-team' } })] });
    expect(problemsOf(() => plan(desiredState({ alerts: [topAlert('their-mx', 'mx down')] }), live))).toEqual([
      expect.stringContaining('monitor "their-mx" (id 9) is managed by "other-team", whose configuration owns its alerts'),
    ]);
  });

  it('a managed monitor without alerts or groups whose label starts an unmatched declared label stops the plan: never deleted and created again', () => {
    const long = 'a-monitor-with-a-rather-long-label';
    const live = liveState({ monitors: [liveMonitor({ id: '10', label: long.slice(0, 20), alerts: [], groups: [] })] });
    const problems = problemsOf(() => plan(desiredState({ monitors: [dMonitor(long)] }), live));
    expect(problems).toEqual([
      expect.stringContaining(
        `monitor "${long}": the account has monitor "${long.slice(0, 20)}" (id 10), marked as this configuration's, without alerts or groups, whose label is the start of this one`,
      ),
    ]);
    // Short labels are never taken for a cut: mg-1 removed and mg-10 added is a delete and a create.
    const short = liveState({ monitors: [liveMonitor({ id: '11', label: 'mg-1', alerts: [], groups: [] })] });
    expect(brief(plan(desiredState({ monitors: [dMonitor('mg-10')] }), short))).toEqual(['create monitor mg-10', 'delete monitor mg-1 11']);
  });
});
