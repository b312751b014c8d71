/**
 * What `apply` does, without printing: make the plan (planFlow) or load a saved one and check it
 * against the account, check the delete threshold, ask (when a `confirm` is given), run the
 * changes, then read the account again and plan once more to tell whether it now matches.
 *
 * Everything a person may want to see goes to its events (src/workflow/events.ts, `ApplyEvent`;
 * Terraform's UiHook is the model: the workflow says what happened, the view decides how it looks:
 * on a terminal, as plain lines, as JSON). The client it opens is closed when it returns. Problems before the first write are UserErrors; after it, outcomes are values. An
 * aborted `signal` (Ctrl-C, SIGTERM, wired by the caller) starts no new call; running ones finish.
 */
import type { ApplyResult, ChangeResult } from '../apply/execute.js';

export type { ApplyResult, ChangeResult } from '../apply/execute.js';
export type { Plan } from '../plan/types.js';
export type { MonitoringApi } from '../api/types.js';
export { applyExitCode } from '../apply/execute.js';
import type { MonitoringApi } from '../api/types.js';
import type { DesiredState } from '../model/desired.js';
import type { LiveState } from '../model/live.js';
import type { Plan } from '../plan/types.js';
import { UserError } from '../util/errors.js';
import type { CommandContext } from './context.js';
import { NO_EVENTS, type Events } from './events.js';
import { computePlan, planWithClient, stopOnFindings } from './plan.js';
import type { VerifyOptions } from './verify.js';

export type { VerifyOptions } from './verify.js';

/** What a person is asked before the first write: the plan and the account it will change. */
export interface ApplyQuestion {
  plan: Plan;
  /** The service's base URL. */
  url: string;
  /** The account's user (v1 user name or OAuth client id), when known. */
  user?: string;
}

export type ConfirmAnswer = 'yes' | 'no' | 'interrupted';

export type { RunStats } from './events.js';

export interface ApplyFlowOptions {
  /** A plan saved by `plan --out`: applied only if the account is as it was (the context's configuration is not read). */
  savedPlan?: string;
  prune?: boolean;
  targets?: string[];
  strict?: boolean;
  parallelism: number;
  /** The delete threshold (src/apply/safety.ts). */
  maxDeletes?: number;
  force?: boolean;
  /** Asks a person; without it the plan is applied (`--auto-approve`). */
  confirm?: (q: ApplyQuestion) => Promise<ConfirmAnswer>;
  /** Aborted: no new call starts. */
  signal?: AbortSignal;
  /** `apply --verify`: then wait for the first round trip of each monitor created or changed (src/mailpath/verify.ts). */
  verify?: VerifyOptions;
}


export type ApplyOutcome =
  | { status: 'no-changes'; plan: Plan }
  /** The person said no, or interrupted the question: nothing was sent. */
  | { status: 'declined'; plan: Plan; interrupted: boolean }
  /** `remaining`: the changes apply's own check still plans (null when it did not run). */
  /** `unverified`: with `verify`, the monitors whose first round trip did not complete (else 0). */
  | { status: 'applied'; plan: Plan; result: ApplyResult; check: 'matches' | 'differs' | 'failed' | 'none'; remaining: number | null; unverified: number };

export async function applyFlow(ctx: CommandContext, opts: ApplyFlowOptions, events: Events = NO_EVENTS): Promise<ApplyOutcome> {
  const opened: MonitoringApi[] = [];
  try {
    const outcome = await applyWith(ctx, opts, events, opened);
    if (outcome.status !== 'applied' || opts.verify === undefined || outcome.result.interrupted || opts.signal?.aborted) return outcome;
    const { verifyApplied } = await import('./verify.js');
    return { ...outcome, unverified: await verifyApplied(outcome.result, opened[0]!, opts.verify, events) };
  } finally {
    for (const api of opened) await api.destroy?.().catch(() => undefined);
  }
}

