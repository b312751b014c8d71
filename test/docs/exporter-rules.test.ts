/**
 * docs/exporter.md against the example rules it describes: every alert of examples/prometheus and
 * every series slo.yml records is in its tables, and the tables name nothing the rules lack.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const doc = readFileSync(join(ROOT, 'docs', 'exporter.md'), 'utf8');
const rules = (file: string) =>
  (parse(readFileSync(join(ROOT, 'examples', 'prometheus', file), 'utf8')) as { groups: { rules: { record?: string; alert?: string }[] }[] }).groups.flatMap((g) => g.rules);
const all = [...rules('alerts.yml'), ...rules('slo.yml')];

/** The first cells of the table rows of a section, backquotes kept. */
function firstCells(section: string): string[] {
  const start = doc.indexOf(`\n## ${section}\n`);
  expect(start, section).toBeGreaterThan(0);
  const end = doc.indexOf('\n## ', start + 1);
  return [...doc.slice(start, end).matchAll(/^\| ([^|]+) \|/gm)].map((m) => m[1]!.trim()).filter((c) => c.startsWith('`'));
}

describe('docs/exporter.md and the example rules', () => {
  it('lists every alert, and only those', () => {
    const alerts = [...new Set(all.flatMap((r) => (r.alert ? [r.alert] : [])))].sort();
    expect(firstCells('Alerting rules and dashboard').map((c) => c.replaceAll('`', '')).sort()).toEqual(alerts);
  });

  it('lists every recorded series of slo.yml, windows written once per family, and only those', () => {
    const records = all.flatMap((r) => (r.record ? [r.record] : [])).sort();
    const documented: string[] = [];
    for (const cell of firstCells('Service levels').filter((c) => c.startsWith('`monsync_monitor:'))) {
      // `name_rate5m` (`30m`, `1h`): the family with each window; (same windows): the previous row's.
      const [name, ...windows] = [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      const base = /^(.*rate)5m$/.exec(name!);
      documented.push(name!);
      if (base && windows.length > 0) for (const w of windows) documented.push(`${base[1]}${w}`);
      if (base && cell.includes('(same windows)')) for (const w of ['30m', '1h', '6h', '1d', '3d']) documented.push(`${base[1]}${w}`);
    }
    expect(documented.sort()).toEqual(records);
  });
});
