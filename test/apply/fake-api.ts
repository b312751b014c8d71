/**
 * An in-memory MonitoringApi for the apply engine's tests: a small store of monitors, alerts and
 * groups with the service's rules that matter to apply (ids must exist, deleting a monitor deletes
 * its alerts and drops it from groups, updateAlert answers nothing), plus faults and latency that
 * tests control call by call.
 *
 * It stands for the client after its retries: each call is one request that succeeds or fails as
 * the test says (a fault is what the client gives up with). A create whose fault may have been
 * applied goes through the client's own settleLostCreate with the caller's lookup, as the HTTP
 * client does, but is never sent again.
 */
import { ApiError } from '../../src/api/errors.js';
import { settleLostCreate } from '../../src/api/lost-create.js';
import type {
  AlertCreate,
  CallOptions,
  ClientStats,
  CreateOptions,
  GroupCreate,
  GroupUpdate,
  MonitorCreate,
  MonitorUpdate,
  MonitoringApi,
} from '../../src/api/types.js';
import { MONITOR_FIELD_DEFAULTS, MONITOR_SPEC_FIELDS } from '../../src/model/fields.js';
import type { Alert, Group, GroupSummary, LiveMonitorFields, Monitor } from '../../src/model/live.js';

export interface CallInfo {
  /** 1-based position among all calls made to this fake. */
  seq: number;
  name: string;
  args: unknown[];
}

export type Fault =
  /** Refused before anything happens (a 503, say). */
  | { type: 'fail'; error?: ApiError }
  /** Acted on, then the answer is lost: the caller sees a timeout with maybeApplied. */
  | { type: 'lose' };

export interface FakeOptions {
  fault?: (call: CallInfo) => Fault | undefined;
  /** Awaited before the call is processed: lets a test hold a call in flight. */
  gate?: (call: CallInfo) => Promise<void> | undefined;
  /** The API document shows no response for modify alert; default true. */
  updateAlertReturnsNull?: boolean;
}

export interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

export function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Lets queued promise callbacks run: enough for the engine to react to a settled call. */
export async function flush(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}

const PATHS: Record<string, (args: unknown[]) => [string, string]> = {
  createMonitor: () => ['POST', '/v1/Config/Monitor/'],
  updateMonitor: (a) => ['PUT', `/v1/Config/Monitor/${String(a[0])}/`],
  deleteMonitor: (a) => ['DELETE', `/v1/Config/Monitor/${String(a[0])}/`],
  createAlert: () => ['POST', '/v1/Config/Alert/'],
  updateAlert: (a) => ['PUT', `/v1/Config/Alert/${String(a[0])}/`],
  deleteAlert: (a) => ['DELETE', `/v1/Config/Alert/${String(a[0])}/`],
  createGroup: () => ['POST', '/v1/Config/Group/'],
  updateGroup: (a) => ['PUT', `/v1/Config/Group/${String(a[0])}/`],
  deleteGroup: (a) => ['DELETE', `/v1/Config/Group/${String(a[0])}/`],
  listMonitors: () => ['GET', '/v1/Config/Monitor/'],
  listAlerts: () => ['GET', '/v1/Config/Alert/'],
  listGroups: () => ['GET', '/v1/Config/Group/'],
  getAlert: (a) => ['GET', `/v1/Config/Alert/${String(a[0])}/`],
  getMonitor: (a) => ['GET', `/v1/Config/Monitor/${String(a[0])}/`],
  getGroup: (a) => ['GET', `/v1/Config/Group/${String(a[0])}/`],
};

export function unavailable(name: string, args: unknown[] = []): ApiError {
  const [method, path] = (PATHS[name] ?? (() => ['GET', '/']))(args);
  return new ApiError({ kind: 'http', method, path, status: 503, message: 'HTTP 503 Service Unavailable' });
}

export function lostAnswer(name: string, args: unknown[] = []): ApiError {
  const [method, path] = (PATHS[name] ?? (() => ['GET', '/']))(args);
  return new ApiError({ kind: 'timeout', method, path, message: 'no answer within 30 s', maybeApplied: true });
}

