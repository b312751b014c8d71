/**
 * The API client: MonitoringApi over HTTP, one method per endpoint of API sections 4.1 to 4.8,
 * each building its call and making the answer canonical (normalize.ts). How a call travels
 * (pool, concurrency cap, 429 gate, timeout and deadline, size cap, the one retry rule) is
 * transport.ts; authorization and the v2 token cache are token.ts.
 */
import type { Alert, Destination, Group, GroupSummary, Monitor } from '../model/live.js';
import { markAlreadyGone as gone } from './gone.js';
import {
  asArray,
  echoedNumber,
  isObject,
  normalizeAlert,
  normalizeDestination,
  normalizeEach,
  normalizeFilteredStatusEntry,
  normalizeGroup,
  normalizeGroupSummary,
  normalizeIdList,
  normalizeMonitor,
  normalizeMonitorData,
  normalizePausedAlert,
  normalizeResponseAnalysis,
  normalizeStatusSummary,
  normalizeToken,
  optionalString,
  requiredId,
} from './normalize.js';
import type { QuirkCount } from './quirks.js';
import { Credentials } from './token.js';
import { GONE, Transport, type CallSpec, type Obj, type TransportTuning } from './transport.js';
import type {
  AlertCreate,
  CallOptions,
  MonitorListOptions,
  ClientStats,
  CreateOptions,
  DataQuery,
  FilteredStatusEntry,
  GroupCreate,
  GroupUpdate,
  MonitorCreate,
  MonitoringApi,
  MonitorData,
  MonitorUpdate,
  PausedAlert,
  ResponseAnalysis,
  StatusFilterQuery,
  StatusSummary,
  Token,
} from './types.js';
import { parseBaseUrl } from './url.js';

export { wasAlreadyGone } from './gone.js';
export { tokenRenewAfterSeconds } from './token.js';
export type { RequestEvent } from './transport.js';

export interface MonitoringClientOptions extends TransportTuning {
  baseUrl: string;
  /** v1 HTTP Basic login (the account's e-mail address). */
  username?: string;
  password?: string;
  /** v2 OAuth client credentials. */
  clientId?: string;
  clientSecret?: string;
}

function seg(id: string): string {
  return encodeURIComponent(id);
}

export class MonitoringClient implements MonitoringApi {
  readonly baseUrl: string;
  readonly stats: ClientStats;
  readonly user: string | undefined;

  private readonly credentials: Credentials;
  private readonly transport: Transport;

  constructor(opts: MonitoringClientOptions) {
    // Credentials first: they register the secrets, so whatever goes wrong below cannot print them.
    this.credentials = new Credentials({
      username: opts.username,
      password: opts.password,
      clientId: opts.clientId,
      clientSecret: opts.clientSecret,
      now: opts.now ?? Date.now,
      requestToken: async () => {
        const spec: CallSpec = { method: 'POST', path: '/v2/token', form: 'grant_type=client_credentials', auth: 'token' };
        const { body, origin } = await this.transport.callObj(spec);
        return normalizeToken(body, origin);
      },
    });
    const parsed = parseBaseUrl(opts.baseUrl, 'baseUrl');
    this.baseUrl = parsed.baseUrl;
    // Not a secret: it names the account to the person about to change it.
    this.user = opts.username ?? opts.clientId;
    this.transport = new Transport({ ...opts, origin: parsed.origin, prefix: parsed.prefix }, this.credentials);
    this.stats = this.transport.stats;
  }

  /** Closes the keep-alive connections. The client cannot be used afterwards. */
  close(): Promise<void> {
    return this.transport.close();
  }

  destroy(): Promise<void> {
    return this.transport.destroy();
  }

  serviceClockOffsetMs(): number {
    return this.transport.serviceClockOffsetMs();
  }

  /** Whether some answer carried a readable Date header, so serviceClockOffsetMs() is measured, not assumed. */
  serviceClockKnown(): boolean {
    return this.transport.serviceClockKnown();
  }

  /** The wire quirks normalisation absorbed in this client's answers so far (quirks.ts). */
  quirks(): QuirkCount[] {
    return this.transport.quirks.list();
  }

  // ---------------------------------------------------------------- 4.1 version 2

  /** POST /v2/token. Always asks the service (sharing a request already in flight) and caches the result. */
  getToken(): Promise<Token> {
    return this.credentials.fetchToken();
  }

