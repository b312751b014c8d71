/**
 * examples/grafana/monsync-dashboard.json as Grafana reads it, checked without Grafana: it works
 * when provisioned from a file (a data source variable, nothing left for an import to fill in), every
 * query follows the `account` variable (whose All also matches series without an account label),
 * rates run over `$__rate_interval`, a range total is only ever asked as one instant value, and
 * the service-level panels read series that examples/prometheus/slo.yml records. That each query is
 * valid PromQL that a real Prometheus answers is test/e2e/exporter.test.ts's part.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

interface Target {
  expr: string;
  refId: string;
  instant?: boolean;
  range?: boolean;
  datasource?: { type: string; uid: string };
}
interface Panel {
  title: string;
  type: string;
  datasource?: { type: string; uid: string };
  targets?: Target[];
  panels?: Panel[];
}
interface Variable {
  name: string;
  type: string;
  query: unknown;
  datasource?: { type: string; uid: string };
  includeAll?: boolean;
  multi?: boolean;
  allValue?: string;
  current?: { value: unknown };
}

// Its own ROOT: importing the CLI helper would class this test among those that run the built CLI (test/arch).
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const raw = readFileSync(join(ROOT, 'examples', 'grafana', 'monsync-dashboard.json'), 'utf8');
const dashboard = JSON.parse(raw) as { panels: Panel[]; templating: { list: Variable[] }; __inputs?: unknown };
const panels = dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]).filter((p) => p.type !== 'row');
const targets = panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, ...t })));
const variable = (name: string) => dashboard.templating.list.find((v) => v.name === name);

/** The selectors of an expression: each monsync metric (or recorded series) and its matchers. */
function selectors(expr: string): { name: string; matchers: string }[] {
  return [...expr.matchAll(/\b(monsync_[\w:]+)\s*(\{[^}]*\})?/g)].map((m) => ({ name: m[1]!, matchers: m[2] ?? '' }));
}

const RECORDED = new Set(
  (parse(readFileSync(join(ROOT, 'examples', 'prometheus', 'slo.yml'), 'utf8')) as { groups: { rules: { record?: string }[] }[] }).groups
    .flatMap((g) => g.rules)
    .flatMap((r) => (r.record ? [r.record] : [])),
);

describe('the Grafana dashboard', () => {
  it('has a Prometheus data source variable that every panel, query and variable uses, and nothing for an import to fill in', () => {
    expect(raw).not.toMatch(/\$\{DS_/);
    expect(dashboard.__inputs).toBeUndefined();
    const ds = variable('datasource');
    expect(ds).toMatchObject({ type: 'datasource', query: 'prometheus' });
    const uses = [...panels.map((p) => ({ what: `panel ${p.title}`, ds: p.datasource })), ...targets.map((t) => ({ what: `${t.panel} ${t.refId}`, ds: t.datasource }))];
    for (const v of dashboard.templating.list.filter((v) => v.type === 'query')) uses.push({ what: `variable ${v.name}`, ds: v.datasource });
    for (const u of uses) expect(u.ds, u.what).toEqual({ type: 'prometheus', uid: '${datasource}' });
  });

  it('has an account variable whose All matches series with any account and series without one', () => {
    const account = variable('account');
    expect(account).toMatchObject({ type: 'query', includeAll: true, multi: true, current: { value: '$__all' } });
    expect((account!.query as { query: string }).query).toMatch(/^label_values\(\w+, account\)$/);
    // Grafana sends allValue for All: a series without the label has account="" to a matcher.
    const all = new RegExp(`^(?:${account!.allValue})$`);
    expect(all.test('')).toBe(true);
    expect(all.test('eu-prod')).toBe(true);
  });

  it('filters every selector of every query and variable by account', () => {
    const exprs = [...targets.map((t) => ({ what: `${t.panel} ${t.refId}`, expr: t.expr }))];
    for (const v of dashboard.templating.list.filter((v) => v.type === 'query' && v.name !== 'account')) exprs.push({ what: `variable ${v.name}`, expr: (v.query as { query: string }).query });
    expect(exprs.length).toBeGreaterThan(10);
    for (const { what, expr } of exprs) {
      const found = selectors(expr);
      expect(found.length, `${what}: ${expr}`).toBeGreaterThan(0);
      for (const s of found) expect(s.matchers, `${what}: ${s.name} in ${expr}`).toContain('account=~"$account"');
    }
  });

  it('runs rates over $__rate_interval, and asks a total over $__range only as one instant value', () => {
    for (const t of targets) {
      for (const m of t.expr.matchAll(/\b(rate|increase|irate)\(([^()]|\([^()]*\))*?\[([^\]]+)\]/g)) {
        const range = m[3];
        if (range === '$__range') expect(t.instant, `${t.panel} ${t.refId}: a range total on a graph makes every point the whole range's: ${t.expr}`).toBe(true);
        else expect(range, `${t.panel} ${t.refId}: ${t.expr}`).toBe('$__rate_interval');
      }
    }
    const failed = targets.filter((t) => t.panel === 'Failed tests');
    expect(failed.some((t) => /rate\(monsync_monitor_failed_tests_total\{[^}]*\}\[\$__rate_interval\]\)/.test(t.expr))).toBe(true);
  });

  it('has the service-level panels, reading series that slo.yml records and the objectives the exporter exports', () => {
    const byTitle = (title: string) => targets.filter((t) => t.panel === title).map((t) => t.expr).join('\n');
    expect(byTitle('SLI vs objective')).toContain('monsync_monitor:slo_errors:ratio_window');
    expect(byTitle('SLI vs objective')).toContain('monsync_monitor_slo_objective_ratio');
    expect(byTitle('Error budget left')).toContain('monsync_monitor:slo_error_budget_remaining:ratio_window');
    expect(byTitle('Burn rate')).toContain('monsync_monitor:slo_burn_rate:rate1h');
    for (const t of targets) {
      for (const s of selectors(t.expr)) if (s.name.includes(':')) expect(RECORDED, `${t.panel}: ${s.name}`).toContain(s.name);
    }
  });
});
