/**
 * What `monsync maintain` does, without printing: load the configuration through the command
 * context, read the account (the context's one read, a healed contradiction reported) and its
 * pauses, decide on the service's clock which maintenance windows are open (src/ops/maintenance.ts
 * holds the rules), and pause their alerts until each window's end, unless `dryRun`.
 */
import type { MaintenanceDecision, PauseSent } from '../ops/maintenance.js';
import type { CommandContext } from './context.js';
import { NO_EVENTS, type Events } from './events.js';

export interface MaintainFlowOptions {
  dryRun: boolean;
}

export type MaintainOutcome =
  /** The configuration declares no window: nothing was read. */
  | { status: 'no-windows' }
  /** `failure`: a pause that failed after `sent` were made (what was paused is on record). */
  | { status: 'decided'; decision: MaintenanceDecision; sent: PauseSent[]; failure?: unknown };

/** Tells the loader's warnings (`warning`) and the account read's events. */
export async function maintainFlow(ctx: CommandContext, opts: MaintainFlowOptions, events: Events = NO_EVENTS): Promise<MaintainOutcome> {
  const { desired, warnings } = await ctx.loadConfiguration({ consequence: 'nothing was paused' });
  for (const line of warnings) events({ kind: 'warning', line });
  const windows = desired.maintenance ?? [];
  if (windows.length === 0) return { status: 'no-windows' };
  const ops = await import('../ops/maintenance.js');
  const api = await ctx.connect();
  try {
    const groupsNeeded = new Set(windows.flatMap((w) => w.groups));
    const [live, pauses] = await Promise.all([ctx.readAccount(api, groupsNeeded, events), api.listPausedAlerts()]);
    const serviceNow = () => ctx.serviceNow(api);
    const decision = ops.decideMaintenance(windows, live, pauses, serviceNow(), desired.settings.ignore);
    const sent: PauseSent[] = [];
    try {
      if (!opts.dryRun) await ops.applyMaintenance(api, decision, serviceNow, (p) => sent.push(p));
    } catch (failure) {
      return { status: 'decided', decision, sent, failure };
    }
    return { status: 'decided', decision, sent };
  } finally {
    await api.close();
  }
}
