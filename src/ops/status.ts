/**
 * The status report: what `monsync status` shows and which exit code it gives, built from either
 * version's status summary. v1 always lists every monitor; v2 does when asked with `all`, which
 * `monsync status` always does (V2_STATUS_QUERY), so both versions print the same counts. A v2
 * summary without `all` lists only monitors with an active alert: the number of monitors is then
 * unknown.
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

/** What `monsync status` asks v2 for: every monitor, so it can count them as v1 does. */
export const V2_STATUS_QUERY = { all: true } as const;

/**
 * `all`: every monitor is shown, not only those with an active alert. `complete`: the summary
 * lists every monitor of the account (v1's always does; v2's when it was asked with `all`).
 */
export function buildStatusReport(summary: StatusSummary, api: StatusApi, all: boolean, complete = api === 'v1' || all): StatusReport {
  const rows = summary.monitors.map((m) => ({ id: m.id, label: m.label, type: m.type, alert_active: m.alert_active }));
  const active = rows.filter((r) => r.alert_active);
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
