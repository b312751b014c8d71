/**
 * The "Left alone" line and --prune (issue 18). The hint said "use --prune to delete unmanaged
 * monitors and undeclared groups" next to monitors of another owner and monitors a declared group
 * names, which --prune keeps; it now says exactly what --prune would delete. And --prune deleted
 * other configurations' groups (groups carry no owner marker): an undeclared group that lists a
 * monitor of another owner is that owner's, and --prune leaves it alone (docs/semantics.md, Prune).
 */
import { describe, expect, it } from 'vitest';
import { diff } from '../../src/plan/diff.js';
import { renderPlanJson } from '../../src/render/plan-json.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { renderPlanText } from '../../src/render/plan-text.js';
import { desiredState, dMonitor, liveGroup, liveMonitor, liveState } from './helpers.js';

const src = { file: 'monsync.yaml', line: 1, column: 1 };
const live = liveState({
  monitors: [
    liveMonitor({ id: '1', label: 'mx-eu-1' }),
    liveMonitor({ id: '2', label: 'their-mx', meta: { 'managed-by': 'team-b' } }),
    liveMonitor({ id: '3', label: 'hand-made', meta: {} }),
    liveMonitor({ id: '4', label: 'forgotten', meta: {} }),
  ],
  groups: [liveGroup('g1', 'team-b-servers', ['2']), liveGroup('g2', 'mixed', ['2', '4']), liveGroup('g3', 'old', ['4']), liveGroup('g4', 'empty', [])],
});
const desired = desiredState({
  monitors: [dMonitor('mx-eu-1')],
  groups: [{ name: 'mine', previous_names: [], monitors: ['hand-made'], source: src }],
});
const plan = (prune: boolean) => diff(desired, live, { target: 'http://127.0.0.1:9', prune, now: new Date(0) });
const leftAlone = (text: string) => text.split('\n').find((l) => l.startsWith('Left alone:'));

describe('--prune and what it leaves alone', () => {
  it('keeps undeclared groups that list a monitor of another owner, and says so in README\'s terms (unmanaged: no marker; foreign: another owner\'s)', () => {
    const p = plan(true);
    expect(p.changes.filter((c) => c.action === 'delete').map((c) => `${c.kind} ${c.key}`)).toEqual(['monitor forgotten', 'group empty', 'group old']);
    expect(leftAlone(renderPlanText(p, { color: false }))).toBe(
      'Left alone: 1 unmanaged monitor (named by a declared group or alert, so not pruned), 1 foreign monitor (managed by another owner), ' +
        '2 undeclared groups (listing monitors of another owner, so not pruned).',
    );
    expect(JSON.parse(renderPlanJson(p)).unmanaged).toEqual({
      monitors: 2,
      foreign_monitors: 1,
      referenced_monitors: 1,
      alerts: 0,
      groups: 2,
      other_owner_groups: 2,
      other_type_monitors: 0,
      ignored: 0,
    });
  });

  it('without --prune, the hint says exactly what --prune would delete: not the other owner\'s monitor nor the one a group names', () => {
    const p = plan(false);
    expect(leftAlone(renderPlanText(p, { color: false }))).toBe(
      'Left alone: 2 unmanaged monitors, 1 foreign monitor (managed by another owner), 4 undeclared groups (--prune would delete 1 unmanaged monitor and 2 undeclared groups).',
    );
    expect(renderPlanMarkdown(p, { title: 't' })).toContain('(<code>--prune</code> would delete 1 unmanaged monitor and 2 undeclared groups)');
  });

  it('gives no hint when --prune would delete nothing', () => {
    const onlyTheirs = liveState({ monitors: [liveMonitor({ id: '1', label: 'mx-eu-1' }), liveMonitor({ id: '2', label: 'their-mx', meta: { 'managed-by': 'team-b' } })] });
    const p = diff(desiredState({ monitors: [dMonitor('mx-eu-1')] }), onlyTheirs, { target: 'x', now: new Date(0) });
    expect(leftAlone(renderPlanText(p, { color: false }))).toBe('Left alone: 1 foreign monitor (managed by another owner).');
  });
});
