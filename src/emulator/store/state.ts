/**
 * The state the store's parts share: every resource in a Map keyed by id, with the monitor <->
 * alert and monitor <-> group relations indexed both ways (list endpoints are O(n), deletes
 * cascade without scans of the whole account); the simulation's settings and per-alert state; the
 * change counter the persister watches. Only the parts (resources, pauses, simulation, status,
 * data, seed, snapshot) touch it, each called through the facade (index.ts).
 */
import type { AlertState, OutboxMessage } from '../alerting.js';
import type { EmulatorClock } from '../clock.js';
import { notFound } from '../errors.js';
import { newSchedule, timerMinutes, type SimConfig, type SuccessTracker } from '../simulation.js';
import { isObject, type JsonObject } from '../validate.js';
import { FIRST_IDS, asString, type GroupRec, type Kind, type MonitorData, type MonitorRec } from './types.js';

export class StoreState {
  readonly monitors = new Map<string, MonitorRec>();
  readonly alerts = new Map<string, JsonObject>();
  readonly groups = new Map<string, GroupRec>();
  readonly destinations = new Map<string, JsonObject>();
  /** Alert id -> end of its pause, emulator-clock milliseconds. */
  readonly pauses = new Map<string, number>();
  /** Monitors under the manual alert-active override. */
  readonly activeMonitors = new Set<string>();
  readonly data = new Map<string, MonitorData>();
  counters: Record<Kind, number> = { ...FIRST_IDS };
  // Simulation (simulation.ts, alerting.ts): configuration, per-alert state, the minute checks
  // run so far, and the messages they sent. Test results are never stored.
  sim: SimConfig;
  readonly alertStates = new Map<string, AlertState>();
  /** Unix seconds of the last minute check run. */
  lastMinute: number;
  outbox: OutboxMessage[] = [];
  readonly trackers = new Map<string, SuccessTracker>();
  private rev = 0;
  private readonly listeners: (() => void)[] = [];

  constructor(
    readonly clock: EmulatorClock,
    /** What reset returns to. */
    readonly defaultSim: SimConfig,
  ) {
    this.sim = { ...defaultSim };
    this.lastMinute = this.currentMinute();
  }

  nowSec(): number {
    return this.clock.nowSeconds();
  }

  currentMinute(): number {
    return Math.floor(this.clock.nowSeconds() / 60) * 60;
  }

  get revision(): number {
    return this.rev;
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  changed(): void {
    this.rev++;
    for (const l of this.listeners) l();
  }

  nextId(kind: Kind, taken: (id: string) => boolean): string {
    for (;;) {
      const id = String(this.counters[kind]++);
      if (!taken(id)) return id;
    }
  }

  /** Keeps generated ids ahead of explicit numeric ids given by a seed. */
  noteId(kind: Kind, id: string): void {
    if (/^\d{1,15}$/.test(id)) {
      const n = Number(id);
      if (n >= this.counters[kind]) this.counters[kind] = n + 1;
    }
  }

  monitorRec(id: string): MonitorRec {
    const m = this.monitors.get(id);
    if (!m) throw notFound(`monitor ${id} not found`);
    return m;
  }

  alertRec(id: string): JsonObject {
    const a = this.alerts.get(id);
    if (!a) throw notFound(`alert ${id} not found`);
    return a;
  }

  groupRec(id: string): GroupRec {
    const g = this.groups.get(id);
    if (!g) throw notFound(`group ${id} not found`);
    return g;
  }

  /** Empties the account: resources, pauses, overrides and stored data (not the clock nor the simulation). */
  clearAccount(): void {
    this.monitors.clear();
    this.alerts.clear();
    this.groups.clear();
    this.destinations.clear();
    this.pauses.clear();
    this.activeMonitors.clear();
    this.data.clear();
  }

  /** A new record; its tests start `timer` minutes from now (simulation.ts). */
  newMonitorRec(raw: JsonObject, showAlerts: boolean, showGroups: boolean): MonitorRec {
    const created = this.nowSec();
    return {
      raw,
      showAlerts,
      showGroups,
      alerts: new Set(),
      groups: new Set(),
      created,
      segments: newSchedule(created, timerMinutes(raw.timer)),
      outages: [],
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Reading records

export function isSmtp(m: MonitorRec): boolean {
  return asString(m.raw.type).toLowerCase() === 'smtp';
}

export function labelOf(m: MonitorRec): string {
  return asString(m.raw.label);
}

export function metaMatches(m: MonitorRec, pairs: [string, string][]): boolean {
  const meta = isObject(m.raw.meta) ? m.raw.meta : {};
  return pairs.every(([k, v]) => meta[k] === v);
}

export function renderMonitor(m: MonitorRec): JsonObject {
  const out: JsonObject = { ...m.raw };
  if (m.raw.meta && isObject(m.raw.meta)) out.meta = { ...m.raw.meta };
  if (m.showAlerts) out.alerts = [...m.alerts];
  if (m.showGroups) out.groups = [...m.groups];
  return out;
}

export function renderAlert(a: JsonObject): JsonObject {
  const out = { ...a };
  if (Array.isArray(a.alert_destinations)) out.alert_destinations = [...a.alert_destinations];
  return out;
}
