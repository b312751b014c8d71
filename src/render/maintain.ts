/**
 * What `monsync maintain` prints: the open windows, per covered monitor what was (or, with
 * --dry-run, would be) paused, what was already paused for the window and what an operator paused
 * for longer (left alone); `renderMaintainJson` is the same as data (format 1).
 */
import pc from 'picocolors';
import type { MaintenanceDecision, PauseSent } from '../ops/maintenance.js';
import { formatDuration } from '../util/duration.js';
import { plural } from '../util/plural.js';
import { quoted, safe, utcMinute } from './ops-words.js';

export interface MaintainRenderOptions {
  color: boolean;
  dryRun: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function when(w: MaintenanceDecision['open'][number]): string {
  const d = w.window;
  const rule = d.cron !== undefined ? `cron "${d.cron}" for ${formatDuration(d.duration_seconds ?? 0, 4)}` : `${d.start} to ${d.end}`;
  return `${rule}, ${d.time_zone}`;
}

export function renderMaintainText(decision: MaintenanceDecision, sent: readonly PauseSent[], options: MaintainRenderOptions): string {
  const c = pc.createColors(options.color);
  const now = decision.now_ms;
  const out: string[] = [];
  if (decision.open.length === 0) return `No maintenance window is open at ${utcMinute(now)} (service time).\n`;
  let toPause = 0;
  // Alerts a pause call reached: after a failure part way, the rest are said not to be paused.
  const reached = new Set(sent.flatMap((p) => (p.alert ? [p.alert.id] : [`monitor ${p.monitor.id}`])));
  for (const w of decision.open) {
    const left = Math.max(0, Math.round((w.occurrence.endMs - now) / 1000));
    out.push(
      `${c.bold(`Window ${quoted(w.window.name)}`)} (${safe(when(w))}): open ${utcMinute(w.occurrence.startMs)} to ${utcMinute(w.occurrence.endMs)}, ${formatDuration(left, 4)} left`,
    );
    if (w.monitors.length === 0) out.push(c.yellow('  covers no monitor of the account'));
    for (const m of w.monitors) {
      const label = c.bold(safe(m.monitor.label));
      if (m.alerts.length === 0) {
        out.push(`  ${label}: no alerts`);
        continue;
      }
      const pausing = m.alerts.filter((a) => a.action === 'pause');
      const done = m.alerts.filter((a) => a.action === 'done').length;
      toPause += pausing.length;
      if (pausing.length > 0) {
        const done = options.dryRun || reached.has(`monitor ${m.monitor.id}`) || pausing.every((a) => reached.has(a.alert.id));
        const verb = options.dryRun ? 'would pause' : done ? 'paused' : 'not paused (the run stopped first):';
        const what = m.call === 'monitor' ? plural(pausing.length, 'alert') : pausing.map((a) => quoted(a.alert.subject_init)).join(', ');
        out.push(`  ${label}: ${done ? c.green(`${verb} ${what} until the window's end`) : c.red(`${verb} ${what}`)}`);
      }
      if (done > 0) out.push(`  ${label}: ${plural(done, 'alert')} already paused until the window's end`);
      for (const a of m.alerts) {
        if (a.action === 'longer') out.push(`  ${label}: ${c.yellow(`${quoted(a.alert.subject_init)} is paused longer (until ${utcMinute(a.paused_until_ms)}): left alone`)}`);
      }
    }
    for (const u of w.unmatched) out.push(c.yellow(`  ${safe(u)} matches nothing in the account`));
  }
  out.push('');
  if (options.dryRun) out.push(toPause === 0 ? 'Nothing to pause. (dry run)' : `Dry run: would pause ${plural(toPause, 'alert')}; nothing was sent.`);
  else out.push(sent.length === 0 ? 'Nothing to pause: every covered alert is paused until its window ends.' : `Sent ${plural(sent.length, 'pause call')} (${plural(sent.reduce((n, s) => n + s.alertIds.length, 0), 'alert')}).`);
  return out.join('\n') + '\n';
}

export function renderMaintainJson(decision: MaintenanceDecision, sent: readonly PauseSent[], options: { dryRun: boolean }): string {
  const data = {
    format_version: 1,
    service_time: iso(decision.now_ms),
    dry_run: options.dryRun,
    windows: decision.open.map((w) => ({
      name: w.window.name,
      start: iso(w.occurrence.startMs),
      end: iso(w.occurrence.endMs),
      seconds_left: Math.max(0, Math.round((w.occurrence.endMs - decision.now_ms) / 1000)),
      unmatched: w.unmatched,
      monitors: w.monitors.map((m) => ({
        monitor: m.monitor.id,
        label: m.monitor.label,
        alerts: m.alerts.map((a) => ({
          alert: a.alert.id,
          subject: a.alert.subject_init,
          action: a.action,
          ...(a.action !== 'done' && a.paused_until_ms !== null ? { paused_until: iso(a.paused_until_ms) } : {}),
        })),
      })),
    })),
    sent: sent.map((s) => ({ window: s.window, monitor: s.monitor.id, ...(s.alert ? { alert: s.alert.id } : {}), alerts: s.alertIds, seconds: s.seconds })),
  };
  return JSON.stringify(data, null, 2) + '\n';
}
