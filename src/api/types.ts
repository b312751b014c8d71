/**
 * The surface of the API client that the rest of monsync codes against. src/api/client.ts
 * implements it over HTTP; tests may implement it in memory. One method per endpoint of API
 * sections 4.1 to 4.8. Results are canonical (src/model/live.ts), never raw wire shapes.
 */
import type { MonitorSpecValues } from '../model/fields.js';
import type { Alert, Attachment, Destination, Group, GroupSummary, Monitor } from '../model/live.js';

/**
 * POST /v1/Config/Monitor/ body (SMTP): the fields of MONITOR_FIELD_TABLE (model/fields.ts), the
 * required ones present; no attachment is sent as none (omitted on create).
 */
export type MonitorCreate = Omit<MonitorSpecValues, 'attachment'> & {
  type: 'smtp';
  label: string;
  attachment?: Attachment;
  meta?: Record<string, string>;
};

/** PUT /v1/Config/Monitor/{id}/: only given fields change. `attachment: ''` clears it. */
export type MonitorUpdate = Partial<Omit<MonitorCreate, 'attachment'>> & { attachment?: Attachment | '' };

/** POST and PUT /v1/Config/Alert/ body. The client always sends message_init / message_term. */
export interface AlertCreate {
  type: 'up-down';
  monitor: string;
  subject_init: string;
  subject_term: string;
  timeout: number;
  alert_destinations?: string[];
  message_init?: string;
  message_term?: string;
  down_only?: boolean;
  repeat?: boolean;
}

export interface GroupCreate {
  name: string;
  monitors?: string[];
}

export interface GroupUpdate {
  name: string;
  monitors?: string[];
  replace?: boolean;
}

export interface StatusEntry {
  id: string;
  label: string;
  /** Canonical monitor type (lower case, '-' joined). */
  type: string;
  alert_active: boolean;
}

export interface StatusSummary {
  global_alert_active: boolean;
  monitors: StatusEntry[];
}

/** Test data object (API 2.7); the wire's `flag` is normalised to `complete`. */
export interface TestData {
  duration: number | null;
  error: string | null;
  complete: boolean;
  time_init: string | null;
  time_term: string | null;
  utc_mktime: number | null;
  utc_time_init: string | null;
  utc_time_term: string | null;
}

export interface FilteredStatusEntry {
  monitor: string;
  label: string;
  alert_active: boolean;
  alert_count: number;
  fail_count: number;
  test_count: number;
  last_alert: { alert: string; monitor: string; time: string } | null;
  last_failed: TestData | null;
  last_test: TestData | null;
}

export interface StatusFilterQuery {
  t?: number;
  prefix?: string;
  suffix?: string;
  contains?: string;
  meta?: string;
}

export interface DataItem {
  value: number | null;
  failed: boolean;
  error: string | null;
  samples: number | null;
  alert_matches: string[];
  time: string;
  utc_time: string;
  utc_mktime: number;
}

export interface DataQuery {
  begin?: number;
  end?: number;
  average?: 'raw' | 'hour' | 'day';
}

export interface MonitorData {
  begin: number;
  end: number;
  monitor: string;
  monitor_label: string;
  data: readonly DataItem[];
}

export interface Hop {
  source: string;
  destination: string;
  time: number;
  duration: number;
}

export interface ResponseAnalysis {
  begin: number;
  end: number;
  analysis: Hop[][];
}

export interface PausedAlert {
  id: string;
  monitor: string;
  seconds: number;
}

export interface Token {
  access_token: string;
  token_type: string;
  expires_in: number;
}

/** Options of one call. */
export interface CallOptions {
  /**
   * Once aborted, the call starts no further attempt (nor a create's lookup): the attempt in flight
   * finishes, and the call fails with its error, `interrupted` set. For apply's Ctrl-C / SIGTERM.
   */
  signal?: AbortSignal;
  /** Told before each request the call sends: 1 for the first, 2 for its first retry, ... */
  onAttempt?: (attempt: number) => void;
}

/** Options of the monitor list. */
export interface MonitorListOptions extends CallOptions {
  /**
   * Filled with each monitor's `type` as the service sent it, before normalisation, by id: for a
   * replica that must answer what the original answered (src/ops/clone.ts).
   */
  wireTypes?: Map<string, string>;
}

/** Options of a create. */
export interface CreateOptions<T> extends CallOptions {
  /**
   * How to find what this create would have made (by its natural key). Asked when an attempt may
   * have been applied although its answer was lost; what it finds is the create's result. Without
   * it such a create fails with `maybeApplied` and is never sent again. See retry.ts, rule 4.
   */
  lookup?: () => Promise<T | undefined>;
}

