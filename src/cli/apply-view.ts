/**
 * How `apply` looks: the workflow (src/workflow/apply.ts) says what happened through `ApplyHooks`,
 * a view decides how it is shown. Two views, both writing only through `CommandIo`:
 * - text: the plan, a line per finished change, the summary and the check, on stdout; progress of
 *   the reads on stderr. On a terminal a live line (what is in flight, time spent and left) is
 *   redrawn under the finished lines; in a log it is not drawn at all.
 * - JSON (`apply --json`): one JSON object per line on stdout, for machines (Terraform's
 *   `apply -json` in spirit): `{"type": ..., ...}`, see `JsonEvent`.
 */
import { noChangesLine } from '../render/plan-words.js';
import {
  renderApplyHeader,
  renderApplySummary,
  renderFinishedLine,
  renderLiveLine,
  renderNotStarted,
  renderSavedPlanFilesDiffer,
  showsAsFinished,
} from '../render/apply-text.js';
import { renderPlanJson } from '../render/plan-json.js';
import { renderPlanText } from '../render/plan-text.js';
import type { Progress } from '../workflow/progress.js';
import { redact } from '../util/redact.js';
import type { ApplyHooks, ApplyResult, ChangeResult, Plan, RunStats } from '../workflow/apply.js';
import type { CommandIo, InterruptSignal } from './output.js';
import { printProgress } from './progress.js';

/** The hooks, and what only the command knows about: an interruption, a "no", the end. */
export interface ApplyView extends ApplyHooks {
  /** The first Ctrl-C or SIGTERM: no new call starts. */
  interrupted(signal: InterruptSignal): void;
  /** The person said no (or interrupted the question): nothing was sent. */
  declined(interrupted: boolean): void;
  /** Writes what is still held back and stops redrawing; called once, at the end, whatever happened. */
  close(): void;
}

/** How often the live line is redrawn, and held-back log lines written at the latest. */
const TICK_MS = 100;

export function textApplyView(io: CommandIo): ApplyView {
  const { color, out } = io;
  const tty = io.terminal !== undefined;
  // Writes to a pipe or file block (write(2) per call): one per finished change made a 1,000-change
  // apply spend longer writing its log than waiting for the service. Log lines are gathered and
  // written at most every 100 ms, and always before anything else is printed. In a terminal they go
  // above the live line (which shows only what is in flight), with its redraw.
  let pending = '';
  let flushTimer: NodeJS.Timeout | undefined;
  let liveTimer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    if (pending !== '') out(tty ? `\r\x1b[2K${pending}` : pending);
    pending = '';
  };
  const logLine = (s: string) => {
    pending += `${s}\n`;
    if (!tty) flushTimer ??= setTimeout(flush, TICK_MS);
  };
  const running = new Map<string, string>();
  let finished = 0;
  let total = 0;
  let started = 0;
  const drawLive = () => {
    const line = renderLiveLine({
      done: finished,
      total,
      elapsedMs: performance.now() - started,
      running: [...running.values()],
      width: io.terminal?.columns() ?? 100,
    });
    out(`\r\x1b[2K${pending}${line}`);
    pending = '';
  };
  const stopLive = () => {
    if (liveTimer) clearInterval(liveTimer);
    liveTimer = undefined;
  };

  return {
    progress: printProgress(io),
    planned(plan: Plan) {
      out(renderPlanText(plan, { color }).replace(/\n*$/, '\n'));
    },
    applying({ changes, parallelism }) {
      total = changes;
      started = performance.now();
      out(`${renderApplyHeader(changes, parallelism)}\n`);
      if (tty) liveTimer = setInterval(drawLive, TICK_MS);
    },
    started(ref, label) {
      running.set(ref, label);
    },
    finished(result: ChangeResult) {
      running.delete(result.ref);
      finished += 1;
      // What an interruption left unstarted is counted in the summary, not listed line by line.
      if (!showsAsFinished(result)) return;
      // A line per finished change, in a terminal too: what was done stays on the screen.
      logLine(renderFinishedLine(result, { color }));
    },
    applied(result: ApplyResult, stats: RunStats, planFollows: boolean) {
      stopLive();
      flush();
      if (tty) out('\r\x1b[2K');
      for (const line of renderNotStarted(result, { color })) out(`${line}\n`);
      out(`${renderApplySummary(result, stats, { color, planFollows })}\n`);
    },
    checking() {
      out('Checking ... ');
    },
    checked(next: Plan) {
      if (next.changes.length === 0) out(`${noChangesLine(next)}\n`);
      else out(`\n${renderPlanText(next, { color })}`.replace(/\n*$/, '\n'));
    },
    savedPlanFilesDiffer(files, why) {
      io.err(`${renderSavedPlanFilesDiffer(files, why)}\n`);
    },
    checkFailed(details: string[]) {
      out('not possible.\n');
      io.err('Warning: the changes were made, but planning again to check them failed; run `monsync plan` to see whether the account matches.\n');
      for (const line of details) io.err(`${redact(line)}\n`);
    },
    interrupted(signal) {
      flush();
      const again = signal === 'SIGINT' ? 'Ctrl-C' : signal;
      io.err(`\nInterrupted: starting no new calls, waiting for running ones (${again} again to quit now).\n`);
    },
    declined(interrupted) {
      out(`${interrupted ? '\n' : ''}Apply cancelled; nothing was changed.\n`);
    },
    close() {
      stopLive();
      flush();
    },
  };
}

