/**
 * The error budgets in every format of `monsync report` (issue 46), from the renderers' fixture
 * judged by objectives (report-slo-fixture.ts): golden files for text, Markdown, CSV and HTML, the
 * JSON valid against schemas/report.schema.json, the Markdown ranking by budget left, the HTML strip
 * marking the day a budget ran out, and the note of a period shorter than a window in every format.
 */
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { renderReportCsv } from '../../src/render/report-csv.js';
import { renderReportHtml } from '../../src/render/report-html.js';
import { renderReportJson } from '../../src/render/report-json.js';
import { renderReportMarkdown } from '../../src/render/report-markdown.js';
import { renderReportText } from '../../src/render/report-text.js';
import { fixtureReportWithObjectives } from './report-slo-fixture.js';

const r = fixtureReportWithObjectives();
const WINDOW_NOTE = 'The period (7d) is shorter than the window of an objective (30d)';

describe('report budgets: golden files (colour off)', () => {
  it('text', async () => {
    await expect(renderReportText(r, { color: false })).toMatchFileSnapshot('./__golden__/report-budgets.txt');
  });
  it('markdown', async () => {
    await expect(renderReportMarkdown(r)).toMatchFileSnapshot('./__golden__/report-budgets.md');
  });
  it('csv', async () => {
    await expect(renderReportCsv(r)).toMatchFileSnapshot('./__golden__/report-budgets.csv');
  });
  it('html', async () => {
    await expect(renderReportHtml(r)).toMatchFileSnapshot('./__golden__/report-budgets.html');
  });
});

describe('report budgets', () => {
  it('are in the JSON, valid against schemas/report.schema.json, which refuses a budget missing a figure', () => {
    const schema = JSON.parse(readFileSync(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8'));
    const ajv = new Ajv2020.default({ allErrors: true, strict: true, strictTypes: false });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    const json = JSON.parse(renderReportJson(r));
    expect(validate(json) ? [] : validate.errors).toEqual([]);
    expect(json.monitors.find((m: { label: string }) => m.label === 'mx-eu-1').budget.objective).toBe(0.999);
    expect(json.groups.find((g: { name: string }) => g.name === 'mail').budget.objective).toBe(0.999);
    delete json.monitors[0].budget.leftTests;
    expect(validate(json)).toBe(false);
  });

  it('the Markdown ranks by budget left, least first', () => {
    const md = renderReportMarkdown(r);
    const from = md.indexOf('### Objectives');
    const section = md.slice(from, md.indexOf('### ', from + 4));
    const order = [...section.matchAll(/^\| (group|monitor) <code>([^<]+)<\/code>/gm)].map((m) => m[2]);
    const left = (name: string) => (r.monitors.find((m) => m.label === name)?.budget ?? r.groups.find((g) => g.name === name)!.budget)!.leftPercent!;
    expect(order).toHaveLength(3);
    expect([...order].sort((a, b) => left(a!) - left(b!))).toEqual(order);
  });

  it('the HTML strip marks the day a budget ran out, and only where one did', () => {
    const html = renderReportHtml(r);
    const eu = r.monitors.find((m) => m.label === 'mx-eu-1')!.budget!;
    const us = r.monitors.find((m) => m.label === 'mx-us-1')!.budget!;
    expect(eu.goneOn).not.toBeNull();
    expect(us.goneOn).toBeNull();
    const day = new Date(eu.goneOn! * 1000).toISOString().slice(0, 10);
    expect(html).toContain(`error budget spent by the end of ${day}`);
    expect(html).toContain(`the objective&#39;s error budget ran out on ${day}`);
    expect(html).toContain('the objective&#39;s error budget lasted the period');
    expect(html.match(/class="budget-gone"/g)).toHaveLength(r.monitors.concat().filter((m) => m.budget?.goneOn != null).length + r.groups.filter((g) => g.budget?.goneOn != null).length);
  });

  it('every format says the period is shorter than a window', () => {
    for (const out of [renderReportText(r, { color: false }), renderReportMarkdown(r), renderReportHtml(r), renderReportJson(r)]) expect(out).toContain(WINDOW_NOTE);
    expect(renderReportCsv(r)).toContain('period_shorter_than_window');
  });
});
