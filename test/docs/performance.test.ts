/**
 * Performance figures are written once, in docs/performance.md's "Figures" (what `npm run bench`
 * printed); every other figure about performance is checked against them here, so none is typed by
 * hand and left behind when the bench runs again (README said "about 1 minute" for a run of ~20 s).
 * When the figures change, update README's summary and this page's intro to match; this test says
 * which number is off.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const doc = readFileSync(new URL('../../docs/performance.md', import.meta.url), 'utf8');
const figures = doc.slice(doc.indexOf('## Figures'));
const intro = doc.slice(0, doc.indexOf('## '));
const summary = readme.slice(readme.indexOf('## Performance'), readme.indexOf('## ', readme.indexOf('## Performance') + 3));

const num = (s: string): number => Number(s.replace(/,/g, ''));

/** The cells of the Figures table row whose first cell starts with `label`. */
function row(label: string): string[] {
  const line = figures.split('\n').find((l) => l.startsWith(`| ${label}`));
  if (!line) throw new Error(`no row "${label}" in docs/performance.md's Figures`);
  return line.split('|').slice(1, -1).map((c) => c.trim());
}

describe('performance figures', () => {
  const total = num(/total bench time ([\d,]+) s/.exec(figures)?.[1] ?? 'NaN');

  it('are recorded with the duration of the run', () => {
    expect(total).toBeGreaterThan(0);
  });

  it("the docs' intro and README give the duration of the bench as the recorded run, and no other", () => {
    expect(intro.replace(/\s+/g, ' ')).toContain(`took ${total} s`);
    expect(summary.replace(/\s+/g, ' ')).toContain(`the last full run took ${total} s`);
    // A duration typed by hand ("about 4 minutes", "~1 minute") is not a recorded figure.
    for (const text of [intro, summary]) expect(text).not.toMatch(/~\s*\d+\s*(minute|s\b)|about \d+ minutes?/);
  });

  it("README's summary rounds the recorded figures", () => {
    const plan = row('plan, no changes');
    const peak = Math.max(...['plan, no changes', 'plan, 1% changed', 'plan, 100 renamed'].map((l) => num(row(l)[5]!)));
    const validate = row('`validate` of the same files');
    const perResource = row('one read per resource');
    const apply8 = row('parallelism 8');
    const help = num(/`monsync --help`: ([\d,]+) ms/.exec(figures)?.[1] ?? 'NaN');
    const flat = summary.replace(/\s+/g, ' ');
    expect(flat).toContain(`a plan takes about ${(num(plan[1]!) / 1000).toFixed(1)} s and ${plan[3]} requests`);
    expect(flat).toContain(`(one read per resource would take ${Math.round(num(perResource[1]!) / 1000)} s)`);
    expect(flat).toContain(`peak memory about ${Math.round(peak / 10) * 10} MB`);
    expect(flat).toContain(`\`validate\` of the same YAML about ${(num(validate[1]!) / 1000).toFixed(1)} s`);
    expect(flat).toContain(`within ${apply8[4]}x of the latency bound`);
    expect(flat).toContain(`\`monsync --help\` about ${Math.round(help / 10) * 10} ms`);
  });
});
