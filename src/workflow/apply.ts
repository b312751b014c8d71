/**
 * What `apply` does, without printing: make the plan (planFlow) or load a saved one and check it
 * against the account, check the delete threshold, ask (when a `confirm` is given), run the
 * changes, then read the account again and plan once more to tell whether it now matches.
 *
 * Everything a person may want to see goes to an `ApplyHooks` (Terraform's UiHook is the model:
 * the workflow says what happened, the hooks decide how it looks: on a terminal, as plain lines,
 * as JSON). Problems before the first write are UserErrors; after it, outcomes are values. An
 * aborted `signal` (Ctrl-C, SIGTERM, wired by the caller) starts no new call; running ones finish.
 */
import type { ApplyResult, ChangeResult } from '../apply/execute.js';
import type { MonitoringApi } from '../api/types.js';
import type { DesiredState } from '../model/desired.js';
import type { LiveState } from '../model/live.js';
import type { Plan } from '../plan/types.js';
import { UserError } from '../util/errors.js';
import type { DeclaredAccount } from '../config/accounts.js';
import { readAccount, type OnProgress } from './account.js';
import { computePlan, loadDesired, planFlow, stopOnFindings } from './plan.js';

/** What a person is asked before the first write: the plan and the account it will change. */
export interface ApplyQuestion {
  plan: Plan;
  /** The service's base URL. */
  url: string;
  /** The account's user (v1 user name or OAuth client id), when known. */
  user?: string;
}

export type ConfirmAnswer = 'yes' | 'no' | 'interrupted';

/** Calls the client made during the run: the only retries there are (src/api/retry.ts). */
export interface RunStats {
  requests: number;
  retries: number;
}

/**
 * What the workflow tells while it runs, in order: progress of the reads, `planned`, then (when
 * there is something to do and it was approved) `applying`, a `started`/`finished` per change,
 * `applied`, and, when the configuration is known, `checking` then `checked` or `checkFailed`.
 */
export interface ApplyHooks {
  /** Reading the configuration and the account (src/render/progress.ts events). */
  progress: OnProgress;
  /** The plan that will be applied, before the delete threshold and the question. */
  planned(plan: Plan): void;
  applying(info: { changes: number; parallelism: number }): void;
  started(ref: string, label: string): void;
  finished(result: ChangeResult): void;
  /** `planFollows`: a check of the account comes next. */
  applied(result: ApplyResult, stats: RunStats, planFollows: boolean): void;
  checking(): void;
  /** The plan made after the apply: no changes when the account matches. */
  checked(next: Plan): void;
  /** The check could not run; the changes were made. `details`: why, redacted by the caller. */
  checkFailed(details: string[]): void;
}

export interface ApplyFlowOptions {
  /** Configuration paths; ignored with `savedPlan`. */
  paths: string[];
  /** A plan saved by `plan --out`: applied only if the account is as it was. */
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
  hooks: ApplyHooks;
  /** A declared account (docs/accounts.md): its files, variables and owner; a saved plan must be its own. */
  account?: DeclaredAccount;
}

export type ApplyOutcome =
  | { status: 'no-changes'; plan: Plan }
  /** The person said no, or interrupted the question: nothing was sent. */
  | { status: 'declined'; plan: Plan; interrupted: boolean }
  /** `remaining`: the changes apply's own check still plans (null when it did not run). */
  | { status: 'applied'; plan: Plan; result: ApplyResult; check: 'matches' | 'differs' | 'failed' | 'none'; remaining: number | null; api: MonitoringApi };

