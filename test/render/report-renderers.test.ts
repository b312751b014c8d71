import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { renderReportCsv } from '../../src/render/report-csv.js';
import { renderReportHtml } from '../../src/render/report-html.js';
import { renderReportJson, reportJsonPieces } from '../../src/render/report-json.js';
import { renderReportMarkdown } from '../../src/render/report-markdown.js';
import { renderReportText } from '../../src/render/report-text.js';
import { fixtureReport } from './report-fixture.js';

const ESC = '\u001b';
const HOSTILE = { eu: '=HYPERLINK("http://x")|@team *b* <script>', us: 'mx\u001b[2Jus', ping: '+1 "quoted", comma' };

describe('the text report over a long period (--since 500d)', () => {
  it('bounds the daily strips to 60 marks, each then the worst of up to 9 days, and says so in the legend', () => {
    const r = fixtureReport();
    const days = Array.from({ length: 500 }, (_, i) => ({ day: i * 86_400, tests: 288, failed: i === 250 ? 144 : 0, availability: i === 250 ? 50 : 100, medianMs: 2000, p95Ms: 3000 + i }));
    r.account.figures.days = days;
    for (const m of r.monitors) m.figures.days = days;
    const text = renderReportText(r, { color: false });
    const strips = [...text.matchAll(/[█▇▆▅▄▃▂▁·]{2,}/g)].map((m) => m[0]);
    expect(strips.length).toBeGreaterThan(3);
    expect(Math.max(...strips.map((s) => [...s].length))).toBe(60);
    // The one bad day among 500 is not averaged away.
    expect(text).toMatch(/availability █*▂█*\n/);
    expect(text).toContain('one mark per up to 9 UTC days (the worst of them)');
    expect(Math.max(...text.split('\n').filter((l) => /[█▂]{2,}/.test(l)).map((l) => [...l].length))).toBeLessThan(200);
  });
});

describe('report golden files (colour off)', () => {
  it('text', async () => {
    await expect(renderReportText(fixtureReport(), { color: false })).toMatchFileSnapshot('./__golden__/report.txt');
  });
  it('text with every outage', async () => {
    await expect(renderReportText(fixtureReport(), { color: false, outages: true })).toMatchFileSnapshot('./__golden__/report-outages.txt');
  });
  it('markdown', async () => {
    await expect(renderReportMarkdown(fixtureReport())).toMatchFileSnapshot('./__golden__/report.md');
  });
  it('csv, one row per monitor and one row per outage', async () => {
    await expect(renderReportCsv(fixtureReport())).toMatchFileSnapshot('./__golden__/report.csv');
    await expect(renderReportCsv(fixtureReport(), { outages: true })).toMatchFileSnapshot('./__golden__/report-outages.csv');
  });
  it('html', async () => {
    await expect(renderReportHtml(fixtureReport())).toMatchFileSnapshot('./__golden__/report.html');
  });
});

describe('report renderers', () => {
  it('json is valid against schemas/report.schema.json and round-trips the report', () => {
    const schema = JSON.parse(readFileSync(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8'));
    const ajv = new Ajv2020.default({ allErrors: true, strict: true, strictTypes: false });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    const json = JSON.parse(renderReportJson(fixtureReport()));
    expect(validate(json) ? [] : validate.errors).toEqual([]);
    const { $schema, ...rest } = json;
    expect($schema).toBe('urn:monsync:schema:report:v1');
    expect(rest).toEqual(JSON.parse(JSON.stringify(fixtureReport())));
    // The schema is not a rubber stamp: a report missing its accounting is refused.
    delete json.accounting;
    expect(validate(json)).toBe(false);
  });

  it('json in pieces (a piece per monitor, for writing a large report) is exactly JSON.stringify with 2 spaces', () => {
    const plain = (r: ReturnType<typeof fixtureReport>) => `${JSON.stringify({ $schema: 'urn:monsync:schema:report:v1', ...r }, null, 2)}\n`;
    const hostile = fixtureReport({ eu: 'line\nbreak "q" \\ \u2028 \u00e9', us: '{"a": [1, 2]}\n  ,', ping: '' });
    const none = fixtureReport();
    none.monitors = [];
    none.groups = [];
    none.notes = [];
    for (const r of [fixtureReport(), hostile, none]) {
      const pieces = [...reportJsonPieces(r)];
      expect(pieces.join('')).toBe(plain(r));
      expect(renderReportJson(r)).toBe(plain(r));
      expect(pieces.length).toBeGreaterThan(r.monitors.length);
    }
  });

  it('text colours only when asked, and the colours add nothing but escape codes', () => {
    const plain = renderReportText(fixtureReport(), { color: false });
    expect(plain).not.toContain(ESC);
    const coloured = renderReportText(fixtureReport(), { color: true });
    expect(coloured).toContain(ESC);
    expect(coloured.replace(/\u001b\[[0-9;]*m/g, '')).toBe(plain);
  });

  it('every format states the accounting method', () => {
    const r = fixtureReport();
    for (const out of [renderReportText(r, { color: false }), renderReportMarkdown(r), renderReportHtml(r)]) {
      expect(out).toContain('consecutive failed tests');
      expect(out).toContain('add up tests, not averages');
    }
  });

  it('hostile labels: terminal-safe text, inert Markdown, HTML escaped, CSV quoted and never a formula', () => {
    const r = fixtureReport(HOSTILE);
    expect(renderReportText(r, { color: false })).not.toContain('\u001b[2J');
    const md = renderReportMarkdown(r);
    expect(md).not.toMatch(/<script>|@team|\*b\*/);
    // Every row of every table has as many cells as its header: no label adds a column.
    let cells = 0;
    const lines = md.split('\n');
    lines.forEach((l, i) => {
      if (!l.startsWith('|')) return;
      const n = l.split('|').length;
      if (!lines[i - 1]?.startsWith('|')) cells = n;
      expect(n, l).toBe(cells);
    });
    const html = renderReportHtml(r);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    const csv = renderReportCsv(r).split('\r\n');
    expect(csv[1]).toMatch(/^10001,"'=HYPERLINK\(""http:\/\/x""\)\|@team \*b\* <script>",/);
    expect(csv[3]).toMatch(/^10003,"'\+1 ""quoted"", comma",/);
  });

  it('html is one self-contained file: no script, no external URL, a CSP that forbids fetching, both charts', () => {
    const html = renderReportHtml(fixtureReport());
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(/i);
    expect(html.match(/https?:\/\//g) ?? []).toEqual([]);
    expect(html).toContain(`default-src 'none'`);
    expect(html).toContain('id="availability-chart"');
    expect(html).toContain('id="response-chart"');
    expect(html.match(/<rect class="day"/g)).toHaveLength(7);
    expect(html).toContain('@media print');
  });
});
