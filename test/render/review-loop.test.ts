/**
 * The comment a reviewer reads (issue 24 §2), on plans made by the real planner: a rename made
 * without previous_labels is pointed out, an alert paired as the only one left is marked, a delete
 * says what is lost (alerts, groups) and not the values every monitor has, a new group names its
 * members, and the commit the comment was made from is named.
 */
import { describe, expect, it } from 'vitest';
import { diff } from '../../src/plan/diff.js';
import { renderPlanJson } from '../../src/render/plan-json.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { renderPlanText } from '../../src/render/plan-text.js';
import { dAlert, desiredState, dGroup, dMonitor, liveAlert, liveGroup, liveMonitor, liveState, NOW, TARGET } from '../plan/helpers.js';

const west = liveMonitor({ id: '7', label: 'mx-us-west-1', ip_address: 'mx-w.example.com', custom_subject: '[w]' });
const keep = liveMonitor({ id: '8', label: 'mx-keep' });
const live = liveState({
  monitors: [west, keep],
  alerts: [liveAlert({ id: 'a1', monitor: '8', subject_init: 'mx-keep down', subject_term: 'mx-keep up' })],
  groups: [liveGroup('g1', 'production', [west, keep]), liveGroup('g2', 'west', [west])],
});
const desired = desiredState({
  monitors: [
    // The same monitor under a new label, without previous_labels.
    dMonitor('mx-us-west-2', { ip_address: 'mx-w.example.com', custom_subject: '[w]' }),
    // The only alert, its subject changed without previous_subjects.
    dMonitor('mx-keep', {}, { alerts: [dAlert('mx-keep is DOWN', { subject_term: 'mx-keep up' })] }),
  ],
  groups: [dGroup('production', ['mx-us-west-2', 'mx-keep']), dGroup('europe', ['mx-keep'])],
});
const plan = diff(desired, live, { target: TARGET, now: NOW });
const change = (action: string, key: string) => plan.changes.find((c) => c.action === action && c.key === key)!;

describe('a delete and a create with identical fields', () => {
  it('are noted as a likely rename in the plan data, both ways', () => {
    expect(change('create', 'mx-us-west-2').note).toMatchObject({ looks_like_rename_of: 'mx-us-west-1' });
    expect(change('delete', 'mx-us-west-1').note).toMatchObject({ looks_like_rename_to: 'mx-us-west-2' });
  });

  it('carry the hint to add previous_labels, in text and Markdown', () => {
    const hint = 'looks like a rename of "mx-us-west-1": add previous_labels to keep its id and history';
    expect(renderPlanText(plan, { color: false })).toContain(`  + monitor "mx-us-west-2"   # monitoring/main.yaml:1\n      ${hint}\n`);
    const md = renderPlanMarkdown(plan, { title: 't' });
    expect(md).toContain('⚠️ looks like a rename of <code>mx-us-west-1</code>: add previous_labels to keep its id and history');
    expect(md).toMatch(/\| 🗑️ \| monitor \| <code>mx-us-west-1<\/code> \| delete with its test history( \(.*\))?; looks like a rename to <code>mx-us-west-2<\/code> \|/);
  });

  it('are not noted when the fields differ', () => {
    const other = diff(desiredState({ monitors: [dMonitor('mx-us-west-2', { ip_address: 'elsewhere.example.com' })] }), liveState({ monitors: [west] }), { target: TARGET, now: NOW });
    expect(other.changes.map((c) => c.note?.looks_like_rename_of ?? c.note?.looks_like_rename_to)).toEqual([undefined, undefined]);
  });
});

describe('an alert paired because it was the only one left', () => {
  it('is marked as such, in the plan data, text and Markdown', () => {
    const update = change('update', 'mx-keep / mx-keep is DOWN');
    expect(update.note).toEqual({ subject_changed_from: 'mx-keep down', paired_by: 'alone' });
    expect(renderPlanText(plan, { color: false })).toContain('(id a1, subject was "mx-keep down", paired as the only alert left on its monitor)');
    expect(renderPlanMarkdown(plan, { title: 't' })).toContain('subject was <code>mx-keep down</code>, ⚠️ paired as the only alert left on its monitor');
  });

  it('is not marked when previous_subjects names the old subject', () => {
    const named = desiredState({ monitors: [dMonitor('mx-keep', {}, { alerts: [dAlert('mx-keep is DOWN', { subject_term: 'mx-keep up', previous_subjects: ['mx-keep down'] })] })] });
    const p = diff(named, liveState({ monitors: [keep], alerts: live.alerts }), { target: TARGET, now: NOW });
    expect(p.changes.find((c) => c.kind === 'alert')!.note).toEqual({ subject_changed_from: 'mx-keep down' });
  });
});

describe('a delete', () => {
  it('says which groups the monitor leaves', () => {
    expect(change('delete', 'mx-us-west-1').note).toMatchObject({ member_of: ['production', 'west'] });
    expect(renderPlanText(plan, { color: false })).toContain('      and leaves groups "production" and "west"\n');
    const md = renderPlanMarkdown(plan, { title: 't' });
    expect(md).toContain('delete with its test history (leaves groups <code>production</code>, <code>west</code>)');
    expect(md).toContain('It leaves groups <code>production</code>, <code>west</code>.');
  });

  it('shows the fields that are lost, not the values every monitor has', () => {
    const md = renderPlanMarkdown(plan, { title: 't' });
    const block = md.slice(md.indexOf('<summary>🗑️ monitor <code>mx-us-west-1</code>'));
    const yaml = block.slice(block.indexOf('```yaml'), block.indexOf('```', block.indexOf('```yaml') + 3));
    expect(yaml).toContain('ip_address: "mx-w.example.com"');
    expect(yaml).toContain('custom_subject: "[w]"');
    for (const dflt of ['attachment: null', 'custom_body: ""', 'port: 25', 'ipv6: false', 'ttl: 0', 'message_format: "text/plain"']) expect(yaml).not.toContain(dflt);
  });
});

describe('a new group', () => {
  it("names its members in the comment's row", () => {
    expect(renderPlanMarkdown(plan, { title: 't' })).toMatch(/\| ➕ \| group \| <code>europe<\/code><br><sub>[^|]*<\/sub> \| create with <code>mx-keep<\/code> \|/);
  });
});

describe('golden files of the review cues (colour off)', () => {
  it('text', async () => {
    await expect(renderPlanText(plan, { color: false })).toMatchFileSnapshot('./__golden__/review-loop.txt');
  });
  it('markdown, naming the commit', async () => {
    await expect(renderPlanMarkdown(plan, { commit: '9f8e7d6' })).toMatchFileSnapshot('./__golden__/review-loop.md');
  });
  it('json', async () => {
    await expect(renderPlanJson(plan)).toMatchFileSnapshot('./__golden__/review-loop.json');
  });
});
