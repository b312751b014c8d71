/**
 * The emulator's state: pure TypeScript, no HTTP. `EmulatorStore` is the one door to it for the
 * routes, the control API and the tests; behind it the state (state.ts) is shared by one module
 * per concern, in the order of the API document:
 *
 * | module          | concern                                                                  |
 * |-----------------|--------------------------------------------------------------------------|
 * | resources.ts    | monitors, alerts, groups, alert destinations (4.3 to 4.5, 4.7)          |
 * | pauses.ts       | pauses (4.6)                                                             |
 * | simulation.ts   | the minute checks (`sync`), settings, outages, the outbox                |
 * | status.ts       | v1, v2 and filtered status (4.1, 4.2)                                    |
 * | data.ts         | test data and hop analysis (4.8), data set through the control API      |
 * | seed.ts         | seeding raw objects through the control API                              |
 * | snapshot.ts     | reset, snapshot, load (the state file)                                   |
 *
 * Objects are kept in their wire form: seeded objects with quirks are served back as given; only
 * `alerts` and `groups` of a monitor are computed from the relations, so they always reflect
 * reality. Errors are StoreError (status and message), turned into answers by the routes.
 */
import { EmulatorClock } from '../clock.js';
import { DEFAULT_FAILURE_RATE, DEFAULT_SIM_SEED, type Hop, type RoundTripFault } from '../simulation.js';
import type { JsonObject } from '../validate.js';
import * as data from './data.js';
import * as pauses from './pauses.js';
import * as resources from './resources.js';
import { seed } from './seed.js';
import * as sim from './simulation.js';
import * as snap from './snapshot.js';
import { renderAlert, renderMonitor, StoreState } from './state.js';
import * as status from './status.js';
import type {
  Average,
  FilterQuery,
  GroupMembers,
  MonitorDataView,
  OutboxMessage,
  PausedAlert,
  SeedResult,
  SimulationOptions,
  SimulationView,
  Snapshot,
  StatusEntry,
} from './types.js';

export { StoreError } from '../errors.js';
export { displayType } from '../monitor-types.js';
export {
  FIRST_IDS,
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  type Average,
  type DataItemIn,
  type FilterQuery,
  type Hop,
  type Json,
  type JsonObject,
  type Kind,
  type OutboxMessage,
  type SeedBody,
  type SeedName,
  type SeedResult,
  type SimulationOptions,
  type SimulationView,
  type Snapshot,
  type StatusEntry,
} from './types.js';

export class EmulatorStore {
  readonly clock: EmulatorClock;
  private readonly st: StoreState;

  constructor(clock: EmulatorClock = new EmulatorClock(), simulation: SimulationOptions = {}) {
    this.clock = clock;
    this.st = new StoreState(clock, {
      seed: simulation.simSeed === undefined ? DEFAULT_SIM_SEED : String(simulation.simSeed),
      failureRate: sim.checkFailureRate(simulation.failureRate ?? DEFAULT_FAILURE_RATE),
    });
  }

  /** Bumped on every state change; the persister and tests watch it. */
  get revision(): number {
    return this.st.revision;
  }

  onChange(listener: () => void): void {
    this.st.onChange(listener);
  }

  /** Marks a change made outside the store's own methods (the clock) so it is persisted. */
  touch(): void {
    this.st.changed();
  }

  get counts(): Record<'monitors' | 'alerts' | 'groups' | 'destinations' | 'pauses', number> {
    const { monitors, alerts, groups, destinations, pauses: p } = this.st;
    return { monitors: monitors.size, alerts: alerts.size, groups: groups.size, destinations: destinations.size, pauses: p.size };
  }

  hasMonitor(id: string): boolean {
    return this.st.monitors.has(id);
  }

  hasAlert(id: string): boolean {
    return this.st.alerts.has(id);
  }

  // Resources (4.3 to 4.5, 4.7): resources.ts

  listMonitors(): JsonObject[] {
    return resources.listMonitors(this.st);
  }

  getMonitor(id: string): JsonObject {
    return renderMonitor(this.st.monitorRec(id));
  }

  createMonitor(body: unknown): JsonObject {
    return resources.createMonitor(this.st, body);
  }

  updateMonitor(id: string, body: unknown): JsonObject {
    return resources.updateMonitor(this.st, id, body);
  }

  deleteMonitor(id: string): JsonObject {
    return resources.deleteMonitor(this.st, id);
  }

  listAlerts(): JsonObject[] {
    return resources.listAlerts(this.st);
  }

  getAlert(id: string): JsonObject {
    return renderAlert(this.st.alertRec(id));
  }