/** The service answered 503 after the body was sent: it may have acted, but it is done with the request. */
export function answered503(name: string, args: unknown[] = []): ApiError {
  const [method, path] = (PATHS[name] ?? (() => ['GET', '/']))(args);
  return new ApiError({ kind: 'http', method, path, status: 503, message: 'HTTP 503', maybeApplied: true });
}

export function refused(name: string, serviceError: string, args: unknown[] = []): ApiError {
  const [method, path] = (PATHS[name] ?? (() => ['GET', '/']))(args);
  return new ApiError({ kind: 'service', method, path, status: 200, serviceError, message: `the service refused: ${serviceError}` });
}

function notFound(name: string, args: unknown[]): ApiError {
  const [method, path] = PATHS[name]!(args);
  return new ApiError({ kind: 'http', method, path, status: 404, serviceError: 'unknown id', message: 'HTTP 404 Not Found' });
}

interface StoredGroup {
  id: string;
  name: string;
  members: string[];
}

export class FakeApi implements MonitoringApi {
  readonly baseUrl = 'http://127.0.0.1:0';
  readonly stats: ClientStats = { requests: 0, retries: 0 };
  readonly monitors = new Map<string, Monitor>();
  readonly alerts = new Map<string, Alert>();
  readonly groups = new Map<string, StoredGroup>();
  readonly calls: CallInfo[] = [];
  inFlight = 0;
  maxInFlight = 0;
  private nextId = 1000;

  constructor(private readonly opts: FakeOptions = {}) {}

  // ---- seeding (no calls counted) ----

  seedMonitor(label: string, extra: Partial<Monitor> = {}): Monitor {
    const m = this.makeMonitor({ type: 'smtp', label, timer: 5, time_zone: 'UTC', ip_address: 'mx', test_account: 't@example.com' });
    Object.assign(m, extra);
    this.monitors.set(m.id, m);
    return m;
  }

  seedAlert(monitorId: string, subject: string): Alert {
    const a = this.makeAlert({ type: 'up-down', monitor: monitorId, subject_init: subject, subject_term: `${subject} up`, timeout: 10 });
    this.alerts.set(a.id, a);
    this.monitors.get(monitorId)?.alerts.push(a.id);
    return a;
  }

  seedGroup(name: string, members: string[] = []): StoredGroup {
    const g = { id: this.id(), name, members: [...members] };
    this.groups.set(g.id, g);
    return g;
  }

  // ---- call plumbing ----

  private id(): string {
    this.nextId += 1;
    return String(this.nextId);
  }