async function applyWith(ctx: CommandContext, opts: ApplyFlowOptions, events: Events, opened: MonitoringApi[]): Promise<ApplyOutcome> {
  let api: MonitoringApi;
  let plan: Plan;
  let live: LiveState;
  let desired: DesiredState;
  const saved = opts.savedPlan !== undefined;
  if (opts.savedPlan !== undefined) {
    api = await ctx.connect({ concurrency: Math.max(16, opts.parallelism) });
    opened.push(api);
    ({ plan, live, desired } = await loadSavedPlan(ctx, api, opts.savedPlan, events));
    // The findings the plan was made with: an error would have stopped it, a warning stops --strict.
    await stopOnFindings(plan.checks ?? [], opts.strict);
  } else {
    ({ plan, live, desired, api } = await planWithClient(
      ctx,
      {
        prune: opts.prune,
        targets: opts.targets,
        strict: opts.strict,
        // The client's own cap must not hold apply below --parallelism (its default is 16).
        concurrency: Math.max(16, opts.parallelism),
      },
      events,
    ));
    opened.push(api);
  }
  events({ kind: 'planned', plan });
  if (plan.changes.length === 0) return { status: 'no-changes', plan };

  const { checkDeletes } = await import('../apply/safety.js');
  const safety = checkDeletes(plan, managedCount(live, plan.options.owner), { maxDeletes: opts.maxDeletes, force: opts.force });
  if (!safety.ok) throw new UserError(safety.message, { details: safety.deletes.map((d) => `  - ${d}`) });

  if (opts.confirm) {
    const answer = await opts.confirm({ plan, url: api.baseUrl, ...(api.user !== undefined ? { user: api.user } : {}) });
    if (answer !== 'yes') return { status: 'declined', plan, interrupted: answer === 'interrupted' };
  }

  // Plan again afterwards, so the log shows whether the account now matches (or what still differs).
  const result = await execute(plan, api, opts, events, live);
  if (result.interrupted) return { status: 'applied', plan, result, check: 'none', remaining: null, unverified: 0 };

  events({ kind: 'checking' });
  try {
    // The desired state this run applied (a saved plan's own, not the files on disk, which may have
    // moved on since): the check is whether the account now matches what was applied.
    // Apply's signal: SIGTERM while this read waits on a 429 ends the wait at once (it took 51 s).
    const liveAfter = await ctx.readAccount(api, desired, undefined, opts.signal);
    // The plan's own inputs (target, prune, targets, account), at the service's time now.
    const { savedPlanInputs } = await import('./assemble.js');
    const next = await computePlan(desired, liveAfter, { ...savedPlanInputs(plan), nowMs: ctx.serviceNow(api) });
    events({ kind: 'checked', next });
    const onDisk = saved && plan.files.length > 0 ? await filesOnDisk(ctx, plan.files, desired) : 'same';
    if (onDisk !== 'same') events({ kind: 'saved-plan-files-differ', files: plan.files, why: onDisk });
    return { status: 'applied', plan, result, check: next.changes.length === 0 ? 'matches' : 'differs', remaining: next.changes.length, unverified: 0 };
  } catch (err) {
    // The changes were made: a check that cannot run (the account cannot be read again) must not
    // fail the run, nor say that no change was sent.
    if (!(err instanceof UserError) && !(err instanceof Error && err.name === 'ApiError')) throw err;
    events({ kind: 'check-failed', details: err instanceof UserError ? err.details : [err.message] });
    return { status: 'applied', plan, result, check: 'failed', remaining: null, unverified: 0 };
  }
}

/** Whether the configuration files a saved plan was made from still load to the desired state saved in it. */
async function filesOnDisk(ctx: CommandContext, files: string[], desired: DesiredState): Promise<'same' | 'differ' | 'unreadable'> {
  const { isDeepStrictEqual } = await import('node:util');
  try {
    const now = await ctx.loadConfiguration({ paths: files });
    // Compared as the plan file holds it (JSON drops what is undefined).
    return isDeepStrictEqual(JSON.parse(JSON.stringify(now.desired)), JSON.parse(JSON.stringify(desired))) ? 'same' : 'differ';
  } catch (err) {
    // Not there (another checkout, another directory) or broken since: either way not the plan's.
    if (err instanceof UserError) return 'unreadable';
    throw err;
  }
}

