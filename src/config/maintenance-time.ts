/**
 * When maintenance windows are open: pure functions of a window and a span of instants, no clock of
 * their own (the caller passes the service's now). Times are milliseconds since the epoch.
 *
 * The rules, one for one-off and recurring windows alike (docs/maintenance.md):
 * - a local time that does not exist that night (01:30 in London on the night clocks go forward)
 *   means the moment the clocks go forward (02:00 BST), as cron daemons run the jobs of the skipped
 *   hour right after the change;
 * - a local time that happens twice (01:30 on the night clocks go back) means the first of the two;
 * - `duration` is elapsed time: a 2h window starting 00:30 on a night clocks go forward ends 03:30
 *   local, two hours later.
 * Cron expressions are croner's (five fields, Vixie cron's reading of day-of-month OR day-of-week);
 * croner applies the same two rules to the occurrences it computes, which the tests hold it to.
 */
import { Cron } from 'croner';

export interface Occurrence {
  startMs: number;
  endMs: number;
}

/** A window's timing as the state holds it: one-off local times, or a recurring cron and duration. */
export type WindowTiming =
  | { kind: 'once'; start: string; end: string; time_zone: string }
  | { kind: 'cron'; cron: string; duration_seconds: number; time_zone: string };

/** The most occurrences of one window computed for one question (a window every minute for a week is 10,080). */
export const MAX_OCCURRENCES = 20_000;

const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall clock of `t` in `timeZone`, written as if it were UTC (milliseconds). */
export function wallClock(t: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(t))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** The local time written `YYYY-MM-DDTHH:MM[:SS]` as if it were UTC, or undefined when it is no date (month 13, 31 April). */
export function parseLocal(text: string): number | undefined {
  const m = LOCAL.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => Number(x ?? 0)) as [number, number, number, number, number, number];
  const t = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(t);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return undefined;
  return t;
}

/**
 * The instant of a local time in `timeZone`: the first of two when clocks go back, the moment the
 * clocks go forward when the time falls in the skipped hour.
 */
export function localToInstant(local: number, timeZone: string): number {
  const offsets = new Set([local - DAY_MS, local, local + DAY_MS].map((t) => wallClock(t, timeZone) - t));
  const exact = [...offsets].map((o) => local - o).filter((t) => wallClock(t, timeZone) === local);
  if (exact.length > 0) return Math.min(...exact);
  // In a gap: the wall clock jumps over `local` somewhere between the two readings; find the jump.
  const candidates = [...offsets].map((o) => local - o);
  let lo = Math.min(...candidates);
  let hi = Math.max(...candidates);
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (wallClock(mid, timeZone) >= local) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Why the expression is not five cron fields croner reads (or never fires); undefined when it is. */
export function cronProblem(expression: string): string | undefined {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) {
    return `cron ${JSON.stringify(expression)} has ${fields.length} field${fields.length === 1 ? '' : 's'}; write five: minute hour day-of-month month day-of-week (e.g. "0 2 * * 2")`;
  }
  try {
    const c = new Cron(expression, { paused: true });
    if (c.nextRun(new Date(0)) === null) return `cron ${JSON.stringify(expression)} never fires`;
  } catch (err) {
    return `cron ${JSON.stringify(expression)} is not valid: ${err instanceof Error ? err.message.replace(/^CronPattern: /, '') : String(err)}`;
  }
  return undefined;
}

const crons = new Map<string, Cron>();

function cronOf(expression: string, timeZone: string): Cron {
  const key = `${timeZone}\n${expression}`;
  let c = crons.get(key);
  if (!c) {
    c = new Cron(expression, { paused: true, timezone: timeZone });
    crons.set(key, c);
  }
  return c;
}

/**
 * The occurrences of a window that are open at some instant of [fromMs, toMs): start < toMs and
 * end > fromMs, in start order, at most `limit` of them (the rest are not computed).
 */
export function occurrences(timing: WindowTiming, fromMs: number, toMs: number, limit = MAX_OCCURRENCES): Occurrence[] {
  if (timing.kind === 'once') {
    const start = parseLocal(timing.start);
    const end = parseLocal(timing.end);
    if (start === undefined || end === undefined) return [];
    const o = { startMs: localToInstant(start, timing.time_zone), endMs: localToInstant(end, timing.time_zone) };
    return o.startMs < toMs && o.endMs > fromMs && o.endMs > o.startMs ? [o] : [];
  }
  const cron = cronOf(timing.cron, timing.time_zone);
  const length = timing.duration_seconds * 1000;
  const out: Occurrence[] = [];
  // Croner's nextRun is strictly after its argument: an occurrence that started exactly
  // `duration` before fromMs ends at fromMs, and is not open then.
  let cursor: Date | null = new Date(fromMs - length);
  while (out.length < limit) {
    cursor = cron.nextRun(cursor);
    if (cursor === null || cursor.getTime() >= toMs) break;
    out.push({ startMs: cursor.getTime(), endMs: cursor.getTime() + length });
  }
  return out;
}

/** The occurrence open at `nowMs` that ends last (a window's occurrences do not overlap once validated). */
export function openAt(timing: WindowTiming, nowMs: number): Occurrence | undefined {
  const open = occurrences(timing, nowMs, nowMs + 1).filter((o) => o.startMs <= nowMs);
  return open.reduce<Occurrence | undefined>((best, o) => (best === undefined || o.endMs > best.endMs ? o : best), undefined);
}

const DAY_NUMBERS: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

/** The cron expression of the weekly form: `{days: [tue, thu], at: "02:30"}` is `30 2 * * 2,4`. */
export function weeklyCron(days: readonly string[], at: string): string {
  const [h, m] = at.split(':').map(Number) as [number, number];
  const numbers = [...new Set(days.map((d) => DAY_NUMBERS[d]!))].sort((a, b) => a - b);
  return `${m} ${h} * * ${numbers.join(',')}`;
}