/** Counters for the summary lines of plan and apply. */
export interface ClientStats {
  requests: number;
  retries: number;
}

/**
 * Deletes (deleteGroup, deleteMonitor, deleteAlert, resumeAllAlerts, resumeMonitor): when a retry
 * after a lost answer finds the object already gone, the call succeeds with a result carrying only
 * the given id; `wasAlreadyGone(result)` from src/api/gone.ts is then true. Retries follow the one
 * rule of src/api/retry.ts; callers do not retry on top of it.
 */
export interface MonitoringApi {
  readonly baseUrl: string;
  readonly stats: ClientStats;
  /** Who the client signs in as (v1 user name, else OAuth client id): names the account to a person. */
  readonly user?: string | undefined;
  /**
   * Abandons every request in flight and closes the connections; the client cannot be used
   * afterwards. For a run that ends early: its reads must not hold the process open.
   */
  destroy?(): Promise<void>;
  /**
   * How far the service's clock is ahead of the local one, in milliseconds, from the Date header of
   * its last answer; 0 until an answer carried one, and 0 for a difference the header's whole seconds
   * cannot show. For clock times shown to people (the API gives durations only).
   */
  serviceClockOffsetMs?(): number;
  /** Whether an answer carried a readable Date header yet. */
  serviceClockKnown?(): boolean;

  // 4.1 version 2
  getToken(): Promise<Token>;
  getV2Status(opts?: { all?: boolean }): Promise<StatusSummary>;
  getV2Version(): Promise<Record<string, unknown>>;

  // 4.2 status
  getStatus(): Promise<StatusSummary>;
  getStatusFilter(query: StatusFilterQuery): Promise<{ t: number; monitor_list: FilteredStatusEntry[] }>;

  // 4.3 groups
  listGroups(opts?: CallOptions): Promise<GroupSummary[]>;
  getGroup(id: string, opts?: CallOptions): Promise<Group>;
  createGroup(body: GroupCreate, opts?: CreateOptions<Group>): Promise<Group>;
  updateGroup(id: string, body: GroupUpdate, opts?: CallOptions): Promise<Group>;
  deleteGroup(id: string, opts?: CallOptions): Promise<GroupSummary>;

  // 4.4 monitors
  listMonitors(opts?: MonitorListOptions): Promise<Monitor[]>;
  getMonitor(id: string): Promise<Monitor>;
  createMonitor(body: MonitorCreate, opts?: CreateOptions<Monitor>): Promise<Monitor>;
  updateMonitor(id: string, body: MonitorUpdate, opts?: CallOptions): Promise<Monitor>;
  deleteMonitor(id: string, opts?: CallOptions): Promise<Monitor>;

  // 4.5 alerts
  listAlerts(opts?: CallOptions): Promise<Alert[]>;
  getAlert(id: string, opts?: CallOptions): Promise<Alert>;
  createAlert(body: AlertCreate, opts?: CreateOptions<Alert>): Promise<Alert>;
  /** The API shows no response for modify: resolves to the alert if the service returned one, else null. */
  updateAlert(id: string, body: AlertCreate, opts?: CallOptions): Promise<Alert | null>;
  deleteAlert(id: string, opts?: CallOptions): Promise<Alert>;

  // 4.6 pausing
  listPausedAlerts(): Promise<PausedAlert[]>;
  pauseAllAlerts(seconds: number): Promise<{ alert_list: string[]; seconds: number }>;
  pauseAlert(alertId: string, seconds: number): Promise<{ alert: string; monitor: string; seconds: number }>;
  pauseMonitor(monitorId: string, seconds: number): Promise<{ alert_list: string[]; seconds: number }>;
  resumeAllAlerts(): Promise<{ alert_list: string[] }>;
  resumeMonitor(monitorId: string): Promise<{ alert_list: string[] }>;

  // 4.7 alert destinations
  listDestinations(opts?: CallOptions): Promise<Destination[]>;
  getDestination(id: string): Promise<Destination>;

  // 4.8 data
  /** Response shape not shown by the API document: returned as parsed, minus `path` / `error`. */
  getAllMonitorData(query: DataQuery & { meta?: string }): Promise<Record<string, unknown>>;
  getMonitorData(id: string, query: DataQuery): Promise<MonitorData>;
  getResponseAnalysis(id: string, query: { begin?: number; end?: number }): Promise<ResponseAnalysis>;
}
