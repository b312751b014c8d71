/**
 * The operator commands that act on one account through the command context, without printing:
 * `pause`, `resume`, `data` and `drill`. Each builds its client with `ctx.connect`, reads times on the
 * service's clock (`ctx.serviceNow`), tells each outcome as it lands (a failure part way leaves a
 * record of what was already done) and closes the client. Usage errors in what was typed are the
 * runner's, before any of these runs.
 */
import type { MonitorData } from '../api/types.js';
import type { DrillOptions, DrillReport } from '../ops/drill.js';
import type { EmulatorControlApi } from '../ops/emulator-control.js';
import type { Outcome, Targets } from '../ops/pause.js';
import type { CommandContext } from './context.js';

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
  /** Told of the targets once resolved (a global pause or resume is slow on the real service). */
  onTargets?: (targets: Targets) => void;
  /** Each outcome as it lands; `nowMs` on the service's clock. */
  onDone: (o: Outcome, nowMs: number) => void;
}

export async function pauseFlow(ctx: CommandContext, opts: PauseFlowOptions): Promise<Outcome[]> {
  const { pauseTargets, resolveTargets, resumeTargets } = await import('../ops/pause.js');
  const api = await ctx.connect();
  try {
    const targets = await resolveTargets(api, opts.targets, opts.verb);
    opts.onTargets?.(targets);
    const done = (o: Outcome) => opts.onDone(o, ctx.serviceNow(api));
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
    const data = await api.getMonitorData(monitor.id, { begin, average: opts.average });
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
  onStart: NonNullable<DrillOptions['onStart']>;
}

export async function drillFlow(ctx: CommandContext, opts: DrillFlowOptions): Promise<DrillReport> {
  const { runDrill } = await import('../ops/drill.js');
  const api = await ctx.connect();
  try {
    const control = await opts.controlFor(api.baseUrl);
    return await runDrill(api, control, { label: opts.label, minutes: opts.minutes, onStart: opts.onStart });
  } finally {
    await api.close();
  }
}
