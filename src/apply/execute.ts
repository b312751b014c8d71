/**
 * The apply engine: runs a plan's changes against the service as a dependency graph.
 *
 * - A change starts as soon as every change it depends on is done (its `depends_on` plus every
 *   `{$ref}` in its body); independent changes run concurrently, at most `parallelism` at once
 *   (schedule.ts, over the graph of graph.ts).
 * - The plan's call is the truth: the body is sent as planned, with refs replaced by the ids the
 *   referenced creates produced (run-change.ts).
 * - A failed change does not stop independent ones; whatever depends on it is skipped, naming
 *   what it needed.
 * - Retries are the client's, under its one rule and budget (src/api/retry.ts): a change's call is
 *   sent at most 1 + maxRetries times. Apply adds only what it alone knows: how to find what a
 *   create whose answer was lost made, so that it is never made twice.
 * - Each answer is checked (verify.ts): an answer about another object fails its change; fields
 *   the service did not keep are named on the result (`notKept`).
 * - Once `signal` is aborted nothing new starts and no call retries; running calls finish.
 */
import type { MonitoringApi } from '../api/types.js';
import type { Change, Plan } from '../plan/types.js';
import { changeLabel } from './describe.js';
import { buildGraph } from './graph.js';
import { resultBase, summarizeResults, type ApplyResult, type ChangeResult } from './result.js';
import { describeError, runChange, titleIn } from './run-change.js';
import { Schedule } from './schedule.js';
import type { HeldIds } from './verify.js';

export { describeError, resolveRefs } from './run-change.js';
export { heldIds, type HeldIds } from './verify.js';
export { APPLY_STILL_DIFFERS, applyExitCode, isNotStarted, NOT_STARTED, type ApplyResult, type ChangeResult, type ChangeStatus } from './result.js';

export type ApplyEvent =
  | { type: 'started'; index: number; ref: string; label: string; change: Change }
  /** Exactly one per change, including the skipped ones (which have no `started`). */
  | { type: 'finished'; index: number; result: ChangeResult };

export interface ExecuteOptions {
  parallelism: number;
  signal?: AbortSignal;
  onEvent?: (e: ApplyEvent) => void;
  /** Ownership marker value: how a lost monitor create is recognised when read back. */
  owner: string;
  /**
   * The ids the account held when the plan was made (`heldIds(live)`, verify.ts): a create answered
   * with one of them failed. Without it, only the answer's own fields are checked.
   */
  held?: HeldIds;
}

export async function executePlan(plan: Plan, api: MonitoringApi, opts: ExecuteOptions): Promise<ApplyResult> {
  const t0 = performance.now();
  const changes = plan.changes;
  const parallelism = Number.isFinite(opts.parallelism) && opts.parallelism >= 1 ? Math.floor(opts.parallelism) : 1;
  const emit = (e: ApplyEvent) => {
    // A progress printer that throws must not wreck the bookkeeping of calls already made.
    try {
      opts.onEvent?.(e);
    } catch {
      /* ignored */
    }
  };

  const graph = buildGraph(changes);
  const ids: (string | null)[] = changes.map(() => null);
  let readbacks = 0;
  const context = {
    api,
    owner: opts.owner,
    ...(opts.signal ? { signal: opts.signal } : {}),
    idOf: (ref: string) => {
      const j = graph.indexOf.get(ref);
      return j !== undefined && schedule.isDone(j) ? ids[j]! : null;
    },
    titleOf: titleIn(changes, graph.indexOf),
    lookedUp: () => void readbacks++,
    ...(opts.held ? { held: opts.held } : {}),
    plannedLabels: new Set(changes.filter((c) => c.kind === 'monitor' && c.action === 'create').map((c) => String(c.call.body?.label))),
    madeIds: () => new Set(ids.filter((id): id is string => id !== null)),
  };
  const schedule: Schedule = new Schedule(changes, graph, {
    parallelism,
    ...(opts.signal ? { signal: opts.signal } : {}),
    // runChange reports every outcome as a result; a bug that throws still fails only its change.
    run: (i) =>
      runChange(changes[i]!, context).catch((err: unknown) => ({
        result: { ...resultBase(changes[i]!), status: 'failed' as const, id: null, error: describeError(err), ms: 0, attempts: 0 },
        interrupted: false,
      })),
    started: (i) => emit({ type: 'started', index: i, ref: changes[i]!.ref, label: changeLabel(changes[i]!), change: changes[i]! }),
    finished: (i, result) => {
      if (result.status === 'done') ids[i] = result.id;
      emit({ type: 'finished', index: i, result });
    },
  });
  const { results, interrupted } = await schedule.run();
  return summarizeResults(results, performance.now() - t0, interrupted, readbacks);
}
