/**
 * How `apply` looks: the workflow (src/workflow/apply.ts) says what happened through its events
 * (src/workflow/events.ts), a view, chosen once, decides how it is shown. Two views, both writing only through `CommandIo`:
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
import { renderVerifyLine, renderVerifySummary } from '../render/mailpath.js';
import { redact } from '../util/redact.js';
import { plural } from '../util/plural.js';
import type { ChangeResult, Plan } from '../workflow/apply.js';
import { isProgress, type Events, type Progress, type WorkflowEvent } from '../workflow/events.js';
import type { CommandIo, InterruptSignal } from './output.js';
import { printProgress } from './progress.js';

/** The events, and what only the command knows about: an interruption, a "no", the end. */
export interface ApplyView {
  events: Events;
  /** The first Ctrl-C or SIGTERM: no new call starts. */
  interrupted(signal: InterruptSignal): void;
  /** The person said no (or interrupted the question): nothing was sent. */
  declined(interrupted: boolean): void;
  /** Writes what is still held back and stops redrawing; called once, at the end, whatever happened. */
  close(): void;
}

/** How often the live line is redrawn, and held-back log lines written at the latest. */
const TICK_MS = 100;

/**
 * The text view's log of finished changes and, on a terminal, its live line. Writes to a pipe or
 * file block (write(2) per call): one per finished change made a 1,000-change apply spend longer
 * writing its log than waiting for the service. Log lines are gathered and written at most every
 * 100 ms, and always before anything else is printed. In a terminal they go above the live line
 * (which shows only what is in flight), with its redraw.
 */
function changeLog(io: CommandIo) {
  const { out } = io;
  const tty = io.terminal !== undefined;
  let pending = '';
  let flushTimer: NodeJS.Timeout | undefined;
  let liveTimer: NodeJS.Timeout | undefined;
  const running = new Map<string, string>();
  const counts = { finished: 0, total: 0, started: 0 };
  const flush = () => {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    if (pending !== '') out(tty ? `\r\x1b[2K${pending}` : pending);
    pending = '';
  };
  const drawLive = () => {
    const line = renderLiveLine({
      done: counts.finished,
      total: counts.total,
      elapsedMs: performance.now() - counts.started,
      running: [...running.values()],
      width: io.terminal?.columns() ?? 100,
    });
    out(`\r\x1b[2K${pending}${line}`);
    pending = '';
  };
  return {
    tty,
    running,
    counts,
    flush,
    logLine(s: string) {
      pending += `${s}\n`;
      if (!tty) flushTimer ??= setTimeout(flush, TICK_MS);
    },
    startLive(total: number) {
      counts.total = total;
      counts.started = performance.now();
      if (tty) liveTimer = setInterval(drawLive, TICK_MS);
    },
    stopLive() {
      if (liveTimer) clearInterval(liveTimer);
      liveTimer = undefined;
    },
  };
}

export function textApplyView(io: CommandIo): ApplyView {
  const { color, out } = io;
  const log = changeLog(io);
  const { tty, running, flush } = log;
  const logLine = log.logLine;
  const stopLive = log.stopLive;
  const progress = printProgress(io);
  const verify = verifyLines(io);
  const draw = (e: WorkflowEvent): void => {
    switch (e.kind) {
      case 'planned':
        return out(renderPlanText(e.plan, { color }).replace(/\n*$/, '\n'));
      case 'applying':
        out(`${renderApplyHeader(e.changes, e.parallelism)}\n`);
        return log.startLive(e.changes);
      case 'change-started':
        running.set(e.ref, e.label);
        return;
      case 'change-finished':
        running.delete(e.result.ref);
        log.counts.finished += 1;
        // What an interruption left unstarted is counted in the summary, not listed line by line.
        // A line per finished change, in a terminal too: what was done stays on the screen.
        if (showsAsFinished(e.result)) logLine(renderFinishedLine(e.result, { color }));
        return;
      case 'applied':
        stopLive();
        flush();
        if (tty) out('\r\x1b[2K');
        for (const line of renderNotStarted(e.result, { color })) out(`${line}\n`);
        return out(`${renderApplySummary(e.result, e.stats, { color, planFollows: e.planFollows })}\n`);
      case 'checking':
        return out('Checking ... ');
      case 'checked':
        return out(e.next.changes.length === 0 ? `${noChangesLine(e.next)}\n` : `\n${renderPlanText(e.next, { color })}`.replace(/\n*$/, '\n'));
      case 'saved-plan-files-differ':
        return io.err(`${renderSavedPlanFilesDiffer(e.files, e.why)}\n`);
      case 'check-failed':
        out('not possible.\n');
        io.err('Warning: the changes were made, but planning again to check them failed; run `monsync plan` to see whether the account matches.\n');
        for (const line of e.details) io.err(`${redact(line)}\n`);
        return;
      default:
        progress(e);
        verify(e);
    }
  };

  return {
    events: draw,
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
  const verify = verifyLines(io);
  const draw = (e: WorkflowEvent): void => {
    if (isProgress(e)) {
      if (e.kind !== 'timings' || io.env.MONSYNC_TIMINGS) emit({ type: 'progress', progress: e });
      return;
    }
    switch (e.kind) {
      case 'planned':
        return emit({ type: 'plan', plan: planData(e.plan) });
      case 'applying':
        return emit({ type: 'apply_start', changes: e.changes, parallelism: e.parallelism });
      case 'change-started':
        return emit({ type: 'change_start', ref: e.ref, label: e.label });
      case 'change-finished': {
        // What the service answered (`live`) stays out: the plan and the check already say what the account holds.
        const { live: _live, ...result } = e.result;
        return emit({ type: 'change_finished', result: { ...result, ms: Math.round(result.ms) } });
      }
      case 'applied': {
        const r = e.result;
        return emit({ type: 'apply_summary', done: r.done, failed: r.failed, skipped: r.skipped, not_started: r.notStarted, interrupted: r.interrupted, ms: Math.round(r.ms), requests: e.stats.requests, retries: e.stats.retries });
      }
      case 'checked':
        return emit(e.next.changes.length === 0 ? { type: 'check', matches: true } : { type: 'check', matches: false, plan: planData(e.next) });
      case 'check-failed':
        return emit({ type: 'check_failed', details: e.details.map(redact) });
      case 'saved-plan-files-differ':
        return emit({ type: 'saved_plan_files_differ', files: [...e.files], why: e.why });
      default:
        verify(e);
    }
  };
  return {
    events: draw,
    interrupted: (signal) => emit({ type: 'interrupted', signal }),
    declined: () => undefined,
    close: () => undefined,
  };
}

/** `apply --verify`'s lines, on stdout in either view. */
function verifyLines(io: CommandIo): Events {
  return (e) => {
    if (e.kind === 'verify-start') {
      io.out(
        e.monitors === 0
          ? 'Verify: no monitor was created or changed; nothing to wait for.\n'
          : `\nVerifying the first round trip of ${plural(e.monitors, 'monitor')} (each test starts within its timer, up to ${e.longestTimer} min, then waits for its reply)…\n`,
      );
    } else if (e.kind === 'verify-result') io.out(`${renderVerifyLine(e.result, { color: io.color })}\n`);
    else if (e.kind === 'verify-done') io.out(`${renderVerifySummary(e.results)}\n`);
  };
}
