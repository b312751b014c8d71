/**
 * The progress lines of `plan` and `apply` (on stderr, so stdout carries only the plan), from the
 * events the workflow reports (src/workflow/plan.ts): what was read, how much, how long it took.
 * Pure; the command decides whether and where to print them. In a log every event is its own line
 * (`Reading account URL (user) ...` before the read, `Read 12 monitors ...` after it: an HTTP trace
 * on stderr may come between them). On a terminal the account is one line, drawn before the read
 * with `renderWaiting` after it meanwhile, and replaced by `renderAccountLine` once it is read.
 */
import { plural } from '../util/plural.js';

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
  | {
      kind: 'account';
      url: string;
      monitors: number;
      smtpMonitors: number;
      alerts: number;
      groups: number;
      destinations: number;
      ms: number;
      requests: number;
    }
  /** Where a plan spent its time (the first two run at the same time); printed under MONSYNC_TIMINGS. */
  | { kind: 'timings'; configurationMs: number; accountMs: number; diffMs: number; sinceStartMs: number };

/** Redrawn after an open `reading` line on a terminal: time passing. `⠹ 3 s` */
export function renderWaiting(elapsedMs: number): string {
  const frames = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';
  return `${frames[Math.floor(elapsedMs / 100) % frames.length]} ${Math.floor(elapsedMs / 1000)} s`;
}

/** `Reading account https://... (user) ...`, without a newline: the account about to be read. */
export function renderReadingHead(p: Extract<PlanProgress, { kind: 'reading' }>): string {
  return `Reading account ${p.url}${p.user !== undefined ? ` (${p.user})` : ''} ...`;
}

/** What the account holds and what reading it took: `12 monitors (10 SMTP), ... (0.3 s, 4 requests)`. */
function accountCounts(p: Extract<PlanProgress, { kind: 'account' }>): string {
  return (
    `${plural(p.monitors, 'monitor')} (${p.smtpMonitors} SMTP), ` +
    `${plural(p.alerts, 'alert')}, ${plural(p.groups, 'group')}, ${plural(p.destinations, 'destination')} ` +
    `(${(p.ms / 1000).toFixed(1)} s, ${plural(p.requests, 'request')})`
  );
}

/** On a terminal, the read account's one line: `Reading account URL (user) ... 12 monitors ...`. */
export function renderAccountLine(reading: Extract<PlanProgress, { kind: 'reading' }>, p: Extract<PlanProgress, { kind: 'account' }>): string {
  return `${renderReadingHead(reading)} ${accountCounts(p)}\n`;
}

/** One line ending in a newline, as a log shows it (nothing for `account-failed`: the error says it). */
export function renderProgress(p: PlanProgress): string {
  switch (p.kind) {
    case 'reading':
      return `${renderReadingHead(p)}\n`;
    case 'account-failed':
      return '';
    case 'configuration':
      return `Reading ${plural(p.files, 'file')} ... ${plural(p.monitors, 'monitor')}, ${plural(p.alerts, 'alert')}, ${plural(p.groups, 'group')} declared.\n`;
    case 'healed':
      return `Warning: ${p.warning}\n`;
    case 'account':
      return `Read ${accountCounts(p)}\n`;
    case 'timings': {
      const ms = (n: number) => `${Math.round(n)} ms`;
      return (
        `Timings: configuration ${ms(p.configurationMs)}, account read ${ms(p.accountMs)} (alongside), ` +
        `diff ${ms(p.diffMs)}, ${ms(p.sinceStartMs)} since the process started.\n`
      );
    }
  }
}
