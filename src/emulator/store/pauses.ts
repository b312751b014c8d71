/**
 * Pauses (API 4.6, the state machine of section 3). A pause is an end time on the emulator clock.
 * Reads ignore an expired entry; only sync() drops it, after checking every minute up to now:
 * dropped any earlier, the minutes inside the pause would be checked as if it had never been.
 */
import { notFound } from '../errors.js';
import { sync } from './simulation.js';
import type { StoreState } from './state.js';
import { asString, type MonitorRec, type PausedAlert } from './types.js';

/** The end of the alert's pause (ms), or undefined when it is not paused at `now` (ms). */
export function pausedUntil(st: StoreState, alertId: string, now: number): number | undefined {
  const until = st.pauses.get(alertId);
  return until !== undefined && until > now ? until : undefined;
}

/** A monitor's alerts count as paused when it has alerts and every one of them is paused. */
export function monitorPaused(st: StoreState, m: MonitorRec, now: number): boolean {
  if (m.alerts.size === 0) return false;
  for (const a of m.alerts) if (pausedUntil(st, a, now) === undefined) return false;
  return true;
}

export function listPauses(st: StoreState): PausedAlert[] {
  sync(st);
  const now = st.clock.nowMs();
  const out: PausedAlert[] = [];
  for (const [id, until] of st.pauses) {
    if (until <= now) continue;
    const a = st.alerts.get(id);
    if (!a) continue;
    out.push({ id, monitor: asString(a.monitor), seconds: Math.ceil((until - now) / 1000) });
  }
  return out;
}

function setPause(st: StoreState, ids: Iterable<string>, seconds: number): string[] {
  sync(st);
  const until = st.clock.nowMs() + seconds * 1000;
  const done: string[] = [];
  for (const id of ids) {
    st.pauses.set(id, until);
    done.push(id);
  }
  st.changed();
  return done;
}

export function pauseAll(st: StoreState, seconds: number): string[] {
  return setPause(st, st.alerts.keys(), seconds);
}

export function pauseAlert(st: StoreState, alertId: string, seconds: number): { alert: string; monitor: string } {
  const a = st.alertRec(alertId);
  setPause(st, [alertId], seconds);
  return { alert: alertId, monitor: asString(a.monitor) };
}

export function pauseMonitor(st: StoreState, monitorId: string, seconds: number): string[] {
  return setPause(st, st.monitorRec(monitorId).alerts, seconds);
}

export function resumeAll(st: StoreState): string[] {
  sync(st);
  st.pauses.clear();
  st.changed();
  return [...st.alerts.keys()];
}

/**
 * Given a monitor id, ends the pauses of its alerts. Given an alert id, ends that alert's pause
 * and reports success, as the real service does (service-notes).
 */
export function resumeMonitor(st: StoreState, id: string): string[] {
  const m = st.monitors.get(id);
  let ids: string[];
  if (m) ids = [...m.alerts];
  else if (st.alerts.has(id)) ids = [id];
  else throw notFound(`monitor ${id} not found (nor an alert with that id)`);
  sync(st);
  for (const a of ids) st.pauses.delete(a);
  st.changed();
  return ids;
}
