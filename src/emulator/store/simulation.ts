/**
 * The store's side of the simulated service (../simulation.ts for tests, ../alerting.ts for
 * alerts): the minute checks, what they send, the settings, outages and the outbox.
 *
 * `sync()` runs the minute checks crossed since the last call, in order, before anything reads or
 * changes state that depends on time (the HTTP adapter calls it before every request); so the
 * outcome is the same whether requests come every second or once a day, whichever comes first, and
 * whether the clock was advanced in one step or sixty. Pauses and outages are applied at the time
 * of the request that makes them, after every earlier minute has been checked.
 */
import { MAX_OUTBOX, checkAlert, newAlertState, pruneEvents, timeoutMinutes, type AlertEvent, type OutboxMessage } from '../alerting.js';
import { badRequest } from '../errors.js';
import { monitorKind } from '../monitor-types.js';
import {
  SuccessTracker,
  asSeenAt,
  newSchedule,
  retentionOf,
  failureTexts,
  pruneSchedule,
  slotsIn,
  testResult,
  timerMinutes,
  type Outage,
  type RoundTripFault,
  type SimConfig,
  type SimMonitor,
  type TestResult,
} from '../simulation.js';
import { isObject, show, type JsonObject } from '../validate.js';
import { isSmtp, type StoreState } from './state.js';
import { asString, idOf, type MonitorRec, type SimulationView } from './types.js';

/** Runs the alert checks of every whole minute up to now, then drops what they no longer need. */
export function sync(st: StoreState): void {
  const target = st.currentMinute();
  if (target === st.lastMinute) return;
  if (target < st.lastMinute) {
    // The clock was set back: minutes are checked again from there on.
    st.lastMinute = target;
    st.trackers.clear();
    return;
  }
  let from = st.lastMinute + 60;
  const retention = retentionOf(st.sim);
  if (target - from > retention) {
    // A jump past the retention window: only its last week (or the seeded history) is simulated.
    from = target - retention;
    st.trackers.clear();
  }
  let produced = false;
  if (st.alertStates.size > 0) {
    for (let at = from; at <= target; at += 60) produced = checkMinute(st, at) || produced;
  }
  st.lastMinute = target;
  prune(st, target);
  dropExpiredPauses(st);
  if (produced) st.changed();
}

/** Pauses that ended by now: every minute they covered has been checked (pauses.ts). */
function dropExpiredPauses(st: StoreState): void {
  const now = st.clock.nowMs();
  for (const [id, until] of st.pauses) if (until <= now) st.pauses.delete(id);
}

function prune(st: StoreState, now: number): void {
  const from = now - retentionOf(st.sim);
  let drop = 0;
  while (drop < st.outbox.length && (st.outbox[drop] as OutboxMessage).time < from) drop++;
  drop = Math.max(drop, st.outbox.length - MAX_OUTBOX);
  if (drop > 0) st.outbox.splice(0, drop);
  for (const [id, m] of st.monitors) {
    if (m.outages.length && (m.outages[0] as Outage).until < from) {
      m.outages = m.outages.filter((o) => o.until >= from);
      simChanged(st, id, m);
    }
    pruneSchedule(m.segments, from);
  }
  for (const s of st.alertStates.values()) if (s.events.length && (s.events[0] as AlertEvent).time < from) pruneEvents(s, from);
}

function checkMinute(st: StoreState, at: number): boolean {
  let produced = false;
  const done = new Map<string, number>();
  for (const [alertId, state] of st.alertStates) {
    if (at <= state.since) continue;
    const until = st.pauses.get(alertId);
    if (until !== undefined && until > at * 1000) continue;
    const a = st.alerts.get(alertId);
    const monitorId = a ? asString(a.monitor) : '';
    const m = st.monitors.get(monitorId);
    if (!a || !m) continue;
    let lastSuccess = done.get(monitorId);
    if (lastSuccess === undefined) {
      lastSuccess = trackerFor(st, monitorId, m, at).advance(at);
      done.set(monitorId, lastSuccess);
    }
    const rule = { timeout: timeoutMinutes(a.timeout, timerMinutes(m.raw.timer)), repeat: a.repeat === true };
    const event = checkAlert(state, rule, at, lastSuccess);
    if (!event) continue;
    produced = true;
    send(st, alertId, monitorId, a, event);
  }
  return produced;
}

