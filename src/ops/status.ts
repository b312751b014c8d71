/**
 * The status report: what `monsync status` shows and which exit code it gives, built from either
 * version's status summary. v1 always lists every monitor; v2 does when asked with `all`, which
 * `monsync status` always does (V2_STATUS_QUERY), so both versions print the same counts. A v2
 * summary without `all` lists only monitors with an active alert: the number of monitors is then
 * unknown.
 */
import type { StatusSummary } from '../api/types.js';
import { UserError } from '../util/errors.js';
import { registerSecret } from '../util/redact.js';
import { admitData, noneLeftOut, type LeftOut } from '../api/data-rules.js';

export interface StatusRow {
  id: string;
  label: string;
  type: string;
  alert_active: boolean;
  /** For a monitor with an active alert, when the API can tell (v1): which alert, and since when. */
  active?: ActiveAlert;
}

export interface ActiveAlert {
  /** subject_init of the alert that fired last on the monitor; null when the service names none. */
  subject: string | null;
  /** When it last fired, as the service gives it: the monitor's local time, no offset. */
  fired: string | null;
  /** Unix seconds of the first failed test after the last successful one: when the outage began. */
  failing_since: number | null;
}

/** Monitors with an active alert looked into one by one; past this the table says only ALERT. */
export const MAX_DESCRIBED = 20;

/** What `describeActive` needs of the v1 client. */
export interface ActiveAlertApi {
  getStatusFilter(q: { t?: number; prefix?: string }): Promise<{ monitor_list: { monitor: string; last_alert: { alert: string; time: string } | null }[] }>;
  listAlerts(): Promise<{ id: string; subject_init: string }[]>;
  getMonitorData(id: string, q: { begin?: number; average?: 'raw' }): Promise<{ end: number; data: readonly { utc_mktime: number; failed: boolean; value: number | null; error: string | null }[] }>;
}

/**
 * Names the alert of each alerting row and since when (v1 only: its status filter names the last
 * alert, its data the last successful test). The alert's timeout counts from that test, so the
 * first failed test after it is when the outage began. A day back at most: the data kept. The
 * data passes the data rules (data-rules.ts) first: a repeated test counts once, a value no test
 * can have is no success; what they left out is added to `report.leftOut`.
 */
export async function describeActive(api: ActiveAlertApi, report: StatusReport, nowSeconds: number): Promise<void> {
  const rows = report.monitors.filter((m) => m.alert_active).slice(0, MAX_DESCRIBED);
  if (rows.length === 0) return;
  const day = 86_400;
  const subject = new Map((await api.listAlerts()).map((a) => [a.id, a.subject_init]));
  for (const row of rows) {
    // The filter needs a filter: the label as a prefix, then this monitor's entry by id.
    const filter = await api.getStatusFilter({ t: day, prefix: row.label });
    const fired = filter.monitor_list.find((e) => e.monitor === row.id)?.last_alert ?? null;
    const begin = nowSeconds - day;
    const data = await api.getMonitorData(row.id, { begin, average: 'raw' });
    const points = admitData(data.data, { from: begin, to: Math.max(data.end, nowSeconds) + 1 }, (report.leftOut ??= noneLeftOut()));
    let since: number | null = null;
    for (const p of points) {
      // A test still in flight (no reply yet, no error: neither failed nor passed) says nothing yet.
      if (!p.failed && p.value === null && p.error === null) continue;
      if (!p.failed) since = null;
      else since ??= p.utc_mktime;
    }
    row.active = { subject: fired ? (subject.get(fired.alert) ?? null) : null, fired: fired?.time ?? null, failing_since: since };
  }
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
  /** What the data rules left out of the data read to describe active alerts (`describeActive`). */
  leftOut?: LeftOut;
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

export type StatusApi = 'v1' | 'v2';

/**
 * Which API `monsync status` speaks, and why (for the dim line status prints on stderr). Status must
 * also work for a user who has only a v2 OAuth client, while every other operator command needs v1
 * (pausing, data and labels are v1 only): version 2 when an OAuth client is configured
 * (MONSYNC_CLIENT_ID and MONSYNC_CLIENT_SECRET), v1 credentials then being optional (but checked
 * when given); otherwise version 1 with the account's login. Half an OAuth client is a UserError.
 */
export function statusApi(env: Record<string, string | undefined>): { api: StatusApi; reason: string } {
  const set = (name: string) => (env[name] === undefined || env[name]!.trim() === '' ? undefined : env[name]);
  const clientId = set('MONSYNC_CLIENT_ID');
  const clientSecret = set('MONSYNC_CLIENT_SECRET');
  registerSecret(clientSecret);
  if (clientId === undefined && clientSecret === undefined) return { api: 'v1', reason: 'using API v1 (HTTP Basic): MONSYNC_CLIENT_ID / MONSYNC_CLIENT_SECRET are not set' };
  if (clientId === undefined || clientSecret === undefined) {
    throw new UserError(
      clientId === undefined
        ? 'MONSYNC_CLIENT_SECRET is set but MONSYNC_CLIENT_ID is not: set both or neither'
        : 'MONSYNC_CLIENT_ID is set but MONSYNC_CLIENT_SECRET is not: set both or neither',
    );
  }
  return { api: 'v2', reason: 'using API v2 (OAuth client credentials MONSYNC_CLIENT_ID)' };
}
