/**
 * What `plan` and `apply` do before anything is shown or sent: load the configuration, read the
 * account, diff. Prints nothing: progress goes to `onProgress` (src/render/progress.ts makes the
 * lines), problems are UserErrors, and nothing is ever written to the service here.
 */
import type { MonitoringApi } from '../api/types.js';
import type { DesiredState } from '../model/desired.js';
import type { LiveState } from '../model/live.js';
import type { Finding } from '../checks/types.js';
import type { Plan } from '../plan/types.js';
import { UserError } from '../util/errors.js';
import { plural } from '../util/plural.js';
import type { DeclaredAccount } from '../config/accounts.js';
import type { ParseCache } from '../config/parse-cache.js';
import type { Beside } from '../config/load.js';
import { awaitRead, groupsNeeded, startAccountRead, type OnProgress } from './account.js';

export type { OnProgress } from './account.js';

export interface PlanFlowOptions {
  paths: string[];
  prune?: boolean;
  targets?: string[];
  /** The checks' warnings stop the plan too, not only their errors (`--strict`). */
  strict?: boolean;
  /** Told what was read and how long it took; nothing is reported without it. */
  onProgress?: OnProgress;
  /** The live-state fingerprint (default true): false when the plan is only shown as text (DiffOptions.fingerprint). */
  fingerprint?: boolean;
  /** A declared account: its files (instead of `paths`), variables and owner; the plan records its name. */
  account?: DeclaredAccount;
  /** Shared by the plans of one run over several accounts: their shared files are read and parsed once (config/parse-cache.ts). */
  parseCache?: ParseCache;
}

export interface PlanFlowResult {
  plan: Plan;
  desired: DesiredState;
  live: LiveState;
}

/** The configuration, or a UserError listing every problem (file, line, field) and that nothing was sent. */
export async function loadDesired(paths: string[], onProgress?: OnProgress, account?: DeclaredAccount, cache?: ParseCache, beside?: Beside): Promise<DesiredState> {
  const { loadConfig, formatDiagnostics } = await import('../config/index.js');
  const result = await loadConfig(account ? account.paths : paths, {
    cwd: process.cwd(),
    env: account ? { ...process.env, ...account.vars } : process.env,
    ...(cache ? { cache } : {}),
    ...(beside ? { beside } : {}),
  });
  if ('diagnostics' in result) {
    const errors = result.diagnostics.filter((d) => d.severity !== 'warning');
    throw new UserError(`the configuration has ${plural(errors.length, 'problem')}; no change was sent to the service`, {
      details: formatDiagnostics(result.diagnostics, process.cwd()).split('\n').filter(Boolean),
    });
  }
  const s = result.state;
  if (account?.owner !== undefined) s.settings = { ...s.settings, owner: account.owner };
  onProgress?.({
    kind: 'configuration',
    files: s.files.length,
    monitors: s.monitors.length,
    alerts: s.alerts.length + s.monitors.reduce((n, m) => n + m.alerts.length, 0),
    groups: s.groups.length,
  });
  return s;
}

/** The plan, or a UserError listing every problem that stops it. */
export async function computePlan(desired: DesiredState, live: LiveState, api: MonitoringApi, opts: Omit<PlanFlowOptions, 'paths' | 'onProgress' | 'account' | 'parseCache'> & { account?: string }): Promise<Plan> {
  const { diff, PlanError } = await import('../plan/diff.js');
  try {
    const plan = diff(desired, live, {
      prune: opts.prune || desired.settings.prune,
      targets: opts.targets ?? [],
      target: api.baseUrl,
      fingerprint: opts.fingerprint,
    });
    // Recorded so a saved plan is refused on another account (src/apply/saved-plan.ts).
    return opts.account !== undefined ? { ...plan, account: opts.account } : plan;
  } catch (err) {
    if (err instanceof PlanError) {
      throw new UserError(`the plan cannot be made: ${plural(err.problems.length, 'problem')}; no change was sent to the service`, {
        details: problemLines(err.problems),
      });
    }
    throw err;
  }
}

/** A problem at a place in the configuration (`file:line:column: ...`): as validate prints its own. */
const LOCATED = /^(.+?):(\d+):(\d+): /;