/** Messages of one event: one per destination; unsubscribed ones are recorded, not delivered. */
function send(st: StoreState, alertId: string, monitorId: string, a: JsonObject, event: AlertEvent): void {
  if (event.kind === 'up' && a.down_only === true) return;
  const down = event.kind !== 'up';
  const dests = Array.isArray(a.alert_destinations) ? a.alert_destinations : [];
  for (const d of dests) {
    const destination = idOf(d);
    if (destination === undefined) continue;
    const rec = st.destinations.get(destination);
    st.outbox.push({
      time: event.time,
      alert: alertId,
      monitor: monitorId,
      destination,
      kind: down ? 'down' : 'up',
      subject: asString(down ? a.subject_init : a.subject_term),
      body: asString(down ? a.message_init : a.message_term),
      delivered: rec !== undefined && rec.subscribed !== false,
    });
  }
}

function trackerFor(st: StoreState, id: string, m: MonitorRec, at: number): SuccessTracker {
  let t = st.trackers.get(id);
  if (!t) {
    t = new SuccessTracker(st.sim, simOf(id, m), at);
    st.trackers.set(id, t);
  }
  return t;
}

/** What the monitor's results depend on, derived from its record once and kept until it changes. */
export function simOf(id: string, m: MonitorRec): SimMonitor {
  if (m.sim) return m.sim;
  const raw = m.raw;
  const smtp = isSmtp(m);
  const ttl = typeof raw.ttl === 'number' ? raw.ttl : typeof raw.ttl === 'string' ? Number(raw.ttl) || 0 : 0;
  const account = asString(raw.test_account);
  const at = account.lastIndexOf('@');
  m.sim = {
    id,
    smtp,
    errors: failureTexts(monitorKind(asString(raw.type))),
    ttl: Number.isFinite(ttl) && ttl > 0 ? ttl : 0,
    durationInMs: !smtp && raw.data_label === 'milliseconds',
    timeZone: typeof raw.time_zone === 'string' ? raw.time_zone : undefined,
    created: m.created,
    segments: m.segments,
    outages: m.outages,
    ...(m.roundTrip ? { roundTrip: m.roundTrip } : {}),
    target: asString(raw.ip_address ?? raw.hostname) || 'mx',
    domain: at >= 0 && at < account.length - 1 ? account.slice(at + 1) : 'example.org',
    hash: 0,
    hashSeed: undefined,
  };
  return m.sim;
}

/** Settings changed: results are recomputed from them (past ones included, see docs/emulator-reference.md). */
export function simChanged(st: StoreState, id: string, m: MonitorRec): void {
  delete m.sim;
  st.trackers.delete(id);
}

/** Results of the monitor's tests starting in [begin, end], never past now nor the retention. */
export function results(st: StoreState, id: string, m: MonitorRec, begin: number, end: number): { sim: SimMonitor; results: TestResult[] } {
  const now = st.nowSec();
  const sim = simOf(id, m);
  const from = Math.max(begin, now - retentionOf(st.sim));
  const to = Math.min(end, now);
  const list = to < from ? [] : slotsIn(m.segments, from - 1, to).map((slot) => asSeenAt(sim, testResult(st.sim, sim, slot), now));
  return { sim, results: list };
}

/** Forgets every alert state, tracker and message, with new settings: reset and load. */
export function restartSimulation(st: StoreState, sim: SimConfig, lastMinute: number): void {
  st.sim = sim;
  st.alertStates.clear();
  st.trackers.clear();
  st.outbox = [];
  st.lastMinute = lastMinute;
}

