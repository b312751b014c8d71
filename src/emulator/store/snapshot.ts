/**
 * Whole-state operations: reset, the snapshot that the state file and GET /_emulator/state hold,
 * and loading one back. Loading checks the whole shape first and throws a plain Error naming what
 * is wrong (the CLI turns it into one line about the state file).
 */
import { newAlertState } from '../alerting.js';
import { ROUND_TRIP_FAULTS } from '../simulation.js';
import { isObject, show, type Json, type JsonObject } from '../validate.js';
import { restartSimulation } from './simulation.js';
import { renderAlert, renderMonitor, type StoreState } from './state.js';
import { FIRST_IDS, SNAPSHOT_FORMAT, SNAPSHOT_VERSION, asString, idOf, type Snapshot } from './types.js';

/** Back to a new, empty account: ids, clock offset and simulation settings at their start values. */
export function reset(st: StoreState): void {
  st.clearAccount();
  st.counters = { ...FIRST_IDS };
  st.clock.reset();
  restartSimulation(st, { ...st.defaultSim }, st.currentMinute());
  st.changed();
}

export function snapshot(st: StoreState): Snapshot {
  // Every pause still held, ended or not: one that ended after the last minute check still
  // decides the minutes up to its end when the state is loaded again.
  const pauses: { id: string; until_ms: number }[] = [];
  for (const [id, until] of st.pauses) pauses.push({ id, until_ms: until });
  return {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    clock_offset_ms: st.clock.offset,
    counters: { ...st.counters },
    destinations: [...st.destinations.values()].map((d) => ({ ...d })),
    monitors: [...st.monitors.values()].map(renderMonitor),
    alerts: [...st.alerts.values()].map(renderAlert),
    groups: [...st.groups.values()].map((g) => ({ id: g.id, name: g.name, monitors: [...g.monitors] })),
    pauses,
    alert_active: [...st.activeMonitors],
    data: [...st.data].map(([monitor, d]) => ({ monitor, items: d.items, analysis: d.analysis })),
    simulation: {
      seed: st.sim.seed,
      failure_rate: st.sim.failureRate,
      last_minute: st.lastMinute,
      ...(st.sim.retentionSeconds === undefined ? {} : { retention_seconds: st.sim.retentionSeconds }),
    },
    monitor_sim: [...st.monitors].map(([monitor, m]) => ({
      monitor,
      created: m.created,
      segments: m.segments.map((g) => ({ ...g })),
      outages: m.outages.map((o) => ({ ...o })),
      ...(m.roundTrip ? { round_trip: m.roundTrip } : {}),
    })),
    alert_sim: [...st.alertStates].map(([alert, s]) => ({ alert, ...s, events: s.events.map((e) => ({ ...e })) })),
    outbox: st.outbox.map((m) => ({ ...m })),
  };
}

/** Replaces the whole state with a snapshot; throws a plain Error naming what is wrong. */
export function load(st: StoreState, snap: unknown): void {
  const s = checkSnapshot(snap);
  st.clearAccount();
  // The clock first: monitors of a version 1 file start their tests from now.
  st.clock.reset(s.clock_offset_ms);
  const sim = s.simulation;
  restartSimulation(
    st,
    sim
      ? { seed: sim.seed, failureRate: sim.failure_rate, ...(sim.retention_seconds === undefined ? {} : { retentionSeconds: sim.retention_seconds }) }
      : { ...st.defaultSim },
    sim ? sim.last_minute : st.currentMinute(),
  );
  for (const d of s.destinations) st.destinations.set(idOf(d.id) as string, d);
  for (const o of s.monitors) {
    const { alerts: a, groups: g, ...raw } = o;
    st.monitors.set(idOf(o.id) as string, st.newMonitorRec(raw, a !== undefined, g !== undefined));
  }
  for (const ms of s.monitor_sim ?? []) {
    const m = st.monitors.get(ms.monitor);
    if (!m) continue;
    m.created = ms.created;
    m.segments = ms.segments.map((g) => ({ ...g }));
    m.outages = ms.outages.map((o) => ({ ...o }));
    if (ms.round_trip) m.roundTrip = ms.round_trip;
  }
  const states = new Map((s.alert_sim ?? []).map(({ alert, ...state }) => [alert, state] as const));
  for (const a of s.alerts) {
    const id = idOf(a.id) as string;
    const m = st.monitors.get(asString(a.monitor));
    if (!m) throw new Error(`alert ${id} refers to missing monitor ${show(a.monitor)}`);
    st.alerts.set(id, a);
    m.alerts.add(id);
    const state = states.get(id);
    st.alertStates.set(id, state ? { ...state, events: state.events.map((e) => ({ ...e })) } : newAlertState(st.nowSec()));
  }
  st.outbox = (s.outbox ?? []).map((m) => ({ ...m }));
  for (const g of s.groups) {
    st.groups.set(g.id, { id: g.id, name: g.name, monitors: new Set(g.monitors.filter((m) => st.monitors.has(m))) });
    for (const m of g.monitors) st.monitors.get(m)?.groups.add(g.id);
  }
  for (const p of s.pauses) if (st.alerts.has(p.id)) st.pauses.set(p.id, p.until_ms);
  for (const m of s.alert_active) if (st.monitors.has(m)) st.activeMonitors.add(m);
  for (const d of s.data) if (st.monitors.has(d.monitor)) st.data.set(d.monitor, { items: d.items, analysis: d.analysis });
  st.counters = { ...FIRST_IDS, ...s.counters };
  st.changed();
}

