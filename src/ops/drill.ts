/**
 * The outage drill: on the emulator, fail one monitor's tests for a while, let the simulated
 * service do what the real one would (test every `timer` minutes, evaluate alerts every minute,
 * repeat, recover), and read back which messages would have gone to which destinations, when.
 *
 * The emulator clock only moves forward, so a drill permanently advances it; the report says by
 * how much.
 */
import type { MonitoringApi, PausedAlert } from '../api/types.js';
import type { Alert, Destination, Monitor } from '../model/live.js';
import { readConsistently } from '../plan/consistency.js';
import type { EmulatorControlApi, OutboxMessage } from './emulator-control.js';
import { resolveMonitor } from './resolve.js';

export interface DrillOptions {
  label: string;
  /** Minutes of forced failures. */
  minutes: number;
  /** Bounds of the recovery phase, minutes; default from the monitor's test interval. */
  recovery?: RecoveryBounds;
  /** Called once the monitor is known, before the clock moves. */
  onStart?: (plan: { monitor: string; outageMinutes: number; recovery: RecoveryBounds }) => void;
}

export interface RecoveryBounds {
  /** Always advanced after the outage: time for a successful test to have run and been seen. */
  min: number;
  /** Given up after this many, recovery messages still missing. */
  max: number;
}

export interface DrillRecipient {
  destination: string;
  /** Null when the destination id is not in the account's list. */
  label: string | null;
  type: string | null;
  address: string | null;
  subscribed: boolean | null;
}

export interface DrillDelivery extends DrillRecipient {
  delivered: boolean;
}

export interface DrillEvent {
  /** Whole minutes after the start of the outage, rounded up. */
  minute: number;
  time: number;
  kind: 'down' | 'up';
  alert: string;
  subject: string;
  /** A down message after an earlier one of the same alert in this drill. */
  repeat: boolean;
  deliveries: DrillDelivery[];
}

export interface DrillAlert {
  id: string;
  subject_init: string;
  subject_term: string;
  timeout: number | null;
  repeat: boolean;
  down_only: boolean;
  recipients: DrillRecipient[];
  /** Seconds of pause left when the drill started; null when not paused. */
  paused_seconds: number | null;
}

export interface DrillReport {
  monitor: { id: string; label: string; type: string; timer: number | null };
  /** Emulator time at the start and end, unix seconds. */
  start: number;
  end: number;
  outage_minutes: number;
  /** Minutes advanced after the outage ended. */
  recovery_minutes: number;
  /** False when some alert that fired had sent no recovery message when the drill gave up. */
  recovery_complete: boolean;
  alerts: DrillAlert[];
  events: DrillEvent[];
  /** Destinations of the monitor's alerts that are not subscribed, with how many messages they missed. */
  unsubscribed: (DrillRecipient & { missed: number })[];
}

const DEFAULT_TIMER_MINUTES = 5;
/** A test's reply may take minutes (the emulator draws up to 5); alerts are checked each minute. */
const REPLY_AND_CHECK_MINUTES = 6;
/** Past the slowest expected recovery, how long to keep looking for stragglers. */
const RECOVERY_SLACK_MINUTES = 10;

/**
 * After the outage the next test runs within one `timer`; its reply and the next minute check
 * follow. Until then a late DOWN can still be sent, so that much is always advanced.
 */
export function defaultRecovery(monitor: Pick<Monitor, 'timer'>): RecoveryBounds {
  const timer = monitor.timer ?? DEFAULT_TIMER_MINUTES;
  const min = timer + 2;
  return { min, max: Math.max(min, timer + REPLY_AND_CHECK_MINUTES + RECOVERY_SLACK_MINUTES) };
}

/** Every alert that sent a down message and sends recoveries has sent an up message since. */
export function recovered(messages: readonly OutboxMessage[], alerts: readonly Pick<Alert, 'id' | 'down_only'>[]): boolean {
  const downOnly = new Set(alerts.filter((a) => a.down_only).map((a) => a.id));
  const lastDown = new Map<string, number>();
  const lastUp = new Map<string, number>();
  for (const m of messages) {
    const map = m.kind === 'down' ? lastDown : lastUp;
    map.set(m.alert, Math.max(map.get(m.alert) ?? -Infinity, m.time));
  }
  for (const [alert, down] of lastDown) {
    if (downOnly.has(alert)) continue;
    if ((lastUp.get(alert) ?? -Infinity) < down) return false;
  }
  return true;
}