  async getV2Status(opts: { all?: boolean } = {}): Promise<StatusSummary> {
    const { body, origin } = await this.transport.callObj({
      method: 'GET',
      path: '/v2/status',
      query: { all: opts.all ? 'true' : undefined },
      auth: 'v2',
    });
    return normalizeStatusSummary(body, 'monitors', origin);
  }

  async getV2Version(): Promise<Record<string, unknown>> {
    const { body } = await this.transport.callObj({ method: 'GET', path: '/v2/version', auth: 'v2' });
    return body;
  }

  // ---------------------------------------------------------------- 4.2 status

  async getStatus(): Promise<StatusSummary> {
    const { body, origin } = await this.transport.callObj({ method: 'GET', path: '/v1/Status/', auth: 'v1' });
    return normalizeStatusSummary(body, 'monitor_list', origin);
  }

  async getStatusFilter(query: StatusFilterQuery): Promise<{ t: number; monitor_list: FilteredStatusEntry[] }> {
    const { body, origin } = await this.transport.callObj({
      method: 'GET',
      path: '/v1/Status/Filter/',
      query: { t: query.t, prefix: query.prefix, suffix: query.suffix, contains: query.contains, meta: query.meta },
      auth: 'v1',
    });
    return {
      t: echoedNumber(body, 't', query.t ?? 1800, origin),
      monitor_list: asArray(body['monitor_list'], 'monitor_list', origin).map((e, i) =>
        normalizeFilteredStatusEntry(e, `monitor_list[${i}]`, origin),
      ),
    };
  }

  // ---------------------------------------------------------------- 4.3 groups

  async listGroups(opts?: CallOptions): Promise<GroupSummary[]> {
    const { body, origin } = await this.transport.callObj({ method: 'GET', path: '/v1/Config/Group/', auth: 'v1' }, opts);
    return asArray(body['groups'], 'groups', origin).map((g, i) => normalizeGroupSummary(g, `groups[${i}]`, origin));
  }

  async getGroup(id: string, opts?: CallOptions): Promise<Group> {
    const { body, origin } = await this.transport.callObj({ method: 'GET', path: `/v1/Config/Group/${seg(id)}/`, auth: 'v1' }, opts);
    return normalizeGroup(body['group'], 'group', origin);
  }

  createGroup(input: GroupCreate, opts?: CreateOptions<Group>): Promise<Group> {
    const json: Obj = { name: input.name };
    if (input.monitors !== undefined) json['monitors'] = input.monitors;
    const spec: CallSpec = { method: 'POST', path: '/v1/Config/Group/', json, auth: 'v1' };
    return this.transport.create(spec, (body, origin) => normalizeGroup(body['group'], 'group', origin), opts);
  }

  async updateGroup(id: string, input: GroupUpdate, opts?: CallOptions): Promise<Group> {
    const json: Obj = { name: input.name };
    if (input.monitors !== undefined) json['monitors'] = input.monitors;
    if (input.replace !== undefined) json['replace'] = input.replace;
    const { body, origin } = await this.transport.callObj({ method: 'PUT', path: `/v1/Config/Group/${seg(id)}/`, json, auth: 'v1' }, opts);
    return normalizeGroup(body['group'], 'group', origin);
  }

  async deleteGroup(id: string, opts?: CallOptions): Promise<GroupSummary> {
    const spec: CallSpec = { method: 'DELETE', path: `/v1/Config/Group/${seg(id)}/`, auth: 'v1' };
    const body = await this.transport.call(spec, opts);
    if (body === GONE) return gone({ id, name: '' });
    const origin = this.transport.originOf(spec);
    // Documented: `name` and `id` at the top level; accept a `group` object as well.
    const src = isObject(body['group']) ? body['group'] : body;
    return { id: requiredId(src, 'id', 'response', origin), name: optionalString(src, 'name', 'response', origin) };
  }

  // ---------------------------------------------------------------- 4.4 monitors

  async listMonitors(opts?: MonitorListOptions): Promise<Monitor[]> {
    const { body, origin } = await this.transport.callObj({ method: 'GET', path: '/v1/Config/Monitor/', auth: 'v1' }, opts);
    const list = asArray(body['monitor_list'], 'monitor_list', origin);
    const monitors = normalizeEach(list, 'monitor_list', normalizeMonitor, origin);
    if (opts?.wireTypes) {
      // normalizeEach checked every item: the n-th raw item is the n-th monitor.
      list.forEach((raw, i) => opts.wireTypes!.set(monitors[i]!.id, (raw as { type: string }).type));
    }
    return monitors;
  }

