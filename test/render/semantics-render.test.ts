/**
 * How the plan says what The rules of docs/semantics.md decided: a duplicate deleted, alerts the API
 * cannot create again going with their monitor, a near miss, what prune kept and why, other-type
 * alerts kept on managed monitors. Text, Markdown and JSON (valid against schemas/plan.schema.json).
 */
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { diff } from '../../src/plan/diff.js';
import { renderPlanJson } from '../../src/render/plan-json.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { renderPlanText } from '../../src/render/plan-text.js';
import type { Plan } from '../../src/plan/types.js';
import { NOW, TARGET, dGroup, dMonitor, desiredState, liveAlert, liveMonitor, liveState, topAlert } from '../plan/helpers.js';

/** A race's leftover copy, a near miss, a monitor taking a threshold alert with it, prune keeping a referenced monitor. */
function semanticsPlan(): Plan {
  const live = liveState({
    monitors: [
      liveMonitor({ id: '10104', label: 'mx-1' }),
      liveMonitor({ id: '10124', label: 'mx-1' }),
      liveMonitor({ id: '10005', label: 'legacy-mx', meta: {} }),
      liveMonitor({ id: '10200', label: 't00' }),
      liveMonitor({ id: '10300', label: 'hand-made', meta: {} }),
      liveMonitor({ id: '10400', label: 'kept', timer: 10 }),
    ],
    alerts: [
      liveAlert({ id: 'a1', monitor: '10200', subject_init: 't00 down' }),
      liveAlert({ id: 'a2', monitor: '10200', subject_init: 't00 slow', type: 'threshold' }),
      liveAlert({ id: 'a3', monitor: '10400', subject_init: 'kept slow', type: 'threshold' }),
    ],
  });
  const desired = desiredState({
    monitors: [dMonitor('mx-1'), dMonitor('Legacy-MX'), dMonitor('kept')],
    alerts: [topAlert('hand-made', 'down'), topAlert('legacy-mx', 'down')],
    groups: [dGroup('mail', ['hand-made'])],
  });
  return diff(desired, live, { target: TARGET, now: NOW, prune: true });
}

describe('the plan renders what the semantics rules decided', () => {
  it('text', () => {
    const text = renderPlanText(semanticsPlan(), { color: false });
    expect(text).toContain('  + monitor "Legacy-MX"   # monitoring/main.yaml:1\n      did you mean to adopt "legacy-mx" (id 10005, differs only in case)?\n');
    expect(text).toContain('  - monitor "mx-1"   (id 10124, duplicate of id 10104)\n');
    expect(text).toContain('  - monitor "t00"   (id 10200)\n      and its test history\n      and its 2 alerts "t00 down" and "t00 slow", one of them a threshold alert "t00 slow" the API cannot create again\n');
    expect(text).toContain(
      'Left alone: 2 unmanaged monitors (named by a declared group or alert, so not pruned), 1 alert of another type on managed monitors.\n',
    );
  });

  it('markdown', () => {
    const md = renderPlanMarkdown(semanticsPlan());
    expect(md).toContain('| ➕ | monitor | <code>Legacy-MX</code><br><sub>monitoring/main.yaml&#58;1</sub> | create; did you mean to adopt <code>legacy-mx</code> (id 10005, differs only in case)? |');
    expect(md).toContain('| 🗑️ | monitor | <code>mx-1</code> | delete duplicate of id <code>10104</code> with its test history |');
    expect(md).toContain(
      '| 🗑️ | monitor | <code>t00</code> | delete with its test history (and 2 alerts: <code>t00 down</code>, <code>t00 slow</code>, one of them a threshold alert <code>t00 slow</code> the API cannot create again) |',
    );
    expect(md).toContain('One of them is a threshold alert <code>t00 slow</code>, which the API cannot create again: apply refuses this without <code>--force</code>.');
    expect(md).toContain('Left alone: 2 unmanaged monitors (named by a declared group or alert, so not pruned), 1 alert of another type on managed monitors.');
  });

  it('json, valid against schemas/plan.schema.json', () => {
    const schema = JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8'));
    const ajv = new Ajv2020.default({ allErrors: true, strict: true, strictTypes: false });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    const doc = JSON.parse(renderPlanJson(semanticsPlan()));
    validate(doc);
    expect(validate.errors ?? []).toEqual([]);
    const note = (key: string, action: string) => doc.changes.find((c: { key: string; action: string }) => c.key === key && c.action === action).note;
    expect(note('Legacy-MX', 'create')).toEqual({ near_miss: { differs: 'case', id: '10005', label: 'legacy-mx' } });
    expect(note('mx-1', 'delete')).toEqual({ cascade_alerts: 0, duplicate_of: '10104' });
    expect(note('t00', 'delete')).toEqual({
      cascade_alerts: 2,
      cascade_subjects: ['t00 down', 't00 slow'],
      other_type_alerts: [{ id: 'a2', subject_init: 't00 slow', type: 'threshold' }],
    });
    expect(doc.unmanaged).toMatchObject({ monitors: 2, referenced_monitors: 2, other_type_alerts: 1 });
  });
});
