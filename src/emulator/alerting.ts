/**
 * Up/down alerts over time (service-notes.md, API 3 and 6.1), one minute check at a time.
 *
 * Every whole minute T the time since the monitor's last successful reply is compared with the
 * alert's `timeout` (minutes). Strictly past it, a reset alert TRIGGERS (one down message to each
 * destination). With `repeat` the down message is sent again while the condition holds, at
 * doubling gaps: 10, 20, 40, 80... minutes after the previous one. When a reply arrives again
 * the alert RESETS: one up message, none with `down_only` (the reset is still recorded).
 *
 * Pauses: a paused alert is not evaluated at all: it neither triggers, repeats, resets nor sends.
 * It keeps the state it had. At the first minute check after the pause ends it is evaluated
 * again like any other: still down past the timeout -> it triggers then (down message), or, if it
 * was triggered before the pause, a repeat that fell due during the pause is sent then; recovered
 * meanwhile -> it resets then (up message).
 */
import { SuccessTracker, type SimConfig, type SimMonitor, type TestResult } from './simulation.js';

export interface AlertEvent {
  /** Unix seconds of the minute check. */
  time: number;
  /** `down` the trigger, `repeat` a repeated down message, `up` the reset. */
  kind: 'down' | 'repeat' | 'up';
}

export interface AlertState {
  /** Unix seconds the alert began to be checked (its creation); checks run at whole minutes after. */
  since: number;
  triggered: boolean;
  /** When the current trigger happened; null while reset. */
  triggered_at: number | null;
  /** With `repeat`: when the next down message is due. */
  next_repeat: number | null;
  /** Minutes between that repeat and the one after it. */
  next_gap: number;
  /** Events of the retention window, oldest first. */
  events: AlertEvent[];
}

export interface AlertRule {
  /** Minutes. */
  timeout: number;
  repeat: boolean;
}

export const FIRST_REPEAT_MINUTES = 10;

export function newAlertState(since: number): AlertState {
  return { since, triggered: false, triggered_at: null, next_repeat: null, next_gap: FIRST_REPEAT_MINUTES * 2, events: [] };
}

/**
 * One minute check of an alert that is not paused: updates the state and returns the event that
 * happened, if any. `lastSuccess` is the latest successful reply that had arrived by `at`.
 */
export function checkAlert(state: AlertState, rule: AlertRule, at: number, lastSuccess: number): AlertEvent | null {
  const down = at - lastSuccess > rule.timeout * 60;
  let event: AlertEvent | null = null;
  if (down && !state.triggered) {
    state.triggered = true;
    state.triggered_at = at;
    state.next_repeat = at + FIRST_REPEAT_MINUTES * 60;
    state.next_gap = FIRST_REPEAT_MINUTES * 2;
    event = { time: at, kind: 'down' };
  } else if (down && rule.repeat && state.next_repeat !== null && at >= state.next_repeat) {
    state.next_repeat = at + state.next_gap * 60;
    state.next_gap *= 2;
    event = { time: at, kind: 'repeat' };
  } else if (!down && state.triggered) {
    state.triggered = false;
    state.triggered_at = null;
    state.next_repeat = null;
    event = { time: at, kind: 'up' };
  }
  if (event) state.events.push(event);
  return event;
}

/** Drops events older than `from`. */
export function pruneEvents(state: AlertState, from: number): void {
  let i = 0;
  while (i < state.events.length && (state.events[i] as AlertEvent).time < from) i++;
  if (i) state.events.splice(0, i);
}

/** Alert `timeout` as stored (seeded alerts may carry a string or nothing): minutes. */
export function timeoutMinutes(v: unknown, fallback: number): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

export interface OutboxMessage {
  time: number;
  alert: string;
  monitor: string;
  destination: string;
  kind: 'down' | 'up';
  subject: string;
  body: string;
  delivered: boolean;
}

/** Bounded like everything else: the retention window, and at most this many messages. */
export const MAX_OUTBOX = 100_000;

/** What decides whether an alert matched a data point. */
export interface MatchRule {
  alert: string;
  /** Unix seconds the alert was created: it matches no earlier point. */
  since: number;
  /** Minutes. */
  timeout: number;
}

/**
 * `alert_matches` of data items (API 2.8; the service fills it for monitors other than SMTP): for
 * each result in time order, the alerts whose condition held at that failed test, i.e. whose
 * `timeout` had passed since the monitor's last successful reply that had arrived by its start.
 * The same condition as the minute checks, taken at the test instead of at a whole minute; pauses
 * do not change it (a paused alert still matches, it only sends nothing).
 */
export function alertMatches(cfg: SimConfig, m: SimMonitor, results: readonly TestResult[], rules: readonly MatchRule[]): string[][] {
  let tracker: SuccessTracker | undefined;
  return results.map((r) => {
    if (r.complete || rules.length === 0) return [];
    let lastSuccess: number;
    if (tracker) lastSuccess = tracker.advance(r.t);
    else {
      tracker = new SuccessTracker(cfg, m, r.t);
      lastSuccess = tracker.lastSuccess;
    }
    const out: string[] = [];
    for (const rule of rules) if (r.t > rule.since && r.t - lastSuccess > rule.timeout * 60) out.push(rule.alert);
    return out;
  });
}