  async getMonitor(id: string): Promise<Monitor> {
    const { body, origin } = await this.transport.callObj({ method: 'GET', path: `/v1/Config/Monitor/${seg(id)}/`, auth: 'v1' });
    return normalizeMonitor(body['monitor'], 'monitor', origin);
  }

  createMonitor(input: MonitorCreate, opts?: CreateOptions<Monitor>): Promise<Monitor> {
    const spec: CallSpec = { method: 'POST', path: '/v1/Config/Monitor/', json: input, auth: 'v1' };
    return this.transport.create(spec, (body, origin) => normalizeMonitor(body['monitor'], 'monitor', origin), opts);
  }

  async updateMonitor(id: string, input: MonitorUpdate, opts?: CallOptions): Promise<Monitor> {
    const { body, origin } = await this.transport.callObj(
      { method: 'PUT', path: `/v1/Config/Monitor/${seg(id)}/`, json: input, auth: 'v1' },
      opts,
    );
    return normalizeMonitor(body['monitor'], 'monitor', origin);
  }

  async deleteMonitor(id: string, opts?: CallOptions): Promise<Monitor> {
    const spec: CallSpec = { method: 'DELETE', path: `/v1/Config/Monitor/${seg(id)}/`, auth: 'v1' };
    const body = await this.transport.call(spec, opts);
    if (body === GONE) return gone(normalizeMonitor({ id }));
    return normalizeMonitor(body['monitor'], 'monitor', this.transport.originOf(spec));
  }

  // ---------------------------------------------------------------- 4.5 alerts

  /** The real service misbehaves unless both message bodies are sent, so they always are. */
  private alertBody(input: AlertCreate): Obj {
    return { ...input, message_init: input.message_init ?? '', message_term: input.message_term ?? '' };
  }

  async listAlerts(opts?: CallOptions): Promise<Alert[]> {
    const { body, origin } = await this.transport.callObj({ method: 'GET', path: '/v1/Config/Alert/', auth: 'v1' }, opts);
    return normalizeEach(asArray(body['alert_list'], 'alert_list', origin), 'alert_list', normalizeAlert, origin);
  }

  async getAlert(id: string, opts?: CallOptions): Promise<Alert> {
    const { body, origin } = await this.transport.callObj({ method: 'GET', path: `/v1/Config/Alert/${seg(id)}/`, auth: 'v1' }, opts);
    return normalizeAlert(body['alert'], 'alert', origin);
  }

  createAlert(input: AlertCreate, opts?: CreateOptions<Alert>): Promise<Alert> {
    const spec: CallSpec = { method: 'POST', path: '/v1/Config/Alert/', json: this.alertBody(input), auth: 'v1' };
    return this.transport.create(spec, (body, origin) => normalizeAlert(body['alert'], 'alert', origin), opts);
  }

  async updateAlert(id: string, input: AlertCreate, opts?: CallOptions): Promise<Alert | null> {
    const { body, origin } = await this.transport.callObj(
      { method: 'PUT', path: `/v1/Config/Alert/${seg(id)}/`, json: this.alertBody(input), auth: 'v1' },
      opts,
    );
    // The modify response is undocumented: use the alert only if one came back.
    return body['alert'] === undefined || body['alert'] === null ? null : normalizeAlert(body['alert'], 'alert', origin);
  }

  async deleteAlert(id: string, opts?: CallOptions): Promise<Alert> {
    const spec: CallSpec = { method: 'DELETE', path: `/v1/Config/Alert/${seg(id)}/`, auth: 'v1' };
    const body = await this.transport.call(spec, opts);
    if (body === GONE) return gone(normalizeAlert({ id }));
    return normalizeAlert(body['alert'], 'alert', this.transport.originOf(spec));
  }

  // ---------------------------------------------------------------- 4.6 pausing

  async listPausedAlerts(): Promise<PausedAlert[]> {
    const { body, origin } = await this.transport.callObj({ method: 'GET', path: '/v1/Pause/Alert/', auth: 'v1' });
    return asArray(body['alert_list'] ?? [], 'alert_list', origin).map((p, i) =>
      normalizePausedAlert(p, `alert_list[${i}]`, origin),
    );
  }

