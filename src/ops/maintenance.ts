/**
 * Maintenance windows on the account (`monsync maintain`): which windows are open at the service's
 * now, which alerts they cover, and which of those need a pause until the window's end.
 *
 * The contract:
 * - a covered alert is paused for exactly the seconds left in the window (the API pauses for N
 *   seconds from now), so nothing needs resuming when the window ends;
 * - an alert already paused until the window's end (within PAUSE_TOLERANCE_SECONDS) is done: a
 *   second run sends nothing;
 * - an alert paused until later than that (an operator's `monsync pause`) is left alone; one paused
 *   until earlier is paused until the window's end (lengthened, never shortened); nothing is resumed;
 * - a monitor is paused with one call when all its alerts need it, else alert by alert: the monitor
 *   call would cut an operator's longer pause of one of its alerts short;
 * - monitors matching settings.ignore are never paused (monsync never changes them).
 * `decideMaintenance` is pure; `applyMaintenance` makes the calls.
 */
import type { MonitoringApi, PausedAlert } from '../api/types.js';
import { openAt, occurrences, type Occurrence } from '../config/maintenance-time.js';
import { stateTiming } from '../config/maintenance.js';
import type { DesiredMaintenance } from '../model/desired.js';
import type { Alert, LiveState, Monitor } from '../model/live.js';
import { globMatch } from '../util/glob.js';

/**
 * A pause ending this close to a window's end is the window's: the service's clock is read from
 * its `Date` header (whole seconds) and the pause list gives whole seconds left, so a pause made
 * by an earlier run reads a second or two off.
 */
export const PAUSE_TOLERANCE_SECONDS = 10;

export type AlertStep =
  | { alert: Alert; action: 'pause'; /** End of the shorter pause lengthened, or null when it was not paused. */ paused_until_ms: number | null }
  | { alert: Alert; action: 'done' }
  | { alert: Alert; action: 'longer'; paused_until_ms: number };

export interface MonitorStep {
  monitor: Monitor;
  alerts: AlertStep[];
  /** `monitor`: one call for all its alerts; `alerts`: one per alert to pause; `none`: nothing to send. */
  call: 'monitor' | 'alerts' | 'none';
}

export interface OpenWindow {
  window: DesiredMaintenance;
  occurrence: Occurrence;
  monitors: MonitorStep[];
  /** Monitor patterns and group names of the window that match nothing in the account. */
  unmatched: string[];
}

export interface MaintenanceDecision {
  now_ms: number;
  open: OpenWindow[];
}

/**
 * The windows' occurrences open at `nowMs`, or opening within PAUSE_TOLERANCE_SECONDS of it: a job
 * scheduled for a window's start that runs a few seconds early (its clock, or the service's, a
 * little off) still pauses it, for a few seconds more, rather than leaving the window's first
 * minutes to the next run.
 */
export function openWindows(windows: readonly DesiredMaintenance[], nowMs: number): { window: DesiredMaintenance; occurrence: Occurrence }[] {
  const out: { window: DesiredMaintenance; occurrence: Occurrence }[] = [];
  for (const window of windows) {
    const occurrence = openAt(stateTiming(window), nowMs + PAUSE_TOLERANCE_SECONDS * 1000);
    if (occurrence) out.push({ window, occurrence });
  }
  return out;
}

export interface Upcoming {
  window: DesiredMaintenance;
  occurrence: Occurrence;
}

/** Occurrences open at some time in [fromMs, toMs), in start order; at most `perWindow` of each window. */
export function upcomingWindows(windows: readonly DesiredMaintenance[], fromMs: number, toMs: number, perWindow = 50): Upcoming[] {
  return windows
    .flatMap((window) => occurrences(stateTiming(window), fromMs, toMs, perWindow).map((occurrence) => ({ window, occurrence })))
    .sort((a, b) => a.occurrence.startMs - b.occurrence.startMs || a.window.name.localeCompare(b.window.name));
}

/**
 * The account's monitors a window covers, and its patterns and groups that match none. Ignored
 * monitors and groups (settings.ignore) are left out first, as the plan's fingerprint leaves them
 * out: monsync never pauses them (a pause is a change), and a pattern that matches only ignored
 * monitors is unmatched whether or not they exist, so an ignored monitor created between
 * `plan --out` and `apply --plan` changes nothing the saved plan says.
 */
