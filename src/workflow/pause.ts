/**
 * What `monsync pause` and `resume` do on one account, without printing: resolve the targets (by
 * label), then pause or resume them one call after another, telling the targets (`pause-targets`)
 * and each outcome as it lands (`pause-outcome`, on the service's clock): a failure part way leaves
 * a record of what was already done. The client (`ctx.connect`) is closed when it returns.
 */
import type { Outcome } from '../ops/pause.js';
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
