/**
 * The operator commands that act on one account through the command context, without printing:
 * `pause`, `resume`, `data` and `drill`. Each builds its client with `ctx.connect`, reads times on the
 * service's clock (`ctx.serviceNow`), tells each outcome as it lands (src/workflow/events.ts) (a failure part way leaves a
 * record of what was already done) and closes the client. Usage errors in what was typed are the
 * runner's, before any of these runs.
 */
import type { MonitorData } from '../api/types.js';
import type { DrillReport } from '../ops/drill.js';
import type { EmulatorControlApi } from '../ops/emulator-control.js';
import type { Outcome, Targets } from '../ops/pause.js';
import type { CommandContext } from './context.js';
import { NO_EVENTS, type Events } from './events.js';

export interface TargetChoice {
  monitor?: string[];
  alert?: string[];
  all?: boolean;
}

export interface PauseFlowOptions {
  verb: 'pause' | 'resume';
  targets: TargetChoice;
  /** pause: for how long. */
  seconds?: number;
}

/** Tells the targets once resolved (`pause-targets`), then each outcome as it lands (`pause-outcome`). */
export async function pauseFlow(ctx: CommandContext, opts: PauseFlowOptions, events: Events = NO_EVENTS): Promise<Outcome[]> {
  const { pauseTargets, resolveTargets, resumeTargets } = await import('../ops/pause.js');
  const api = await ctx.connect();
  try {
    const targets = await resolveTargets(api, opts.targets, opts.verb);
    events({ kind: 'pause-targets', verb: opts.verb, targets });
    const done = (outcome: Outcome) => events({ kind: 'pause-outcome', verb: opts.verb, outcome, nowMs: ctx.serviceNow(api) });
    return opts.verb === 'pause' ? await pauseTargets(api, targets, opts.seconds ?? 0, done) : await resumeTargets(api, targets, done);
  } finally {
    await api.close();
  }
}

export interface DataFlowOptions {
  label: string;
  sinceSeconds: number;
  average: 'raw' | 'hour' | 'day';
}

/** A monitor's data from `sinceSeconds` ago until the service's now, and its timer. */
export async function dataFlow(ctx: CommandContext, opts: DataFlowOptions): Promise<{ data: MonitorData; timer: number | null }> {
  const { resolveMonitor } = await import('../ops/resolve.js');
  const api = await ctx.connect();
  try {
    const monitor = resolveMonitor(opts.label, await api.listMonitors());
    // `begin` on the service's clock (the monitor list's Date header just told it); `end` is left to
    // the service, whose default is its own now.
    const begin = Math.floor(ctx.serviceNow(api) / 1000) - opts.sinceSeconds;
    // Repeated items counted once, values outside the documented domain left out and counted
    // (src/api/data-rules.ts): the same rules as report, status and apply --verify.
    const { admitMonitorData } = await import('../api/data-rules.js');
    const data = admitMonitorData(await api.getMonitorData(monitor.id, { begin, average: opts.average }), opts.average);
    return { data, timer: monitor.timer };
  } finally {
    await api.close();
  }
}

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
