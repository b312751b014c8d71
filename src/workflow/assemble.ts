/**
 * The one plan assembly: what `plan` shows, what `plan --out` saves, what the proof of `apply --plan`
 * derives again, and what apply's own final check plans. From a desired state, the live account and
 * one instant on the service's clock it makes the Plan: the diff (src/plan/diff.ts), the account's
 * name, the findings of the checks (src/checks) and the maintenance windows ahead
 * (src/ops/maintenance.ts). Pure and synchronous: the same inputs give the same plan, which is what
 * lets a saved plan be derived again exactly (`savedPlanInputs` reads those inputs back from it).
 * It never stops on findings: the caller decides (stopOnFindings in plan.ts).
 */
import { runChecks } from '../checks/run.js';
import type { DesiredState } from '../model/desired.js';
import type { LiveState } from '../model/live.js';
import { plannedWindows } from '../ops/maintenance.js';
import { diff } from '../plan/diff.js';
import type { Plan } from '../plan/types.js';

export interface AssemblyInputs {
  /** The service's base URL (no credentials). */
  target: string;
  /** `--prune` (settings.prune counts too). */
  prune?: boolean;
  targets?: readonly string[];
  /** The live-state fingerprint (default true); false only for a plan shown as text. */
  fingerprint?: boolean;
  /** The declared account the plan is for: recorded so a saved plan is refused on another. */
  account?: string;
  /** The service's time (ms): the plan's `created_at` and where its maintenance windows are looked for from. */
  nowMs: number;
}

/** Throws the planner's PlanError when the plan cannot be made. */
export function assemblePlan(desired: DesiredState, live: LiveState, inputs: AssemblyInputs): Plan {
  const made = diff(desired, live, {
    prune: inputs.prune || desired.settings.prune,
    targets: [...(inputs.targets ?? [])],
    target: inputs.target,
    now: new Date(inputs.nowMs),
    ...(inputs.fingerprint !== undefined ? { fingerprint: inputs.fingerprint } : {}),
  });
  const plan: Plan = { ...made, ...(inputs.account !== undefined ? { account: inputs.account } : {}), checks: runChecks(desired, live) };
  if (desired.maintenance === undefined) return plan;
  // On the service's clock, as maintain decides what is open.
  return { ...plan, maintenance: plannedWindows(desired.maintenance, live, inputs.nowMs, desired.settings.ignore) };
}

/** The inputs a saved plan was assembled from, read back from it. */
export function savedPlanInputs(saved: Plan): AssemblyInputs {
  return {
    target: saved.target,
    prune: saved.options.prune,
    targets: saved.options.targets,
    ...(saved.account !== undefined ? { account: saved.account } : {}),
    nowMs: Date.parse(saved.created_at),
  };
}