  async pauseAllAlerts(seconds: number): Promise<{ alert_list: string[]; seconds: number }> {
    const { body, origin } = await this.transport.callObj({ method: 'POST', path: '/v1/Pause/Alert/', json: { seconds }, auth: 'v1' });
    return {
      alert_list: normalizeIdList(body['alert_list'], 'alert_list', origin),
      seconds: echoedNumber(body, 'seconds', seconds, origin),
    };
  }

  async pauseAlert(alertId: string, seconds: number): Promise<{ alert: string; monitor: string; seconds: number }> {
    const { body, origin } = await this.transport.callObj({
      method: 'POST',
      path: `/v1/Pause/Alert/${seg(alertId)}/`,
      json: { seconds },
      auth: 'v1',
    });
    return {
      alert: requiredId(body, 'alert', 'response', origin),
      monitor: optionalString(body, 'monitor', 'response', origin),
      seconds: echoedNumber(body, 'seconds', seconds, origin),
    };
  }

  async pauseMonitor(monitorId: string, seconds: number): Promise<{ alert_list: string[]; seconds: number }> {
    const { body, origin } = await this.transport.callObj({
      method: 'POST',
      path: `/v1/Pause/Monitor/${seg(monitorId)}/`,
      json: { seconds },
      auth: 'v1',
    });
    return {
      alert_list: normalizeIdList(body['alert_list'], 'alert_list', origin),
      seconds: echoedNumber(body, 'seconds', seconds, origin),
    };
  }

  async resumeAllAlerts(): Promise<{ alert_list: string[] }> {
    const spec: CallSpec = { method: 'DELETE', path: '/v1/Pause/Alert/', auth: 'v1' };
    const body = await this.transport.call(spec);
    if (body === GONE) return gone({ alert_list: [] });
    return { alert_list: normalizeIdList(body['alert_list'], 'alert_list', this.transport.originOf(spec)) };
  }

  async resumeMonitor(monitorId: string): Promise<{ alert_list: string[] }> {
    const spec: CallSpec = { method: 'DELETE', path: `/v1/Pause/Alert/${seg(monitorId)}/`, auth: 'v1' };
    const body = await this.transport.call(spec);
    if (body === GONE) return gone({ alert_list: [] });
    return { alert_list: normalizeIdList(body['alert_list'], 'alert_list', this.transport.originOf(spec)) };
  }

  // ---------------------------------------------------------------- 4.7 alert destinations

  async listDestinations(opts?: CallOptions): Promise<Destination[]> {
    const { body, origin } = await this.transport.callObj({ method: 'GET', path: '/v1/Config/AlertDestination/', auth: 'v1' }, opts);
    return asArray(body['alertdestination_list'], 'alertdestination_list', origin).map((d, i) =>
      normalizeDestination(d, `alertdestination_list[${i}]`, origin),
    );
  }

  async getDestination(id: string): Promise<Destination> {
    const { body, origin } = await this.transport.callObj({
      method: 'GET',
      path: `/v1/Config/AlertDestination/${seg(id)}/`,
      auth: 'v1',
    });
    return normalizeDestination(body['alertdestination'], 'alertdestination', origin);
  }

  // ---------------------------------------------------------------- 4.8 data

  async getAllMonitorData(query: DataQuery & { meta?: string }): Promise<Record<string, unknown>> {
    const { body } = await this.transport.callObj({
      method: 'GET',
      path: '/v1/Data/Monitor/',
      query: { begin: query.begin, end: query.end, average: query.average, meta: query.meta },
      auth: 'v1',
    });
    const { path: _path, error: _error, ...rest } = body;
    return rest;
  }

  async getMonitorData(id: string, query: DataQuery): Promise<MonitorData> {
    const { body, origin } = await this.transport.callObj({
      method: 'GET',
      path: `/v1/Data/Monitor/${seg(id)}/`,
      query: { begin: query.begin, end: query.end, average: query.average },
      auth: 'v1',
    });
    return normalizeMonitorData(body, origin);
  }

  async getResponseAnalysis(id: string, query: { begin?: number; end?: number }): Promise<ResponseAnalysis> {
    const { body, origin } = await this.transport.callObj({
      method: 'GET',
      path: `/v1/Data/Monitor/Response/${seg(id)}/`,
      query: { begin: query.begin, end: query.end },
      auth: 'v1',
    });
    return normalizeResponseAnalysis(body, origin);
  }
}
