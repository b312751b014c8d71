/**
 * `monsync report --format csv`: one row per monitor, or with `outages` one row per outage, for
 * spreadsheets. RFC 4180 (CRLF, fields quoted when needed); numbers unformatted (availability in
 * percent with full precision, durations in seconds, times ISO 8601 UTC); a cell a spreadsheet
 * would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) starts with `'`. Pure.
 */
import type { Report } from '../ops/report.js';

export interface ReportCsvOptions {
  outages?: boolean;
}

function cell(v: string | number | boolean | null): string {
  if (v === null) return '';
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const iso = (unix: number): string => new Date(unix * 1000).toISOString().replace('.000Z', 'Z');

export function renderReportCsv(r: Report, options: ReportCsvOptions = {}): string {
  const rows: (string | number | boolean | null)[][] = [];
  if (options.outages) {
    rows.push(['monitor_id', 'monitor', 'start_utc', 'end_utc', 'duration_seconds', 'failed_tests', 'ongoing']);
    for (const m of r.monitors) for (const o of m.outages) rows.push([m.id, m.label, iso(o.start), iso(o.end), o.seconds, o.tests, o.ongoing]);
  } else {
    rows.push([
      'monitor_id', 'monitor', 'type', 'groups', 'period_start_utc', 'period_end_utc', 'tests', 'failed', 'availability_percent',
      'outages', 'longest_outage_seconds', 'outage_seconds', 'median_ms', 'p95_ms', 'alerts', 'alerts_paused_now',
    ]);
    for (const m of r.monitors) {
      const f = m.figures;
      rows.push([
        m.id, m.label, m.type, m.groups.join('; '), iso(r.period.from), iso(r.period.to), f.tests, f.failed, f.availability,
        f.outages, f.longestOutageSeconds, f.outageSeconds, f.medianMs, f.p95Ms, f.alerts, m.pausedNow?.alerts ?? 0,
      ]);
    }
  }
  return rows.map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}
