/**
 * Pausing and resuming by label: which alerts a command line names, the calls that pause or
 * resume them (API 4.6), and the list of current pauses with labels and subjects.
 */
import type { MonitoringApi, PausedAlert } from '../api/types.js';
import { UsageError } from '../util/errors.js';
import type { Alert, Monitor } from '../model/live.js';
import { readConsistently } from '../plan/consistency.js';
import { checkAlertRef, resolveAlertRef, resolveMonitor, type FoundAlert } from './resolve.js';

export interface TargetOptions {
  monitor?: string[];
  alert?: string[];
  all?: boolean;
}

export type Targets = { kind: 'all' } | { kind: 'some'; monitors: Monitor[]; alerts: FoundAlert[] };

export function targetsGiven(opts: TargetOptions, verb: 'pause' | 'resume'): 'all' | 'some' {
  const some = (opts.monitor?.length ?? 0) + (opts.alert?.length ?? 0) > 0;
  if (opts.all && some) throw new UsageError(`--all ${verb}s every alert: give it alone, without --monitor or --alert`);
  if (!opts.all && !some) throw new UsageError(`say what to ${verb}: --monitor LABEL (repeatable), --alert MONITOR:SUBJECT or --all`);
  for (const ref of opts.alert ?? []) checkAlertRef(ref);
  return opts.all ? 'all' : 'some';
}

/** Resolves every label before anything is changed, so a typo in the third label pauses nothing. */
export async function resolveTargets(api: MonitoringApi, opts: TargetOptions, verb: 'pause' | 'resume'): Promise<Targets> {
  if (targetsGiven(opts, verb) === 'all') return { kind: 'all' };
  const needAlerts = (opts.alert?.length ?? 0) > 0;
  // An alert list that contradicts the monitor list (a stale page) would name alerts that are gone, or miss ones that exist.
  const { value: [monitors, alerts] } = await readConsistently(
    () => Promise.all([api.listMonitors(), needAlerts ? api.listAlerts() : undefined]),
    ([monitors, alerts]) => ({ monitors, alerts }),
  );
  const seenMonitors = new Set<string>();
  const pickedMonitors: Monitor[] = [];
  for (const label of opts.monitor ?? []) {
    const m = resolveMonitor(label, monitors);
    if (!seenMonitors.has(m.id)) pickedMonitors.push(m);
    seenMonitors.add(m.id);
  }
  const seenAlerts = new Set<string>();
  const pickedAlerts: FoundAlert[] = [];
  for (const ref of opts.alert ?? []) {
    const r = resolveAlertRef(ref, monitors, alerts ?? []);
    // Already covered by a --monitor of the same command.
    if (seenAlerts.has(r.alert.id) || seenMonitors.has(r.monitor.id)) continue;
    seenAlerts.add(r.alert.id);
    pickedAlerts.push(r);
  }
  return { kind: 'some', monitors: pickedMonitors, alerts: pickedAlerts };
}

/** `notPaused`: a resume found nothing of the target paused, and sent nothing. */
export type Outcome =
  | { target: 'all'; alertIds: string[]; notPaused?: true }
  | { target: 'monitor'; monitor: Monitor; alertIds: string[]; notPaused?: true }
  | { target: 'alert'; monitor: Monitor; alert: Alert; alertIds: string[]; notPaused?: true };

/**
 * Makes the calls one after another and reports each outcome as it lands (`onDone`), so a failure
 * part way leaves a record of what was already paused.
 */
export async function pauseTargets(
  api: MonitoringApi,
  targets: Targets,
  seconds: number,
  onDone: (o: Outcome) => void,
): Promise<Outcome[]> {
  const done: Outcome[] = [];
  const record = (o: Outcome): void => {
    done.push(o);
    onDone(o);
  };
  if (targets.kind === 'all') {
    record({ target: 'all', alertIds: (await api.pauseAllAlerts(seconds)).alert_list });
    return done;
  }
  for (const m of targets.monitors) record({ target: 'monitor', monitor: m, alertIds: (await api.pauseMonitor(m.id, seconds)).alert_list });
  for (const { monitor, alert } of targets.alerts) {
    const r = await api.pauseAlert(alert.id, seconds);
    record({ target: 'alert', monitor, alert, alertIds: [r.alert] });
  }
  return done;
}

