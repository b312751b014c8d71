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
import type { CommandRun } from './context.js';
import { NO_EVENTS, type Events } from './events.js';
import { computePlan } from './plan.js';
import type { ExporterCredentials } from '../ops/exporter/credentials.js';
import type { WebConfig } from '../ops/exporter/web-config.js';

export interface ExporterReaderOptions {
  /** The account's client (built by the context: `ctx.connect`). */
  api: MonitoringApi;
  /** Whether a configuration was given (PATH..., or a declared account's files): exporterUsesConfiguration. */
  withConfiguration: boolean;
}

/** The drift a plan shows: its changes by action. */
export function driftOf(plan: Pick<Plan, 'changes'>): DriftCounts {
  const counts: DriftCounts = { add: 0, change: 0, destroy: 0 };
  for (const c of plan.changes) counts[c.action === 'create' ? 'add' : c.action === 'update' ? 'change' : 'destroy']++;
  return counts;
}

/** One account's reader: each call is one read; what earlier reads saw is kept for the next. */
/** Tells the configuration's problems (`configuration-problem`) once, when they change, and when they are mended. */
export function exporterReader(ctx: CommandContext, opts: ExporterReaderOptions, events: Events = NO_EVENTS): { read(): Promise<AccountSample> } {
  let memory: ExporterMemory = emptyMemory();
  let lastProblem: string | null = null;
  const account = ctx.account ? { account: ctx.account.name } : {};
  // The objectives of the last configuration that loaded: kept while it has problems, so the burn-rate rules keep their thresholds.
  let objectives: Map<string, ServiceLevel> | null = null;
  const problem = (lines: string[] | null) => {
    const text = lines === null ? null : lines.map(redact).join('\n');
    if (text === lastProblem) return;
    if (text !== null) events({ kind: 'configuration-problem', ...account, lines: text.split('\n') });
    else if (lastProblem !== null) events({ kind: 'configuration-problem', ...account, lines: null });
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

export interface ExporterFlowOptions {
  /** Where to listen: `host`, `port` (0: a free one); `listen` as typed, for messages. */
  listen: string;
  host: string;
  port: number;
  /** How often each account is read. */
  intervalMs: number;
  /** `--token-file` and `--web.config.file` (src/ops/exporter/credentials.ts), read by the caller before anything listens. */
  credentials: ExporterCredentials;
  /** The web configuration as first read: its basic_auth_users guard `/metrics` as a token does. */
  web: WebConfig | null;
  /** PATH... (or monsync.yaml when there is one): a configuration (the drift) when not empty. */
  paths: readonly string[];
  /** Aborted (SIGTERM, Ctrl-C): the reads stop, the server closes, the flow returns. */
  signal: AbortSignal;
  /** Each listener is called on a wake (SIGHUP): every account is read at once. */
  wake?: (listener: () => void) => () => void;
}

/**
 * `monsync exporter`: serve the metrics (src/ops/exporter/server.ts) and read each account of the
 * run once per interval (src/ops/exporter/loop.ts over `exporterReader`) until `signal` is aborted.
 * Tells `listening` once the server is bound, `log` for each line of the exporter's log (a change
 * of state: first read, failure, recovery; an account that cannot connect, which exports
 * `monsync_up 0` while the others run) and `configuration-problem` as the readers tell them. Every
 * client it opens (one per account, `ctx.connect`) is destroyed when it returns: reads in flight
 * are abandoned, the process ends now.
 */
export async function exporterFlow(opened: CommandRun, opts: ExporterFlowOptions, events: Events = NO_EVENTS): Promise<void> {
  const [{ ExporterMetrics }, { startExporterServer, isLoopback }, { runReadLoop }] = await Promise.all([
    import('../ops/exporter/metrics.js'),
    import('../ops/exporter/server.js'),
    import('../ops/exporter/loop.js'),
  ]);
  const { contexts } = opened;
  const metrics = new ExporterMetrics({ accounts: contexts.some((c) => c.account !== undefined), configuration: contexts.some((c) => exporterUsesConfiguration(c, opts.paths)) });
  const log = (line: string) => events({ kind: 'log', line: redact(line) });
  const clients: (MonitoringApi | null)[] = [];
  try {
    for (const ctx of contexts) {
      try {
        clients.push(await ctx.connect({ onRequest: (e) => metrics.request(e.status, ctx.account?.name) }));
      } catch (err) {
        // An account that cannot connect (its credentials missing) exports monsync_up 0 and is told; the others run.
        if (!(err instanceof UserError) || ctx.account === undefined) throw err;
        log(`${err.message}; exporting monsync_up 0 for it until the exporter is restarted with its credentials`);
        metrics.declareAccount(ctx.account.name);
        clients.push(null);
      }
    }
    const readable = clients.filter((c) => c !== null).length;
    const read = new Set<number>();
    const { credentials } = opts;
    const server = await startExporterServer({ host: opts.host, port: opts.port, metrics, token: () => credentials.token(), webConfig: credentials.webConfig, log, ready: () => read.size === readable }).catch(
      (err: NodeJS.ErrnoException) => {
        if (err instanceof UserError) throw err;
        throw new UserError(`--listen ${opts.listen}: cannot listen there: ${err.code ?? err.message}`);
      },
    );
    events({ kind: 'listening', url: server.url, host: opts.host, open: !isLoopback(opts.host) && credentials.token() === null && (opts.web?.users ?? null) === null });
    try {
      await Promise.all(
        contexts.map((ctx, i) => {
          const api = clients[i];
          if (!api) return Promise.resolve();
          const reader = exporterReader(ctx, { api, withConfiguration: exporterUsesConfiguration(ctx, opts.paths) }, events);
          return runReadLoop({
            intervalMs: opts.intervalMs,
            metrics,
            ...(ctx.account ? { account: ctx.account.name } : {}),
            read: () => reader.read(),
            log,
            describe: (err) => redact(err instanceof UserError ? [err.message, ...err.details].join('; ') : err instanceof Error ? err.message : String(err)),
            signal: opts.signal,
            onRead: (ok) => {
              if (ok) read.add(i);
            },
            ...(opts.wake && { wake: opts.wake }),
          });
        }),
      );
      // Every account without credentials: nothing to read, the process still serves until stopped.
      if (!opts.signal.aborted) await new Promise((resolve) => opts.signal.addEventListener('abort', resolve, { once: true }));
    } finally {
      await server.close();
    }
  } finally {
    // Reads in flight are abandoned: the process ends now, not when their answers arrive.
    await Promise.all(clients.map((c) => c?.destroy?.().catch(() => undefined)));
  }
}
