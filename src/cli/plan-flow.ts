/**
 * The steps plan and apply share: read the YAML, read the account, diff. Prints the two
 * "Reading ..." lines to stderr so stdout carries only the plan itself.
 */
import type { MonitoringApi } from '../api/types.js';
import type { DesiredState } from '../model/desired.js';
import type { LiveState } from '../model/live.js';
import type { Plan } from '../plan/types.js';
import { UserError } from './errors.js';

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
      `the configuration has ${errors.length} problem${errors.length === 1 ? '' : 's'}; nothing was sent to the service`,
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
  const { readLive } = await import('../plan/read-live.js');
  const needed = desired ? new Set(desired.groups.flatMap((g) => [g.name, ...g.previous_names])) : undefined;
  const before = api.stats.requests;
  const started = performance.now();
  const { live } = await readLive(api, needed ? { groupsNeeded: needed } : {});
  if (!quiet) {
    const smtp = live.monitors.filter((m) => m.type === 'smtp').length;
    process.stderr.write(
      `Reading account ${api.baseUrl} ... ${plural(live.monitors.length, 'monitor')} (${smtp} SMTP), ` +
        `${plural(live.alerts.length, 'alert')}, ${plural(live.groups.length, 'group')}, ` +
        `${plural(live.destinations.length, 'destination')} ` +
        `(${((performance.now() - started) / 1000).toFixed(1)} s, ${plural(api.stats.requests - before, 'request')})\n`,
    );
  }
  return live;
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
        `the plan cannot be made: ${plural(err.problems.length, 'problem')}; nothing was sent to the service`,
        { details: err.problems.map((p) => `  - ${p}`) },
      );
    }
    throw err;
  }
}

/** Config first: a typo in the YAML is reported before anything needs credentials or the network. */
export async function planFlow(connectApi: () => Promise<MonitoringApi>, opts: PlanFlowOptions): Promise<PlanFlowResult & { api: MonitoringApi }> {
  const desired = await loadDesired(opts.paths, opts.quiet);
  const api = await connectApi();
  const live = await readAccount(api, desired, opts.quiet);
  const plan = await computePlan(desired, live, api, opts);
  return { plan, desired, live, api };
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function hasChanges(plan: Plan): boolean {
  return plan.changes.length > 0;
}
