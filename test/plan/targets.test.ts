/**
 * `--target GLOB` that selects nothing. A glob that matches no label or group name said that the
 * other changes "are left out", then "No changes. The account matches the configuration.": the one
 * thing the plan knew not to be true. It says the glob matched nothing (with a suggestion), and a
 * targeted plan without changes claims no more than that the targeted resources need none.
 */
import { describe, expect, it } from 'vitest';
import { diff } from '../../src/plan/diff.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { renderPlanText } from '../../src/render/plan-text.js';
import { desiredState, dMonitor, liveMonitor, liveState } from './helpers.js';

const desired = desiredState({ monitors: [dMonitor('mx-eu-1'), dMonitor('mx-eu-2')] });
const live = liveState({ monitors: [liveMonitor({ id: '1', label: 'mx-eu-1' })] });
const plan = (targets: string[]) => diff(desired, live, { target: 'http://127.0.0.1:9', targets, now: new Date(0) });

describe('--target', () => {
  it('says when a glob matches no label or group name, with a suggestion, instead of "the account matches"', () => {
    const p = plan(['mx-eu2']);
    expect(p.changes).toEqual([]);
    expect(p.warnings).toEqual([
      '--target "mx-eu2" matches no monitor label or group name of the configuration or the account; did you mean "mx-eu-2"?',
      '--target limits this plan to 0 changes; 1 other change is left out, so the account will not match the configuration afterwards',
    ]);
    const text = renderPlanText(p, { color: false });
    expect(text).not.toContain('The account matches the configuration');
    expect(text.trimEnd().split('\n').at(-1)).toBe('No changes to the targeted resources.');
    expect(renderPlanMarkdown(p, { title: 't' })).toContain('**No changes to the targeted resources.**');
  });

  it('a glob that matches resources without changes says only that they need none', () => {
    const p = plan(['mx-eu-1']);
    expect(p.warnings).toEqual(['--target limits this plan to 0 changes; 1 other change is left out, so the account will not match the configuration afterwards']);
    expect(renderPlanText(p, { color: false }).trimEnd().split('\n').at(-1)).toBe('No changes to the targeted resources.');
  });

  it('without --target, an empty plan still says the account matches', () => {
    const p = diff(desiredState({ monitors: [dMonitor('mx-eu-1')] }), live, { target: 'http://127.0.0.1:9', now: new Date(0) });
    expect(renderPlanText(p, { color: false }).trimEnd().split('\n').at(-1)).toBe('No changes. The account matches the configuration.');
  });
});
