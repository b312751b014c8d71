/**
 * What `monsync drill LABEL` does, without printing: against a local emulator only (its control API
 * at the client's base URL), force an outage of the monitor and see which destinations are told
 * what, and when; tells `drill-start` as the outage begins. The client is closed when it returns.
 */
import type { DrillReport } from '../ops/drill.js';
import type { EmulatorControlApi } from '../ops/emulator-control.js';
import type { CommandContext } from './context.js';
import { NO_EVENTS, type Events } from './events.js';

export interface DrillFlowOptions {
  label: string;
  minutes: number;
  /** The emulator's control API at the client's base URL; refused before any API call when it is not a local emulator. */
  controlFor: (baseUrl: string) => Promise<EmulatorControlApi>;
}

/** Tells `drill-start` when the outage begins. */
export async function drillFlow(ctx: CommandContext, opts: DrillFlowOptions, events: Events = NO_EVENTS): Promise<DrillReport> {
  const { runDrill } = await import('../ops/drill.js');
  const api = await ctx.connect();
  try {
    const control = await opts.controlFor(api.baseUrl);
    return await runDrill(api, control, { label: opts.label, minutes: opts.minutes, onStart: (start) => events({ kind: 'drill-start', ...start }) });
  } finally {
    await api.close();
  }
}