async function execute(plan: Plan, api: MonitoringApi, opts: ApplyFlowOptions, events: Events, live: LiveState): Promise<ApplyResult> {
  const { executePlan, heldIds } = await import('../apply/execute.js');
  events({ kind: 'applying', changes: plan.changes.length, parallelism: opts.parallelism });
  const before = { ...api.stats };
  const result = await executePlan(plan, api, {
    parallelism: opts.parallelism,
    ...(opts.signal ? { signal: opts.signal } : {}),
    owner: plan.options.owner,
    // The ids the account held before: a create answered with one of them made something else.
    held: heldIds(live),
    onEvent: (e) => events(e.type === 'started' ? { kind: 'change-started', ref: e.ref, label: e.label } : { kind: 'change-finished', result: e.result }),
  });
  events({ kind: 'applied', result, stats: { requests: api.stats.requests - before.requests, retries: api.stats.retries - before.retries }, planFollows: true });
  return result;
}

async function loadSavedPlan(ctx: CommandContext, api: MonitoringApi, file: string, events: Events): Promise<{ plan: Plan; live: LiveState; desired: DesiredState }> {
  const [{ readSavedPlan, checkFingerprint, proveSavedPlan, NO_DESIRED_STATE }, { fingerprintLive }, { assemblePlan, savedPlanInputs }] = await Promise.all([
    import('../apply/saved-plan.js'),
    import('../plan/fingerprint.js'),
    import('./assemble.js'),
  ]);
  const account = ctx.account?.name;
  const saved = await readSavedPlan(file);
  if (!saved.ok) throw new UserError(saved.error);
  if (saved.desired === null) throw new UserError(`${file} ${NO_DESIRED_STATE}`);
  const { plan: fromFile, desired } = saved;
  // Before the target: two accounts may share a URL, never a plan.
  if (fromFile.account !== account) {
    throw new UserError(
      fromFile.account === undefined
        ? `${file} was made without an account, not for account ${account}; run plan again with --account ${account}`
        : `${file} was made for account ${fromFile.account}, not ${account === undefined ? 'without --account' : `account ${account}`}; nothing was sent: apply it with --account ${fromFile.account}, or run plan again for this account`,
    );
  }
  if (fromFile.target !== api.baseUrl) {
    throw new UserError(`this plan was made against ${fromFile.target}, not ${api.baseUrl}; run plan again`);
  }
  const live = await ctx.readAccount(api, desired, events);
  const check = checkFingerprint(fromFile, fingerprintLive(live, fromFile.options));
  if (!check.ok) throw new UserError(check.message);
  // The account is the one the plan saw: the file's changes must be what the one assembly gives now
  // for its own desired state, options and time.
  const proved = proveSavedPlan(fromFile, () => assemblePlan(desired, live, savedPlanInputs(fromFile)), file);
  if (!proved.ok) throw new UserError(proved.message);
  return { plan: proved.plan, live, desired };
}

/** Whether the plan's deletes pass the default delete threshold only with --force (the combined review of several accounts says so). */
export async function needsForce(plan: Plan, live: LiveState): Promise<boolean> {
  const { checkDeletes } = await import('../apply/safety.js');
  return !checkDeletes(plan, managedCount(live, plan.options.owner), {}).ok;
}

/** Resources monsync owns in the account: the base of the percentage delete threshold. */
export function managedCount(live: LiveState, owner: string): number {
  const managed = new Set(live.monitors.filter((m) => m.type === 'smtp' && m.meta['managed-by'] === owner).map((m) => m.id));
  return managed.size + live.alerts.filter((a) => managed.has(a.monitor)).length;
}
