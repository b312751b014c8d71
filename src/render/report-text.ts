/**
 * `monsync report` for the terminal: the account, groups and monitors with a daily availability
 * strip and the daily 95th-percentile sparkline `monsync data` draws (ops/chart.ts), the longest
 * outages (all with `outages`), and how it was counted. Pure; labels made terminal-safe.
 */
import pc from 'picocolors';
import { buildChart } from '../ops/chart.js';
import type { DayFigures, Figures } from '../ops/report-stats.js';
import type { Report } from '../ops/report.js';
import { BARS } from './ops-data.js';
import { safe, table } from './ops-words.js';
import { BUDGET_HEAD, BUDGET_LEGEND, budgetCells, budgetRows } from './report-budget.js';
import { AVAILABILITY_LEGEND, NONE, TOP_OUTAGES, allOutages, availabilityMark, count, dur, ms, pausedText, pct, periodLine, when } from './report-words.js';

export interface ReportTextOptions {
  color: boolean;
  /** List every outage rather than the longest TOP_OUTAGES. */
  outages?: boolean;
}

/**
 * The widest daily strip (a line per monitor must fit a terminal): over more days (`--since 500d`),
 * a mark stands for a few days, the worst of them, as the sparkline's column does.
 */
const STRIP_MAX = 60;

function spark(f: Figures): string {
  const chart = buildChart(
    f.days.map((d) => ({ value: d.p95Ms, failed: false })),
    Math.min(f.days.length, STRIP_MAX),
  );
  return chart.columns.map((c) => (c.level === null ? '·' : (BARS[c.level] as string))).join('');
}

/** The availability strip: a mark a day, or per few days (the lowest availability among them) past STRIP_MAX. */
function strip(days: readonly DayFigures[]): string {
  const n = days.length;
  const cols = Math.min(n, STRIP_MAX);
  let out = '';
  for (let i = 0; i < cols; i++) {
    const slice = days.slice(Math.floor((i * n) / cols), Math.floor(((i + 1) * n) / cols));
    const worst = slice.reduce<DayFigures | undefined>((w, d) => (d.availability !== null && (w === undefined || d.availability < w.availability!) ? d : w), undefined);
    out += worst ? availabilityMark(worst) : '·';
  }
  return out;
}

export function renderReportText(r: Report, options: ReportTextOptions): string {
  const c = pc.createColors(options.color);
  const a = r.account.figures;
  const lines: string[] = [
    c.bold(`Uptime report — ${periodLine(r)}`),
    c.dim(`${count(r.account.monitors)} monitors · read ${when(r.generatedAt)}`),
    '',
    `${c.bold('Account')}  availability ${c.bold(pct(a.availability))} · ${count(a.tests)} tests, ${count(a.failed)} failed · ${count(a.outages)} outages (longest ${dur(a.longestOutageSeconds)}) · ${count(a.alerts)} alerts`,
    `  response time median ${ms(a.medianMs)} · p95 ${ms(a.p95Ms)}`,
    `  availability ${strip(a.days)}`,
    `  p95 per day  ${spark(a)}`,
    c.dim(`  ${a.days.length > STRIP_MAX ? AVAILABILITY_LEGEND.replace('one mark a UTC day', `one mark per up to ${Math.ceil(a.days.length / STRIP_MAX)} UTC days (the worst of them)`) : AVAILABILITY_LEGEND}`),
  ];
  const head = ['availability', 'tests', 'failed', 'outages', 'longest', 'median', 'p95', 'alerts'];
  const cells = (f: Figures) => [pct(f.availability), count(f.tests), count(f.failed), count(f.outages), dur(f.longestOutageSeconds), ms(f.medianMs), ms(f.p95Ms), count(f.alerts)];
  if (r.groups.length) {
    lines.push('', c.bold('Groups'));
    const rows = [['group', 'monitors', ...head], ...r.groups.map((g) => [safe(g.name), count(g.monitors), ...cells(g.figures)])];
    lines.push(...table(rows, (t, row) => (row === 0 ? c.dim(t) : t)).map((l) => `  ${l}`));
  }
  lines.push('', c.bold('Monitors'));
  const rows = [
    ['monitor', 'type', ...head, 'paused now', 'per day'],
    ...r.monitors.map((m) => [safe(m.label), m.type, ...cells(m.figures), pausedText(m), strip(m.figures.days)]),
  ];
  lines.push(...table(rows, (t, row, col) => (row === 0 ? c.dim(t) : col === 2 && t !== '100%' && t !== NONE ? c.yellow(t) : t)).map((l) => `  ${l}`));
  const budgets = budgetRows(r);
  if (budgets.length) {
    lines.push('', c.bold('Objectives (error budget over the period)'));
    const brows = [['', ...BUDGET_HEAD], ...budgets.map((b) => [`${b.kind} ${safe(b.name)}`, ...budgetCells(b.budget)])];
    lines.push(...table(brows, (t, row, col) => (row === 0 ? c.dim(t) : (col === 6 || col === 9 || col === 10) && t.startsWith('−') ? c.red(t) : t)).map((l) => `  ${l}`));
    lines.push(c.dim(`  ${BUDGET_LEGEND}`));
  }
  const outages = allOutages(r);
  const shown = options.outages ? outages : outages.slice(0, TOP_OUTAGES);
  lines.push('', c.bold(options.outages || outages.length <= TOP_OUTAGES ? `Outages (${outages.length})` : `Longest outages (${shown.length} of ${outages.length}; --outages lists all)`));
  if (shown.length === 0) lines.push('  none');
  else {
    const orows = [
      ['monitor', 'start', 'end', 'duration', 'failed tests'],
      ...shown.map(({ monitor, outage: o }) => [safe(monitor.label), when(o.start), o.ongoing ? `${when(o.end)} (still failing)` : when(o.end), dur(o.seconds), count(o.tests)]),
    ];
    lines.push(...table(orows, (t, row) => (row === 0 ? c.dim(t) : t)).map((l) => `  ${l}`));
  }
  lines.push('', c.bold('How this is counted'), ...r.accounting.map((s) => `  - ${s}`), ...r.notes.map((s) => `  - ${s}`));
  return `${lines.join('\n')}\n`;
}
