/**
 * Maintenance windows as printed: in the plan (text, Markdown comment, JSON valid against
 * schemas/plan.schema.json) and by `monsync maintain` (lines and JSON). Golden files in __golden__/.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { decideMaintenance } from '../../src/ops/maintenance.js';
import type { DesiredMaintenance } from '../../src/model/desired.js';
import type { Plan } from '../../src/plan/types.js';
import { renderMaintainJson, renderMaintainText } from '../../src/render/maintain.js';
import { renderPlanJson } from '../../src/render/plan-json.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { renderPlanText } from '../../src/render/plan-text.js';
import { liveAlert, liveMonitor, liveState } from '../plan/helpers.js';
import { emptyPlan } from './fixtures.js';

function withWindows(plan: Plan): Plan {
  return {
    ...plan,
    maintenance: [
      { window: 'patch-tuesday', start: '2026-12-01T02:00:00Z', end: '2026-12-01T04:00:00Z', monitors: ['mx-eu-1', 'mx-eu-2', 'mx-eu-3', 'mx-eu-4', 'mx-eu-5', 'mx-eu-6'], unmatched: [] },
      { window: 'us-migration', start: '2026-12-02T03:00:00Z', end: '2026-12-02T07:00:00Z', monitors: [], unmatched: ['mx-us-1', 'group us|east'] },
    ],
  };
}

describe('the plan shows the maintenance windows of the next 7 days', () => {
  it('text, Markdown and JSON (golden files)', async () => {
    const plan = withWindows(emptyPlan());
    await expect(renderPlanText(plan, { color: false })).toMatchFileSnapshot('./__golden__/plan-maintenance.txt');
    await expect(renderPlanMarkdown(plan)).toMatchFileSnapshot('./__golden__/plan-maintenance.md');
    await expect(renderPlanJson(plan)).toMatchFileSnapshot('./__golden__/plan-maintenance.json');
  });

  it('the JSON plan with windows is valid against the schema, and one without keeps its bytes', () => {
    const schema = JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8'));
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    const validate = ajv.compile(schema);
    const doc = JSON.parse(renderPlanJson(withWindows(emptyPlan())));
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...doc, maintenance: [{ window: 'x' }] })).toBe(false);
    expect(renderPlanJson(emptyPlan())).not.toContain('maintenance');
  });

  it('says so when a configuration with windows has none in the next 7 days', () => {
    const plan = { ...emptyPlan(), maintenance: [] };
    expect(renderPlanText(plan, { color: false })).toMatch(/^Maintenance windows: none open in the next 7 days\.\n/);
    expect(renderPlanMarkdown(plan)).toContain('**Maintenance windows:** none open in the next 7 days.');
  });
});

describe('monsync maintain prints', () => {
  const window: DesiredMaintenance = {
    name: 'patch-tuesday',
    monitors: ['mx-eu-*', 'mx-gone'],
    groups: [],
    time_zone: 'Europe/London',
    cron: '0 2 * * 2',
    duration_seconds: 7200,
    source: { file: 'm.yaml', line: 3, column: 5 },
  };
  const live = liveState({ monitors: [liveMonitor({ id: '1', label: 'mx-eu-1' }), liveMonitor({ id: '2', label: 'mx-eu-2' }), liveMonitor({ id: '3', label: 'mx-eu-3' })] });
  const alert = (id: string, monitor: string, subject: string) => liveAlert({ id, monitor, subject_init: subject });
  const now = Date.parse('2026-12-01T02:05:00Z');
  const decision = decideMaintenance(
    [window],
    { ...live, alerts: [alert('11', '1', 'eu-1 down'), alert('12', '1', 'eu-1 slow'), alert('21', '2', 'eu-2 down'), alert('22', '2', 'eu-2 slow')] },
    [
      { id: '21', monitor: '2', seconds: 6900 },
      { id: '22', monitor: '2', seconds: 36000 },
    ],
    now,
  );

  it('what each covered alert gets: paused, already paused for the window, or left alone (golden files)', async () => {
    expect(decision.open[0]!.monitors.map((m) => [m.monitor.label, m.call, m.alerts.map((a) => a.action)])).toEqual([
      ['mx-eu-1', 'monitor', ['pause', 'pause']],
      ['mx-eu-2', 'none', ['done', 'longer']],
      ['mx-eu-3', 'none', []],
    ]);
    const sent = [{ window: 'patch-tuesday', monitor: decision.open[0]!.monitors[0]!.monitor, alertIds: ['11', '12'], seconds: 6900 }];
    await expect(renderMaintainText(decision, sent, { color: false, dryRun: false })).toMatchFileSnapshot('./__golden__/maintain.txt');
    await expect(renderMaintainText(decision, [], { color: false, dryRun: true })).toMatchFileSnapshot('./__golden__/maintain-dry-run.txt');
    await expect(renderMaintainJson(decision, sent, { dryRun: false })).toMatchFileSnapshot('./__golden__/maintain.json');
  });

  it('no window open', () => {
    expect(renderMaintainText({ now_ms: now, open: [] }, [], { color: false, dryRun: false })).toBe('No maintenance window is open at 2026-12-01 02:05 UTC (service time).\n');
  });
});
