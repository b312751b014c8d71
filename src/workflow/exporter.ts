/**
 * What one read of `monsync exporter` does for one account, without printing: through the command
 * context (src/workflow/context.ts: configuration load, the one account read, the service's clock)
 * and the one plan assembly (assemble.ts), the account as
 * metrics samples (src/ops/exporter/): each monitor's last test, alert, pauses and maintenance,
 * and with a configuration the drift, which is the plan `monsync plan` would show now, counted by
 * action. Nothing is ever written to the service.
 *
 * A configuration that stops loading (or planning) is not the read's failure: the account is still
 * read and exported, the drift is unknown (`monsync_configuration_valid 0`), and its problems go
 * to the log once, when they change.
 */
import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { MonitoringApi } from '../api/types.js';
import { DEFAULT_CONFIG_FILE } from '../config/read.js';
import type { DesiredState } from '../model/desired.js';
import type { LiveState } from '../model/live.js';
import type { AccountSample, DriftCounts } from '../ops/exporter/metrics.js';
import { emptyMemory, monitorSamples, readServiceState, type ExporterMemory } from '../ops/exporter/read.js';
import { addServiceLevels, objectivesOf } from '../ops/exporter/slo.js';
import type { ServiceLevel } from '../model/desired.js';
import type { Plan } from '../plan/types.js';
import { UserError } from '../util/errors.js';
import { redact } from '../util/redact.js';
import type { CommandContext } from './context.js';
import { computePlan } from './plan.js';

export interface ExporterReaderOptions {
  /** The account's client (built by the context: `ctx.connect`). */
  api: MonitoringApi;
  /** Whether a configuration was given (PATH..., or a declared account's files): exporterUsesConfiguration. */
  withConfiguration: boolean;
  /** Where the configuration's problems go (one call per line). */
  log: (line: string) => void;
}

/** The drift a plan shows: its changes by action. */
export function driftOf(plan: Pick<Plan, 'changes'>): DriftCounts {
  const counts: DriftCounts = { add: 0, change: 0, destroy: 0 };
  for (const c of plan.changes) counts[c.action === 'create' ? 'add' : c.action === 'update' ? 'change' : 'destroy']++;
  return counts;
}

/** One account's reader: each call is one read; what earlier reads saw is kept for the next. */
export function exporterReader(ctx: CommandContext, opts: ExporterReaderOptions): { read(): Promise<AccountSample> } {
  let memory: ExporterMemory = emptyMemory();
  let lastProblem: string | null = null;
  // The objectives of the last configuration that loaded: kept while it has problems, so the burn-rate rules keep their thresholds.
  let objectives: Map<string, ServiceLevel> | null = null;
  const problem = (lines: string[] | null) => {
    const text = lines === null ? null : lines.map(redact).join('\n');
    if (text === lastProblem) return;
    if (text !== null) for (const line of text.split('\n')) opts.log(line);
    else if (lastProblem !== null) opts.log('the configuration loads and plans again');
    lastProblem = text;
  };
  return {
    async read() {
      const started = performance.now();
      let desired: DesiredState | null = null;
      let problems: string[] | null = null;
      if (opts.withConfiguration) problems = ctx.account ? await declarationProblem(ctx) : null;
      if (opts.withConfiguration && problems === null) {
        try {
          desired = (await ctx.loadConfiguration({ consequence: 'the drift is not known until it is fixed' })).desired;
        } catch (err) {
          if (!(err instanceof UserError)) throw err;
          problems = [err.message, ...err.details];
        }
      }
      if (desired !== null) objectives = objectivesOf(desired.monitors);
      const live = await ctx.readAccount(opts.api, desired);
      const nowMs = ctx.serviceNow(opts.api);
      const nowSeconds = Math.floor(nowMs / 1000);
      const readings = await readServiceState(opts.api, live.monitors, nowSeconds, memory);
      let drift: DriftCounts | null | undefined;
      let inMaintenance: Set<string> | null = null;
      if (opts.withConfiguration) {
        // Unknown (no series) while the configuration does not load: its windows are not known either.
        if (desired !== null) {
          inMaintenance = desired.maintenance !== undefined ? await openMaintenance(desired, live, nowMs) : new Set();
          try {
            // The plan `monsync plan` would show at this instant of the service's clock (prune as the configuration says).
            // computePlan: the one assembly, its problems worded (file:line:column) as plan prints them.
            drift = driftOf(await computePlan(desired, live, { target: opts.api.baseUrl, nowMs, fingerprint: false, ...(ctx.account ? { account: ctx.account.name } : {}) }));
          } catch (err) {
            if (!(err instanceof UserError)) throw err;
            problems = [err.message, ...err.details];
            drift = null;
          }
        } else drift = null;
        problem(problems);
      }
      const made = monitorSamples({ monitors: live.monitors, readings, memory, nowSeconds, inMaintenance });
      const samples = await addServiceLevels(opts.api, { samples: made.samples, monitors: live.monitors, groups: live.groups, objectives, previousAt: memory.previousAt, nowSeconds });
      memory = made.memory;
      return {
        monitors: samples,
        atSeconds: nowSeconds,
        readSeconds: (performance.now() - started) / 1000,
        ...(drift !== undefined ? { drift } : {}),
      };
    },
  };
}

/**
 * The exporter's accounts are chosen once, at its start; their declaration is read again at every
 * read, as their files are: an account no longer declared (or declared otherwise) has no drift to
 * show until the exporter is restarted, as `plan --account NAME` would refuse it (or read it otherwise).
 */
async function declarationProblem(ctx: CommandContext): Promise<string[] | null> {
  const account = ctx.account!;
  const { readDeclaredAccounts } = await import('../config/accounts.js');
  const declared = await readDeclaredAccounts([account.paths[0]!], ctx.io.cwd);
  const now = declared?.accounts.find((a) => a.name === account.name);
  if (now === undefined) return [`account ${account.name} is no longer declared in ${account.paths[0]}: restart the exporter to stop reading it`];
  if (JSON.stringify(now) !== JSON.stringify(account)) return [`the declaration of account ${account.name} in ${account.paths[0]} changed: restart the exporter to read it as declared now`];
  return null;
}

/** Ids of the monitors a declared maintenance window covers at `nowMs`. */
async function openMaintenance(desired: DesiredState, live: LiveState, nowMs: number): Promise<Set<string>> {
  const { coveredMonitors, openWindows } = await import('../ops/maintenance.js');
  const ids = new Set<string>();
  for (const { window } of openWindows(desired.maintenance ?? [], nowMs)) {
    for (const m of coveredMonitors(window, live, desired.settings.ignore).monitors) ids.add(m.id);
  }
  return ids;
}

/** PATH... as given; else monsync.yaml when `cwd` has one (as --help says, and as plan reads it); else none: no drift. */
export async function exporterPaths(paths: string[], cwd: string): Promise<string[]> {
  if (paths.length > 0) return paths;
  return access(resolve(cwd, DEFAULT_CONFIG_FILE)).then(
    () => [DEFAULT_CONFIG_FILE],
    () => [],
  );
}

/** The exporter uses a configuration when PATH... is given or the context is a declared account's (its files). */
export function exporterUsesConfiguration(ctx: Pick<CommandContext, 'account'>, paths: readonly string[]): boolean {
  return ctx.account !== undefined || paths.length > 0;
}
