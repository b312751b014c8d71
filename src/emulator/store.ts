/**
 * The emulator's state: pure TypeScript, no HTTP. Every resource lives in a Map keyed by id, with
 * the monitor <-> alert and monitor <-> group relations indexed both ways, so that list endpoints
 * are O(n) and deletes cascade without scans of the whole account.
 *
 * Objects are kept in their wire form ("raw"): seeded objects with quirks (`timer: "5"`,
 * `hostname`, `type: "EMAIL"`) are served back exactly as given. Only `alerts` and `groups` of a
 * monitor are computed from the relations, so they always reflect reality.
 */
import {
  MAX_OUTBOX,
  alertMatches,
  checkAlert,
  newAlertState,
  pruneEvents,
  timeoutMinutes,
  type AlertEvent,
  type AlertState,
  type MatchRule,
  type OutboxMessage,
} from './alerting.js';
import { EmulatorClock } from './clock.js';
import { badRequest, conflict, notFound } from './errors.js';
import {
  DEFAULT_FAILURE_RATE,
  DEFAULT_SIM_SEED,
  RETENTION_SECONDS,
  SuccessTracker,
  changeTimer,
  failureTexts,
  hopsOf,
  newSchedule,
  pruneSchedule,
  renderTestData,
  slotsIn,
  testResult,
  timerMinutes,
  type Outage,
  type Segment,
  type SimConfig,
  type SimMonitor,
  type Hop,
  type TestResult,
} from './simulation.js';
import { displayType, monitorKind } from './monitor-types.js';
import { zonedIso, utcIso } from './time.js';
import {
  isObject,
  show,
  validateAlertBody,
  validateGroupBody,
  validateMonitorBody,
  type Json,
  type JsonObject,
} from './validate.js';

export { StoreError } from './errors.js';
export { displayType } from './monitor-types.js';
export type { Json, JsonObject } from './validate.js';

export type SeedName = 'default' | 'empty';
export type Kind = 'monitor' | 'alert' | 'group' | 'destination';

export const FIRST_IDS: Readonly<Record<Kind, number>> = {
  monitor: 10001,
  alert: 50001,
  group: 301,
  destination: 701,
};

interface MonitorRec {
  /** Wire fields except `alerts` and `groups`. */
  raw: JsonObject;
  /** Seeded monitors of other types may omit these fields; API-made ones always carry them. */
  showAlerts: boolean;
  showGroups: boolean;
  alerts: Set<string>;
  groups: Set<string>;
  /** Simulation: unix seconds of creation, test schedule, forced outages (oldest first). */
  created: number;
  segments: Segment[];
  outages: Outage[];
  /** Derived from raw; dropped when the monitor changes. */
  sim?: SimMonitor;
}

interface GroupRec {
  id: string;
  name: string;
  monitors: Set<string>;
}

export interface DataItemIn {
  utc_mktime: number;
  value: number | null;
  failed: boolean;
  error: string | null;
  samples: number | null;
  alert_matches: string[];
  time?: string;
  utc_time?: string;
}

export type { Hop } from './simulation.js';
export type { OutboxMessage } from './alerting.js';

interface MonitorData {
  items: DataItemIn[];
  analysis: Hop[][];
}

export interface SeedBody {
  destinations?: unknown[];
  monitors?: unknown[];
  alerts?: unknown[];
  groups?: unknown[];
}

export interface SeedResult {
  destinations: string[];
  monitors: string[];
  alerts: string[];
  groups: string[];
}

export interface StatusEntry {
  id: string;
  label: string;
  type: string;
  alert_active: boolean;
}

export interface FilterQuery {
  t: number;
  prefix?: string;
  suffix?: string;
  contains?: string;
  meta?: [string, string][];
}

export type Average = 'raw' | 'hour' | 'day';

export const SNAPSHOT_FORMAT = 'monsync-emulator-state';
/** Version 2 adds the simulation; version 1 files still load (their monitors start afresh). */
export const SNAPSHOT_VERSION = 2;

export interface Snapshot {
  format: typeof SNAPSHOT_FORMAT;
  version: number;
  clock_offset_ms: number;
  counters: Record<Kind, number>;
  destinations: JsonObject[];
  monitors: JsonObject[];
  alerts: JsonObject[];
  groups: { id: string; name: string; monitors: string[] }[];
  pauses: { id: string; until_ms: number }[];
  alert_active: string[];
  data: { monitor: string; items: DataItemIn[]; analysis: Hop[][] }[];
  simulation?: { seed: string; failure_rate: number; last_minute: number };
  monitor_sim?: { monitor: string; created: number; segments: Segment[]; outages: Outage[] }[];
  alert_sim?: ({ alert: string } & AlertState)[];
  outbox?: OutboxMessage[];
}

export interface SimulationOptions {
  /** Seed of the simulated test results; `POST /_emulator/reset` returns to it. */
  simSeed?: string | number;
  /** Share of tests that fail at random, 0..1 (default 0.01). */
  failureRate?: number;
}

/** What GET/POST /_emulator/simulation answer. */
export interface SimulationView {
  seed: string;
  failure_rate: number;
  /** Unix seconds of the last minute check run. */
  last_minute: number;
  retention_seconds: number;
}

const ALERT_DISPLAY_TYPES: Record<string, string> = { 'up-down': 'Up/Down Alert' };

