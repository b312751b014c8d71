/**
 * The progress lines of the commands (on stderr, so stdout carries only the result), from the one
 * events the workflows tell (src/workflow/events.ts): what was read, how much, how long it took. plan, apply, export and
 * maintain tell the account read; report its reads (`report-*`, a ticker drawn only where a person
 * looks); test the mail paths it starts.
 * Pure; the command decides whether and where to print them. In a log every event is its own line
 * (`Reading account URL (user) ...` before the read, `Read 12 monitors ...` after it: an HTTP trace
 * on stderr may come between them). On a terminal the account is one line, drawn before the read
 * with `renderWaiting` after it meanwhile, and replaced by `renderAccountLine` once it is read.
 */
import { plural } from '../util/plural.js';

/**
 * What these lines read of the events. The events themselves are src/workflow/events.ts's (this
 * folder sits below it, so it names only the fields it draws; the compiler checks the two agree
 * where a view hands an event over).
 */
type ConfigurationCounts = { kind: 'configuration'; files: number; monitors: number; alerts: number; groups: number };
type ReadingHead = { kind: 'reading'; url: string; user?: string };
type AccountCounts = { kind: 'account'; monitors: number; smtpMonitors: number; alerts: number; groups: number; destinations: number; ms: number; requests: number };
type TickerLine = { kind: 'report-monitors'; monitors: number } | { kind: 'report-data'; done: number; total: number } | { kind: 'report-alerts' } | { kind: 'report-done' };
type ProgressLine =
  | ConfigurationCounts
  | ReadingHead
  | AccountCounts
  | TickerLine
  | { kind: 'healed'; warning: string }
  | { kind: 'account-failed' }
  | { kind: 'timings'; configurationMs: number; accountMs: number; diffMs: number; sinceStartMs: number }
  | { kind: 'mail-paths'; monitors: number; concurrency: number; stepSeconds: number };

/** The ticker line of a report read (drawn in place on a terminal); '' for `report-done`. */
export function renderReportTicker(p: TickerLine): string {
  switch (p.kind) {
    case 'report-monitors':
      return `Reading ${p.monitors} monitors…`;
    case 'report-data':
      return `Reading raw data: ${p.done} of ${p.total} monitors`;
    case 'report-alerts':
      return 'Reading alert counts…';
    case 'report-done':
      return '';
  }
}

/** Redrawn after an open `reading` line on a terminal: time passing. `⠹ 3 s` */
export function renderWaiting(elapsedMs: number): string {
  const frames = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';
  return `${frames[Math.floor(elapsedMs / 100) % frames.length]} ${Math.floor(elapsedMs / 1000)} s`;
}

/** `Reading account https://... (user) ...`, without a newline: the account about to be read. */
export function renderReadingHead(p: ReadingHead): string {
  return `Reading account ${p.url}${p.user !== undefined ? ` (${p.user})` : ''} ...`;
}

/** What the account holds and what reading it took: `12 monitors (10 SMTP), ... (0.3 s, 4 requests)`. */
function accountCounts(p: AccountCounts): string {
  return (
    `${plural(p.monitors, 'monitor')} (${p.smtpMonitors} SMTP), ` +
    `${plural(p.alerts, 'alert')}, ${plural(p.groups, 'group')}, ${plural(p.destinations, 'destination')} ` +
    `(${(p.ms / 1000).toFixed(1)} s, ${plural(p.requests, 'request')})`
  );
}

/** On a terminal, the read account's one line: `Reading account URL (user) ... 12 monitors ...`. */
export function renderAccountLine(reading: ReadingHead, p: AccountCounts): string {
  return `${renderReadingHead(reading)} ${accountCounts(p)}\n`;
}

/** One line ending in a newline, as a log shows it (nothing for `account-failed`: the error says it; nor for a report's reads). */
export function renderProgress(p: ProgressLine): string {
  switch (p.kind) {
    // A report's reads are a ticker where a person looks (renderReportTicker); a log shows none of them.
    case 'report-monitors':
    case 'report-data':
    case 'report-alerts':
    case 'report-done':
      return '';
    case 'mail-paths':
      return `Testing the mail path of ${plural(p.monitors, 'monitor')} (at most ${p.concurrency} at once, ${p.stepSeconds} s a step)…\n`;
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
