/**
 * `monsync report --format markdown`: for an issue, a pull request or a wiki page. Tables of the
 * account, groups and monitors, the longest outages (all with `outages`), and how it was counted.
 * Pure; every label goes through `mdText`, so no label can break a table, mention someone or link.
 */
import type { Figures } from '../ops/report-stats.js';
import type { Report } from '../ops/report.js';
import { mdCode, mdText } from './plan-markdown.js';
import { BUDGET_HEAD, BUDGET_LEGEND, budgetCells, budgetRows, rankedByLeft } from './report-budget.js';
import { AVAILABILITY_LEGEND, TOP_OUTAGES, allOutages, availabilityMark, count, dur, ms, pausedText, pct, periodLine, when } from './report-words.js';

export interface ReportMarkdownOptions {
  outages?: boolean;
}

const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
const sep = (n: number, right: readonly number[] = []): string => row(Array.from({ length: n }, (_, i) => (right.includes(i) ? '---:' : '---')));

export function renderReportMarkdown(r: Report, options: ReportMarkdownOptions = {}): string {
  const a = r.account.figures;
  const head = ['availability', 'tests', 'failed', 'outages', 'longest', 'median', 'p95', 'alerts'];
  const cells = (f: Figures) => [pct(f.availability), count(f.tests), count(f.failed), count(f.outages), dur(f.longestOutageSeconds), ms(f.medianMs), ms(f.p95Ms), count(f.alerts)];
  const nums = (from: number) => Array.from({ length: 8 }, (_, i) => from + i);
  const out: string[] = [
    `## Uptime report — ${mdText(periodLine(r))}`,
    '',
    `${count(r.account.monitors)} monitors, read ${when(r.generatedAt)}. Availability **${pct(a.availability)}** over ${count(a.tests)} tests.`,
    '',
    row(['', ...head]),
    sep(9, nums(1)),
    row(['**account**', ...cells(a)]),
    '',
    `Availability per day: \`${a.days.map(availabilityMark).join('')}\` (${AVAILABILITY_LEGEND})`,
  ];
  if (r.groups.length) {
    out.push('', '### Groups', '', row(['group', 'monitors', ...head]), sep(10, nums(2)));
    for (const g of r.groups) out.push(row([mdCode(g.name), count(g.monitors), ...cells(g.figures)]));
  }
  out.push('', '### Monitors', '', row(['monitor', 'type', ...head, 'paused now']), sep(11, nums(2)));
  for (const m of r.monitors) out.push(row([mdCode(m.label), m.type, ...cells(m.figures), pausedText(m)]));
  const budgets = budgetRows(r);
  if (budgets.length) {
    // Ranked by the budget left: what needs attention first.
    out.push('', '### Objectives: error budget left, least first', '', row(['', ...BUDGET_HEAD]), sep(12, [2, 3, 4, 5, 6, 7, 8, 9, 10]));
    for (const b of rankedByLeft(budgets)) out.push(row([`${b.kind} ${mdCode(b.name)}`, ...budgetCells(b.budget).map(mdText)]));
    out.push('', mdText(BUDGET_LEGEND));
  }
  const outages = allOutages(r);
  const shown = options.outages ? outages : outages.slice(0, TOP_OUTAGES);
  out.push('', options.outages || outages.length <= TOP_OUTAGES ? `### Outages (${outages.length})` : `### Longest outages (${shown.length} of ${outages.length})`, '');
  if (shown.length === 0) out.push('None.');
  else {
    out.push(row(['monitor', 'start', 'end', 'duration', 'failed tests']), sep(5, [3, 4]));
    for (const { monitor, outage: o } of shown) {
      out.push(row([mdCode(monitor.label), when(o.start), o.ongoing ? `${when(o.end)} (still failing)` : when(o.end), dur(o.seconds), count(o.tests)]));
    }
  }
  out.push('', '<details><summary>How this is counted</summary>', '', ...[...r.accounting, ...r.notes].map((s) => `- ${mdText(s)}`), '', '</details>');
  return `${out.join('\n')}\n`;
}
