/**
 * What a person sees while apply runs: one line per finished change (logs, CI), or one live line
 * redrawn in place (terminals), and the closing summary. Pure: strings in, strings out.
 */
import pc from 'picocolors';
import { ACTION_SYMBOL, changeTitle } from '../apply/describe.js';
import { APPLY_STILL_DIFFERS, isNotStarted, type ApplyResult, type ChangeResult } from '../apply/execute.js';
import { escapeControl as safe } from '../util/safe-text.js';
import { plural } from '../util/plural.js';

export interface ApplyTextOptions {
  color?: boolean;
  /** The summary is followed by apply's own plan of what is left: no advice to run plan again. */
  planFollows?: boolean;
}

export interface LiveLineState {
  done: number;
  total: number;
  elapsedMs: number;
  /** Labels of the changes in flight, as in the `started` event (`~ group "production"`). */
  running: string[];
  /** Terminal columns; the line is kept shorter so it never wraps. Default 80. */
  width?: number;
}

export interface RequestStats {
  requests: number;
  retries: number;
}

/** `0.2 s`, `12.5 s`. */
export function formatSeconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}

/**
 * The time an apply has left, from the pace so far: null until it means something (at least one
 * change done and 5 s spent), so short applies show no guess.
 */
export function estimateLeftMs(done: number, total: number, elapsedMs: number): number | null {
  if (done < 1 || done >= total || elapsedMs < ESTIMATE_AFTER_MS) return null;
  return (elapsedMs / done) * (total - done);
}

const ESTIMATE_AFTER_MS = 5000;

/** `about 35 s left`, `about 4 min left`: a guess, rounded as one. */
export function formatLeft(ms: number): string {
  if (ms < 55_000) return `about ${Math.max(5, Math.round(ms / 5000) * 5)} s left`;
  return `about ${Math.max(1, Math.round(ms / 60_000))} min left`;
}

/** A finished change's time is shown only when it stands out: `0.0 s` on every line said nothing. */
export const SHOWN_CHANGE_MS = 1000;

/** `2,107`: counts of a large apply read at a glance. */
const count = (n: number): string => n.toLocaleString('en-US');

/** Changes not started (an interrupted run) are named one per line only up to this many. */
export const NAMED_NOT_STARTED_MAX = 5;

const PAST: Record<ChangeResult['action'], string> = { create: 'created', update: 'updated', delete: 'deleted' };

export function renderApplyHeader(changes: number, parallelism: number): string {
  return `Applying ${plural(changes, 'change')} with parallelism ${parallelism}`;
}

/**
 *   + monitor "mx-eu-3" created (id 48790)
 *   ~ monitor "mx-eu-1" updated 2.3 s (2 attempts)
 *   x monitor "mx-eu-4" failed: the service said "..." (POST /v1/Config/Monitor/)
 *   . alert "mx-eu-4" / "mx-eu-4 is DOWN" skipped: needs monitor "mx-eu-4"
 */
export function renderFinishedLine(r: ChangeResult, opts: ApplyTextOptions = {}): string {
  const c = pc.createColors(opts.color ?? false);
  const title = changeTitle(r);
  if (r.status === 'done') {
    const paint = r.action === 'create' ? c.green : r.action === 'update' ? c.yellow : c.red;
    const details = [r.action === 'create' && r.id ? `id ${r.id}` : '', r.note ?? ''].filter(Boolean).join('; ');
    const tries = r.attempts > 1 ? `(${r.attempts} attempts)` : '';
    const time = [r.ms >= SHOWN_CHANGE_MS ? formatSeconds(r.ms) : '', tries].filter(Boolean).join(' ');
    const line = `  ${paint(ACTION_SYMBOL[r.action])} ${title} ${paint(PAST[r.action])}${details ? ` (${details})` : ''}${time ? ` ${c.dim(time)}` : ''}`;
    // A write the service did not keep: each field under its line, with what was stored.
    return [line, ...(r.notKept ?? []).map((m) => `      ${c.red('! not kept:')} ${safe(m)}`)].join('\n');
  }
  if (r.status === 'failed') {
    const after = r.attempts > 1 ? ` after ${r.attempts} attempts` : '';
    return `  ${c.red(c.bold('x'))} ${title} ${c.red(`failed${after}`)}: ${r.error ?? 'unknown error'}`;
  }
  return `  ${c.dim('.')} ${title} ${c.dim('skipped')}: ${r.reason ?? 'not started'}`;
}

/**
 * `  [5/7] 0.6 s  ~ alert "mx-us-1" / "mx-us-1 is DOWN", ~ group "production"`, cut to fit the
 * width; on long applies with the time left: `  [120/2,000] 12.5 s, about 3 min left  ...`.
 */