/** One line of `apply --json`. */
export type JsonEvent =
  | { type: 'progress'; progress: Progress }
  | { type: 'plan'; plan: unknown }
  | { type: 'apply_start'; changes: number; parallelism: number }
  | { type: 'change_start'; ref: string; label: string }
  | { type: 'change_finished'; result: Omit<ChangeResult, 'live'> }
  | { type: 'apply_summary'; done: number; failed: number; skipped: number; not_started: number; interrupted: boolean; ms: number; requests: number; retries: number }
  | { type: 'check'; matches: true }
  | { type: 'check'; matches: false; plan: unknown }
  | { type: 'check_failed'; details: string[] }
  | { type: 'saved_plan_files_differ'; files: string[]; why: 'differ' | 'unreadable' }
  | { type: 'interrupted'; signal: InterruptSignal };

/**
 * `apply --json`: every event as one JSON object on its own line on stdout, nothing drawn, the
 * plan as `plan --json` writes it. Problems stay on stderr (main prints them), as for every command.
 */
export function jsonApplyView(io: CommandIo): ApplyView {
  const emit = (e: JsonEvent) => io.out(`${JSON.stringify(e)}\n`);
  const planData = (plan: Plan): unknown => JSON.parse(renderPlanJson(plan));
  return {
    progress: (p) => {
      if (p.kind === 'timings' && !io.env.MONSYNC_TIMINGS) return;
      emit({ type: 'progress', progress: p });
    },
    planned: (plan) => emit({ type: 'plan', plan: planData(plan) }),
    applying: ({ changes, parallelism }) => emit({ type: 'apply_start', changes, parallelism }),
    started: (ref, label) => emit({ type: 'change_start', ref, label }),
    // What the service answered (`live`) stays out: the plan and the check already say what the account holds.
    finished: ({ live: _live, ...result }) => emit({ type: 'change_finished', result: { ...result, ms: Math.round(result.ms) } }),
    applied: (r, stats) =>
      emit({
        type: 'apply_summary',
        done: r.done,
        failed: r.failed,
        skipped: r.skipped,
        not_started: r.notStarted,
        interrupted: r.interrupted,
        ms: Math.round(r.ms),
        requests: stats.requests,
        retries: stats.retries,
      }),
    checking: () => undefined,
    checked: (next) => emit(next.changes.length === 0 ? { type: 'check', matches: true } : { type: 'check', matches: false, plan: planData(next) }),
    checkFailed: (details) => emit({ type: 'check_failed', details: details.map(redact) }),
    savedPlanFilesDiffer: (files, why) => emit({ type: 'saved_plan_files_differ', files: [...files], why }),
    interrupted: (signal) => emit({ type: 'interrupted', signal }),
    declined: () => undefined,
    close: () => undefined,
  };
}
