/**
 * `monsync data` output: a sparkline of response times with failed tests marked, and a summary.
 */
import pc from 'picocolors';
import type { MonitorData } from '../api/types.js';
import { buildChart, summarize, DEFAULT_CHART_WIDTH } from '../ops/chart.js';
import { anyLeftOut, leftOutNote, type LeftOut } from '../api/data-rules.js';
import { formatDuration } from '../ops/duration.js';
import { formatMs, safe, utcMinute } from './ops-words.js';
import { plural } from '../util/plural.js';

export const BARS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'] as const;
export const FAILED_MARK = '✗';
export const NO_VALUE_MARK = '·';

export interface DataRenderOptions {
  color: boolean;
  /** The window asked for, seconds (for the heading). */
  sinceSeconds: number;
  average: 'raw' | 'hour' | 'day';
  width?: number;
  /** The monitor's test interval, minutes: says when a new monitor's first data comes. */
  timer?: number | null;
}

/** `leftOut`: what the data rules (ops/data-rules.ts) left out of the answer, said in a note after everything. */
export function renderDataText(data: MonitorData & { leftOut?: LeftOut }, options: DataRenderOptions): string {
  const c = pc.createColors(options.color);
  const note = data.leftOut ? leftOutNote(data.leftOut) : null;
  const withNote = (text: string): string => (note === null ? text : `${text}${c.yellow(note)}\n`);
  const label = safe(data.monitor_label);
  const window = `last ${formatDuration(options.sinceSeconds, 4)}`;
  const shape = { raw: 'raw tests', hour: 'hourly averages', day: 'daily averages' }[options.average];
  const lines: string[] = [`${c.bold(label)} — response time, ${window} (${shape}, ${plural(data.data.length, 'point')})`];
  if (data.data.length === 0) {
    lines.push(c.dim(`No data for ${label} between ${utcMinute(data.begin * 1000)} and ${utcMinute(data.end * 1000)}.`));
    // Most often asked right after an apply: a new monitor has had no test yet.
    const every = options.timer ? `${plural(options.timer, 'minute')}` : '`timer` minutes';
    lines.push(
      c.dim(`A new monitor's first test runs about ${every} after it is created, then every ${every}: a monitor applied just now has no data yet.`),
    );
    return withNote(`${lines.join('\n')}\n`);
  }

  const points = [...data.data].sort((a, b) => a.utc_mktime - b.utc_mktime);
  const chart = buildChart(points, options.width ?? DEFAULT_CHART_WIDTH);
  const spark = chart.columns
    .map((col) => {
      if (col.failed) return c.red(FAILED_MARK);
      if (col.level === null) return c.dim(NO_VALUE_MARK);
      return col.level >= 6 ? c.yellow(BARS[col.level] as string) : (BARS[col.level] as string);
    })
    .join('');
  const scale = chart.low === null || chart.high === null ? '' : `  ${c.dim(`${BARS[0]} ${formatMs(chart.low)}  ${BARS[7]} ${formatMs(chart.high)}`)}`;
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const sizes = chart.columns.map((col) => col.points);
  const [fewest, most] = [Math.min(...sizes), Math.max(...sizes)];
  const perColumn =
    points.length > chart.columns.length
      ? `, ${c.dim(`each mark the slowest of ${fewest === most ? `${most}` : `${fewest}–${most}`} points`)}`
      : '';
  lines.push('', `  ${spark}${scale}`, `  ${c.dim(`${utcMinute(first.utc_mktime * 1000)} → ${utcMinute(last.utc_mktime * 1000)}`)}${perColumn}`, '');

  const s = summarize(points);
  const stat = (v: number | null): string => (v === null ? '—' : formatMs(v));
  const share = s.points ? ` (${((s.failures / s.points) * 100).toFixed(1)}%)` : '';
  // Averaged points are hours or days, each marked failed by the service as a whole: they are what is counted.
  const unit = options.average === 'hour' ? ' hours' : options.average === 'day' ? ' days' : '';
  const counted = unit ? c.dim(`  (counted per ${unit.trim().slice(0, -1)}, not per test)`) : '';
  const failures = `failures ${s.failures} of ${s.points}${unit}${share}`;
  lines.push(
    `min ${stat(s.min)} · avg ${stat(s.avg)} · max ${stat(s.max)} · ${s.failures > 0 ? c.red(failures) : failures}` +
      counted +
      (s.failures > 0 ? c.dim(`  (${FAILED_MARK} marks failed ${unit ? unit.trim() : 'tests'})`) : ''),
  );
  const lastFailure = [...points].reverse().find((p) => p.failed);
  if (lastFailure) {
    const why = lastFailure.error ? `: ${safe(lastFailure.error)}` : '';
    lines.push(c.dim(`last failure ${utcMinute(lastFailure.utc_mktime * 1000)}${why}`));
  }
  return withNote(`${lines.join('\n')}\n`);
}

/** The canonical data, as the client returns it after the data rules; `left_out` only when they left something out. */
export function renderDataJson(data: MonitorData & { leftOut?: LeftOut }): string {
  const { leftOut, ...canonical } = data;
  const body =
    leftOut && anyLeftOut(leftOut)
      ? { ...canonical, left_out: { repeated: leftOut.repeated, out_of_domain: leftOut.outOfDomain, outside_period: leftOut.outsidePeriod, contradicting: leftOut.contradicting } }
      : canonical;
  return `${JSON.stringify(body, null, 2)}\n`;
}