export async function applyFlow(connectApi: () => Promise<MonitoringApi>, opts: ApplyFlowOptions): Promise<ApplyOutcome> {
  const { hooks } = opts;
  let api: MonitoringApi;
  let plan: Plan;
  let live: LiveState;
  let desired: DesiredState | null = null;
  if (opts.savedPlan !== undefined) {
    api = await connectApi();
    ({ plan, live } = await loadSavedPlan(api, opts.savedPlan, hooks.progress, opts.account?.name));
    // The findings the plan was made with: an error would have stopped it, a warning stops --strict.
    await stopOnFindings(plan.checks ?? [], opts.strict);
  } else {
    ({ plan, live, desired, api } = await planFlow(connectApi, {
      paths: opts.paths,
      prune: opts.prune,
      targets: opts.targets,
      strict: opts.strict,
      onProgress: hooks.progress,
      ...(opts.account ? { account: opts.account } : {}),
    }));
  }
  hooks.planned(plan);
  if (plan.changes.length === 0) return { status: 'no-changes', plan };

  const { checkDeletes } = await import('../apply/safety.js');
  const safety = checkDeletes(plan, managedCount(live, plan.options.owner), { maxDeletes: opts.maxDeletes, force: opts.force });
  if (!safety.ok) throw new UserError(safety.message, { details: safety.deletes.map((d) => `  - ${d}`) });

  if (opts.confirm) {
    const answer = await opts.confirm({ plan, url: api.baseUrl, ...(api.user !== undefined ? { user: api.user } : {}) });
    if (answer !== 'yes') return { status: 'declined', plan, interrupted: answer === 'interrupted' };
  }

  // Plan again afterwards, so the log shows whether the account now matches (or what still differs).
  const planAgain = desired !== null || plan.files.length > 0;
  const result = await execute(plan, api, opts, planAgain, live);
  if (result.interrupted || !planAgain) return { status: 'applied', plan, result, check: 'none', remaining: null, api };

  hooks.checking();
  try {
    // The configuration this run applied, not a second read of the files: the check is whether the
    // account now matches what was applied, and parsing a large YAML twice doubled the overhead.
    const again = desired ?? (await loadDesired(plan.files, undefined, opts.account ? { ...opts.account, paths: plan.files } : undefined));
    // Apply's signal: SIGTERM while this read waits on a 429 ends the wait at once (it took 51 s).
    const liveAfter = await readAccount(api, again, undefined, opts.signal);
    const next = await computePlan(again, liveAfter, api, { prune: plan.options.prune, targets: plan.options.targets, account: plan.account });
    hooks.checked(next);
    return { status: 'applied', plan, result, check: next.changes.length === 0 ? 'matches' : 'differs', remaining: next.changes.length, api };
  } catch (err) {
    // The changes were made: a check that cannot run (a saved plan's files are not where they were,
    // the account cannot be read again) must not fail the run, nor say that no change was sent.
    if (!(err instanceof UserError) && !(err instanceof Error && err.name === 'ApiError')) throw err;
    hooks.checkFailed(err instanceof UserError ? err.details : [err.message]);
    return { status: 'applied', plan, result, check: 'failed', remaining: null, api };
  }
}

async function execute(plan: Plan, api: MonitoringApi, opts: ApplyFlowOptions, planFollows: boolean, live: LiveState): Promise<ApplyResult> {
  const { executePlan, heldIds } = await import('../apply/execute.js');
  const { hooks } = opts;
  hooks.applying({ changes: plan.changes.length, parallelism: opts.parallelism });
  const before = { ...api.stats };
  const result = await executePlan(plan, api, {
    parallelism: opts.parallelism,
    ...(opts.signal ? { signal: opts.signal } : {}),
    owner: plan.options.owner,
    // The ids the account held before: a create answered with one of them made something else.
    held: heldIds(live),
    onEvent: (e) => {
      if (e.type === 'started') hooks.started(e.ref, e.label);
      else hooks.finished(e.result);
    },
  });
  hooks.applied(result, { requests: api.stats.requests - before.requests, retries: api.stats.retries - before.retries }, planFollows);
  return result;
}

async function loadSavedPlan(api: MonitoringApi, file: string, onProgress: OnProgress, account: string | undefined): Promise<{ plan: Plan; live: LiveState }> {
  const { readSavedPlan, checkFingerprint, proveSavedPlan, NO_DESIRED_STATE } = await import('../apply/saved-plan.js');
  const { fingerprintLive } = await import('../plan/fingerprint.js');
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
  const live = await readAccount(api, desired, onProgress);
  const check = checkFingerprint(fromFile, fingerprintLive(live, fromFile.options));
  if (!check.ok) throw new UserError(check.message);
  // The account is the one the plan saw: the file's changes must be what planning its own desired state gives now.
  const proved = proveSavedPlan(fromFile, desired, live, file);
  if (!proved.ok) throw new UserError(proved.message);
  return { plan: proved.plan, live };
}

/** Resources monsync owns in the account: the base of the percentage delete threshold. */
export function managedCount(live: LiveState, owner: string): number {
  const managed = new Set(live.monitors.filter((m) => m.type === 'smtp' && m.meta['managed-by'] === owner).map((m) => m.id));
  return managed.size + live.alerts.filter((a) => managed.has(a.monitor)).length;
}