// ---------------------------------------------------------------------------------------------
// Checking a state file's shape

function checkSnapshot(v: unknown): Snapshot {
  if (!isObject(v)) throw new Error('not a JSON object');
  if (v.format !== SNAPSHOT_FORMAT) throw new Error(`not a monsync emulator state file (format ${show(v.format)})`);
  if (v.version !== 1 && v.version !== SNAPSHOT_VERSION) {
    throw new Error(`unsupported state version ${show(v.version)} (expected 1 or ${SNAPSHOT_VERSION})`);
  }
  checkSimulationParts(v);
  for (const k of ['destinations', 'monitors', 'alerts', 'groups', 'pauses', 'alert_active', 'data'] as const) {
    if (!Array.isArray(v[k])) throw new Error(`${k} must be an array`);
  }
  for (const k of ['destinations', 'monitors', 'alerts'] as const) {
    (v[k] as Json[]).forEach((o, i) => {
      if (!isObject(o) || idOf(o.id) === undefined) throw new Error(`${k}[${i}] must be an object with an id`);
    });
  }
  (v.groups as Json[]).forEach((g, i) => {
    if (!isObject(g) || typeof g.id !== 'string' || typeof g.name !== 'string' || !Array.isArray(g.monitors)) {
      throw new Error(`groups[${i}] must be {id, name, monitors}`);
    }
  });
  (v.pauses as Json[]).forEach((p, i) => {
    if (!isObject(p) || typeof p.id !== 'string' || typeof p.until_ms !== 'number') throw new Error(`pauses[${i}] must be {id, until_ms}`);
  });
  (v.data as Json[]).forEach((d, i) => {
    if (!isObject(d) || typeof d.monitor !== 'string' || !Array.isArray(d.items) || !Array.isArray(d.analysis)) {
      throw new Error(`data[${i}] must be {monitor, items, analysis}`);
    }
  });
  if (typeof v.clock_offset_ms !== 'number' || !Number.isFinite(v.clock_offset_ms)) throw new Error('clock_offset_ms must be a number');
  if (!isObject(v.counters)) throw new Error('counters must be an object');
  for (const k of Object.keys(FIRST_IDS)) {
    const c = v.counters[k];
    if (c !== undefined && (typeof c !== 'number' || !Number.isSafeInteger(c))) throw new Error(`counters.${k} must be an integer`);
  }
  return v as unknown as Snapshot;
}

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** The simulation's parts of a version 2 state; absent parts start afresh. */
function checkSimulationParts(v: JsonObject): void {
  const sim = v.simulation;
  if (sim !== undefined) {
    if (!isObject(sim) || typeof sim.seed !== 'string' || !isNum(sim.failure_rate) || sim.failure_rate < 0 || sim.failure_rate > 1 || !isNum(sim.last_minute) || (sim.retention_seconds !== undefined && !isNum(sim.retention_seconds))) {
      throw new Error('simulation must be {seed, failure_rate (0..1), last_minute}');
    }
  }
  for (const k of ['monitor_sim', 'alert_sim', 'outbox'] as const) {
    if (v[k] !== undefined && !Array.isArray(v[k])) throw new Error(`${k} must be an array`);
  }
  ((v.monitor_sim ?? []) as Json[]).forEach((m, i) => {
    const ok =
      isObject(m) &&
      typeof m.monitor === 'string' &&
      isNum(m.created) &&
      Array.isArray(m.segments) &&
      m.segments.length > 0 &&
      m.segments.every((g) => isObject(g) && isNum(g.start) && isNum(g.timer) && g.timer >= 1 && isNum(g.base)) &&
      Array.isArray(m.outages) &&
      m.outages.every((o) => isObject(o) && isNum(o.start) && isNum(o.until)) &&
      (m.round_trip === undefined || (ROUND_TRIP_FAULTS as readonly unknown[]).includes(m.round_trip));
    if (!ok) throw new Error(`monitor_sim[${i}] must be {monitor, created, segments: [{start, timer, base}], outages: [{start, until}]}`);
  });
  ((v.alert_sim ?? []) as Json[]).forEach((a, i) => {
    const ok =
      isObject(a) &&
      typeof a.alert === 'string' &&
      isNum(a.since) &&
      typeof a.triggered === 'boolean' &&
      (a.triggered_at === null || isNum(a.triggered_at)) &&
      (a.next_repeat === null || isNum(a.next_repeat)) &&
      isNum(a.next_gap) &&
      Array.isArray(a.events) &&
      a.events.every((e) => isObject(e) && isNum(e.time) && (e.kind === 'down' || e.kind === 'repeat' || e.kind === 'up'));
    if (!ok) throw new Error(`alert_sim[${i}] is not an alert state`);
  });
  ((v.outbox ?? []) as Json[]).forEach((m, i) => {
    const ok =
      isObject(m) &&
      isNum(m.time) &&
      typeof m.alert === 'string' &&
      typeof m.monitor === 'string' &&
      typeof m.destination === 'string' &&
      (m.kind === 'down' || m.kind === 'up') &&
      typeof m.subject === 'string' &&
      typeof m.body === 'string' &&
      typeof m.delivered === 'boolean';
    if (!ok) throw new Error(`outbox[${i}] is not an outbox message`);
  });
}
