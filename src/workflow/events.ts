/**
 * The one way back from a workflow: every workflow `(context, options, events)` tells what happens
 * as it happens through one callback, `Events`, with one event type, `WorkflowEvent`. What a
 * workflow returns is its result; everything a person may want to see on the way is an event.
 *
 * Events are plain data. The command's view (chosen once, by the driver in src/cli/) draws them
 * with src/render/'s pure functions, or writes them as JSON (`apply --json`), or drops the ones it
 * does not show. A workflow never prints, and never hands back ready-made text.
 */
import type { ApplyResult, ChangeResult } from '../apply/execute.js';
import type { VerifyResult } from '../mailpath/verify.js';
import type { DrillOptions } from '../ops/drill.js';
import type { Outcome, Targets } from '../ops/pause.js';
import type { Plan } from '../plan/types.js';

/** Reading the configuration and the account (plan, apply, export, maintain, exporter, test --changed). */
export type PlanProgress =
  /** The configuration is loaded and sound. */
  | { kind: 'configuration'; files: number; monitors: number; alerts: number; groups: number }
  /** The first account read contradicted itself; the second did not (the warning says what). */
  | { kind: 'healed'; warning: string }
  /** The account is about to be read (its answers are awaited from now). */
  | { kind: 'reading'; url: string; user?: string }
  /** The read failed; the error follows. */
  | { kind: 'account-failed' }
  /** The account is read. */
  | { kind: 'account'; url: string; monitors: number; smtpMonitors: number; alerts: number; groups: number; destinations: number; ms: number; requests: number }
  /** Where a plan spent its time (the first two run at the same time); shown under MONSYNC_TIMINGS. */
  | { kind: 'timings'; configurationMs: number; accountMs: number; diffMs: number; sinceStartMs: number };

/** `report`'s reads: the monitors chosen, each one's raw data, the alert counts, then done. */
export type ReportReadProgress =
  | { kind: 'report-monitors'; monitors: number }
  | { kind: 'report-data'; done: number; total: number }
  | { kind: 'report-alerts' }
  | { kind: 'report-done' };

/** The progress of reads: what `apply --json` writes as `{"type":"progress"}` lines. */
export type Progress =
  | PlanProgress
  | ReportReadProgress
  /** `monsync test` starts testing the mail paths. */
  | { kind: 'mail-paths'; monitors: number; concurrency: number; stepSeconds: number };

/** Calls the client made during an apply: the only retries there are (src/api/retry.ts). */
export interface RunStats {
  requests: number;
  retries: number;
}

/**
 * What `apply` tells, in order (Terraform's UiHook in spirit): the reads' progress, `planned`, then
 * (when there is something to do and it was approved) `applying`, a `change-started`/`change-finished`
 * per change, `applied`, and, when the configuration is known, `checking` then `checked` or
 * `check-failed`.
 */
export type ApplyEvent =
  /** The plan that will be applied, before the delete threshold and the question. */
  | { kind: 'planned'; plan: Plan }
  | { kind: 'applying'; changes: number; parallelism: number }
  | { kind: 'change-started'; ref: string; label: string }
  | { kind: 'change-finished'; result: ChangeResult }
  /** `planFollows`: a check of the account comes next. */
  | { kind: 'applied'; result: ApplyResult; stats: RunStats; planFollows: boolean }
  | { kind: 'checking' }
  /** The plan made after the apply: no changes when the account matches. */
  | { kind: 'checked'; next: Plan }
  /** The check could not run; the changes were made. `details`: why (the view redacts them). */
  | { kind: 'check-failed'; details: string[] }
  /** A saved plan was applied, but its configuration files on disk now say something else (or cannot be read). */
  | { kind: 'saved-plan-files-differ'; files: readonly string[]; why: 'differ' | 'unreadable' }
  /** `--verify`: waiting for the first round trip of `monitors` monitors (none: nothing to wait for). */
  | { kind: 'verify-start'; monitors: number; longestTimer: number }
  | { kind: 'verify-result'; result: VerifyResult }
  | { kind: 'verify-done'; results: readonly VerifyResult[] };

/** What the operator workflows tell (pause, resume, drill, status, exporter). */
export type OperateEvent =
  /** pause/resume: the targets once resolved (a global pause or resume is slow on the real service). */
  | { kind: 'pause-targets'; verb: 'pause' | 'resume'; targets: Targets }
  /** pause/resume: one outcome as it lands; `nowMs` on the service's clock. */
  | { kind: 'pause-outcome'; verb: 'pause' | 'resume'; outcome: Outcome; nowMs: number }
  /** drill: the outage starts. */
  | ({ kind: 'drill-start' } & Parameters<NonNullable<DrillOptions['onStart']>>[0])
  /** status: which API answers, and why, before the first request. */
  | { kind: 'api-chosen'; reason: string }
  /** exporter: serving at `url`; `open`: beyond loopback without a token (anyone who reaches it reads the metrics). */
  | { kind: 'listening'; url: string; host: string; open: boolean }
  /** exporter: a line of the read loop's log (a change of state: first read, failure, recovery), redacted. */
  | { kind: 'log'; line: string }
  /** exporter: the configuration stopped loading or planning (its problem lines, redacted), or mends (`lines: null`). */
  | { kind: 'configuration-problem'; account?: string; lines: string[] | null }
  /** export: what the account holds that the export cannot say (a warning each). */
  | { kind: 'export-warning'; warning: string }
  /** export --out DIR: a YAML file there that this export did not write (plan DIR reads it too). */
  | { kind: 'export-stray'; file: string; dir: string }
  /** export: stopped by a signal; `target` is as it was (or, `whole`, written whole); `removed`: the temporary file removed. */
  | { kind: 'export-interrupted'; signal: 'SIGINT' | 'SIGTERM'; target: string | null; removed: string | null; whole: boolean }
  /** fmt: a file not in the canonical layout, rewritten (or, with --check, not), or its diff (--diff). */
  | { kind: 'formatted'; file: string; diff: string | null }
  /** A workflow's own warning for a person (maintain's loader warnings). */
  | { kind: 'warning'; line: string };

/** Every event a workflow tells. */
export type WorkflowEvent = Progress | ApplyEvent | OperateEvent;

/** The one callback a workflow tells its events to. */
export type Events = (e: WorkflowEvent) => void;

/** For a caller that shows nothing. */
export const NO_EVENTS: Events = () => undefined;

const PROGRESS_KINDS: ReadonlySet<string> = new Set<Progress['kind']>([
  'configuration',
  'healed',
  'reading',
  'account-failed',
  'account',
  'timings',
  'report-monitors',
  'report-data',
  'report-alerts',
  'report-done',
  'mail-paths',
]);

export function isProgress(e: WorkflowEvent): e is Progress {
  return PROGRESS_KINDS.has(e.kind);
}