function idOf(v: unknown): string | undefined {
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

function asString(v: Json | undefined): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

export class EmulatorStore {
  readonly clock: EmulatorClock;
  private monitors = new Map<string, MonitorRec>();
  private alerts = new Map<string, JsonObject>();
  private groups = new Map<string, GroupRec>();
  private destinations = new Map<string, JsonObject>();
  /** Alert id -> end of its pause, emulator-clock milliseconds. */
  private pauses = new Map<string, number>();
  private activeMonitors = new Set<string>();
  private data = new Map<string, MonitorData>();
  private counters: Record<Kind, number> = { ...FIRST_IDS };
  private rev = 0;
  private listeners: (() => void)[] = [];
  // Simulation (simulation.ts, alerting.ts): configuration, per-alert state, the minute checks
  // run so far, and the messages they sent. Test results are never stored.
  private readonly defaultSim: SimConfig;
  private sim: SimConfig;
  private alertStates = new Map<string, AlertState>();
  private lastMinute: number;
  private outboxList: OutboxMessage[] = [];
  private trackers = new Map<string, SuccessTracker>();

  constructor(clock: EmulatorClock = new EmulatorClock(), simulation: SimulationOptions = {}) {
    this.clock = clock;
    this.defaultSim = {
      seed: simulation.simSeed === undefined ? DEFAULT_SIM_SEED : String(simulation.simSeed),
      failureRate: checkFailureRate(simulation.failureRate ?? DEFAULT_FAILURE_RATE),
    };
    this.sim = { ...this.defaultSim };
    this.lastMinute = this.currentMinute();
  }

  private nowSec(): number {
    return this.clock.nowSeconds();
  }

  private currentMinute(): number {
    return Math.floor(this.clock.nowSeconds() / 60) * 60;
  }

  /** Bumped on every state change; the persister and tests watch it. */
  get revision(): number {
    return this.rev;
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Marks a change made outside the store's own methods (the clock) so it is persisted. */
  touch(): void {
    this.changed();
  }

  private changed(): void {
    this.rev++;
    for (const l of this.listeners) l();
  }

  get counts(): Record<'monitors' | 'alerts' | 'groups' | 'destinations' | 'pauses', number> {
    return {
      monitors: this.monitors.size,
      alerts: this.alerts.size,
      groups: this.groups.size,
      destinations: this.destinations.size,
      pauses: this.pauses.size,
    };
  }

  private nextId(kind: Kind, taken: (id: string) => boolean): string {
    for (;;) {
      const id = String(this.counters[kind]++);
      if (!taken(id)) return id;
    }
  }

  /** Keeps generated ids ahead of explicit numeric ids given by a seed. */
  private noteId(kind: Kind, id: string): void {
    if (/^\d{1,15}$/.test(id)) {
      const n = Number(id);
      if (n >= this.counters[kind]) this.counters[kind] = n + 1;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Lookups

  private monitorRec(id: string): MonitorRec {
    const m = this.monitors.get(id);
    if (!m) throw notFound(`monitor ${id} not found`);
    return m;
  }

  private alertRec(id: string): JsonObject {
    const a = this.alerts.get(id);
    if (!a) throw notFound(`alert ${id} not found`);
    return a;
  }

  private groupRec(id: string): GroupRec {
    const g = this.groups.get(id);
    if (!g) throw notFound(`group ${id} not found`);
    return g;
  }

  hasMonitor(id: string): boolean {
    return this.monitors.has(id);
  }

  hasAlert(id: string): boolean {
    return this.alerts.has(id);
  }

  private static isSmtp(m: MonitorRec): boolean {
    return asString(m.raw.type).toLowerCase() === 'smtp';
  }

  private renderMonitor(m: MonitorRec): JsonObject {
    const out: JsonObject = { ...m.raw };
    if (m.raw.meta && isObject(m.raw.meta)) out.meta = { ...m.raw.meta };
    if (m.showAlerts) out.alerts = [...m.alerts];
    if (m.showGroups) out.groups = [...m.groups];
    return out;
  }

  private static label(m: MonitorRec): string {
    return asString(m.raw.label);
  }

  // -------------------------------------------------------------------------------------------
  // Monitors (4.4)

  listMonitors(): JsonObject[] {
    const out: JsonObject[] = [];
    for (const m of this.monitors.values()) out.push(this.renderMonitor(m));
    return out;
  }

  getMonitor(id: string): JsonObject {
    return this.renderMonitor(this.monitorRec(id));
  }

  /** Tests start `timer` minutes after creation (simulation.ts). */
  private newMonitorRec(raw: JsonObject, showAlerts: boolean, showGroups: boolean): MonitorRec {
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

  createMonitor(body: unknown): JsonObject {
    this.sync();
    const f = validateMonitorBody(body, 'create');
    const id = this.nextId('monitor', (x) => this.monitors.has(x));
    // Field order follows the API's field table, so dumps read naturally.
    const raw: JsonObject = {
      id,
      label: f.label as string,
      type: 'smtp',
      description: null,
      ip_address: f.ip_address as string,
      port: f.port ?? 25,
      ipv6: f.ipv6 ?? false,
      use_tls: f.use_tls ?? 'auto',
      use_client_cert: false,
      test_account: f.test_account as string,
      attachment: f.attachment ?? '',
      custom_subject: f.custom_subject ?? '',
      custom_body: f.custom_body ?? '',
      message_format: f.message_format ?? 'text/plain',
      timer: f.timer as number,
      ttl: f.ttl ?? 0,
      timeout: 30,
      time_zone: f.time_zone as string,
      data_label: 'seconds',
      meta: f.meta ?? {},
    };
    const rec = this.newMonitorRec(raw, true, true);
    this.monitors.set(id, rec);
    this.changed();
    return this.renderMonitor(rec);
  }

  updateMonitor(id: string, body: unknown): JsonObject {
    const m = this.monitorRec(id);
    if (!EmulatorStore.isSmtp(m)) {
      throw badRequest(`monitor ${id} is of type ${show(m.raw.type)}: only SMTP monitors can be modified`);
    }
    const f = validateMonitorBody(body, 'update');
    this.sync();
    for (const [k, v] of Object.entries(f)) {
      if (k === 'type' || v === undefined) continue;
      m.raw[k] = v;
    }
    changeTimer(m.segments, this.nowSec(), timerMinutes(m.raw.timer));
    this.simChanged(id, m);
    this.changed();
    return this.renderMonitor(m);
  }

  /** Any type: the API document restricts creation and modification to SMTP monitors, not deletion. */
  deleteMonitor(id: string): JsonObject {
    const m = this.monitorRec(id);
    const out = this.renderMonitor(m);
    this.sync();
    this.removeMonitor(id, m);
    this.changed();
    return out;
  }

  private removeMonitor(id: string, m: MonitorRec): void {
    for (const a of m.alerts) {
      this.alerts.delete(a);
      this.pauses.delete(a);
      this.alertStates.delete(a);
    }
    this.trackers.delete(id);
    for (const g of m.groups) this.groups.get(g)?.monitors.delete(id);
    this.activeMonitors.delete(id);
    this.data.delete(id);
    this.monitors.delete(id);
  }

  // -------------------------------------------------------------------------------------------
  // Alerts (4.5)

  private alertLookups = {
    monitorType: (id: string): string | undefined => {
      const m = this.monitors.get(id);
      return m ? asString(m.raw.type) : undefined;
    },
    hasDestination: (id: string): boolean => this.destinations.has(id),
  };

  /** The list shows the display form of `type` and a `violations` count (API 2.3). */
  listAlerts(): JsonObject[] {
    const out: JsonObject[] = [];
    for (const a of this.alerts.values()) {
      const type = asString(a.type);
      out.push({ ...a, type: ALERT_DISPLAY_TYPES[type] ?? type, violations: a.violations ?? '0' });
    }
    return out;
  }

  getAlert(id: string): JsonObject {
    return this.renderAlert(this.alertRec(id));
  }

  private renderAlert(a: JsonObject): JsonObject {
    const out = { ...a };
    if (Array.isArray(a.alert_destinations)) out.alert_destinations = [...a.alert_destinations];
    return out;
  }

  createAlert(body: unknown): JsonObject {
    const f = validateAlertBody(body, 'create', this.alertLookups);
    this.sync();
    const id = this.nextId('alert', (x) => this.alerts.has(x));
    const a: JsonObject = { id, ...f };
    this.alerts.set(id, a);
    this.alertStates.set(id, newAlertState(this.nowSec()));
    this.monitorRec(f.monitor).alerts.add(id);
    this.changed();
    return this.renderAlert(a);
  }

  updateAlert(id: string, body: unknown): JsonObject {
    const a = this.alertRec(id);
    const f = validateAlertBody(body, 'update', this.alertLookups);
    this.sync();
    const before = asString(a.monitor);
    if (before !== f.monitor) {
      this.monitors.get(before)?.alerts.delete(id);
      this.monitorRec(f.monitor).alerts.add(id);
    }
    Object.assign(a, f);
    this.changed();
    return this.renderAlert(a);
  }

  deleteAlert(id: string): JsonObject {
    const a = this.alertRec(id);
    const out = this.renderAlert(a);
    this.sync();
    this.monitors.get(asString(a.monitor))?.alerts.delete(id);
    this.alerts.delete(id);
    this.pauses.delete(id);
    this.alertStates.delete(id);
    this.changed();
    return out;
  }

  // -------------------------------------------------------------------------------------------
  // Groups (4.3)

  listGroups(): { id: string; name: string }[] {
    const out: { id: string; name: string }[] = [];
    for (const g of this.groups.values()) out.push({ id: g.id, name: g.name });
    return out;
  }

  private renderGroupMembers(g: GroupRec): { id: string; name: string; monitors: { id: string; label: string }[] } {
    const monitors: { id: string; label: string }[] = [];
    for (const id of g.monitors) {
      const m = this.monitors.get(id);
      if (m) monitors.push({ id, label: EmulatorStore.label(m) });
    }
    return { id: g.id, name: g.name, monitors };
  }

  getGroup(id: string): { id: string; name: string; monitors: { id: string; label: string }[] } {
    return this.renderGroupMembers(this.groupRec(id));
  }

  /** The create response lists member ids, or null when none were given (API 2.5). */
  createGroup(body: unknown): { id: string; name: string; monitors: string[] | null } {
    const f = validateGroupBody(body, 'create', (x) => this.monitors.has(x));
    const id = this.nextId('group', (x) => this.groups.has(x));
    const g: GroupRec = { id, name: f.name, monitors: new Set(f.monitors ?? []) };
    this.groups.set(id, g);
    for (const m of g.monitors) this.monitorRec(m).groups.add(id);
    this.changed();
    return { id, name: g.name, monitors: f.monitors ? [...g.monitors] : null };
  }

  updateGroup(
    id: string,
    body: unknown,
  ): { replace: boolean; group: { id: string; name: string; monitors: { id: string; label: string }[] } } {
    const g = this.groupRec(id);
    const f = validateGroupBody(body, 'update', (x) => this.monitors.has(x));
    g.name = f.name;
    const replace = f.replace ?? false;
    if (replace) {
      for (const m of g.monitors) this.monitors.get(m)?.groups.delete(id);
      g.monitors = new Set(f.monitors ?? []);
    } else {
      for (const m of f.monitors ?? []) g.monitors.add(m);
    }
    for (const m of g.monitors) this.monitorRec(m).groups.add(id);
    this.changed();
    return { replace, group: this.renderGroupMembers(g) };
  }

  deleteGroup(id: string): { name: string; id: string } {
    const g = this.groupRec(id);
    for (const m of g.monitors) this.monitors.get(m)?.groups.delete(id);
    this.groups.delete(id);
    this.changed();
    return { name: g.name, id };
  }

  // -------------------------------------------------------------------------------------------
  // Destinations (4.7): read only through the API; the seed makes them.

  listDestinations(): JsonObject[] {
    return [...this.destinations.values()].map((d) => ({ ...d }));
  }

  getDestination(id: string): JsonObject {
    const d = this.destinations.get(id);
    if (!d) throw notFound(`alert destination ${id} not found`);
    return { ...d };
  }

  // -------------------------------------------------------------------------------------------
  // Pauses (4.6, state machine of section 3). A pause is an end time on the emulator clock. Reads
  // ignore an expired entry; only sync() drops it, after checking every minute up to now: dropped
  // any earlier, the minutes inside the pause would be checked as if it had never been.

  private pausedUntil(alertId: string, now: number): number | undefined {
    const until = this.pauses.get(alertId);
    return until !== undefined && until > now ? until : undefined;
  }

  listPauses(): { id: string; monitor: string; seconds: number }[] {
    this.sync();
    const now = this.clock.nowMs();
    const out: { id: string; monitor: string; seconds: number }[] = [];
    for (const [id, until] of this.pauses) {
      if (until <= now) continue;
      const a = this.alerts.get(id);
      if (!a) continue;
      out.push({ id, monitor: asString(a.monitor), seconds: Math.ceil((until - now) / 1000) });
    }
    return out;
  }

  private setPause(ids: Iterable<string>, seconds: number): string[] {
    this.sync();
    const until = this.clock.nowMs() + seconds * 1000;
    const done: string[] = [];
    for (const id of ids) {
      this.pauses.set(id, until);
      done.push(id);
    }
    this.changed();
    return done;
  }

  pauseAll(seconds: number): string[] {
    return this.setPause(this.alerts.keys(), seconds);
  }

  pauseAlert(alertId: string, seconds: number): { alert: string; monitor: string } {
    const a = this.alertRec(alertId);
    this.setPause([alertId], seconds);
    return { alert: alertId, monitor: asString(a.monitor) };
  }

  pauseMonitor(monitorId: string, seconds: number): string[] {
    return this.setPause(this.monitorRec(monitorId).alerts, seconds);
  }

  resumeAll(): string[] {
    this.sync();
    this.pauses.clear();
    this.changed();
    return [...this.alerts.keys()];
  }

  /**
   * Given a monitor id, ends the pauses of its alerts. Given an alert id, ends that alert's pause
   * and reports success, as the real service does (service-notes).
   */
  resumeMonitor(id: string): string[] {
    const m = this.monitors.get(id);
    let ids: string[];
    if (m) ids = [...m.alerts];
    else if (this.alerts.has(id)) ids = [id];
    else throw notFound(`monitor ${id} not found (nor an alert with that id)`);
    this.sync();
    for (const a of ids) this.pauses.delete(a);
    this.changed();
    return ids;
  }

  // -------------------------------------------------------------------------------------------
  // Simulation (simulation.ts, alerting.ts). `sync()` runs the minute checks crossed since the
  // last call, in order, before anything reads or changes state that depends on time; so the
  // outcome is the same whether requests come every second or once a day, and whether the clock
  // was advanced in one step or sixty. Pauses and outages are applied at the time of the request
  // that makes them, after every earlier minute has been checked.

  /** Runs the alert checks of every whole minute up to now. */
  sync(): void {
    const target = this.currentMinute();
    if (target === this.lastMinute) return;
    if (target < this.lastMinute) {
      // The clock was set back: minutes are checked again from there on.
      this.lastMinute = target;
      this.trackers.clear();
      return;
    }
    let from = this.lastMinute + 60;
    if (target - from > RETENTION_SECONDS) {
      // A jump past the retention window: only its last week is simulated.
      from = target - RETENTION_SECONDS;
      this.trackers.clear();
    }
    let produced = false;
    if (this.alertStates.size > 0) {
      for (let at = from; at <= target; at += 60) produced = this.checkMinute(at) || produced;
    }
    this.lastMinute = target;
    this.prune(target);
    this.dropExpiredPauses();
    if (produced) this.changed();
  }

  /** Pauses that ended by now: every minute they covered has been checked. */
  private dropExpiredPauses(): void {
    const now = this.clock.nowMs();
    for (const [id, until] of this.pauses) if (until <= now) this.pauses.delete(id);
  }

  private prune(now: number): void {
    const from = now - RETENTION_SECONDS;
    let drop = 0;
    while (drop < this.outboxList.length && (this.outboxList[drop] as OutboxMessage).time < from) drop++;
    drop = Math.max(drop, this.outboxList.length - MAX_OUTBOX);
    if (drop > 0) this.outboxList.splice(0, drop);
    for (const [id, m] of this.monitors) {
      if (m.outages.length && (m.outages[0] as Outage).until < from) {
        m.outages = m.outages.filter((o) => o.until >= from);
        this.simChanged(id, m);
      }
      pruneSchedule(m.segments, from);
    }
    for (const st of this.alertStates.values()) if (st.events.length && (st.events[0] as AlertEvent).time < from) pruneEvents(st, from);
  }

  private checkMinute(at: number): boolean {
    let produced = false;
    const done = new Map<string, number>();
    for (const [alertId, state] of this.alertStates) {
      if (at <= state.since) continue;
      const until = this.pauses.get(alertId);
      if (until !== undefined && until > at * 1000) continue;
      const a = this.alerts.get(alertId);
      const monitorId = a ? asString(a.monitor) : '';
      const m = this.monitors.get(monitorId);
      if (!a || !m) continue;
      let lastSuccess = done.get(monitorId);
      if (lastSuccess === undefined) {
        lastSuccess = this.trackerFor(monitorId, m, at).advance(at);
        done.set(monitorId, lastSuccess);
      }
      const rule = { timeout: timeoutMinutes(a.timeout, timerMinutes(m.raw.timer)), repeat: a.repeat === true };
      const event = checkAlert(state, rule, at, lastSuccess);
      if (!event) continue;
      produced = true;
      this.send(alertId, monitorId, a, event);
    }
    return produced;
  }

  /** Messages of one event: one per destination; unsubscribed ones are recorded, not delivered. */
  private send(alertId: string, monitorId: string, a: JsonObject, event: AlertEvent): void {
    if (event.kind === 'up' && a.down_only === true) return;
    const down = event.kind !== 'up';
    const dests = Array.isArray(a.alert_destinations) ? a.alert_destinations : [];
    for (const d of dests) {
      const destination = idOf(d);
      if (destination === undefined) continue;
      const rec = this.destinations.get(destination);
      this.outboxList.push({
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

  private trackerFor(id: string, m: MonitorRec, at: number): SuccessTracker {
    let t = this.trackers.get(id);
    if (!t) {
      t = new SuccessTracker(this.sim, this.simOf(id, m), at);
      this.trackers.set(id, t);
    }
    return t;
  }

  private simOf(id: string, m: MonitorRec): SimMonitor {
    if (m.sim) return m.sim;
    const raw = m.raw;
    const smtp = EmulatorStore.isSmtp(m);
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
      target: asString(raw.ip_address ?? raw.hostname) || 'mx',
      domain: at >= 0 && at < account.length - 1 ? account.slice(at + 1) : 'example.org',
      hash: 0,
      hashSeed: undefined,
    };
    return m.sim;
  }

  /** Settings changed: results are recomputed from them (past ones included, see CONTRIBUTING.md). */
  private simChanged(id: string, m: MonitorRec): void {
    delete m.sim;
    this.trackers.delete(id);
  }

  /** Results of the monitor's tests starting in [begin, end], never past now nor the retention. */
  private results(id: string, m: MonitorRec, begin: number, end: number): { sim: SimMonitor; results: TestResult[] } {
    const now = this.nowSec();
    const sim = this.simOf(id, m);
    const from = Math.max(begin, now - RETENTION_SECONDS);
    const to = Math.min(end, now);
    const results = to < from ? [] : slotsIn(m.segments, from - 1, to).map((slot) => testResult(this.sim, sim, slot));
    return { sim, results };
  }

  simulation(): SimulationView {
    this.sync();
    return {
      seed: this.sim.seed,
      failure_rate: this.sim.failureRate,
      last_minute: this.lastMinute,
      retention_seconds: RETENTION_SECONDS,
    };
  }

  /** Changes seed and/or failure rate; every result follows them, past ones included. */
  setSimulation(body: unknown): SimulationView {
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
    this.sync();
    // Trackers hold a reference to the configuration; a new object drops them all.
    this.sim = { seed: seed ?? this.sim.seed, failureRate: rate ?? this.sim.failureRate };
    this.trackers.clear();
    this.changed();
    return this.simulation();
  }

  /**
   * Forces every test of the monitor starting in the next `seconds` to fail. An outage already
   * running is shortened or extended to end `seconds` from now; 0 ends it.
   */
  setOutage(monitorId: string, seconds: number): { monitor: string; until: number } {
    const m = this.monitorRec(monitorId);
    this.sync();
    const now = this.nowSec();
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
    this.simChanged(monitorId, m);
    this.changed();
    return { monitor: monitorId, until };
  }

  /** Messages sent by the simulated alerts with `time >= since`, oldest first. */
  outbox(since = 0): OutboxMessage[] {
    this.sync();
    const out: OutboxMessage[] = [];
    for (const m of this.outboxList) if (m.time >= since) out.push({ ...m });
    return out;
  }

  clearOutbox(): number {
    this.sync();
    const n = this.outboxList.length;
    this.outboxList = [];
    this.changed();
    return n;
  }

  // -------------------------------------------------------------------------------------------
  // Status (4.1, 4.2). The one place alert activity is computed.

  /**
   * Manual override (control API `alert-active`): the monitor counts as alerting whatever the
   * simulation says, until set back. Pauses still hide it.
   */
  setAlertActive(monitorId: string, active: boolean): void {
    this.monitorRec(monitorId);
    if (active) this.activeMonitors.add(monitorId);
    else this.activeMonitors.delete(monitorId);
    this.changed();
  }

  /** A monitor's alerts count as paused when it has alerts and every one of them is paused. */
  private monitorPaused(m: MonitorRec, now: number): boolean {
    if (m.alerts.size === 0) return false;
    for (const a of m.alerts) if (this.pausedUntil(a, now) === undefined) return false;
    return true;
  }

  /** An alert of the monitor is triggered and not paused (or the manual override is on). */
  private alertActive(id: string, m: MonitorRec, now: number): boolean {
    if (this.monitorPaused(m, now)) return false;
    if (this.activeMonitors.has(id)) return true;
    for (const a of m.alerts) {
      if (this.alertStates.get(a)?.triggered && this.pausedUntil(a, now) === undefined) return true;
    }
    return false;
  }

  statusEntries(): StatusEntry[] {
    this.sync();
    const now = this.clock.nowMs();
    const out: StatusEntry[] = [];
    for (const [id, m] of this.monitors) {
      out.push({
        id,
        label: EmulatorStore.label(m),
        type: displayType(asString(m.raw.type)),
        alert_active: this.alertActive(id, m, now),
      });
    }
    return out;
  }

  status(): { global_alert_active: boolean; monitor_list: StatusEntry[] } {
    const monitor_list = this.statusEntries();
    return { global_alert_active: monitor_list.some((e) => e.alert_active), monitor_list };
  }

  /** v2: lower-case types; only monitors with an active alert unless `all`. */
  statusV2(all: boolean): { global_alert_active: boolean; monitors: StatusEntry[] } {
    const entries = this.statusEntries().map((e) => ({ ...e, type: e.type.toLowerCase() }));
    const active = entries.filter((e) => e.alert_active);
    return { global_alert_active: active.length > 0, monitors: all ? entries : active };
  }

  /**
   * Status over the last `t` seconds (at most the retention window): tests started in
   * (now - t, now], down messages (triggers and repeats) of its alerts in that period, and the
   * most recent of each within it (null when none).
   */
  filterStatus(q: FilterQuery): JsonObject[] {
    this.sync();
    const nowMs = this.clock.nowMs();
    const now = Math.floor(nowMs / 1000);
    const from = now - Math.min(q.t, RETENTION_SECONDS);
    const out: JsonObject[] = [];
    for (const [id, m] of this.monitors) {
      const label = EmulatorStore.label(m);
      if (q.prefix !== undefined && !label.startsWith(q.prefix)) continue;
      if (q.suffix !== undefined && !label.endsWith(q.suffix)) continue;
      if (q.contains !== undefined && !label.includes(q.contains)) continue;
      if (q.meta && !EmulatorStore.metaMatches(m, q.meta)) continue;
      const { sim, results } = this.results(id, m, from + 1, now);
      let lastFailed: TestResult | undefined;
      for (const r of results) if (!r.complete) lastFailed = r;
      const lastTest = results[results.length - 1];
      let alertCount = 0;
      let lastAlert: { alert: string; time: number } | undefined;
      for (const a of m.alerts) {
        for (const e of this.alertStates.get(a)?.events ?? []) {
          if (e.kind === 'up' || e.time <= from || e.time > now) continue;
          alertCount++;
          if (!lastAlert || e.time >= lastAlert.time) lastAlert = { alert: a, time: e.time };
        }
      }
      out.push({
        monitor: id,
        label,
        alert_active: this.alertActive(id, m, nowMs),
        alert_count: alertCount,
        fail_count: results.filter((r) => !r.complete).length,
        test_count: results.length,
        last_alert: lastAlert ? { alert: lastAlert.alert, monitor: id, time: zonedIso(lastAlert.time * 1000, sim.timeZone) } : null,
        // The API document's sample names `complete` `flag` in these objects; served as shown.
        last_failed: lastFailed ? (renderTestData(sim, lastFailed, 'flag') as JsonObject) : null,
        last_test: lastTest ? (renderTestData(sim, lastTest, 'flag') as JsonObject) : null,
      });
    }
    return out;
  }

  private static metaMatches(m: MonitorRec, pairs: [string, string][]): boolean {
    const meta = isObject(m.raw.meta) ? m.raw.meta : {};
    return pairs.every(([k, v]) => meta[k] === v);
  }

  // -------------------------------------------------------------------------------------------
  // Data (4.8): the simulated tests, unless data was set for the monitor through the control API
  // (POST /_emulator/data), which then replaces its simulated data and hop analysis.

  addData(monitorId: string, items: unknown, analysis: unknown): { items: number; analysis: number } {
    this.monitorRec(monitorId);
    const newItems = items === undefined ? [] : parseDataItems(items);
    const newAnalysis = analysis === undefined ? [] : parseAnalysis(analysis);
    const d = this.data.get(monitorId) ?? { items: [], analysis: [] };
    d.items.push(...newItems);
    d.items.sort((a, b) => a.utc_mktime - b.utc_mktime);
    d.analysis.push(...newAnalysis);
    this.data.set(monitorId, d);
    this.changed();
    return { items: d.items.length, analysis: d.analysis.length };
  }

  /**
   * Raw: one item per test started in [begin, end]. `hour`/`day`: one item per UTC hour/day
   * bucket (epoch-aligned) holding tests of the range: `value` the mean of the values present,
   * `samples` the number of tests, `failed` true when every test of the bucket failed.
   */
  monitorData(
    monitorId: string,
    begin: number,
    end: number,
    average: Average,
  ): { monitor: string; monitor_label: string; data: JsonObject[] } {
    this.sync();
    const m = this.monitorRec(monitorId);
    const tz = typeof m.raw.time_zone === 'string' ? m.raw.time_zone : undefined;
    const stored = this.data.get(monitorId);
    let items: DataItemIn[];
    if (stored) items = stored.items.filter((i) => i.utc_mktime >= begin && i.utc_mktime <= end);
    else {
      const { sim, results } = this.results(monitorId, m, begin, end);
      // Not used for SMTP monitors (API 2.8).
      const matches = sim.smtp ? undefined : alertMatches(this.sim, sim, results, this.matchRules(m));
      items = results.map((r, i) => dataItemOf(r, matches?.[i] ?? []));
    }
    const shaped = average === 'raw' ? items : averageItems(items, average === 'hour' ? 3600 : 86400);
    return {
      monitor: monitorId,
      monitor_label: EmulatorStore.label(m),
      data: shaped.map((i) => renderDataItem(i, tz)),
    };
  }

  private matchRules(m: MonitorRec): MatchRule[] {
    const rules: MatchRule[] = [];
    for (const alert of m.alerts) {
      const a = this.alerts.get(alert);
      if (!a) continue;
      const since = this.alertStates.get(alert)?.since ?? m.created;
      rules.push({ alert, since, timeout: timeoutMinutes(a.timeout, timerMinutes(m.raw.timer)) });
    }
    return rules;
  }

  allMonitorData(
    begin: number,
    end: number,
    average: Average,
    meta: [string, string][] | undefined,
  ): { monitor: string; monitor_label: string; data: JsonObject[] }[] {
    const out: { monitor: string; monitor_label: string; data: JsonObject[] }[] = [];
    for (const [id, m] of this.monitors) {
      if (meta && !EmulatorStore.metaMatches(m, meta)) continue;
      out.push(this.monitorData(id, begin, end, average));
    }
    return out;
  }

  /** One array of hops per SMTP test message that came back, started in [begin, end]. */
  responseAnalysis(monitorId: string, begin: number, end: number): Hop[][] {
    this.sync();
    const m = this.monitorRec(monitorId);
    const stored = this.data.get(monitorId);
    if (stored) {
      return stored.analysis
        .filter((hops) => hops.length > 0 && (hops[0] as Hop).time >= begin && (hops[0] as Hop).time <= end)
        .map((hops) => hops.map((h) => ({ ...h })));
    }
    const { sim, results } = this.results(monitorId, m, begin, end);
    const out: Hop[][] = [];
    for (const r of results) {
      const hops = hopsOf(sim, r);
      if (hops) out.push(hops);
    }
    return out;
  }

  // -------------------------------------------------------------------------------------------
  // Seeding (control API): raw objects added as given, all or nothing.

  seed(body: unknown): SeedResult {
    if (!isObject(body)) throw badRequest('seed: body must be a JSON object {destinations?, monitors?, alerts?, groups?}');
    const list = (k: keyof SeedBody): JsonObject[] => {
      const v = body[k];
      if (v === undefined || v === null) return [];
      if (!Array.isArray(v)) throw badRequest(`seed: ${k} must be an array`);
      return v.map((o, i) => {
        if (!isObject(o)) throw badRequest(`seed: ${k}[${i}] must be an object`);
        return o;
      });
    };
    const destinations = list('destinations');
    const monitors = list('monitors');
    const alerts = list('alerts');
    const groups = list('groups');
    const extra = Object.keys(body).filter((k) => !['destinations', 'monitors', 'alerts', 'groups'].includes(k));
    if (extra.length) throw badRequest(`seed: unknown key ${extra.join(', ')}`);

    // Validate everything before touching state.
    const explicit = (k: string, objs: JsonObject[], exists: (id: string) => boolean): Set<string> => {
      const ids = new Set<string>();
      objs.forEach((o, i) => {
        if (o.id === undefined || o.id === null) return;
        const id = idOf(o.id);
        if (id === undefined) throw badRequest(`seed: ${k}[${i}].id must be a non-empty string or a number`);
        if (exists(id) || ids.has(id)) throw conflict(`seed: ${k}[${i}].id ${id} already exists`);
        ids.add(id);
      });
      return ids;
    };
    const newDestinationIds = explicit('destinations', destinations, (id) => this.destinations.has(id));
    const newMonitorIds = explicit('monitors', monitors, (id) => this.monitors.has(id));
    const newAlertIds = explicit('alerts', alerts, (id) => this.alerts.has(id));
    const newGroupIds = explicit('groups', groups, (id) => this.groups.has(id));
    const monitorKnown = (id: string): boolean => this.monitors.has(id) || newMonitorIds.has(id);
    monitors.forEach((o, i) => {
      for (const f of ['label', 'type'] as const) {
        if (typeof o[f] !== 'string') throw badRequest(`seed: monitors[${i}].${f} must be a string`);
      }
    });
    alerts.forEach((o, i) => {
      const mid = idOf(o.monitor);
      if (mid === undefined || !monitorKnown(mid)) {
        throw badRequest(`seed: alerts[${i}].monitor ${show(o.monitor)} is not a known monitor id`);
      }
    });
    groups.forEach((o, i) => {
      if (typeof o.name !== 'string') throw badRequest(`seed: groups[${i}].name must be a string`);
      if (o.monitors !== undefined && o.monitors !== null) {
        if (!Array.isArray(o.monitors)) throw badRequest(`seed: groups[${i}].monitors must be an array of monitor ids`);
        for (const m of o.monitors) {
          const mid = idOf(m);
          if (mid === undefined || !monitorKnown(mid)) {
            throw badRequest(`seed: groups[${i}].monitors: ${show(m)} is not a known monitor id`);
          }
        }
      }
    });

    this.sync();
    const result: SeedResult = { destinations: [], monitors: [], alerts: [], groups: [] };
    const assign = (kind: Kind, o: JsonObject, taken: (id: string) => boolean): string => {
      const given = idOf(o.id);
      if (given !== undefined) {
        this.noteId(kind, given);
        return given;
      }
      return this.nextId(kind, taken);
    };
    for (const o of destinations) {
      const id = assign('destination', o, (x) => this.destinations.has(x) || newDestinationIds.has(x));
      const { id: _given, ...rest } = o;
      this.destinations.set(id, { id, ...rest });
      result.destinations.push(id);
    }
    for (const o of monitors) {
      const id = assign('monitor', o, (x) => this.monitors.has(x) || newMonitorIds.has(x));
      const { id: _given, alerts: a, groups: g, ...rest } = o;
      this.monitors.set(id, this.newMonitorRec({ id, ...rest }, a !== undefined, g !== undefined));
      result.monitors.push(id);
    }
    for (const o of alerts) {
      const id = assign('alert', o, (x) => this.alerts.has(x) || newAlertIds.has(x));
      const monitor = idOf(o.monitor) as string;
      const { id: _given, ...rest } = o;
      this.alerts.set(id, { id, ...rest, monitor });
      this.alertStates.set(id, newAlertState(this.nowSec()));
      this.monitorRec(monitor).alerts.add(id);
      result.alerts.push(id);
    }
    for (const o of groups) {
      const id = assign('group', o, (x) => this.groups.has(x) || newGroupIds.has(x));
      const members = Array.isArray(o.monitors) ? o.monitors.map((m) => idOf(m) as string) : [];
      this.groups.set(id, { id, name: o.name as string, monitors: new Set(members) });
      for (const m of members) this.monitorRec(m).groups.add(id);
      result.groups.push(id);
    }
    this.changed();
    return result;
  }

  // -------------------------------------------------------------------------------------------
  // Whole-state operations: reset, snapshot, load.

  clear(): void {
    this.monitors.clear();
    this.alerts.clear();
    this.groups.clear();
    this.destinations.clear();
    this.pauses.clear();
    this.activeMonitors.clear();
    this.data.clear();
    this.counters = { ...FIRST_IDS };
    this.clock.reset();
    this.clearSimulation({ ...this.defaultSim }, this.currentMinute());
    this.changed();
  }

  private clearSimulation(sim: SimConfig, lastMinute: number): void {
    this.sim = sim;
    this.alertStates.clear();
    this.trackers.clear();
    this.outboxList = [];
    this.lastMinute = lastMinute;
  }

  snapshot(): Snapshot {
    // Every pause still held, ended or not: one that ended after the last minute check still
    // decides the minutes up to its end when the state is loaded again.
    const pauses: { id: string; until_ms: number }[] = [];
    for (const [id, until] of this.pauses) pauses.push({ id, until_ms: until });
    return {
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_VERSION,
      clock_offset_ms: this.clock.offset,
      counters: { ...this.counters },
      destinations: this.listDestinations(),
      monitors: this.listMonitors(),
      alerts: [...this.alerts.values()].map((a) => this.renderAlert(a)),
      groups: [...this.groups.values()].map((g) => ({ id: g.id, name: g.name, monitors: [...g.monitors] })),
      pauses,
      alert_active: [...this.activeMonitors],
      data: [...this.data].map(([monitor, d]) => ({ monitor, items: d.items, analysis: d.analysis })),
      simulation: { seed: this.sim.seed, failure_rate: this.sim.failureRate, last_minute: this.lastMinute },
      monitor_sim: [...this.monitors].map(([monitor, m]) => ({
        monitor,
        created: m.created,
        segments: m.segments.map((g) => ({ ...g })),
        outages: m.outages.map((o) => ({ ...o })),
      })),
      alert_sim: [...this.alertStates].map(([alert, st]) => ({ alert, ...st, events: st.events.map((e) => ({ ...e })) })),
      outbox: this.outboxList.map((m) => ({ ...m })),
    };
  }

  /** Replaces the whole state with a snapshot; throws a plain Error naming what is wrong. */
  load(snap: unknown): void {
    const s = checkSnapshot(snap);
    this.monitors.clear();
    this.alerts.clear();
    this.groups.clear();
    this.destinations.clear();
    this.pauses.clear();
    this.activeMonitors.clear();
    this.data.clear();
    // The clock first: monitors of a version 1 file start their tests from now.
    this.clock.reset(s.clock_offset_ms);
    const sim = s.simulation;
    this.clearSimulation(
      sim ? { seed: sim.seed, failureRate: sim.failure_rate } : { ...this.defaultSim },
      sim ? sim.last_minute : this.currentMinute(),
    );
    for (const d of s.destinations) this.destinations.set(idOf(d.id) as string, d);
    for (const o of s.monitors) {
      const { alerts: a, groups: g, ...raw } = o;
      this.monitors.set(idOf(o.id) as string, this.newMonitorRec(raw, a !== undefined, g !== undefined));
    }
    for (const ms of s.monitor_sim ?? []) {
      const m = this.monitors.get(ms.monitor);
      if (!m) continue;
      m.created = ms.created;
      m.segments = ms.segments.map((g) => ({ ...g }));
      m.outages = ms.outages.map((o) => ({ ...o }));
    }
    const states = new Map((s.alert_sim ?? []).map(({ alert, ...st }) => [alert, st] as const));
    for (const a of s.alerts) {
      const id = idOf(a.id) as string;
      const m = this.monitors.get(asString(a.monitor));
      if (!m) throw new Error(`alert ${id} refers to missing monitor ${show(a.monitor)}`);
      this.alerts.set(id, a);
      m.alerts.add(id);
      const st = states.get(id);
      this.alertStates.set(id, st ? { ...st, events: st.events.map((e) => ({ ...e })) } : newAlertState(this.nowSec()));
    }
    this.outboxList = (s.outbox ?? []).map((m) => ({ ...m }));
    for (const g of s.groups) {
      this.groups.set(g.id, { id: g.id, name: g.name, monitors: new Set(g.monitors.filter((m) => this.monitors.has(m))) });
      for (const m of g.monitors) this.monitors.get(m)?.groups.add(g.id);
    }
    for (const p of s.pauses) if (this.alerts.has(p.id)) this.pauses.set(p.id, p.until_ms);
    for (const m of s.alert_active) if (this.monitors.has(m)) this.activeMonitors.add(m);
    for (const d of s.data) if (this.monitors.has(d.monitor)) this.data.set(d.monitor, { items: d.items, analysis: d.analysis });
    this.counters = { ...FIRST_IDS, ...s.counters };
    this.changed();
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers for data and snapshots

function parseDataItems(v: unknown): DataItemIn[] {
  if (!Array.isArray(v)) throw badRequest('items: must be an array of data items');
  return v.map((o, i) => {
    if (!isObject(o)) throw badRequest(`items[${i}]: must be an object`);
    const t = o.utc_mktime;
    if (typeof t !== 'number' || !Number.isInteger(t)) throw badRequest(`items[${i}].utc_mktime: required integer unix seconds`);
    const value = o.value ?? null;
    if (value !== null && typeof value !== 'number') throw badRequest(`items[${i}].value: must be a number or null`);
    const failed = o.failed ?? false;
    if (typeof failed !== 'boolean') throw badRequest(`items[${i}].failed: must be a boolean`);
    const error = o.error ?? null;
    if (error !== null && typeof error !== 'string') throw badRequest(`items[${i}].error: must be a string or null`);
    const samples = o.samples ?? null;
    if (samples !== null && (typeof samples !== 'number' || !Number.isInteger(samples))) {
      throw badRequest(`items[${i}].samples: must be an integer or null`);
    }
    const matches = o.alert_matches ?? [];
    if (!Array.isArray(matches) || !matches.every((x) => typeof x === 'string')) {
      throw badRequest(`items[${i}].alert_matches: must be an array of alert ids`);
    }
    const item: DataItemIn = { utc_mktime: t, value, failed, error, samples, alert_matches: matches as string[] };
    if (typeof o.time === 'string') item.time = o.time;
    if (typeof o.utc_time === 'string') item.utc_time = o.utc_time;
    return item;
  });
}

function parseAnalysis(v: unknown): Hop[][] {
  if (!Array.isArray(v)) throw badRequest('analysis: must be an array of arrays of hops');
  return v.map((hops, i) => {
    if (!Array.isArray(hops)) throw badRequest(`analysis[${i}]: must be an array of hops`);
    return hops.map((h, j) => {
      const where = `analysis[${i}][${j}]`;
      if (!isObject(h)) throw badRequest(`${where}: must be an object`);
      if (typeof h.source !== 'string' || typeof h.destination !== 'string') {
        throw badRequest(`${where}: source and destination must be strings`);
      }
      if (!Number.isInteger(h.time) || !Number.isInteger(h.duration)) {
        throw badRequest(`${where}: time and duration must be integers`);
      }
      return { source: h.source, destination: h.destination, time: h.time as number, duration: h.duration as number };
    });
  });
}

function checkFailureRate(v: number): number {
  if (typeof v !== 'number' || !(v >= 0 && v <= 1)) throw new Error(`failure rate must be a number from 0 to 1, got ${show(v)}`);
  return v;
}

function dataItemOf(r: TestResult, alertMatches: string[]): DataItemIn {
  return { utc_mktime: r.t, value: r.ms, failed: !r.complete, error: r.error, samples: null, alert_matches: alertMatches };
}

function averageItems(items: DataItemIn[], bucketSeconds: number): DataItemIn[] {
  const buckets = new Map<number, DataItemIn[]>();
  for (const i of items) {
    const b = Math.floor(i.utc_mktime / bucketSeconds) * bucketSeconds;
    const list = buckets.get(b);
    if (list) list.push(i);
    else buckets.set(b, [i]);
  }
  const out: DataItemIn[] = [];
  for (const [start, list] of buckets) {
    const values = list.map((i) => i.value).filter((v): v is number => v !== null);
    out.push({
      utc_mktime: start,
      value: values.length ? values.reduce((a, b) => a + b, 0) / values.length : null,
      failed: list.every((i) => i.failed),
      error: null,
      samples: list.length,
      alert_matches: [...new Set(list.flatMap((i) => i.alert_matches))],
    });
  }
  return out;
}

function renderDataItem(i: DataItemIn, tz: string | undefined): JsonObject {
  const ms = i.utc_mktime * 1000;
  return {
    value: i.value,
    failed: i.failed,
    error: i.error,
    samples: i.samples,
    alert_matches: [...i.alert_matches],
    time: i.time ?? zonedIso(ms, tz),
    utc_time: i.utc_time ?? utcIso(ms),
    utc_mktime: i.utc_mktime,
  };
}

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
    if (!isObject(sim) || typeof sim.seed !== 'string' || !isNum(sim.failure_rate) || sim.failure_rate < 0 || sim.failure_rate > 1 || !isNum(sim.last_minute)) {
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
      m.outages.every((o) => isObject(o) && isNum(o.start) && isNum(o.until));
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
