/**
 * `monsync report --format csv`: one row per monitor, or with `outages` one row per outage, for
 * spreadsheets. RFC 4180 (CRLF, fields quoted when needed); numbers unformatted (availability in
 * percent with full precision, durations in seconds, times ISO 8601 UTC); a cell a spreadsheet
 * would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) starts with `'`. Pure.
 */
import type { Budget } from '../ops/report-slo.js';
import type { Report } from '../ops/report.js';

export interface ReportCsvOptions {
  outages?: boolean;
}

/** The budget columns, appended when some monitor or group has an objective (ops/report-slo.ts). */
const BUDGET_COLUMNS = [
  'slo_objective', 'slo_window_seconds', 'slo_round_trip_seconds', 'slo_attainment_percent', 'slo_bad_tests', 'slo_slow_tests',
  'budget_allowed_tests', 'budget_left_tests', 'budget_allowed_seconds', 'budget_spent_seconds', 'budget_left_seconds',
  'budget_left_percent', 'budget_spent_on_utc', 'period_shorter_than_window',
];

function budgetCells(b: Budget | undefined): (string | number | boolean | null)[] {
  if (!b) return BUDGET_COLUMNS.map(() => null);
  return [
    b.objective, b.windowSeconds, b.roundTripSeconds, b.attainment, b.bad, b.slow, b.allowedTests, b.leftTests, b.allowedSeconds,
    b.spentSeconds, b.leftSeconds, b.leftPercent, b.goneOn === null ? null : iso(b.goneOn).slice(0, 10), b.shorterThanWindow,
  ];
}

function cell(v: string | number | boolean | null): string {
  if (v === null) return '';
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function iso(unix: number): string {
  return new Date(unix * 1000).toISOString().replace('.000Z', 'Z');
}

export function renderReportCsv(r: Report, options: ReportCsvOptions = {}): string {
  const rows: (string | number | boolean | null)[][] = [];
  if (options.outages) {
    rows.push(['monitor_id', 'monitor', 'start_utc', 'end_utc', 'duration_seconds', 'failed_tests', 'ongoing']);
    for (const m of r.monitors) for (const o of m.outages) rows.push([m.id, m.label, iso(o.start), iso(o.end), o.seconds, o.tests, o.ongoing]);
  } else {
    // Budgets add columns, and a row per group with an objective (type `group`, its name under groups).
    const budgets = r.monitors.some((m) => m.budget) || r.groups.some((g) => g.budget);
    rows.push([
      'monitor_id', 'monitor', 'type', 'groups', 'period_start_utc', 'period_end_utc', 'tests', 'failed', 'availability_percent',
      'outages', 'longest_outage_seconds', 'outage_seconds', 'median_ms', 'p95_ms', 'alerts', 'alerts_paused_now',
      ...(budgets ? BUDGET_COLUMNS : []),
    ]);
    for (const m of r.monitors) {
      const f = m.figures;
      rows.push([
        m.id, m.label, m.type, m.groups.join('; '), iso(r.period.from), iso(r.period.to), f.tests, f.failed, f.availability,
        f.outages, f.longestOutageSeconds, f.outageSeconds, f.medianMs, f.p95Ms, f.alerts, m.pausedNow?.alerts ?? 0,
        ...(budgets ? budgetCells(m.budget) : []),
      ]);
    }
    for (const g of budgets ? r.groups.filter((x) => x.budget) : []) {
      const f = g.figures;
      rows.push([
        null, null, 'group', g.name, iso(r.period.from), iso(r.period.to), f.tests, f.failed, f.availability,
        f.outages, f.longestOutageSeconds, f.outageSeconds, f.medianMs, f.p95Ms, f.alerts, null, ...budgetCells(g.budget),
      ]);
    }
  }
  return rows.map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}