export function coveredMonitors(
  window: DesiredMaintenance,
  live: Pick<LiveState, 'monitors' | 'groups'>,
  ignore: readonly string[] = [],
): { monitors: Monitor[]; unmatched: string[] } {
  const ignored = (name: string) => ignore.some((g) => globMatch(g, name));
  const monitors = live.monitors.filter((m) => !ignored(m.label));
  const picked = new Map<string, Monitor>();
  const unmatched: string[] = [];
  for (const pattern of window.monitors) {
    const hits = monitors.filter((m) => globMatch(pattern, m.label));
    if (hits.length === 0) unmatched.push(pattern);
    for (const m of hits) picked.set(m.id, m);
  }
  const byId = new Map(monitors.map((m) => [m.id, m]));
  for (const name of window.groups) {
    const groups = live.groups.filter((g) => g.name === name && !ignored(g.name));
    if (groups.length === 0) unmatched.push(`group ${name}`);
    for (const g of groups) {
      for (const member of g.members) {
        const m = byId.get(member.id);
        if (m) picked.set(m.id, m);
      }
    }
  }
  return { monitors: [...picked.values()].sort((a, b) => a.label.localeCompare(b.label) || a.id.localeCompare(b.id)), unmatched };
}

/** What to do now, from the account, its pauses and the service's now. Pure. */
export function decideMaintenance(
  windows: readonly DesiredMaintenance[],
  live: Pick<LiveState, 'monitors' | 'alerts' | 'groups'>,
  pauses: readonly PausedAlert[],
  nowMs: number,
  /** settings.ignore: monitors matching these are never paused. */
  ignore: readonly string[] = [],
): MaintenanceDecision {
  const pausedUntil = new Map(pauses.filter((p) => p.seconds > 0).map((p) => [p.id, nowMs + p.seconds * 1000]));
  const alertsOf = new Map<string, Alert[]>();
  for (const a of live.alerts) {
    const list = alertsOf.get(a.monitor);
    if (list) list.push(a);
    else alertsOf.set(a.monitor, [a]);
  }
  const open = openWindows(windows, nowMs).map(({ window, occurrence }) => ({ window, occurrence, ...coveredMonitors(window, live, ignore) }));
  // A monitor two open windows cover (their coverage differs in the account from what validate
  // saw) is the concern of the one ending last.
  const owner = new Map<string, number>();
  open.forEach((w, i) => {
    for (const m of w.monitors) {
      const prev = owner.get(m.id);
      if (prev === undefined || open[prev]!.occurrence.endMs < w.occurrence.endMs) owner.set(m.id, i);
    }
  });
  const tolerance = PAUSE_TOLERANCE_SECONDS * 1000;
  return {
    now_ms: nowMs,
    open: open.map((w, i) => ({
      window: w.window,
      occurrence: w.occurrence,
      unmatched: w.unmatched,
      monitors: w.monitors
        .filter((m) => owner.get(m.id) === i)
        .map((monitor): MonitorStep => {
          const alerts = (alertsOf.get(monitor.id) ?? []).map((alert): AlertStep => {
            const until = pausedUntil.get(alert.id);
            if (until === undefined) return { alert, action: 'pause', paused_until_ms: null };
            if (until > w.occurrence.endMs + tolerance) return { alert, action: 'longer', paused_until_ms: until };
            if (until >= w.occurrence.endMs - tolerance) return { alert, action: 'done' };
            return { alert, action: 'pause', paused_until_ms: until };
          });
          const toPause = alerts.filter((a) => a.action === 'pause').length;
          const call = toPause === 0 ? 'none' : toPause === alerts.length ? 'monitor' : 'alerts';
          return { monitor, alerts, call };
        }),
    })),
  };
}

export interface PauseSent {
  window: string;
  monitor: Monitor;
  /** The alert paused alone, or undefined when the monitor call paused all its alerts. */
  alert?: Alert;
  alertIds: string[];
  seconds: number;
}

/** Seconds from `nowMs` to the end (rounded: the service's clock is read to the second). */
export function secondsLeft(endMs: number, nowMs: number): number {
  return Math.round((endMs - nowMs) / 1000);
}

/**
 * Sends the pauses the decision asks for, each for the seconds left at the moment it is sent (on
 * the service's clock, `now`), and reports each as it lands. A window that has ended meanwhile
 * sends nothing more.
 */