/**
 * Resumes what is paused of the targets; a target with nothing paused (by the list of pauses read
 * first) is reported as such and gets no call: "resumed" would claim a change that did not happen.
 */
export async function resumeTargets(api: MonitoringApi, targets: Targets, onDone: (o: Outcome) => void): Promise<Outcome[]> {
  const done: Outcome[] = [];
  const record = (o: Outcome): void => {
    done.push(o);
    onDone(o);
  };
  const pauses = (await api.listPausedAlerts()).filter((p) => p.seconds > 0);
  if (targets.kind === 'all') {
    if (pauses.length === 0) record({ target: 'all', alertIds: [], notPaused: true });
    else record({ target: 'all', alertIds: (await api.resumeAllAlerts()).alert_list });
    return done;
  }
  for (const m of targets.monitors) {
    if (!pauses.some((p) => p.monitor === m.id)) record({ target: 'monitor', monitor: m, alertIds: [], notPaused: true });
    else record({ target: 'monitor', monitor: m, alertIds: (await api.resumeMonitor(m.id)).alert_list });
  }
  for (const { monitor, alert } of targets.alerts) {
    if (!pauses.some((p) => p.id === alert.id)) {
      record({ target: 'alert', monitor, alert, alertIds: [], notPaused: true });
      continue;
    }
    // The API has no "resume one alert" endpoint, but the real service, given an alert id on the
    // monitor path (DELETE /v1/Pause/Alert/{id}/), unpauses that alert and reports success
    // (service-notes.md); the emulator does the same.
    const r = await api.resumeMonitor(alert.id);
    record({ target: 'alert', monitor, alert, alertIds: r.alert_list });
  }
  return done;
}

export interface PausedRow {
  alert: string;
  /** Trigger subject; null when the alert is not in the alert list (deleted meanwhile). */
  subject: string | null;
  monitor: string;
  monitor_label: string | null;
  seconds: number;
  /** Local wall clock plus `seconds`, milliseconds. */
  resumes_at_ms: number;
  /**
   * The maintenance window the pause comes from (`paused PATH...`): one open now that ends when the
   * pause does; null for any other pause. Absent when no configuration was given.
   */
  window?: string | null;
}

/**
 * The API gives the seconds left, not an end time, so the end is placed on the local clock (the
 * emulator's clock may be ahead of it; the seconds left are what it says).
 */
export function pausedRows(pauses: readonly PausedAlert[], monitors: readonly Monitor[], alerts: readonly Alert[], nowMs: number): PausedRow[] {
  const labels = new Map(monitors.map((m) => [m.id, m.label]));
  const subjects = new Map(alerts.map((a) => [a.id, a.subject_init]));
  return pauses
    .filter((p) => p.seconds > 0)
    .map((p) => ({
      alert: p.id,
      subject: subjects.get(p.id) ?? null,
      monitor: p.monitor,
      monitor_label: labels.get(p.monitor) ?? null,
      seconds: p.seconds,
      resumes_at_ms: nowMs + p.seconds * 1000,
    }))
    .sort(
      (a, b) =>
        a.seconds - b.seconds ||
        (a.monitor_label ?? a.monitor).localeCompare(b.monitor_label ?? b.monitor) ||
        (a.subject ?? a.alert).localeCompare(b.subject ?? b.alert),
    );
}

export async function listPaused(api: MonitoringApi, nowMs: () => number): Promise<PausedRow[]> {
  const {
    value: [pauses, monitors, alerts],
  } = await readConsistently(
    () => Promise.all([api.listPausedAlerts(), api.listMonitors(), api.listAlerts()]),
    ([, monitors, alerts]) => ({ monitors, alerts }),
    'nothing was listed',
  );
  return pausedRows(pauses, monitors, alerts, nowMs());
}
