/**
 * Formatting shared by the `monsync report` renderers (text, Markdown, CSV, HTML): figures as
 * people read them, the same in every format. Pure.
 */
import { formatDuration } from '../util/duration.js';
import type { DayFigures } from '../ops/report-stats.js';
import type { Report, ReportMonitor } from '../ops/report.js';
import { formatMs, utcMinute } from './ops-words.js';

export const NONE = '—';

/** `99.954%`; exactly 100 stays `100%`, so a rounded 99.9996 never reads as perfect. */
export function pct(v: number | null): string {
  if (v === null) return NONE;
  if (v === 100) return '100%';
  const s = v.toFixed(3);
  return `${s === '100.000' ? '99.999' : s}%`;
}

export function ms(v: number | null): string {
  return v === null ? NONE : formatMs(v);
}

export function dur(seconds: number | null): string {
  return seconds === null ? NONE : formatDuration(seconds, 2);
}

export function count(n: number | null): string {
  return n === null ? NONE : n.toLocaleString('en-US');
}

export function when(unix: number): string {
  return utcMinute(unix * 1000);
}

export function day(unix: number): string {
  return new Date(unix * 1000).toISOString().slice(0, 10);
}

export function periodLine(r: Report): string {
  return `${r.period.label}: ${when(r.period.from)} → ${when(r.period.to)}`;
}

export function pausedText(m: ReportMonitor): string {
  const p = m.pausedNow;
  return p ? `${p.alerts} of ${p.of} alerts, ${dur(p.secondsLeft)} left` : NONE;
}

/** One mark per day for its availability: full bar at 100%, lower as it falls; `·` a day without tests. */
export function availabilityMark(d: DayFigures): string {
  const a = d.availability;
  if (a === null) return '·';
  const steps: [number, string][] = [[100, '█'], [99.9, '▇'], [99, '▆'], [98, '▅'], [95, '▄'], [90, '▃'], [50, '▂']];
  for (const [min, mark] of steps) if (a >= min) return mark;
  return '▁';
}

export const AVAILABILITY_LEGEND = 'one mark a UTC day: █ 100%  ▇ ≥99.9%  ▆ ≥99%  ▅ ≥98%  ▄ ≥95%  ▃ ≥90%  ▂ ≥50%  ▁ below  · no tests';

/** Every outage of the report, longest first (ties: earliest first), with its monitor. */
export function allOutages(r: Report): { monitor: ReportMonitor; outage: ReportMonitor['outages'][number] }[] {
  return r.monitors
    .flatMap((monitor) => monitor.outages.map((outage) => ({ monitor, outage })))
    .sort((a, b) => b.outage.seconds - a.outage.seconds || a.outage.start - b.outage.start || a.monitor.label.localeCompare(b.monitor.label));
}

/** How many of the longest outages the text and Markdown reports list unless asked for all. */
export const TOP_OUTAGES = 10;
