/**
 * A report built the way buildReport builds one (report-stats.ts over raw tests), from tests made
 * up here: a week of three monitors in two groups, with outages, alerts and a paused alert.
 */
import { ACCOUNTING, Tally, outagesOf, type RawTest } from '../../src/ops/report-stats.js';
import type { Report, ReportMonitor } from '../../src/ops/report.js';

export const FROM = Date.UTC(2026, 9, 1) / 1000;
export const TO = FROM + 7 * 86_400;

/** Tests every `timer` minutes; `fail(t)` says which fail; values cycle so percentiles are known. */
function tests(timer: number, fail: (t: number) => boolean, base: number): RawTest[] {
  const out: RawTest[] = [];
  let i = 0;
  for (let t = FROM + timer * 60; t < TO; t += timer * 60, i++) {
    const failed = fail(t);
    out.push({ t, failed, value: failed ? null : base + (i % 20) * 100 + (i % 97 === 0 ? 40_000 : 0) });
  }
  return out;
}

/** The fixture's monitors and their raw tests (the budgets' fixture reads the same tests). */
export function fixtureSpecs(labels: { eu?: string; us?: string; ping?: string } = {}) {
  const day = 86_400;
  return [
    { id: '10001', label: labels.eu ?? 'mx-eu-1', type: 'smtp', groups: ['europe', 'mail'], alerts: 2, t: tests(5, (t) => (t > FROM + 2 * day && t <= FROM + 2 * day + 5400) || t === FROM + 5 * day + 300, 2000) },
    { id: '10002', label: labels.us ?? 'mx-us-1', type: 'smtp', groups: ['mail'], alerts: 1, t: tests(10, (t) => t > TO - 1800, 3000) },
    { id: '10003', label: labels.ping ?? 'ping-core', type: 'ping', groups: ['europe'], alerts: 0, t: tests(3, () => false, 20) },
  ];
}

export function fixtureReport(labels: { eu?: string; us?: string; ping?: string } = {}): Report {
  const specs = fixtureSpecs(labels);
  const account = new Tally();
  const groups = new Map<string, Tally>([['europe', new Tally(false)], ['mail', new Tally(false)]]);
  const monitors: ReportMonitor[] = specs.map((s) => {
    const t = new Tally();
    const outages = outagesOf(s.t, TO);
    t.addTests(s.t);
    t.addOutages(outages);
    t.addAlerts(s.alerts);
    account.merge(t);
    for (const g of s.groups) groups.get(g)!.merge(t);
    return {
      id: s.id, label: s.label, type: s.type, groups: s.groups, figures: t.figures(FROM, TO), outages,
      pausedNow: s.id === '10002' ? { alerts: 1, of: 1, secondsLeft: 5400 } : null,
    };
  });
  return {
    version: 1,
    generatedAt: TO + 3600,
    period: { from: FROM, to: TO, label: '2026-10-01 to 2026-10-08' },
    accounting: [...ACCOUNTING],
    account: { monitors: 3, figures: account.figures(FROM, TO) },
    groups: [...groups].map(([name, t]) => ({ name, monitors: specs.filter((s) => s.groups.includes(name)).length, figures: t.figures(FROM, TO) })),
    monitors,
    notes: ['Time paused over the period is not known: the API tells only the pauses running now (shown per monitor).'],
  };
}