/**
 * The plan's problems for a person: those at a place in the configuration as `file:line:column:
 * message` lines, in file order, as validate prints its own (editors and CI annotate them); the
 * others, about the account alone, after them as a list.
 */
export function problemLines(problems: readonly string[]): string[] {
  const located = problems
    .map((p) => ({ p, m: LOCATED.exec(p) }))
    .filter((x): x is { p: string; m: RegExpExecArray } => x.m !== null)
    .sort((a, b) => (a.m[1]! < b.m[1]! ? -1 : a.m[1]! > b.m[1]! ? 1 : 0) || Number(a.m[2]) - Number(b.m[2]) || Number(a.m[3]) - Number(b.m[3]))
    .map((x) => x.p);
  return [...located, ...problems.filter((p) => !LOCATED.test(p)).map((p) => `  - ${p}`)];
}

/**
 * A UserError when findings of the checks stop a plan: any error, and with `strict` any warning.
 * Every finding is listed, so the stopping ones are seen among the rest.
 */
export async function stopOnFindings(findings: readonly Finding[], strict = false): Promise<void> {
  const [{ blocking }, { countFindings, formatFinding }] = await Promise.all([import('../checks/index.js'), import('../render/findings.js')]);
  const stopping = blocking(findings, strict);
  if (stopping.length === 0) return;
  const why = stopping.some((f) => f.severity === 'error') ? '' : ', and --strict stops on warnings';
  throw new UserError(`the checks found ${countFindings(stopping)}${why}; no change was sent to the service`, {
    details: findings.map(formatFinding),
  });
}

/**
 * The plan with the findings of the checks on the configuration and the account it was made from;
 * a UserError instead when they stop it (stopOnFindings), before anything is shown, saved or sent.
 */
export async function checkPlan(plan: Plan, desired: DesiredState, live: LiveState, strict = false): Promise<Plan> {
  const { runChecks } = await import('../checks/index.js');
  const checks = runChecks(desired, live);
  await stopOnFindings(checks, strict);
  return { ...plan, checks };
}

/** Settles a promise that is awaited elsewhere: a rejection handled there, never unhandled here. */
const noop = (): undefined => undefined;

/** How long the configuration load runs between turns of the event loop that let the account read go on. */
const TURN_EVERY_MS = 10;

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
  let requested!: () => void;
  const sent = new Promise<void>((resolve) => (requested = resolve));
  const reading = connecting.then((api) => startAccountRead(api, needed, requested));
  // Both are awaited below, or dropped with the configuration's own error: never an unhandled rejection.
  connecting.catch(() => undefined);
  reading.catch(() => undefined);

  const started = performance.now();
  let desired: DesiredState;
  try {
    // The account's requests out first, its answers taken in between files (config/load.ts, Beside).
    desired = await loadDesired(opts.paths, opts.onProgress, opts.account, opts.parseCache, { started: Promise.race([sent, reading.then(noop, noop)]), turnEveryMs: TURN_EVERY_MS });
  } catch (err) {
    settleNeeded(undefined);
    await connecting.then((api) => abandon(api), () => undefined);
    throw err;
  }
  const configurationMs = performance.now() - started;
  settleNeeded(groupsNeeded(desired));
  const api = await connecting;
  const read = await awaitRead(api, reading, opts.onProgress);
  const live = read.report(opts.onProgress);
  const diffStarted = performance.now();
  let plan = await checkPlan(await computePlan(desired, live, api, { ...opts, account: opts.account?.name }), desired, live, opts.strict);
  if (desired.maintenance !== undefined) {
    // On the service's clock, as maintain decides what is open (its Date header; the offset is
    // measured against Date.now, the transport's clock).
    const { plannedWindows } = await import('../ops/maintenance.js');
    plan = { ...plan, maintenance: plannedWindows(desired.maintenance, live, Date.now() + (api.serviceClockOffsetMs?.() ?? 0), desired.settings.ignore) };
  }
  // For a slow plan on a large account: which part to look at.
  opts.onProgress?.({ kind: 'timings', configurationMs, accountMs: read.ms, diffMs: performance.now() - diffStarted, sinceStartMs: performance.now() });
  return { plan, desired, live, api };
}

/** Drops the reads still in flight, so a failed run ends now rather than when the answers arrive. */
async function abandon(api: MonitoringApi): Promise<void> {
  await api.destroy?.().catch(() => undefined);
}