export function simulationView(st: StoreState): SimulationView {
  sync(st);
  return {
    seed: st.sim.seed,
    failure_rate: st.sim.failureRate,
    last_minute: st.lastMinute,
    retention_seconds: retentionOf(st.sim),
  };
}

/** Changes seed and/or failure rate; every result follows them, past ones included. */
export function setSimulation(st: StoreState, body: unknown): SimulationView {
  if (body !== undefined && body !== null && !isObject(body)) throw badRequest('simulation: body must be a JSON object');
  const b = (body ?? {}) as JsonObject;
  const extra = Object.keys(b).filter((k) => k !== 'seed' && k !== 'failure_rate');
  if (extra.length) throw badRequest(`simulation: unknown key ${extra.join(', ')} (allowed: seed, failure_rate)`);
  let rate: number | undefined;
  if (b.failure_rate !== undefined) {
    if (typeof b.failure_rate !== 'number' || !(b.failure_rate >= 0 && b.failure_rate <= 1)) {
      throw badRequest(`simulation: failure_rate must be a number from 0 to 1, got ${show(b.failure_rate)}`);
    }
    rate = b.failure_rate;
  }
  let seed: string | undefined;
  if (b.seed !== undefined) {
    if ((typeof b.seed !== 'string' || b.seed === '') && (typeof b.seed !== 'number' || !Number.isFinite(b.seed))) {
      throw badRequest(`simulation: seed must be a non-empty string or a number, got ${show(b.seed)}`);
    }
    seed = String(b.seed);
  }
  sync(st);
  // Trackers hold a reference to the configuration; a new object drops them all.
  st.sim = { ...st.sim, seed: seed ?? st.sim.seed, failureRate: rate ?? st.sim.failureRate };
  st.trackers.clear();
  st.changed();
  return simulationView(st);
}

/** For the constructor's options: a plain Error, as a wrong option is the caller's mistake. */
export function checkFailureRate(v: number): number {
  if (typeof v !== 'number' || !(v >= 0 && v <= 1)) throw new Error(`failure rate must be a number from 0 to 1, got ${show(v)}`);
  return v;
}

/**
 * Forces every test of the monitor starting in the next `seconds` to fail. An outage already
 * running is shortened or extended to end `seconds` from now; 0 ends it.
 */
export function setOutage(st: StoreState, monitorId: string, seconds: number): { monitor: string; until: number } {
  const m = st.monitorRec(monitorId);
  sync(st);
  const now = st.nowSec();
  const until = now + seconds;
  const running = m.outages.find((o) => o.start <= now && now < o.until);
  // A test starting at `now` has been reported already; the outage covers (now, until].
  if (running) {
    running.until = until;
    if (running.until <= running.start) m.outages = m.outages.filter((o) => o !== running);
  } else if (seconds > 0) {
    m.outages.push({ start: now, until });
  }
  // Outages are kept in time order; results read the array held by the cached SimMonitor.
  m.outages.sort((a, b) => a.start - b.start);
  simChanged(st, monitorId, m);
  st.changed();
  return { monitor: monitorId, until };
}

/** Makes every test of the monitor fail one way from now on (past ones too: results are recomputed), or none. */
export function setRoundTrip(st: StoreState, monitorId: string, fault: RoundTripFault | null): { monitor: string; fault: RoundTripFault | 'none' } {
  const m = st.monitorRec(monitorId);
  sync(st);
  if (fault) m.roundTrip = fault;
  else delete m.roundTrip;
  simChanged(st, monitorId, m);
  st.changed();
  return { monitor: monitorId, fault: fault ?? 'none' };
}

/** Messages sent by the simulated alerts with `time >= since`, oldest first. */
export function outbox(st: StoreState, since = 0): OutboxMessage[] {
  sync(st);
  const out: OutboxMessage[] = [];
  for (const m of st.outbox) if (m.time >= since) out.push({ ...m });
  return out;
}

