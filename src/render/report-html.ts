/**
 * `monsync report --format html`: one self-contained page, for a browser and for paper. Inline
 * CSS, inline SVG charts (availability per UTC day, response time median and 95th percentile per
 * day, and a strip per monitor); a Content-Security-Policy that forbids every fetch, so the file
 * makes no request wherever it is opened; print rules for a clean PDF (A4, tables not split
 * across pages mid-row). Pure; every piece of text HTML-escaped.
 */
import type { DayFigures, Figures } from '../ops/report-stats.js';
import type { Budget } from '../ops/report-slo.js';
import type { Report } from '../ops/report.js';
import { BUDGET_HEAD, BUDGET_LEGEND, budgetCells, budgetRows } from './report-budget.js';
import { escapeControl } from '../util/safe-text.js';
import { TOP_OUTAGES, allOutages, count, day, dur, ms, pausedText, pct, periodLine, when } from './report-words.js';

export interface ReportHtmlOptions {
  outages?: boolean;
}

const ENT: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function esc(text: string): string {
  return escapeControl(text).replace(/[&<>"']/g, (c) => ENT[c] as string);
}

const num = (v: number): string => (Math.round(v * 10) / 10).toString();

/** Fill of a day by its availability: green at 100%, amber below 99.9%, red below 99%. */
function dayColour(d: DayFigures): string {
  if (d.availability === null) return '#d0d4d9';
  if (d.availability >= 100) return '#2e8540';
  if (d.availability >= 99.9) return '#7bb661';
  if (d.availability >= 99) return '#e0a800';
  return '#c62828';
}

function availabilityChart(f: Figures): string {
  const W = 720, H = 180, L = 52, B = 26, T = 10;
  const n = Math.max(1, f.days.length);
  const present = f.days.map((d) => d.availability).filter((a): a is number => a !== null);
  // The axis starts just under the worst day, so 99.5% and 99.9% do not look alike.
  const low = present.length ? Math.max(0, Math.min(99, Math.floor(Math.min(...present)))) : 99;
  const y = (a: number) => T + (H - T - B) * (1 - (a - low) / (100 - low));
  const bw = (W - L) / n;
  const bars = f.days
    .map((d, i) => {
      const a = d.availability;
      const top = a === null ? H - B : y(a);
      const title = `${day(d.day)}: ${pct(a)} (${count(d.tests)} tests, ${count(d.failed)} failed)`;
      return `<rect class="day" x="${num(L + i * bw + 1)}" y="${num(top)}" width="${num(Math.max(1, bw - 2))}" height="${num(H - B - top)}" fill="${dayColour(d)}"><title>${esc(title)}</title></rect>`;
    })
    .join('');
  const ticks = [low, (low + 100) / 2, 100]
    .map((a) => `<line x1="${L}" x2="${W}" y1="${num(y(a))}" y2="${num(y(a))}" class="grid"/><text x="${L - 6}" y="${num(y(a) + 4)}" text-anchor="end">${num(a)}%</text>`)
    .join('');
  const labels = f.days
    .map((d, i) => (i % Math.ceil(n / 8) === 0 ? `<text x="${num(L + i * bw + bw / 2)}" y="${H - 8}" text-anchor="middle">${day(d.day).slice(5)}</text>` : ''))
    .join('');
  return `<svg class="chart" id="availability-chart" role="img" aria-label="Availability per UTC day" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}">${ticks}${bars}${labels}</svg>`;
}

function responseChart(f: Figures): string {
  const W = 720, H = 180, L = 52, B = 26, T = 10;
  const n = f.days.length;
  const values = f.days.flatMap((d) => [d.medianMs, d.p95Ms]).filter((v): v is number => v !== null);
  const high = values.length ? Math.max(...values) : 1;
  const x = (i: number) => L + ((W - L) * (i + 0.5)) / Math.max(1, n);
  const y = (v: number) => T + (H - T - B) * (1 - v / high);
  const line = (pick: (d: DayFigures) => number | null, cls: string) => {
    const pts = f.days.map((d, i) => [i, pick(d)] as const).filter((p): p is readonly [number, number] => p[1] !== null);
    return `<polyline class="${cls}" fill="none" points="${pts.map(([i, v]) => `${num(x(i))},${num(y(v))}`).join(' ')}"/>`;
  };
  const ticks = [0, high / 2, high]
    .map((v) => `<line x1="${L}" x2="${W}" y1="${num(y(v))}" y2="${num(y(v))}" class="grid"/><text x="${L - 6}" y="${num(y(v) + 4)}" text-anchor="end">${esc(ms(v))}</text>`)
    .join('');
  const legend = `<text x="${L + 8}" y="${T + 12}" class="p95-label">p95</text><text x="${L + 48}" y="${T + 12}" class="median-label">median</text>`;
  return `<svg class="chart" id="response-chart" role="img" aria-label="Response time per UTC day, median and 95th percentile" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}">${ticks}${line((d) => d.p95Ms, 'p95')}${line((d) => d.medianMs, 'median')}${legend}</svg>`;
}

/**
 * The daily strip; with an objective whose budget ran out, the days from the one it ran out on are
 * underlined in red and a mark stands at that day (its title says when).
 */
function strip(f: Figures, budget?: Budget): string {
  const w = 4;
  const cells = f.days.map((d, i) => `<rect x="${i * w}" y="0" width="${w - 1}" height="14" fill="${dayColour(d)}"><title>${esc(`${day(d.day)}: ${pct(d.availability)}`)}</title></rect>`).join('');
  const gone = budget?.goneOn ?? null;
  const at = gone === null ? -1 : f.days.findIndex((d) => d.day === gone);
  const mark =
    at < 0
      ? ''
      : `<rect class="budget-gone" x="${at * w}" y="15" width="${(f.days.length - at) * w - 1}" height="3" fill="#c62828"><title>${esc(`error budget spent by the end of ${day(gone!)}`)}</title></rect>` +
        `<line class="budget-gone-mark" x1="${at * w + 1.5}" x2="${at * w + 1.5}" y1="0" y2="18" stroke="#1f2328" stroke-width="1"/>`;
  const h = budget ? 18 : 14;
  const label = budget ? `availability per day; the objective's error budget ${at < 0 ? 'lasted the period' : `ran out on ${day(gone!)}`}` : 'availability per day';
  return `<svg class="strip" viewBox="0 0 ${f.days.length * w} ${h}" width="${f.days.length * w}" height="${h}" aria-label="${esc(label)}">${cells}${mark}</svg>`;
}

/** The objectives' table: a row per group and monitor with one, a meter of the budget left. */
function budgetTable(r: Report): string[] {
  const rows = budgetRows(r);
  if (rows.length === 0) return [];
  const out = ['<h2>Objectives: error budget over the period</h2><table id="budgets"><thead>', `<tr><th></th>${BUDGET_HEAD.map((h, i) => `<th${i >= 1 && i <= 9 ? ' class="n"' : ''}>${esc(h)}</th>`).join('')}<th>left</th></tr>`, '</thead><tbody>'];
  for (const { kind, name, budget: b } of rows) {
    const cells = budgetCells(b).map((v, i) => `<td${i >= 1 && i <= 9 ? ` class="n${v.startsWith('−') || (i === 10 && b.met === false) ? ' bad' : ''}"` : ''}>${esc(v)}</td>`);
    const meter = b.leftPercent === null ? '' : `<meter min="0" max="100" low="25" optimum="100" value="${num(Math.max(0, Math.min(100, b.leftPercent)))}"></meter>`;
    out.push(`<tr><td>${esc(kind)} ${esc(name)}</td>${cells.join('')}<td>${meter}</td></tr>`);
  }
  out.push('</tbody></table>', `<p class="method">${esc(BUDGET_LEGEND)}</p>`);
  return out;
}

const CSS = `
:root{color-scheme:light}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;margin:2rem auto;max-width:1100px;padding:0 1rem}
h1{font-size:1.5rem;margin:0 0 .25rem}h2{font-size:1.15rem;margin:2rem 0 .5rem;border-bottom:1px solid #d0d7de;padding-bottom:.25rem}
.sub{color:#59636e;margin:0 0 1rem}
.kpis{display:flex;flex-wrap:wrap;gap:.75rem;margin:1rem 0}
.kpi{border:1px solid #d0d7de;border-radius:6px;padding:.5rem .9rem;min-width:8rem}.kpi b{display:block;font-size:1.3rem}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{padding:.3rem .5rem;border-bottom:1px solid #eaeef2;text-align:left;vertical-align:middle}
th{background:#f6f8fa;font-weight:600}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.warn{color:#9a6700;font-weight:600}.bad{color:#c62828;font-weight:600}
svg text{font-size:11px;fill:#59636e}.grid{stroke:#eaeef2}.p95{stroke:#c2410c;stroke-width:2}.median{stroke:#1f6feb;stroke-width:2}
.p95-label{fill:#c2410c}.median-label{fill:#1f6feb}
.chart{max-width:100%;height:auto}
.method{color:#59636e;font-size:13px}
tr{break-inside:avoid}
@page{size:A4;margin:14mm}
@media print{body{margin:0;max-width:none;font-size:11px}h2{break-after:avoid}.chart,.kpis{break-inside:avoid}*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
`;

function availabilityClass(a: number | null): string {
  if (a === null || a >= 99.9) return 'n';
  return a >= 99 ? 'n warn' : 'n bad';
}

export function renderReportHtml(r: Report, options: ReportHtmlOptions = {}): string {
  const a = r.account.figures;
  const head = (names: string[]) => `<tr>${names.map((h, i) => `<th${i >= names.length - 9 && i < names.length - 1 ? ' class="n"' : ''}>${esc(h)}</th>`).join('')}</tr>`;
  const figs = (f: Figures) =>
    `<td class="${availabilityClass(f.availability)}">${pct(f.availability)}</td>` +
    [count(f.tests), count(f.failed), count(f.outages), dur(f.longestOutageSeconds), ms(f.medianMs), ms(f.p95Ms), count(f.alerts)].map((v) => `<td class="n">${esc(v)}</td>`).join('');
  const cols = ['availability', 'tests', 'failed', 'outages', 'longest', 'median', 'p95', 'alerts'];
  const parts: string[] = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    // Nothing may be fetched: no script, no font, no image from anywhere.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(`Uptime report — ${r.period.label}`)}</title>`,
    `<style>${CSS}</style></head><body>`,
    `<h1>Uptime report — ${esc(r.period.label)}</h1>`,
    `<p class="sub">${esc(periodLine(r))} · ${count(r.account.monitors)} monitors · read ${esc(when(r.generatedAt))}</p>`,
    '<div class="kpis">',
    `<div class="kpi">availability<b id="account-availability">${pct(a.availability)}</b></div>`,
    `<div class="kpi">tests<b>${count(a.tests)}</b>${count(a.failed)} failed</div>`,
    `<div class="kpi">outages<b>${count(a.outages)}</b>longest ${esc(dur(a.longestOutageSeconds))}</div>`,
    `<div class="kpi">response time<b>${esc(ms(a.medianMs))}</b>p95 ${esc(ms(a.p95Ms))}</div>`,
    `<div class="kpi">alerts<b>${count(a.alerts)}</b>triggered</div>`,
    '</div>',
    '<h2>Availability per day</h2>',
    availabilityChart(a),
    '<h2>Response time per day</h2>',
    responseChart(a),
  ];
  if (r.groups.length) {
    parts.push('<h2>Groups</h2><table><thead>', head(['group', 'monitors', ...cols, '']), '</thead><tbody>');
    for (const g of r.groups) parts.push(`<tr><td>${esc(g.name)}</td><td class="n">${count(g.monitors)}</td>${figs(g.figures)}<td>${strip(g.figures, g.budget)}</td></tr>`);
    parts.push('</tbody></table>');
  }
  parts.push('<h2>Monitors</h2><table id="monitors"><thead>', head(['monitor', 'type', ...cols, 'paused now', 'per day']), '</thead><tbody>');
  for (const m of r.monitors) {
    parts.push(`<tr><td>${esc(m.label)}</td><td>${esc(m.type)}</td>${figs(m.figures)}<td>${esc(pausedText(m))}</td><td>${strip(m.figures, m.budget)}</td></tr>`);
  }
  parts.push('</tbody></table>', ...budgetTable(r));
  const outages = allOutages(r);
  const shown = options.outages ? outages : outages.slice(0, TOP_OUTAGES);
  parts.push(`<h2>${options.outages || outages.length <= TOP_OUTAGES ? `Outages (${outages.length})` : `Longest outages (${shown.length} of ${outages.length})`}</h2>`);
  if (shown.length === 0) parts.push('<p>None.</p>');
  else {
    parts.push('<table id="outages"><thead><tr><th>monitor</th><th>start</th><th>end</th><th class="n">duration</th><th class="n">failed tests</th></tr></thead><tbody>');
    for (const { monitor, outage: o } of shown) {
      parts.push(
        `<tr><td>${esc(monitor.label)}</td><td>${esc(when(o.start))}</td><td>${esc(o.ongoing ? `${when(o.end)} (still failing)` : when(o.end))}</td><td class="n">${esc(dur(o.seconds))}</td><td class="n">${count(o.tests)}</td></tr>`,
      );
    }
    parts.push('</tbody></table>');
  }
  parts.push('<h2>How this is counted</h2><ul class="method">', ...[...r.accounting, ...r.notes].map((s) => `<li>${esc(s)}</li>`), '</ul>', '</body></html>');
  return `${parts.join('\n')}\n`;
}
