/**
 * The steps plan and apply share: read the YAML, read the account, diff. Prints the two
 * "Reading ..." lines to stderr so stdout carries only the plan itself.
 */
import type { MonitoringApi } from '../api/types.js';
import type { DesiredState } from '../model/desired.js';
import type { LiveState } from '../model/live.js';
import type { Plan } from '../plan/types.js';
import { UserError } from '../util/errors.js';

export interface PlanFlowOptions {
  paths: string[];
  prune?: boolean;
  targets?: string[];
  /** Print progress lines to stderr. */
  quiet?: boolean;
}

export interface PlanFlowResult {
  plan: Plan;
  desired: DesiredState;
  live: LiveState;
}

export async function loadDesired(paths: string[], quiet = false): Promise<DesiredState> {
  const { loadConfig, formatDiagnostics } = await import('../config/index.js');
  const result = await loadConfig(paths, { cwd: process.cwd(), env: process.env });
  if ('diagnostics' in result) {
    const errors = result.diagnostics.filter((d) => d.severity !== 'warning');
    throw new UserError(
      `the configuration has ${errors.length} problem${errors.length === 1 ? '' : 's'}; no change was sent to the service`,
      { details: formatDiagnostics(result.diagnostics, process.cwd()).split('\n').filter(Boolean) },
    );
  }
  const s = result.state;
  if (!quiet) {
    const alerts = s.alerts.length + s.monitors.reduce((n, m) => n + m.alerts.length, 0);
    process.stderr.write(
      `Reading ${plural(s.files.length, 'file')} ... ${plural(s.monitors.length, 'monitor')}, ${plural(alerts, 'alert')}, ${plural(s.groups.length, 'group')} declared.\n`,
    );
  }
  return s;
}

export async function readAccount(api: MonitoringApi, desired: DesiredState | null, quiet = false): Promise<LiveState> {
  const needed = desired ? groupsNeeded(desired) : undefined;
  return (await startAccountRead(api, needed)).report(quiet);
}

function groupsNeeded(desired: DesiredState): Set<string> {
  return new Set(desired.groups.flatMap((g) => [g.name, ...g.previous_names]));
}

interface AccountRead {
  /** From the first request to the last answer read and normalised. */
  ms: number;
  /** The live state; prints the "Reading account" line unless quiet. */
  report(quiet: boolean): LiveState;
}

async function startAccountRead(api: MonitoringApi, needed: ReadonlySet<string> | PromiseLike<ReadonlySet<string> | undefined> | undefined): Promise<AccountRead> {
  const { readLive } = await import('../plan/read-live.js');
  const before = api.stats.requests;
  const started = performance.now();
  const { live, healed } = await readLive(api, needed ? { groupsNeeded: needed } : {});
  const ms = performance.now() - started;
  const requests = api.stats.requests - before;
  const warning = healed.length > 0 ? (await import('../plan/consistency.js')).healedWarning(healed) : null;
  return {
    ms,
    report(quiet) {
      if (!quiet) {
        if (warning) process.stderr.write(`Warning: ${warning}\n`);
        const smtp = live.monitors.filter((m) => m.type === 'smtp').length;
        process.stderr.write(
          `Reading account ${api.baseUrl} ... ${plural(live.monitors.length, 'monitor')} (${smtp} SMTP), ` +
            `${plural(live.alerts.length, 'alert')}, ${plural(live.groups.length, 'group')}, ` +
            `${plural(live.destinations.length, 'destination')} ` +
            `(${(ms / 1000).toFixed(1)} s, ${plural(requests, 'request')})\n`,
        );
      }
      return live;
    },
  };
}

export async function computePlan(desired: DesiredState, live: LiveState, api: MonitoringApi, opts: PlanFlowOptions): Promise<Plan> {
  const { diff, PlanError } = await import('../plan/diff.js');
  try {
    return diff(desired, live, {
      prune: opts.prune || desired.settings.prune,
      targets: opts.targets ?? [],
      target: api.baseUrl,
    });
  } catch (err) {
    if (err instanceof PlanError) {
      throw new UserError(
        `the plan cannot be made: ${plural(err.problems.length, 'problem')}; no change was sent to the service`,
        { details: err.problems.map((p) => `  - ${p}`) },
      );
    }
    throw err;
  }
}

/**
 * The account read is nothing but GETs, so it starts at once and its network wait overlaps the YAML
 * load instead of following it (on a large account the two take about as long). The configuration
 * still decides what is reported: a broken one is reported alone, before any problem with
 * credentials or the network, the reads in flight are abandoned, and nothing is ever written.
 */
export async function planFlow(connectApi: () => Promise<MonitoringApi>, opts: PlanFlowOptions): Promise<PlanFlowResult & { api: MonitoringApi }> {
  let settleNeeded!: (names: ReadonlySet<string> | undefined) => void;
  const needed = new Promise<ReadonlySet<string> | undefined>((resolve) => (settleNeeded = resolve));
  const connecting = connectApi();
  const reading = connecting.then((api) => startAccountRead(api, needed));
  // Both are awaited below, or dropped with the configuration's own error: never an unhandled rejection.
  connecting.catch(() => undefined);
  reading.catch(() => undefined);

  const started = performance.now();
  let desired: DesiredState;
  try {
    desired = await loadDesired(opts.paths, opts.quiet);
  } catch (err) {
    settleNeeded(undefined);
    await connecting.then((api) => abandon(api), () => undefined);
    throw err;
  }
  const configMs = performance.now() - started;
  settleNeeded(groupsNeeded(desired));
  const api = await connecting;
  const read = await reading;
  const live = read.report(opts.quiet ?? false);
  const diffStarted = performance.now();
  const plan = await computePlan(desired, live, api, opts);
  if (process.env.MONSYNC_TIMINGS) {
    // For a slow plan on a large account: which part to look at (the first two run at the same time).
    const ms = (n: number) => `${Math.round(n)} ms`;
    process.stderr.write(
      `Timings: configuration ${ms(configMs)}, account read ${ms(read.ms)} (alongside), ` +
        `diff ${ms(performance.now() - diffStarted)}, ${ms(performance.now())} since the process started.\n`,
    );
  }
  return { plan, desired, live, api };
}

/** Drops the reads still in flight, so a failed run ends now rather than when the answers arrive. */
async function abandon(api: MonitoringApi): Promise<void> {
  await api.destroy?.().catch(() => undefined);
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function hasChanges(plan: Plan): boolean {
  return plan.changes.length > 0;
}
