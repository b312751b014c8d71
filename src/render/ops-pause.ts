/**
 * Lines printed by `monsync pause`, `resume` and `paused`.
 */
import pc from 'picocolors';
import { formatDuration } from '../util/duration.js';
import type { Outcome, PausedRow } from '../ops/pause.js';
import { clockTime, quoted, safe } from './ops-words.js';
import { plural } from '../util/plural.js';

export interface PauseLineOptions {
  color: boolean;
  seconds: number;
  nowMs: number;
}

export function renderPauseOutcome(o: Outcome, options: PauseLineOptions): string {
  const c = pc.createColors(options.color);
  const span = `for ${formatDuration(options.seconds, 4)} (until ${clockTime(options.nowMs + options.seconds * 1000, options.nowMs)})`;
  switch (o.target) {
    case 'all':
      return `Paused ${c.bold('every alert')} of the account (${plural(o.alertIds.length, 'alert')}) ${span}.\n`;
    case 'monitor':
      if (o.alertIds.length === 0) return c.yellow(`${safe(o.monitor.label)} has no alerts: nothing was paused.`) + '\n';
      return `Paused ${plural(o.alertIds.length, 'alert')} of ${c.bold(safe(o.monitor.label))} ${span}.\n`;
    case 'alert':
      return `Paused alert ${quoted(o.alert.subject_init)} of ${c.bold(safe(o.monitor.label))} ${span}.\n`;
  }
}

export function renderResumeOutcome(o: Outcome, options: { color: boolean }): string {
  const c = pc.createColors(options.color);
  if (o.notPaused) {
    const what =
      o.target === 'all'
        ? 'No alert of the account is paused'
        : o.target === 'monitor'
          ? `No alert of ${safe(o.monitor.label)} is paused`
          : `Alert ${quoted(o.alert.subject_init)} of ${safe(o.monitor.label)} is not paused`;
    return c.yellow(`${what}: nothing to resume.`) + '\n';
  }
  switch (o.target) {
    case 'all':
      return `Resumed alerting for ${c.bold('every alert')} of the account (${plural(o.alertIds.length, 'alert')}).\n`;
    case 'monitor':
      if (o.alertIds.length === 0) return c.yellow(`${safe(o.monitor.label)} has no alerts: nothing to resume.`) + '\n';
      return `Resumed alerting for ${c.bold(safe(o.monitor.label))} (${plural(o.alertIds.length, 'alert')}).\n`;
    case 'alert':
      return `Resumed alert ${quoted(o.alert.subject_init)} of ${c.bold(safe(o.monitor.label))}.\n`;
  }
}

/** `mx-eu-1 / "mx-eu-1 is DOWN" — resumes in 29m 40s (at 14:05 UTC)`, one per paused alert. */
export function renderPausedText(rows: readonly PausedRow[], options: { color: boolean; nowMs: number }): string {
  const c = pc.createColors(options.color);
  if (rows.length === 0) return 'No alerts are paused.\n';
  const lines = rows.map((r) => {
    const monitor = r.monitor_label === null ? `monitor ${safe(r.monitor)}` : safe(r.monitor_label);
    const alert = r.subject === null ? `alert ${safe(r.alert)}` : quoted(r.subject);
    const when = `resumes in ${formatDuration(r.seconds)} (at ${clockTime(r.resumes_at_ms, options.nowMs)})`;
    const from = r.window === undefined ? '' : r.window === null ? ' — not from a maintenance window' : ` — maintenance window ${quoted(r.window)}`;
    return `${c.bold(monitor)} / ${alert} — ${c.yellow(when)}${from}`;
  });
  lines.push('', c.dim(`${plural(rows.length, 'alert')} paused; \`monsync resume --monitor LABEL\` or \`--all\` ends pauses early.`));
  return `${lines.join('\n')}\n`;
}

export function renderPausedJson(rows: readonly PausedRow[]): string {
  const paused = rows.map((r) => ({
    alert: r.alert,
    subject: r.subject,
    monitor: r.monitor,
    monitor_label: r.monitor_label,
    seconds: r.seconds,
    resumes_at: new Date(r.resumes_at_ms).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    ...(r.window !== undefined ? { window: r.window } : {}),
  }));
  return `${JSON.stringify({ paused }, null, 2)}\n`;
}

/** service-notes.md: the global calls act on every alert synchronously. */
export function renderGlobalNote(verb: 'pause' | 'resume', options: { color: boolean }): string {
  return `${pc
    .createColors(options.color)
    .yellow(`Note: on the real service a global ${verb} acts on every alert before it answers and can be very slow on accounts with more than about 50 alerts; raise --timeout (seconds) if it times out.`)}\n`;
}
