/**
 * What `plan` and `apply` do before anything is shown or sent: load the configuration and read the
 * account through the command context (src/workflow/context.ts), then the one plan assembly
 * (src/workflow/assemble.ts). Prints nothing: progress goes to `onProgress` (src/render/progress.ts
 * makes the lines), problems are UserErrors, and nothing is ever written to the service here.
 */
import type { MonitoringApi } from '../api/types.js';
import type { DesiredState } from '../model/desired.js';
import type { LiveState } from '../model/live.js';
import type { Finding } from '../checks/types.js';
import type { Plan } from '../plan/types.js';
import { UserError } from '../util/errors.js';
import { plural } from '../util/plural.js';
import type { AssemblyInputs } from './assemble.js';
import { awaitRead, groupsNeeded, type OnProgress } from './account.js';
import type { CommandContext } from './context.js';

export type { OnProgress } from './account.js';

export interface PlanFlowOptions {
  prune?: boolean;
  targets?: string[];
  /** The checks' warnings stop the plan too, not only their errors (`--strict`). */
  strict?: boolean;
  /** Told what was read and how long it took; nothing is reported without it. */
  onProgress?: OnProgress;
  /** The live-state fingerprint (default true): false when the plan is only shown as text (DiffOptions.fingerprint). */
  fingerprint?: boolean;
  /** Requests in flight at once (apply's --parallelism must not be held below it by the client's default). */
  concurrency?: number;
}

export interface PlanFlowResult {
  plan: Plan;
  desired: DesiredState;
  live: LiveState;
}

/** The one assembly (src/workflow/assemble.ts), or a UserError listing every problem that stops the plan. */
export async function computePlan(desired: DesiredState, live: LiveState, inputs: AssemblyInputs): Promise<Plan> {
  const [{ PlanError }, { assemblePlan }] = await Promise.all([import('../plan/diff.js'), import('./assemble.js')]);
  try {
    return assemblePlan(desired, live, inputs);
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
 * The account read is nothing but GETs, so it starts at once and its network wait overlaps the YAML
 * load instead of following it (on a large account the two take about as long). The configuration
 * still decides what is reported: a broken one is reported alone, before any problem with
 * credentials or the network, the reads in flight are abandoned, and nothing is ever written.
 */
export async function planFlow(ctx: CommandContext, opts: PlanFlowOptions): Promise<PlanFlowResult & { api: MonitoringApi }> {
  let settleNeeded!: (names: ReadonlySet<string> | undefined) => void;
  const needed = new Promise<ReadonlySet<string> | undefined>((resolve) => (settleNeeded = resolve));
  const connecting = ctx.connect(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {});
  const reading = connecting.then((api) => ctx.startAccountRead(api, needed));
  // Both are awaited below, or dropped with the configuration's own error: never an unhandled rejection.
  connecting.catch(() => undefined);
  reading.catch(() => undefined);

  const started = performance.now();
  let desired: DesiredState;
  try {
    ({ desired } = await ctx.loadConfiguration(opts.onProgress ? { onProgress: opts.onProgress } : {}));
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
  const plan = await computePlan(desired, live, {
    target: api.baseUrl,
    prune: opts.prune,
    targets: opts.targets ?? [],
    ...(opts.fingerprint !== undefined ? { fingerprint: opts.fingerprint } : {}),
    ...(ctx.account ? { account: ctx.account.name } : {}),
    nowMs: ctx.serviceNow(api),
  });
  await stopOnFindings(plan.checks ?? [], opts.strict);
  // For a slow plan on a large account: which part to look at.
  opts.onProgress?.({ kind: 'timings', configurationMs, accountMs: read.ms, diffMs: performance.now() - diffStarted, sinceStartMs: performance.now() });
  return { plan, desired, live, api };
}

/** `plan --out FILE`: the plan and the desired state it was made from, for `apply --plan FILE`; a UserError naming the file when it cannot be written. */
export async function savePlan(file: string, plan: Plan, desired: DesiredState): Promise<void> {
  const { writeSavedPlan, SavedPlanError } = await import('../apply/saved-plan.js');
  try {
    await writeSavedPlan(file, plan, desired);
  } catch (err) {
    if (err instanceof SavedPlanError) throw new UserError(err.message);
    throw err;
  }
}

/** A plan saved by `plan --out`, to show (`monsync show`); a UserError saying what is wrong with the file. */
export async function readPlanFile(file: string): Promise<Plan> {
  const { readSavedPlan } = await import('../apply/saved-plan.js');
  const saved = await readSavedPlan(file);
  if (!saved.ok) throw new UserError(saved.error);
  return saved.plan;
}

/** Drops the reads still in flight, so a failed run ends now rather than when the answers arrive. */
async function abandon(api: MonitoringApi): Promise<void> {
  await api.destroy?.().catch(() => undefined);
}
