/**
 * What apply reports: one result per change of the plan, and the run's totals. Plain data, read
 * by the renderers (src/render/apply-text.ts) and the CLI.
 */
import type { Alert, Group, GroupSummary, Monitor } from '../model/live.js';
import type { Change, ChangeAction, ChangeKind } from '../plan/types.js';

export type ChangeStatus = 'done' | 'failed' | 'skipped';

/** The reason of a change not started because the run was interrupted. */
export const NOT_STARTED = 'interrupted';

export interface ChangeResult {
  ref: string;
  kind: ChangeKind;
  action: ChangeAction;
  key: string;
  /** Alerts: label of their monitor (for display). */
  monitor?: string;
  status: ChangeStatus;
  /** Created, updated or deleted resource's id; null when not done. */
  id: string | null;
  /** Failed: what went wrong, naming the call. */
  error?: string;
  /** Skipped: why it was not attempted, e.g. `needs monitor "mx-eu-4"`, or NOT_STARTED. */
  reason?: string;
  /** Done, but worth saying how: `already gone`, `found after its answer was lost`. */
  note?: string;
  /**
   * Done, but the service's answer (or read-back) shows fields stored otherwise than sent, one
   * message each (verify.ts): the write was not kept, and the next plan shows it again.
   */
  notKept?: string[];
  /** What the service returned (or, for alert updates without an answer, what it read back). */
  live?: Monitor | Alert | Group | GroupSummary;
  ms: number;
  /** Requests that carried this change's write, retries included (0 when not sent). */
  attempts: number;
}

export interface ApplyResult {
  /** One per plan change, in plan order. */
  results: ChangeResult[];
  done: number;
  failed: number;
  /** Skipped because something they need was not done. */
  skipped: number;
  /** Not started because the run was interrupted (status `skipped`, reason NOT_STARTED). */
  notStarted: number;
  ms: number;
  /** The signal was aborted: some changes were not started, or a retry or check was not made. */
  interrupted: boolean;
  /** Creates whose answer was lost, settled by reading the account (lookups made). */
  readbacks: number;
  /** Done changes whose write the service did not keep as sent (results with `notKept`). */
  notKept: number;
}

/** The fields of a change's result that come from the change itself. */
export function resultBase(c: Change): Omit<ChangeResult, 'status' | 'id' | 'ms' | 'attempts'> {
  return {
    ref: c.ref,
    kind: c.kind,
    action: c.action,
    key: c.key,
    ...(c.monitor !== undefined ? { monitor: c.monitor } : {}),
  };
}

export function isNotStarted(r: ChangeResult): boolean {
  return r.status === 'skipped' && r.reason === NOT_STARTED;
}

/** Totals over the results. */
export function summarizeResults(results: ChangeResult[], ms: number, interrupted: boolean, readbacks: number): ApplyResult {
  let done = 0;
  let failed = 0;
  let skipped = 0;
  let notStarted = 0;
  let notKept = 0;
  for (const r of results) {
    if (r.notKept !== undefined && r.notKept.length > 0) notKept++;
    if (r.status === 'done') done++;
    else if (r.status === 'failed') failed++;
    else if (isNotStarted(r)) notStarted++;
    else skipped++;
  }
  return { results, done, failed, skipped, notStarted, ms, interrupted, readbacks, notKept };
}

/**
 * Apply's exit code when every change ran and the account still differs from the configuration:
 * the service did not keep a write (`notKept`), or apply's own check afterwards still planned
 * changes. Documented in docs/guarantees.md; distinct from 1 (failed) and 2 (usage).
 */
export const APPLY_STILL_DIFFERS = 4;

/**
 * The exit code of a run that was not interrupted: 1 when a change failed; APPLY_STILL_DIFFERS when
 * a write was not kept or the check afterwards (`remaining`: its number of changes, null when it
 * could not run) still shows changes; else 0.
 */
export function applyExitCode(result: ApplyResult, remaining: number | null): number {
  if (result.failed > 0) return 1;
  if (result.notKept > 0 || (remaining ?? 0) > 0) return APPLY_STILL_DIFFERS;
  return 0;
}
