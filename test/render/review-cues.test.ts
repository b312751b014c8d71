/**
 * What a reviewer reads in a plan (issue 18): the Markdown comment's Change column says what changed
 * in `meta` and in multi-line text, not only the field's name; a monitor delete names the alerts
 * the service deletes with it; and in colour, "adopting" and "renamed from" (what a reviewer must
 * notice) stand out instead of being dimmed with the id.
 */
import { describe, expect, it } from 'vitest';
import { diff } from '../../src/plan/diff.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { renderPlanText } from '../../src/render/plan-text.js';
import { dAlert, desiredState, dMonitor, liveAlert, liveMonitor, liveState, NOW, TARGET } from '../plan/helpers.js';

const live = liveState({
  monitors: [
    liveMonitor({ id: '1', label: 'mx-eu-1', meta: { 'managed-by': 'mail-team', region: 'eu', tier: '1', team: 'mail' }, custom_body: 'line one\nline two' }),
    liveMonitor({ id: '2', label: 'mx-old' }),
    liveMonitor({ id: '3', label: 'mx-b' }),
    liveMonitor({ id: '4', label: 'hand-made', meta: {} }),
  ],
  alerts: [
    liveAlert({ id: 'a1', monitor: '2', subject_init: 'mx-old is DOWN' }),
    liveAlert({ id: 'a2', monitor: '2', subject_init: 'mx-old is SLOW' }),
  ],
});
const desired = desiredState({
  monitors: [
    dMonitor('mx-eu-1', { meta: { region: 'eu-west', tier: '1', site: 'ams' }, custom_body: 'line one\nline 2\nline three' }),
    dMonitor('mx-bravo', {}, { previous_labels: ['mx-b'] }),
    dMonitor('hand-made'),
  ],
});
const plan = diff(desired, live, { target: TARGET, now: NOW });

describe('review cues', () => {
  it('the Markdown Change column says what changed in meta and in multi-line text', () => {
    const md = renderPlanMarkdown(plan, { title: 't' });
    expect(md).toContain(
      '| ✏️ | monitor | <code>mx-eu-1</code><br><sub>monitoring/main.yaml&#58;1</sub> | custom_body 2 lines → 3 lines, meta region <code>"eu"</code> → <code>"eu-west"</code>, + site <code>"ams"</code>, − team |',
    );
  });

  it('a monitor delete names the alerts that go with it, in text and in Markdown', () => {
    expect(plan.changes.find((c) => c.key === 'mx-old')).toMatchObject({ note: { cascade_subjects: ['mx-old is DOWN', 'mx-old is SLOW'] }, effects: { cascade_alerts: 2 } });
    expect(renderPlanText(plan, { color: false })).toContain('  - monitor "mx-old"   (id 2)\n      and its test history\n      and its 2 alerts "mx-old is DOWN" and "mx-old is SLOW"\n');
    const md = renderPlanMarkdown(plan, { title: 't' });
    expect(md).toContain('| 🗑️ | monitor | <code>mx-old</code> | delete with its test history (and 2 alerts: <code>mx-old is DOWN</code>, <code>mx-old is SLOW</code>) |');
    expect(md).toContain('The service deletes its 2 alerts with it: <code>mx-old is DOWN</code>, <code>mx-old is SLOW</code>.');
  });

  it('in colour, "adopting" and "renamed from" are not dimmed with the id', () => {
    const text = renderPlanText(plan, { color: true });
    const header = (label: string) => text.split('\n').find((l) => l.includes(`monitor "${label}"`))!;
    const dim = '\u001b[2m';
    expect(header('hand-made')).toContain('adopting');
    expect(header('hand-made')).not.toMatch(new RegExp(`${dim.replace('[', '\\[')}[^\u001b]*adopting`));
    expect(header('mx-bravo')).not.toMatch(new RegExp(`${dim.replace('[', '\\[')}[^\u001b]*renamed from`));
    // The id stays dim: the faintest text is what a reviewer can skip.
    expect(header('mx-bravo')).toMatch(new RegExp(`${dim.replace('[', '\\[')}\\(id 3`));
  });
});