  private async call<T>(name: string, args: unknown[], apply: () => T, opts: CallOptions = {}): Promise<T> {
    const info: CallInfo = { seq: this.calls.length + 1, name, args };
    this.calls.push(info);
    this.stats.requests += 1;
    opts.onAttempt?.(1);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await Promise.resolve();
      const gate = this.opts.gate?.(info);
      if (gate) await gate;
      const fault = this.opts.fault?.(info);
      if (fault?.type === 'fail') throw fault.error ?? unavailable(name, args);
      const out = apply();
      if (fault?.type === 'lose') throw lostAnswer(name, args);
      // A copy, as a real client would give: callers must not reach into the store.
      return structuredClone(out);
    } finally {
      this.inFlight -= 1;
    }
  }

  /** A create: call(), and for a failure that may have been applied, the caller's lookup. */
  private async create<T extends object>(name: string, args: unknown[], apply: () => T, opts: CreateOptions<T> = {}): Promise<T> {
    try {
      return await this.call(name, args, apply, opts);
    } catch (err) {
      if (!(err instanceof ApiError) || !err.maybeApplied || opts.lookup === undefined) throw err;
      const found = await settleLostCreate(err, opts.lookup, opts.signal);
      if (found === undefined) throw err;
      return found;
    }
  }

  callsNamed(name: string): CallInfo[] {
    return this.calls.filter((c) => c.name === name);
  }

  private makeMonitor(b: MonitorCreate): Monitor {
    return {
      id: this.id(),
      label: b.label,
      type: b.type,
      description: null,
      // Every SMTP field of the table: as given, or its documented default.
      ...(Object.fromEntries(MONITOR_SPEC_FIELDS.map((f) => [f, b[f] ?? (MONITOR_FIELD_DEFAULTS as Record<string, unknown>)[f] ?? null])) as LiveMonitorFields),
      use_client_cert: false,
      timeout: 60,
      time_zone: b.time_zone,
      data_label: 'seconds',
      meta: { ...(b.meta ?? {}) },
      alerts: [],
      groups: [],
    };
  }

  private makeAlert(b: AlertCreate): Alert {
    return {
      id: this.id(),
      type: b.type,
      monitor: b.monitor,
      alert_destinations: [...(b.alert_destinations ?? [])],
      subject_init: b.subject_init,
      subject_term: b.subject_term,
      message_init: b.message_init ?? '',
      message_term: b.message_term ?? '',
      down_only: b.down_only ?? false,
      repeat: b.repeat ?? false,
      timeout: b.timeout,
      violations: null,
    };
  }

  private checkIds(name: string, args: unknown[], ids: unknown[] | undefined): void {
    for (const id of ids ?? []) {
      // An unresolved {$ref} reaching the service would land here.
      if (typeof id !== 'string' || !this.monitors.has(id)) throw refused(name, `monitors: unknown id ${JSON.stringify(id)}`, args);
    }
  }

  private groupView(g: StoredGroup): Group {
    return { id: g.id, name: g.name, members: g.members.map((id) => ({ id, label: this.monitors.get(id)?.label ?? null })) };
  }

  // ---- 4.4 monitors ----

  listMonitors(_opts?: CallOptions): Promise<Monitor[]> {
    return this.call('listMonitors', [], () => [...this.monitors.values()]);
  }
  getMonitor(id: string): Promise<Monitor> {
    return this.call('getMonitor', [id], () => {
      const m = this.monitors.get(id);
      if (!m) throw notFound('getMonitor', [id]);
      return m;
    });
  }
  createMonitor(body: MonitorCreate, opts?: CreateOptions<Monitor>): Promise<Monitor> {
    return this.create('createMonitor', [body], () => {
      if (typeof body.label !== 'string' || body.type !== 'smtp') throw refused('createMonitor', 'label: required');
      const m = this.makeMonitor(body);
      this.monitors.set(m.id, m);
      return m;
    }, opts);
  }
  updateMonitor(id: string, body: MonitorUpdate, opts?: CallOptions): Promise<Monitor> {
    return this.call('updateMonitor', [id, body], () => {
      const m = this.monitors.get(id);
      if (!m) throw notFound('updateMonitor', [id]);
      const { attachment, meta, ...rest } = body;
      Object.assign(m, rest);
      if (attachment !== undefined) m.attachment = attachment === '' ? null : attachment;
      if (meta !== undefined) m.meta = { ...meta };
      return m;
    }, opts);
  }
  deleteMonitor(id: string, opts?: CallOptions): Promise<Monitor> {
    return this.call('deleteMonitor', [id], () => {
      const m = this.monitors.get(id);
      if (!m) throw notFound('deleteMonitor', [id]);
      this.monitors.delete(id);
      for (const a of [...this.alerts.values()]) if (a.monitor === id) this.alerts.delete(a.id);
      for (const g of this.groups.values()) g.members = g.members.filter((x) => x !== id);
      return m;
    }, opts);
  }

  // ---- 4.5 alerts ----

  listAlerts(_opts?: CallOptions): Promise<Alert[]> {
    return this.call('listAlerts', [], () => [...this.alerts.values()]);
  }
  getAlert(id: string, _opts?: CallOptions): Promise<Alert> {
    return this.call('getAlert', [id], () => {
      const a = this.alerts.get(id);
      if (!a) throw notFound('getAlert', [id]);
      return a;
    });
  }
  createAlert(body: AlertCreate, opts?: CreateOptions<Alert>): Promise<Alert> {
    return this.create('createAlert', [body], () => {
      this.checkIds('createAlert', [body], [body.monitor]);
      const a = this.makeAlert(body);
      this.alerts.set(a.id, a);
      this.monitors.get(a.monitor)!.alerts.push(a.id);
      return a;
    }, opts);
  }
  updateAlert(id: string, body: AlertCreate, opts?: CallOptions): Promise<Alert | null> {
    return this.call('updateAlert', [id, body], () => {
      const a = this.alerts.get(id);
      if (!a) throw notFound('updateAlert', [id]);
      this.checkIds('updateAlert', [id, body], [body.monitor]);
      const next = { ...this.makeAlert(body), id, violations: a.violations };
      this.alerts.set(id, next);
      return this.opts.updateAlertReturnsNull === false ? next : null;
    }, opts);
  }
  deleteAlert(id: string, opts?: CallOptions): Promise<Alert> {
    return this.call('deleteAlert', [id], () => {
      const a = this.alerts.get(id);
      if (!a) throw notFound('deleteAlert', [id]);
      this.alerts.delete(id);
      const m = this.monitors.get(a.monitor);
      if (m) m.alerts = m.alerts.filter((x) => x !== id);
      return a;
    }, opts);
  }

  // ---- 4.3 groups ----

  listGroups(_opts?: CallOptions): Promise<GroupSummary[]> {
    return this.call('listGroups', [], () => [...this.groups.values()].map((g) => ({ id: g.id, name: g.name })));
  }
  getGroup(id: string, _opts?: CallOptions): Promise<Group> {
    return this.call('getGroup', [id], () => {
      const g = this.groups.get(id);
      if (!g) throw notFound('getGroup', [id]);
      return this.groupView(g);
    });
  }
  createGroup(body: GroupCreate, opts?: CreateOptions<Group>): Promise<Group> {
    return this.create('createGroup', [body], () => {
      this.checkIds('createGroup', [body], body.monitors);
      const g = { id: this.id(), name: body.name, members: [...new Set(body.monitors ?? [])] };
      this.groups.set(g.id, g);
      return this.groupView(g);
    }, opts);
  }
  updateGroup(id: string, body: GroupUpdate, opts?: CallOptions): Promise<Group> {
    return this.call('updateGroup', [id, body], () => {
      const g = this.groups.get(id);
      if (!g) throw notFound('updateGroup', [id]);
      this.checkIds('updateGroup', [id, body], body.monitors);
      g.name = body.name;
      const given = body.monitors ?? [];
      g.members = body.replace ? [...new Set(given)] : [...new Set([...g.members, ...given])];
      return this.groupView(g);
    }, opts);
  }
  deleteGroup(id: string, opts?: CallOptions): Promise<GroupSummary> {
    return this.call('deleteGroup', [id], () => {
      const g = this.groups.get(id);
      if (!g) throw notFound('deleteGroup', [id]);
      this.groups.delete(id);
      return { id: g.id, name: g.name };
    }, opts);
  }

  // ---- not used by apply ----

  private notHere(name: string): Promise<never> {
    return Promise.reject(new Error(`FakeApi.${name} is not used by apply`));
  }
  getToken() {
    return this.notHere('getToken');
  }
  getV2Status() {
    return this.notHere('getV2Status');
  }
  getV2Version() {
    return this.notHere('getV2Version');
  }
  getStatus() {
    return this.notHere('getStatus');
  }
  getStatusFilter() {
    return this.notHere('getStatusFilter');
  }
  listPausedAlerts() {
    return this.notHere('listPausedAlerts');
  }
  pauseAllAlerts() {
    return this.notHere('pauseAllAlerts');
  }
  pauseAlert() {
    return this.notHere('pauseAlert');
  }
  pauseMonitor() {
    return this.notHere('pauseMonitor');
  }
  resumeAllAlerts() {
    return this.notHere('resumeAllAlerts');
  }
  resumeMonitor() {
    return this.notHere('resumeMonitor');
  }
  listDestinations() {
    return this.notHere('listDestinations');
  }
  getDestination() {
    return this.notHere('getDestination');
  }
  getAllMonitorData() {
    return this.notHere('getAllMonitorData');
  }
  getMonitorData() {
    return this.notHere('getMonitorData');
  }
  getResponseAnalysis() {
    return this.notHere('getResponseAnalysis');
  }
}