export async function applyMaintenance(api: MonitoringApi, decision: MaintenanceDecision, now: () => number, onSent: (p: PauseSent) => void): Promise<PauseSent[]> {
  const sent: PauseSent[] = [];
  const record = (p: PauseSent): void => {
    sent.push(p);
    onSent(p);
  };
  for (const w of decision.open) {
    for (const step of w.monitors) {
      if (step.call === 'none') continue;
      const seconds = secondsLeft(w.occurrence.endMs, now());
      if (seconds < 1) return sent;
      if (step.call === 'monitor') {
        const r = await api.pauseMonitor(step.monitor.id, seconds);
        record({ window: w.window.name, monitor: step.monitor, alertIds: r.alert_list, seconds });
        continue;
      }
      for (const a of step.alerts) {
        if (a.action !== 'pause') continue;
        const s = secondsLeft(w.occurrence.endMs, now());
        if (s < 1) return sent;
        const r = await api.pauseAlert(a.alert.id, s);
        record({ window: w.window.name, monitor: step.monitor, alert: a.alert, alertIds: [r.alert], seconds: s });
      }
    }
  }
  return sent;
}

/** How far ahead `plan` shows maintenance windows, and how many occurrences of one window at most. */
export const PLAN_HORIZON_DAYS = 7;
export const PLAN_OCCURRENCES_PER_WINDOW = 20;

/** An occurrence as the plan shows it: times ISO 8601 UTC, the account's monitors it covers by label. */
export interface PlannedWindow {
  window: string;
  start: string;
  end: string;
  monitors: string[];
  /** Monitor patterns and `group NAME`s of the window that match nothing in the account. */
  unmatched: string[];
}

const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The occurrences open at some time in the PLAN_HORIZON_DAYS from `nowMs` (the service's now), in start order. */
export function plannedWindows(
  windows: readonly DesiredMaintenance[],
  live: Pick<LiveState, 'monitors' | 'groups'>,
  nowMs: number,
  ignore: readonly string[] = [],
): PlannedWindow[] {
  const covered = new Map(windows.map((w) => [w, coveredMonitors(w, live, ignore)]));
  return upcomingWindows(windows, nowMs, nowMs + PLAN_HORIZON_DAYS * 86_400_000, PLAN_OCCURRENCES_PER_WINDOW).map(({ window, occurrence }) => ({
    window: window.name,
    start: isoSeconds(occurrence.startMs),
    end: isoSeconds(occurrence.endMs),
    monitors: covered.get(window)!.monitors.map((m) => m.label),
    unmatched: covered.get(window)!.unmatched,
  }));
}

/**
 * The window a pause comes from: one open at `nowMs` whose occurrence ends when the pause does
 * (within the tolerance), or undefined (an operator's pause, or a window no longer declared).
 */
export function windowOfPause(windows: readonly DesiredMaintenance[], pauseEndMs: number, nowMs: number): { name: string; endMs: number } | undefined {
  const tolerance = PAUSE_TOLERANCE_SECONDS * 1000;
  for (const window of windows) {
    const o = openAt(stateTiming(window), nowMs);
    if (o && Math.abs(o.endMs - pauseEndMs) <= tolerance) return { name: window.name, endMs: o.endMs };
  }
  return undefined;
}

/** A window's pauses as `status PATH...` shows them. */
export interface WindowPauses {
  window: string;
  /** Milliseconds, on the service's clock. */
  until_ms: number;
  /** Labels (or ids, for monitors not in the list) of the monitors with alerts it paused. */
  monitors: string[];
  alerts: number;
}

/** Pauses grouped by the window they come from (`windowOfPause`); others left out. */
export function pausesByWindow(rows: readonly { window?: { name: string; endMs: number } | undefined; monitor: string; monitor_label: string | null }[]): WindowPauses[] {
  const by = new Map<string, WindowPauses>();
  for (const r of rows) {
    if (r.window === undefined) continue;
    let w = by.get(r.window.name);
    // The window's end, not the pause's as read (whole seconds through the Date header).
    if (!w) by.set(r.window.name, (w = { window: r.window.name, until_ms: r.window.endMs, monitors: [], alerts: 0 }));
    const label = r.monitor_label ?? r.monitor;
    if (!w.monitors.includes(label)) w.monitors.push(label);
    w.alerts++;
  }
  return [...by.values()].map((w) => ({ ...w, monitors: w.monitors.sort() })).sort((a, b) => a.window.localeCompare(b.window));
}
