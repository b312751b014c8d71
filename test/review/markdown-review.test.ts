/**
 * The Markdown plan (PR comment) must say what apply does. A group update's details block diffed
 * member labels before (live labels) and after (desired labels), so a member that the same plan
 * renames showed up as removed and re-added although the PUT keeps it (same id); the summary row
 * and the text plan use the plan's member notes (by id) and were right.
 */
import { describe, expect, it } from 'vitest';
import { diff } from '../../src/plan/diff.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { desiredState, dGroup, dMonitor, liveGroup, liveMonitor, liveState } from '../plan/helpers.js';

describe('plan markdown: group member diff', () => {
  it('does not show a renamed member as removed and added', () => {
    const a = liveMonitor({ id: '1', label: 'mx-a' });
    const c = liveMonitor({ id: '3', label: 'mx-c' });
    const live = liveState({ monitors: [a, c], groups: [liveGroup('g1', 'prod', [a])] });
    const desired = desiredState({
      monitors: [dMonitor('mx-b', {}, { previous_labels: ['mx-a'] }), dMonitor('mx-c')],
      groups: [dGroup('prod', ['mx-b', 'mx-c'])],
    });
    const plan = diff(desired, live, { target: 'http://127.0.0.1:1' });
    const group = plan.changes.find((x) => x.kind === 'group')!;
    expect(group.note).toMatchObject({ members_added: ['mx-c'] });
    expect(group.note?.members_removed).toBeUndefined();

    const md = renderPlanMarkdown(plan);
    const details = md.slice(md.indexOf('group <code>prod</code>'));
    expect(details).toContain('+  "mx-c"');
    expect(details).not.toContain('-  "mx-a"');
    expect(details).not.toContain('+  "mx-b"');
  });
});

describe('plan text: group member diff', () => {
  it('does not show a renamed member as removed', async () => {
    const { renderPlanText } = await import('../../src/render/plan-text.js');
    const a = liveMonitor({ id: '1', label: 'mx-a' });
    const c = liveMonitor({ id: '3', label: 'mx-c' });
    const live = liveState({ monitors: [a, c], groups: [liveGroup('g1', 'prod', [a])] });
    const desired = desiredState({
      monitors: [dMonitor('mx-b', {}, { previous_labels: ['mx-a'] }), dMonitor('mx-c')],
      groups: [dGroup('prod', ['mx-b', 'mx-c'])],
    });
    const text = renderPlanText(diff(desired, live, { target: 'http://127.0.0.1:1' }), { color: false });
    const groupBlock = text.slice(text.indexOf('group "prod"'));
    expect(groupBlock.split('\n')[1]).toBe('      monitors: + "mx-c"');
  });
});
