/**
 * The status report: what `monsync status` shows and which exit code it gives, built from either
 * version's status summary. v2 without `all` lists only monitors with an active alert, so the
 * number of monitors is then unknown; v1 always lists every monitor.
 */
import type { StatusSummary } from '../api/types.js';
import type { StatusApi } from './connect.js';

export interface StatusRow {
  id: string;
  label: string;
  type: string;
  alert_active: boolean;
}

export interface StatusReport {
  api: StatusApi;
  all: boolean;
  global_alert_active: boolean;
  /** Monitors with an active alert. */
  active_count: number;
  /** Every monitor of the account, when the answer covered them all; null otherwise. */
  monitor_count: number | null;
  /** The rows shown: active ones, or all with `all`; by label, then id. */
  monitors: StatusRow[];
}

export const EXIT_ALERT_ACTIVE = 3;

export function buildStatusReport(summary: StatusSummary, api: StatusApi, all: boolean): StatusReport {
  const rows = summary.monitors.map((m) => ({ id: m.id, label: m.label, type: m.type, alert_active: m.alert_active }));
  const active = rows.filter((r) => r.alert_active);
  const complete = api === 'v1' || all;
  const shown = (all ? rows : active).sort((a, b) => a.label.localeCompare(b.label) || a.id.localeCompare(b.id));
  return {
    api,
    all,
    // Either signal counts: a service saying "some alert is active" is not contradicted by a list that misses it.
    global_alert_active: summary.global_alert_active || active.length > 0,
    active_count: active.length,
    monitor_count: complete ? rows.length : null,
    monitors: shown,
  };
}

export function statusExitCode(report: StatusReport): number {
  return report.global_alert_active ? EXIT_ALERT_ACTIVE : 0;
}