export function renderLiveLine(s: LiveLineState): string {
  // One column spare: writing the last column makes some terminals wrap before the \r.
  const width = Math.max(8, (s.width ?? 80) - 1);
  const left = estimateLeftMs(s.done, s.total, s.elapsedMs);
  const time = `${formatSeconds(s.elapsedMs)}${left === null ? '' : `, ${formatLeft(left)}`}`;
  const line = `  [${count(s.done)}/${count(s.total)}] ${time}  ${s.running.join(', ')}`.trimEnd();
  if (line.length <= width) return line;
  return `${line.slice(0, width - 3)}...`;
}

/**
 * `Apply complete: 2 added, 4 changed, 1 destroyed in 0.9 s (11 requests, 0 retries).` or
 * `Apply incomplete: 5 done, 1 failed, 1 skipped. Run plan again to see what is left.` (without the
 * advice when apply's own plan follows) or
 * `Apply interrupted: 5 done, 0 failed, 0 skipped, 2,107 not started. Run plan again ...`
 * `stats` are the client's counters for the run: the only retries there are (src/api/retry.ts).
 */
export function renderApplySummary(result: ApplyResult, stats: RequestStats, opts: ApplyTextOptions = {}): string {
  const c = pc.createColors(opts.color ?? false);
  const requests = `${plural(stats.requests, 'request')}, ${plural(stats.retries, 'retry', 'retries')}`;
  const notKept = result.notKept > 0 ? `, ${count(result.notKept)} not kept by the service` : '';
  if (result.failed === 0 && result.skipped === 0 && result.notStarted === 0 && !result.interrupted && notKept === '') {
    const n = (a: ChangeResult['action']) => result.results.filter((r) => r.status === 'done' && r.action === a).length;
    return `${c.bold(c.green('Apply complete:'))} ${n('create')} added, ${n('update')} changed, ${n('delete')} destroyed in ${formatSeconds(result.ms)} (${requests}).`;
  }
  const head = result.interrupted ? 'Apply interrupted:' : 'Apply incomplete:';
  const notStarted = result.notStarted > 0 ? `, ${count(result.notStarted)} not started` : '';
  const advice = opts.planFollows && !result.interrupted ? '' : ' Run plan again to see what is left.';
  return `${c.bold(c.red(head))} ${count(result.done)} done, ${count(result.failed)} failed, ${count(result.skipped)} skipped${notStarted}${notKept}.${advice}`;
}

/**
 * After apply's own check: `Error: the account still differs from the configuration after apply
 * (2 changes, shown above); the service did not keep what was sent.` Null when nothing differs.
 */
export function renderStillDiffers(remaining: number | null, notKept: number): string | null {
  if ((remaining ?? 0) === 0 && notKept === 0) return null;
  const shown = remaining !== null && remaining > 0 ? ` (${plural(remaining, 'change')}, shown above)` : '';
  const why = notKept > 0 ? `the service did not keep ${plural(notKept, 'write')} as sent (marked "not kept" above)` : 'the service did not keep a write as its answer said, or the account or the configuration files changed meanwhile';
  return `Error: the account still differs from the configuration after apply${shown}: ${why}; exit ${APPLY_STILL_DIFFERS}.`;
}

/**
 * Whether the line of a finished change is shown as it finishes. Changes not started (an
 * interrupted run) are held back: the summary counts them, and renderNotStarted names them when
 * there are few.
 */
export function showsAsFinished(r: ChangeResult): boolean {
  return !isNotStarted(r);
}

/** One line per change not started, when there are at most NAMED_NOT_STARTED_MAX of them; else none. */
export function renderNotStarted(result: ApplyResult, opts: ApplyTextOptions = {}): string[] {
  if (result.notStarted === 0 || result.notStarted > NAMED_NOT_STARTED_MAX) return [];
  const c = pc.createColors(opts.color ?? false);
  return result.results.filter(isNotStarted).map((r) => `  ${c.dim('.')} ${changeTitle(r)} ${c.dim('not started')}`);
}

/**
 * The question asked before the first write, naming the account it changes:
 * `Apply 12 changes to https://api.knowledgefront.com (mail-team)? Only "yes" will be accepted: `
 */
export function renderApplyQuestion(q: { changes: number; url: string; user?: string | undefined }): string {
  const who = q.user !== undefined ? ` (${q.user})` : '';
  return `\nApply ${plural(q.changes, 'change')} to ${q.url}${who}? Only "yes" will be accepted: `;
}

/**
 * After applying a saved plan: the account was checked against the desired state saved in the plan,
 * but the configuration files it was made from now say something else (a later commit), which the
 * next `monsync plan` works from.
 */
export function renderSavedPlanFilesDiffer(files: readonly string[], why: 'differ' | 'unreadable'): string {
  const list = files.map((f) => safe(f)).join(', ');
  return why === 'differ'
    ? `Note: the check compared the account with the configuration saved in the plan; the files on disk (${list}) now differ from it, and the next \`monsync plan\` works from them.`
    : `Note: the check compared the account with the configuration saved in the plan; the files it was made from (${list}) cannot be read from here.`;
}