  createAlert(body: unknown): JsonObject {
    return resources.createAlert(this.st, body);
  }

  updateAlert(id: string, body: unknown): JsonObject {
    return resources.updateAlert(this.st, id, body);
  }

  deleteAlert(id: string): JsonObject {
    return resources.deleteAlert(this.st, id);
  }

  listGroups(): { id: string; name: string }[] {
    return resources.listGroups(this.st);
  }

  getGroup(id: string): GroupMembers {
    return resources.groupMembers(this.st, this.st.groupRec(id));
  }

  createGroup(body: unknown): { id: string; name: string; monitors: string[] | null } {
    return resources.createGroup(this.st, body);
  }

  updateGroup(id: string, body: unknown): { replace: boolean; group: GroupMembers } {
    return resources.updateGroup(this.st, id, body);
  }

  deleteGroup(id: string): { name: string; id: string } {
    return resources.deleteGroup(this.st, id);
  }

  listDestinations(): JsonObject[] {
    return resources.listDestinations(this.st);
  }

  getDestination(id: string): JsonObject {
    return resources.getDestination(this.st, id);
  }

  // Pauses (4.6): pauses.ts

  listPauses(): PausedAlert[] {
    return pauses.listPauses(this.st);
  }

  pauseAll(seconds: number): string[] {
    return pauses.pauseAll(this.st, seconds);
  }

  pauseAlert(alertId: string, seconds: number): { alert: string; monitor: string } {
    return pauses.pauseAlert(this.st, alertId, seconds);
  }

  pauseMonitor(monitorId: string, seconds: number): string[] {
    return pauses.pauseMonitor(this.st, monitorId, seconds);
  }

  resumeAll(): string[] {
    return pauses.resumeAll(this.st);
  }

  /** A monitor id ends its alerts' pauses; an alert id that alert's (service-notes). */
  resumeMonitor(id: string): string[] {
    return pauses.resumeMonitor(this.st, id);
  }

  // The simulation: simulation.ts

  /** Runs the alert checks of every whole minute up to now; every request calls it first. */
  sync(): void {
    sim.sync(this.st);
  }

  simulation(): SimulationView {
    return sim.simulationView(this.st);
  }

  setSimulation(body: unknown): SimulationView {
    return sim.setSimulation(this.st, body);
  }

  /** `POST /_emulator/history`: `days` of history for every monitor, with outages placed (simulation.ts `seedHistory`). */
  seedHistory(body: unknown): sim.HistoryView {
    return sim.seedHistory(this.st, body);
  }

  setOutage(monitorId: string, seconds: number): { monitor: string; until: number } {
    return sim.setOutage(this.st, monitorId, seconds);
  }

  setRoundTrip(monitorId: string, fault: RoundTripFault | null): { monitor: string; fault: RoundTripFault | 'none' } {
    return sim.setRoundTrip(this.st, monitorId, fault);
  }

  outbox(since = 0): OutboxMessage[] {
    return sim.outbox(this.st, since);
  }

  clearOutbox(): number {
    return sim.clearOutbox(this.st);
  }

  // Status (4.1, 4.2): status.ts

  setAlertActive(monitorId: string, active: boolean): void {
    status.setAlertActive(this.st, monitorId, active);
  }

  statusEntries(): StatusEntry[] {
    return status.statusEntries(this.st);
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

  filterStatus(q: FilterQuery): JsonObject[] {
    return status.filterStatus(this.st, q);
  }

  // Data (4.8): data.ts

  addData(monitorId: string, items: unknown, analysis: unknown): { items: number; analysis: number } {
    return data.addData(this.st, monitorId, items, analysis);
  }

  monitorData(monitorId: string, begin: number, end: number, average: Average): MonitorDataView {
    return data.monitorData(this.st, monitorId, begin, end, average);
  }

  allMonitorData(begin: number, end: number, average: Average, meta: [string, string][] | undefined): MonitorDataView[] {
    return data.allMonitorData(this.st, begin, end, average, meta);
  }

  responseAnalysis(monitorId: string, begin: number, end: number): Hop[][] {
    return data.responseAnalysis(this.st, monitorId, begin, end);
  }

  // Seeding and the whole state: seed.ts, snapshot.ts

  seed(body: unknown): SeedResult {
    return seed(this.st, body);
  }

  /** Back to an empty account; the clock offset and simulation settings to their start values. */
  clear(): void {
    snap.reset(this.st);
  }

  snapshot(): Snapshot {
    return snap.snapshot(this.st);
  }

  /** Replaces the whole state with a snapshot; throws a plain Error naming what is wrong. */
  load(snapshot: unknown): void {
    snap.load(this.st, snapshot);
  }
}
