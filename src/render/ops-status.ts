/**
 * `monsync status` output: a table of monitors and a summary line, or a stable JSON object.
 */
import pc from 'picocolors';
import type { WindowPauses } from '../ops/maintenance.js';
import { leftOutNote } from '../api/data-rules.js';
import type { StatusReport, StatusRow } from '../ops/status.js';
import { clockTime, quoted, safe, table, utcMinute } from './ops-words.js';
import { quote } from '../util/safe-text.js';
import { plural } from '../util/plural.js';

/**
 * `maintenance` (status PATH...): the pauses each maintenance window made, after the summary line;
 * `nowMs` (service time) places their ends.
 */
export interface StatusTextOptions {
  color: boolean;
  maintenance?: readonly WindowPauses[];
  nowMs?: number;
}

export function renderStatusText(report: StatusReport, options: StatusTextOptions): string {
  const c = pc.createColors(options.color);
  const lines: string[] = [];
  if (report.monitors.length > 0) {
    const described = report.monitors.some((m) => activeText(m.active) !== '');
    const rows = [
      ['MONITOR', 'TYPE', 'STATE', ...(described ? ['ALERT'] : [])],
      ...report.monitors.map((m) => [safe(m.label), safe(m.type), m.alert_active ? 'ALERT' : 'ok', ...(described ? [activeText(m.active)] : [])]),
    ];
    lines.push(
      ...table(rows, (text, row, col) => {
        if (row === 0) return c.bold(text);
        if (col !== 2) return text;
        return report.monitors[row - 1]?.alert_active ? c.red(c.bold(text)) : c.green(text);
      }),
      '',
    );
  }
  lines.push(summaryLine(report, c));
  const dataNote = report.leftOut ? leftOutNote(report.leftOut) : null;
  if (dataNote !== null) lines.push(c.yellow(dataNote));
  if (options.maintenance !== undefined) {
    if (options.maintenance.length === 0) lines.push('No alert is paused by a maintenance window.');
    for (const w of options.maintenance) {
      const labels = w.monitors.slice(0, 5).map(safe).join(', ') + (w.monitors.length > 5 ? ` and ${w.monitors.length - 5} more` : '');
      lines.push(
        c.yellow(`In maintenance window ${quoted(w.window)} until ${clockTime(w.until_ms, options.nowMs ?? w.until_ms)}: ${labels} (${plural(w.alerts, 'alert')} paused)`),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** `"mx-eu-1 is DOWN" since 2026-11-25 10:41 UTC (fired 11:41:00 monitor time)`. */
function activeText(a: StatusRow['active']): string {
  if (!a || (a.subject === null && a.failing_since === null)) return '';
  const what = a.subject !== null ? quote(a.subject) : 'an alert';
  const since = a.failing_since !== null ? ` since ${utcMinute(a.failing_since * 1000)}` : '';
  const fired = a.fired !== null ? ` (last fired ${safe(a.fired)}, monitor time)` : '';
  return `${what}${since}${fired}`;
}

function summaryLine(r: StatusReport, c: ReturnType<typeof pc.createColors>): string {
  if (r.active_count > 0) {
    const n = r.active_count;
    const subject = r.monitor_count === null ? plural(n, 'monitor') : `${n} of ${plural(r.monitor_count, 'monitor')}`;
    const hint = r.all ? '' : ' (--all lists every monitor)';
    return c.red(`${subject} ${n === 1 ? 'has' : 'have'} an active alert.`) + c.dim(hint);
  }
  if (r.global_alert_active) {
    return c.red('The service reports an active alert, but no monitor listed has one.');
  }
  const count = r.monitor_count === null ? '' : ` (${plural(r.monitor_count, 'monitor')})`;
  return c.green(`No monitor has an active alert${count}.`);
}

/** Keys in a fixed order, rows sorted: the same account state always prints the same bytes. */
export function renderStatusJson(report: StatusReport, maintenance?: readonly WindowPauses[]): string {
  const body = {
    api: report.api,
    all: report.all,
    global_alert_active: report.global_alert_active,
    active_count: report.active_count,
    monitor_count: report.monitor_count,
    monitors: report.monitors.map((m) => ({ id: m.id, label: m.label, type: m.type, alert_active: m.alert_active })),
    ...(maintenance !== undefined
      ? { maintenance: maintenance.map((w) => ({ window: w.window, until: new Date(w.until_ms).toISOString().replace(/\.\d{3}Z$/, 'Z'), monitors: w.monitors, alerts: w.alerts })) }
      : {}),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
