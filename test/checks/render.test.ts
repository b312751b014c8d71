/**
 * Findings in the plan's three faces: a "Checks" section above the changes in text and Markdown,
 * a `checks` array in JSON (valid against schemas/plan.schema.json). A plan without findings looks
 * exactly as before (the golden files of test/render hold that).
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/checks/index.js';
import type { Plan } from '../../src/plan/types.js';
import { renderPlanJson } from '../../src/render/plan-json.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { renderPlanText } from '../../src/render/plan-text.js';
import { emptyPlan, richPlan } from '../render/fixtures.js';

const missing: Finding = {
  check: 'alert/missing',
  severity: 'warning',
  message: 'monitor "mx-eu-2" has no alert; nobody is told when it fails',
  file: 'monitoring/europe.yaml',
  line: 23,
  column: 5,
  kind: 'monitor',
  key: 'mx-eu-2',
};
// User text that Markdown, HTML or a terminal would act on.
const hostile: Finding = {
  check: 'group/empty',
  severity: 'warning',
  message: 'group "<b>@team</b> | `x` \u001b[31m" has no members',
  file: 'monitoring/groups.yaml',
  line: 4,
  column: 5,
  kind: 'group',
  key: '<b>@team</b> | `x` \u001b[31m',
};

const withChecks = (p: Plan, checks: Finding[]): Plan => ({ ...p, checks });

describe('the text plan', () => {
  it('opens with the findings, one file:line:column line each, before the changes', () => {
    const text = renderPlanText(withChecks(richPlan(), [missing]), { color: false });
    expect(text).toMatch(
      /^Checks: 1 warning \(`monsync checks` explains them\)\n {2}monitoring\/europe\.yaml:23:5: warning alert\/missing: monitor "mx-eu-2" has no alert; nobody is told when it fails\n\nmonsync will perform the following actions:\n/,
    );
  });

  it('shows findings on a plan without changes too, and escapes control characters', () => {
    const text = renderPlanText(withChecks(emptyPlan(), [hostile]), { color: false });
    expect(text.startsWith('Checks: 1 warning')).toBe(true);
    expect(text).not.toContain('\u001b');
    expect(text).toContain('No changes.');
  });

  it('says nothing of checks when there is no finding', () => {
    expect(renderPlanText(withChecks(richPlan(), []), { color: false })).toBe(renderPlanText(richPlan(), { color: false }));
  });
});

describe('the Markdown comment', () => {
  it('has a short Checks section between the summary and the table of changes', () => {
    const md = renderPlanMarkdown(withChecks(richPlan(), [missing]));
    const checks = md.indexOf('**Checks:** 1 warning');
    expect(checks).toBeGreaterThan(md.indexOf('**Plan:'));
    expect(checks).toBeLessThan(md.indexOf('| | Kind | Key | Change |'));
    expect(md).toContain(
      '- ⚠️ <code>alert/missing</code> <code>monitoring/europe.yaml&#58;23&#58;5</code>: monitor "mx-eu-2" has no alert; nobody is told when it fails',
    );
  });

  it('keeps user text literal, and lists at most 20 findings', () => {
    const md = renderPlanMarkdown(withChecks(emptyPlan(), Array.from({ length: 25 }, (_, i) => ({ ...hostile, line: i + 1 }))));
    expect(md).not.toContain('<b>');
    expect(md).not.toContain('@team');
    expect(md).not.toContain('\u001b');
    expect(md.match(/^- ⚠️ /gm)).toHaveLength(20);
    expect(md).toContain('- … and 5 more findings, in the job log.');
    expect(md).toContain('**Checks:** 25 warnings');
  });

  it('is unchanged when there is no finding', () => {
    expect(renderPlanMarkdown(withChecks(richPlan(), []))).toBe(renderPlanMarkdown(richPlan()));
  });
});

describe('the JSON plan', () => {
  const schema = JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8'));
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  const validate = ajv.compile(schema);

  it('carries the findings as a checks array, last, valid against the schema', () => {
    const doc = JSON.parse(renderPlanJson(withChecks(richPlan(), [missing, hostile])));
    expect(Object.keys(doc).at(-1)).toBe('checks');
    expect(doc.checks).toEqual([missing, hostile]);
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
  });

  it('leaves the key out when no check ran, and the schema refuses a malformed finding', () => {
    expect(JSON.parse(renderPlanJson(richPlan()))).not.toHaveProperty('checks');
    const doc = JSON.parse(renderPlanJson(withChecks(richPlan(), [missing])));
    doc.checks[0].severity = 'info';
    delete doc.checks[0].line;
    expect(validate(doc)).toBe(false);
  });
});