export async function runDrill(api: MonitoringApi, control: EmulatorControlApi, opts: DrillOptions): Promise<DrillReport> {
  // An empty or stale alert list would make the drill report that nobody is told. Destinations are
  // not cross-checked: an alert naming one the account does not list is what the report points out.
  const {
    value: [monitors, alerts, destinations, pauses],
  } = await readConsistently(
    () => Promise.all([api.listMonitors(), api.listAlerts(), api.listDestinations(), api.listPausedAlerts()]),
    ([monitors, alerts]) => ({ monitors, alerts }),
    'the emulator was not touched',
  );
  const monitor = resolveMonitor(opts.label, monitors);
  const mine = alerts.filter((a) => a.monitor === monitor.id);
  const bounds = opts.recovery ?? defaultRecovery(monitor);
  opts.onStart?.({ monitor: monitor.label, outageMinutes: opts.minutes, recovery: bounds });

  const start = await control.clock();
  let end = start;
  await control.outage(monitor.id, opts.minutes * 60);
  let outageRan = false;
  try {
    for (let i = 1; i <= opts.minutes; i++) end = await control.advance(60);
    outageRan = true;
  } finally {
    // End the outage even when advancing failed, so the emulator is not left failing the monitor;
    // on that path a failure to end it must not hide the failure that got us here.
    const ending = control.outage(monitor.id, 0);
    await (outageRan ? ending : ending.catch(() => undefined));
  }

  const read = async (): Promise<OutboxMessage[]> =>
    (await control.outbox(start)).filter((m) => m.monitor === monitor.id && m.time >= start);
  let recoveryMinutes = 0;
  for (; recoveryMinutes < bounds.min; recoveryMinutes++) end = await control.advance(60);
  let messages = await read();
  while (!recovered(messages, mine) && recoveryMinutes < bounds.max) {
    end = await control.advance(60);
    recoveryMinutes++;
    messages = await read();
  }

  return buildDrillReport({
    monitor,
    alerts,
    destinations,
    pauses,
    messages,
    start,
    end,
    outageMinutes: opts.minutes,
    recoveryMinutes,
    recoveryComplete: recovered(messages, mine),
  });
}

export function buildDrillReport(input: {
  monitor: Monitor;
  alerts: readonly Alert[];
  destinations: readonly Destination[];
  pauses: readonly PausedAlert[];
  messages: readonly OutboxMessage[];
  start: number;
  end: number;
  outageMinutes: number;
  recoveryMinutes: number;
  recoveryComplete: boolean;
}): DrillReport {
  const { monitor, start } = input;
  const byId = new Map(input.destinations.map((d) => [d.id, d]));
  const recipient = (id: string): DrillRecipient => {
    const d = byId.get(id);
    return d
      ? { destination: id, label: d.label, type: d.type, address: d.destination, subscribed: d.subscribed }
      : { destination: id, label: null, type: null, address: null, subscribed: null };
  };
  const paused = new Map(input.pauses.map((p) => [p.id, p.seconds]));
  const alerts: DrillAlert[] = input.alerts
    .filter((a) => a.monitor === monitor.id)
    .map((a) => ({
      id: a.id,
      subject_init: a.subject_init,
      subject_term: a.subject_term,
      timeout: a.timeout,
      repeat: a.repeat,
      down_only: a.down_only,
      recipients: a.alert_destinations.map(recipient),
      paused_seconds: paused.get(a.id) ?? null,
    }))
    .sort((a, b) => (a.timeout ?? 0) - (b.timeout ?? 0) || a.subject_init.localeCompare(b.subject_init));

  // One event per (time, alert, kind): the outbox holds one message per destination.
  const sorted = [...input.messages].sort((a, b) => a.time - b.time || a.alert.localeCompare(b.alert) || a.kind.localeCompare(b.kind));
  const events: DrillEvent[] = [];
  const index = new Map<string, DrillEvent>();
  const downsSeen = new Set<string>();
  const missed = new Map<string, number>();
  for (const m of sorted) {
    const key = `${m.time}|${m.alert}|${m.kind}`;
    let ev = index.get(key);
    if (!ev) {
      const repeat = m.kind === 'down' && downsSeen.has(m.alert);
      if (m.kind === 'down') downsSeen.add(m.alert);
      ev = {
        minute: Math.max(0, Math.ceil((m.time - start) / 60)),
        time: m.time,
        kind: m.kind,
        alert: m.alert,
        subject: m.subject,
        repeat,
        deliveries: [],
      };
      index.set(key, ev);
      events.push(ev);
    }
    ev.deliveries.push({ ...recipient(m.destination), delivered: m.delivered });
    if (!m.delivered) missed.set(m.destination, (missed.get(m.destination) ?? 0) + 1);
  }

  const unsubscribedIds = new Set<string>();
  for (const a of alerts) for (const r of a.recipients) if (r.subscribed === false) unsubscribedIds.add(r.destination);
  for (const id of missed.keys()) unsubscribedIds.add(id);
  const unsubscribed = [...unsubscribedIds]
    .map((id) => ({ ...recipient(id), missed: missed.get(id) ?? 0 }))
    .sort((a, b) => (a.label ?? a.destination).localeCompare(b.label ?? b.destination));

  return {
    monitor: { id: monitor.id, label: monitor.label, type: monitor.type, timer: monitor.timer },
    start,
    end: input.end,
    outage_minutes: input.outageMinutes,
    recovery_minutes: input.recoveryMinutes,
    recovery_complete: input.recoveryComplete,
    alerts,
    events,
    unsubscribed,
  };
}
