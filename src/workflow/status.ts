/**
 * What `monsync status` and `monsync paused` do, without printing, on the command context: which
 * API answers (src/ops/status.ts, statusApi: v2 with an OAuth client, else v1), the status summary, which alert
 * is active and since when (v1's status filter and data: with both v1 and v2 credentials the v1 login
 * tells it, issue 36), and, given the configuration (PATH...), which pauses its maintenance windows
 * made. Every time is on the service's clock (`ctx.serviceNow`).
 */
import type { MonitoringClient } from '../api/client.js';
import type { DesiredMaintenance } from '../model/desired.js';
import type { WindowPauses } from '../ops/maintenance.js';
import type { PausedRow } from '../ops/pause.js';
import type { StatusReport } from '../ops/status.js';
import type { CommandContext } from './context.js';
import { NO_EVENTS, type Events } from './events.js';

export interface StatusFlowOptions {
  all: boolean;
  /** Say which alert is active and since when (the text does; JSON stays the summary). */
  describe: boolean;
  /** Read the configuration's maintenance windows (PATH... was given). */
  windows: boolean;
}

export interface StatusOutcome {
  report: StatusReport;
  maintenance?: WindowPauses[];
  /** The service's time when the answers were read. */
  nowMs: number;
}

/** The configuration's maintenance windows (nothing else of it), or a UserError before anything is read. */
async function maintenanceWindows(ctx: CommandContext): Promise<DesiredMaintenance[]> {
  const { desired } = await ctx.loadConfiguration({ consequence: 'nothing was read from the service' });
  return desired.maintenance ?? [];
}

/** v1 credentials besides an OAuth client: what only v1 can tell (pauses, active alerts) is asked of them. */
function hasV1Login(ctx: CommandContext): boolean {
  const set = (k: string) => (ctx.io.env[k]?.trim() ?? '') !== '';
  return set('MONSYNC_USERNAME') && set('MONSYNC_PASSWORD');
}

/** Tells which API answers and why (`api-chosen`) before the first request. */
export async function statusFlow(ctx: CommandContext, opts: StatusFlowOptions, events: Events = NO_EVENTS): Promise<StatusOutcome> {
  const windows = opts.windows ? await maintenanceWindows(ctx) : undefined;
  const { buildStatusReport, describeActive, statusApi, V2_STATUS_QUERY } = await import('../ops/status.js');
  const { api, reason } = statusApi(ctx.io.env);
  const client = await ctx.connect(api === 'v2' ? { oauthSuffices: true } : {});
  events({ kind: 'api-chosen', reason });
  let v1: MonitoringClient | undefined = api === 'v1' ? client : undefined;
  try {
    const summary = api === 'v2' ? await client.getV2Status(V2_STATUS_QUERY) : await client.getStatus();
    const report = buildStatusReport(summary, api, opts.all, true);
    if (opts.describe && report.active_count > 0 && v1 === undefined && hasV1Login(ctx)) v1 = await ctx.connect();
    // The table is what status is for: a failure to describe an alert leaves it as it was.
    if (opts.describe && v1 !== undefined) await describeActive(v1, report, Math.floor(ctx.serviceNow(v1) / 1000)).catch(() => undefined);
    let maintenance: WindowPauses[] | undefined;
    if (windows !== undefined) {
      const [{ listPaused }, { pausesByWindow, windowOfPause }] = await Promise.all([import('../ops/pause.js'), import('../ops/maintenance.js')]);
      // Pauses are API v1 only: with a v2 OAuth client, the v1 login reads them (connect says what is missing).
      v1 ??= await ctx.connect();
      const reader = v1;
      const rows = await listPaused(reader, () => ctx.serviceNow(reader));
      const at = ctx.serviceNow(reader);
      maintenance = pausesByWindow(rows.map((r) => ({ ...r, window: windowOfPause(windows, at + r.seconds * 1000, at) })));
    }
    return { report, ...(maintenance !== undefined ? { maintenance } : {}), nowMs: ctx.serviceNow(client) };
  } finally {
    if (v1 !== undefined && v1 !== client) await v1.close();
    await client.close();
  }
}

/** `monsync paused [PATH...]`: every pause, with the window that made it when the configuration is given. */
export async function pausedFlow(ctx: CommandContext, opts: { windows: boolean }): Promise<{ rows: PausedRow[]; nowMs: number }> {
  const windows = opts.windows ? await maintenanceWindows(ctx) : undefined;
  const [{ listPaused }, { windowOfPause }] = await Promise.all([import('../ops/pause.js'), import('../ops/maintenance.js')]);
  const api = await ctx.connect();
  try {
    // Clock times on the service's clock (its Date header): the API gives only the seconds left.
    let rows = await listPaused(api, () => ctx.serviceNow(api));
    if (windows !== undefined) {
      const now = ctx.serviceNow(api);
      rows = rows.map((r) => ({ ...r, window: windowOfPause(windows, now + r.seconds * 1000, now)?.name ?? null }));
    }
    return { rows, nowMs: ctx.serviceNow(api) };
  } finally {
    await api.close();
  }
}