export function clearOutbox(st: StoreState): number {
  sync(st);
  const n = st.outbox.length;
  st.outbox = [];
  st.changed();
  return n;
}

/** The longest history `POST /_emulator/history` seeds (days): a year and a bit, for yearly reports. */
export const MAX_HISTORY_DAYS = 400;

export interface HistoryView {
  days: number;
  from: number;
  retention_seconds: number;
  monitors: number;
  outages: number;
}

/**
 * Gives the account `days` of history, as if every monitor (and its alerts) had been created
 * `days` ago with its current settings: the retention grows to cover it, each monitor's schedule
 * restarts at that time (one segment with its current timer: earlier timer changes are forgotten),
 * the given outages are added (tests starting in (start, end] fail), and every alert is checked
 * again minute by minute from then on, so alert events, the outbox and Status/Filter counts follow
 * the seeded results. Results stay a pure function of the simulation's seed: nothing per test is
 * stored, so a month of 1,000 monitors costs no memory.
 */
export function seedHistory(st: StoreState, body: unknown): HistoryView {
  if (!isObject(body)) throw badRequest('history: body must be a JSON object {days, outages?}');
  const extra = Object.keys(body).filter((k) => k !== 'days' && k !== 'outages');
  if (extra.length) throw badRequest(`history: unknown key ${extra.join(', ')} (allowed: days, outages)`);
  const days = body.days;
  if (typeof days !== 'number' || !Number.isSafeInteger(days) || days < 1 || days > MAX_HISTORY_DAYS) {
    throw badRequest(`history: days must be a whole number from 1 to ${MAX_HISTORY_DAYS}, got ${show(days)}`);
  }
  const rawOutages = body.outages ?? [];
  if (!Array.isArray(rawOutages)) throw badRequest(`history: outages must be an array of {monitor, start, end}, got ${show(rawOutages)}`);
  sync(st);
  const now = st.nowSec();
  const from = now - days * 86_400;
  const outages = rawOutages.map((o, i) => {
    if (!isObject(o)) throw badRequest(`history: outages[${i}] must be an object {monitor, start, end}`);
    const { monitor, start, end } = o;
    if (typeof monitor !== 'string' || !st.monitors.has(monitor)) throw badRequest(`history: outages[${i}].monitor ${show(monitor)} is not a monitor id`);
    if (typeof start !== 'number' || typeof end !== 'number' || !Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start) {
      throw badRequest(`history: outages[${i}] needs start and end in unix seconds, start before end, got ${show(start)}, ${show(end)}`);
    }
    return { monitor, start, until: end };
  });
  const retention = Math.max(retentionOf(st.sim), days * 86_400);
  st.sim = { ...st.sim, retentionSeconds: retention };
  for (const [id, m] of st.monitors) {
    m.created = Math.min(m.created, from);
    const last = m.segments[m.segments.length - 1];
    m.segments.splice(0, m.segments.length, ...newSchedule(m.created, last ? last.timer : 5));
    simChanged(st, id, m);
  }
  for (const o of outages) {
    const m = st.monitorRec(o.monitor);
    m.outages.push({ start: o.start, until: o.until });
    m.outages.sort((a, b) => a.start - b.start);
    simChanged(st, o.monitor, m);
  }
  // Every alert starts over at the new beginning; the minute checks then replay the history.
  for (const [id, a] of st.alerts) {
    const m = st.monitors.get(asString(a.monitor));
    st.alertStates.set(id, newAlertState(m ? m.created : from));
  }
  st.outbox = [];
  st.trackers.clear();
  st.lastMinute = Math.floor(from / 60) * 60;
  sync(st);
  st.changed();
  return { days, from, retention_seconds: retention, monitors: st.monitors.size, outages: outages.length };
}
