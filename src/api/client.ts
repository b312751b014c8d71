/**
 * HTTP implementation of MonitoringApi over undici: one keep-alive pool per client, one
 * concurrency cap for all its requests, a per-attempt timeout, v1 Basic and v2 bearer auth with a
 * shared token cache, retries by the rule in retry.ts, and canonical results via normalize.ts.
 */
import type { Dispatcher, Pool } from 'undici';
// Pool and request() alone, not the package index: the index also loads fetch, WebSocket, the cache
// and the mocks, ~40 ms more of every command's start-up (measured in a fresh process). The index
// would install request() on every dispatcher; here it is called with the pool as `this`. The version
// is pinned by the lockfile and every test of the client goes through this path.
import undiciRequest from 'undici/lib/api/api-request.js';
import PoolClass from 'undici/lib/dispatcher/pool.js';
import type { Alert, Destination, Group, GroupSummary, Monitor } from '../model/live.js';
import { redact, registerSecret } from '../util/redact.js';
import { VERSION } from '../version.js';
import { ApiError, type ApiErrorKind } from './errors.js';
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
  type Origin,
} from './normalize.js';
import { backoffMs, classifyMethod, mayHaveApplied, parseRetryAfter, retryDecision, type Failure } from './retry.js';
import { Semaphore } from './semaphore.js';
import type {
  AlertCreate,
  ClientStats,
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

export interface RequestEvent {
  method: string;
  /** API path with query, without the base URL. */
  path: string;
  /** HTTP status, or null when no answer came (timeout, connection failure). */
  status: number | null;
  ms: number;
  /** 1 for the first attempt of a call, 2 for its first retry, ... */
  attempt: number;
}

export interface MonitoringClientOptions {
  baseUrl: string;
  /** v1 HTTP Basic login (the account's e-mail address). */
  username?: string;
  password?: string;
  /** v2 OAuth client credentials. */
  clientId?: string;
  clientSecret?: string;
  /** Per attempt, from sending the request to the end of the response body. Default 30000. */
  timeoutMs?: number;
  /** Requests in flight at once, over all calls of this client. Default 16. */
  concurrency?: number;
  /** Retries per call in addition to the first attempt. Default 4. */
  maxRetries?: number;
  onRequest?: (e: RequestEvent) => void;
  /** Waits between retries; tests inject a fake to avoid real waiting. */
  sleep?: (ms: number) => Promise<void>;
  /** Jitter source in [0, 1). Default Math.random. */
  random?: () => number;
  /** Clock for token renewal, in milliseconds. Default Date.now. */
  now?: () => number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_CONCURRENCY = 16;
const DEFAULT_MAX_RETRIES = 4;
const MAX_SERVICE_ERROR_CHARS = 500;

type Obj = Record<string, unknown>;
type AuthMode = 'v1' | 'v2' | 'token';

interface CallSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** API path, e.g. /v1/Config/Monitor/ */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  form?: string;
  auth: AuthMode;
}

/** Returned by a DELETE whose object was already gone after an earlier attempt's answer was lost. */
const GONE = Symbol('gone');

export { wasAlreadyGone } from './gone.js';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

class AttemptFailure extends Error {
  constructor(
    readonly failure: Failure,
    readonly apiKind: ApiErrorKind,
    readonly detail: string,
  ) {
    super(detail);
  }
}

const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

function errorCodes(err: unknown): string[] {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  const visit = (e: unknown): void => {
    if (!e || typeof e !== 'object' || seen.has(e)) return;
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    visit((e as { cause?: unknown }).cause);
    const inner = (e as { errors?: unknown }).errors;
    if (Array.isArray(inner)) inner.forEach(visit);
  };
  visit(err);
  return codes;
}

/** Maps what undici threw to the retry rule's failure classes. Only error codes reach messages. */
function classifyTransportError(err: unknown, timedOut: boolean): AttemptFailure {
  if (timedOut) return new AttemptFailure({ kind: 'timeout' }, 'timeout', 'no answer within the timeout');
  const codes = errorCodes(err);
  const code = codes.find((c) => NOT_SENT_CODES.has(c) || TIMEOUT_CODES.has(c) || c === 'UND_ERR_CONNECT_TIMEOUT') ?? codes[0];
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new AttemptFailure({ kind: 'not-sent' }, 'timeout', 'connect timed out (UND_ERR_CONNECT_TIMEOUT)');
  }
  if (code !== undefined && NOT_SENT_CODES.has(code)) {
    return new AttemptFailure({ kind: 'not-sent' }, 'network', `could not connect (${code})`);
  }
  if (code !== undefined && TIMEOUT_CODES.has(code)) {
    return new AttemptFailure({ kind: 'timeout' }, 'timeout', 'no answer within the timeout');
  }
  // Anything else (reset, socket closed, broken pipe) may have happened after the request was written.
  return new AttemptFailure({ kind: 'reset' }, 'network', `connection lost${code ? ` (${code})` : ''}`);
}

function realSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function cleanServiceError(s: string): string {
  const r = redact(s);
  return r.length > MAX_SERVICE_ERROR_CHARS ? `${r.slice(0, MAX_SERVICE_ERROR_CHARS)}...` : r;
}

/** The service's error text from a parsed body, if it sent one. */
function serviceErrorOf(body: unknown): string | null {
  if (!isObject(body)) return null;
  for (const key of ['error', 'error_description', 'detail', 'message']) {
    const v = body[key];
    if (typeof v === 'string' && v !== '') return cleanServiceError(v);
  }
  const e = body['error'];
  if (e !== undefined && e !== null && e !== '') return cleanServiceError(JSON.stringify(e));
  return null;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

const NOT_FOUND_TEXT = /not\s*found|does not exist|no such/i;

/** Token renewal point: at 90% of the lifetime, at least 60 s before expiry, never before half of it. */
export function tokenRenewAfterSeconds(expiresIn: number): number {
  return Math.max(expiresIn * 0.5, Math.min(expiresIn * 0.9, expiresIn - 60));
}

function seg(id: string): string {
  return encodeURIComponent(id);
}

export class MonitoringClient implements MonitoringApi {
  readonly baseUrl: string;
  readonly stats: ClientStats = { requests: 0, retries: 0 };

  private readonly origin: string;
  private readonly prefix: string;
  private readonly pool: Pool;
  private readonly semaphore: Semaphore;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly basicV1: string | null;
  private readonly basicV2: string | null;
  private readonly onRequest: ((e: RequestEvent) => void) | undefined;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;

  private token: { value: string; renewAt: number } | null = null;
  private tokenInFlight: Promise<Token> | null = null;

  constructor(opts: MonitoringClientOptions) {
    // Register first: whatever goes wrong below must not be able to print them.
    registerSecret(opts.password);
    registerSecret(opts.clientSecret);
    const parsed = parseBaseUrl(opts.baseUrl, 'baseUrl');
    this.baseUrl = parsed.baseUrl;
    this.origin = parsed.origin;
    this.prefix = parsed.prefix;

    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
    this.maxRetries = opts.maxRetries ?? DEFAULT_MAX_RETRIES;
    if (!(this.timeoutMs > 0)) throw new ApiError({ kind: 'config', method: '', path: '', message: 'timeoutMs must be positive' });
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new ApiError({ kind: 'config', method: '', path: '', message: 'concurrency must be a positive integer' });
    }
    if (!Number.isInteger(this.maxRetries) || this.maxRetries < 0) {
      throw new ApiError({ kind: 'config', method: '', path: '', message: 'maxRetries must be a non-negative integer' });
    }
    this.semaphore = new Semaphore(concurrency);
    this.pool = new PoolClass(this.origin, {
      connections: concurrency,
      // Short idle life: a socket the server already closed must not be picked for a create.
      keepAliveTimeout: 4_000,
      connectTimeout: Math.min(this.timeoutMs, 10_000),
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });

    this.basicV1 =
      opts.username !== undefined && opts.password !== undefined
        ? `Basic ${Buffer.from(`${opts.username}:${opts.password}`).toString('base64')}`
        : null;
    this.basicV2 =
      opts.clientId !== undefined && opts.clientSecret !== undefined
        ? `Basic ${Buffer.from(`${opts.clientId}:${opts.clientSecret}`).toString('base64')}`
        : null;
    registerSecret(this.basicV1);
    registerSecret(this.basicV2);
    this.onRequest = opts.onRequest;
    this.sleep = opts.sleep ?? realSleep;
    this.random = opts.random ?? Math.random;
    this.now = opts.now ?? Date.now;
  }

  /** Closes the keep-alive connections. The client cannot be used afterwards. */
  async close(): Promise<void> {
    await this.pool.close();
  }

  async destroy(): Promise<void> {
    await this.pool.destroy();
  }

  /** Service clock minus local clock, from the last Date header. */
  private clockOffsetMs = 0;

  serviceClockOffsetMs(): number {
    // The header has whole seconds and arrives after some network time: two clocks that agree look
    // up to ~2 s apart, and that must not shift a time shown to the minute.
    return Math.abs(this.clockOffsetMs) < 2000 ? 0 : this.clockOffsetMs;
  }

  private noteServiceClock(date: string | string[] | undefined): void {
    const value = Array.isArray(date) ? date[0] : date;
    if (!value) return;
    const t = Date.parse(value);
    // The header drops the fraction of its second: the service's time was in [t, t + 1 s). Whole
    // seconds, taken from the middle of that, keep a clock moved by whole seconds exact.
    if (Number.isFinite(t)) this.clockOffsetMs = Math.round((t + 500 - this.now()) / 1000) * 1000;
  }

  // ---------------------------------------------------------------- transport

  private fullPath(spec: CallSpec): string {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(spec.query ?? {})) {
      if (v !== undefined) params.set(k, String(v));
    }
    const qs = params.toString();
    return qs === '' ? spec.path : `${spec.path}?${qs}`;
  }

  /** One HTTP exchange, holding a concurrency slot. Throws AttemptFailure when no answer came. */
  private async attemptOnce(method: string, pathWithQuery: string, headers: Record<string, string>, body: string | undefined): Promise<RawResponse> {
    const release = await this.semaphore.acquire();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    try {
      const res = await undiciRequest.call(this.pool, {
        method: method as Dispatcher.HttpMethod,
        path: this.prefix + pathWithQuery,
        headers,
        body,
        signal: controller.signal,
      });
      const text = await res.body.text();
      return { status: res.statusCode, headers: res.headers, text };
    } catch (err) {
      throw classifyTransportError(err, timedOut);
    } finally {
      clearTimeout(timer);
      release();
    }
  }

  private authHeaderFor(spec: CallSpec, display: string): string | Promise<string> {
    if (spec.auth === 'v1') {
      if (this.basicV1 === null) {
        throw new ApiError({
          kind: 'config',
          method: spec.method,
          path: display,
          message: 'no v1 credentials: set MONSYNC_USERNAME and MONSYNC_PASSWORD',
        });
      }
      return this.basicV1;
    }
    if (this.basicV2 === null) {
      throw new ApiError({
        kind: 'config',
        method: spec.method,
        path: display,
        message: 'no v2 client credentials: set MONSYNC_CLIENT_ID and MONSYNC_CLIENT_SECRET',
      });
    }
    if (spec.auth === 'token') return this.basicV2;
    return this.bearer().then((t) => `Bearer ${t}`);
  }

  /**
   * Runs one API call: auth, attempts and retries (retry.ts), status and `error` checks. Resolves to
   * the parsed body, or GONE for a DELETE that found its object already deleted by an earlier
   * attempt whose answer was lost.
   */
  private async call(spec: CallSpec): Promise<Obj | typeof GONE> {
    const display = this.fullPath(spec);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': `monsync/${VERSION}` };
    let body: string | undefined;
    if (spec.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(spec.json);
    } else if (spec.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = spec.form;
    }

    let attempt = 0;
    let retriesUsed = 0;
    let refreshedToken = false;
    let earlierMaybeApplied = false;
    for (;;) {
      attempt++;
      const auth = await this.authHeaderFor(spec, display);
      headers['authorization'] = auth;
      const started = performance.now();
      let res: RawResponse | null = null;
      let failure: AttemptFailure | null = null;
      try {
        res = await this.attemptOnce(spec.method, display, headers, body);
      } catch (err) {
        if (!(err instanceof AttemptFailure)) throw err;
        failure = err;
      }
      this.stats.requests++;
      try {
        this.onRequest?.({
          method: spec.method,
          path: display,
          status: res ? res.status : null,
          ms: Math.round(performance.now() - started),
          attempt,
        });
      } catch {
        // An observer must not change the outcome of a call.
      }

      if (failure !== null) {
        const decision = retryDecision(spec.method, spec.path, failure.failure, retriesUsed + 1, this.maxRetries);
        if (decision.retry) {
          earlierMaybeApplied ||= mayHaveApplied(failure.failure);
          retriesUsed++;
          this.stats.retries++;
          await this.sleep(backoffMs(retriesUsed, null, this.random));
          continue;
        }
        throw new ApiError({
          kind: failure.apiKind,
          method: spec.method,
          path: display,
          message:
            failure.failure.kind === 'timeout'
              ? `${failure.detail} of ${this.timeoutMs} ms${attempt > 1 ? ` (${attempt} attempts)` : ''}`
              : `${failure.detail}${attempt > 1 ? ` (${attempt} attempts)` : ''}`,
          maybeApplied: decision.maybeApplied,
        });
      }

      const r = res!;
      this.noteServiceClock(r.headers['date']);
      const parsed = parseJson(r.text);
      const ok = r.status >= 200 && r.status < 300;

      if (!ok) {
        const serviceError = parsed.ok ? serviceErrorOf(parsed.value) : null;
        if (spec.auth === 'v2' && r.status === 401 && !refreshedToken) {
          // The token may have expired early or been revoked: fetch one new token, retry once.
          refreshedToken = true;
          this.invalidateToken(auth.slice('Bearer '.length));
          this.stats.retries++;
          continue;
        }
        if (spec.method === 'DELETE' && r.status === 404 && earlierMaybeApplied) return GONE;
        const decision = retryDecision(spec.method, spec.path, { kind: 'status', status: r.status }, retriesUsed + 1, this.maxRetries);
        if (decision.retry) {
          earlierMaybeApplied ||= mayHaveApplied({ kind: 'status', status: r.status });
          retriesUsed++;
          this.stats.retries++;
          const retryAfter = r.status === 429 ? parseRetryAfter(r.headers['retry-after']) : null;
          await this.sleep(backoffMs(retriesUsed, retryAfter, this.random));
          continue;
        }
        const isAuth = r.status === 401 || r.status === 403 || (spec.auth === 'token' && r.status >= 400 && r.status < 500);
        const what = isAuth
          ? spec.auth === 'token'
            ? `token request refused (HTTP ${r.status})`
            : `not authorised (HTTP ${r.status})`
          : `HTTP ${r.status}`;
        throw new ApiError({
          kind: isAuth ? 'auth' : 'http',
          method: spec.method,
          path: display,
          message: serviceError ? `${what}: ${serviceError}` : what,
          status: r.status,
          serviceError,
          maybeApplied: decision.maybeApplied,
        });
      }

      if (!parsed.ok || !isObject(parsed.value)) {
        throw new ApiError({
          kind: 'malformed',
          method: spec.method,
          path: display,
          message: parsed.ok ? 'malformed response: body is not a JSON object' : 'malformed response: body is not JSON',
          status: r.status,
          // A write answered 2xx was done, however garbled the answer.
          maybeApplied: classifyMethod(spec.method, spec.path) !== 'read',
        });
      }
      const obj = parsed.value;
      const err = obj['error'];
      // The contract says null when there is no error; an empty string says no more, so a 2xx with
      // `error: ""` is a success rather than a failure with nothing to report.
      if (err !== undefined && err !== null && err !== '') {
        const serviceError = serviceErrorOf(obj) ?? 'unspecified error';
        if (spec.method === 'DELETE' && earlierMaybeApplied && NOT_FOUND_TEXT.test(serviceError)) return GONE;
        throw new ApiError({
          kind: 'service',
          method: spec.method,
          path: display,
          message: `service refused the request: ${serviceError}`,
          status: r.status,
          serviceError,
        });
      }
      return obj;
    }
  }

  /** Where a body came from, for malformed-response errors. */
  private originOf(spec: CallSpec): Origin {
    return { method: spec.method, path: this.fullPath(spec), maybeApplied: classifyMethod(spec.method, spec.path) !== 'read' };
  }

  /** call() for everything except DELETE: GONE cannot happen. */
  private async callObj(spec: CallSpec): Promise<{ body: Obj; origin: Origin }> {
    const body = await this.call(spec);
    const origin = this.originOf(spec);
    if (body === GONE) throw new ApiError({ kind: 'malformed', ...origin, message: 'unexpected empty result' });
    return { body, origin };
  }

  // ---------------------------------------------------------------- v2 auth

  private invalidateToken(used: string): void {
    // Only drop the token this request used: a concurrent caller may already have renewed it.
    if (this.token?.value === used) this.token = null;
  }

  private async bearer(): Promise<string> {
    if (this.token && this.now() < this.token.renewAt) return this.token.value;
    return (await this.fetchToken()).access_token;
  }

  /** Fetches a token; concurrent callers share the request in flight. */
  private fetchToken(): Promise<Token> {
    if (this.tokenInFlight) return this.tokenInFlight;
    const p = (async () => {
      const { body, origin } = await this.callObj({
        method: 'POST',
        path: '/v2/token',
        form: 'grant_type=client_credentials',
        auth: 'token',
      });
      const token = normalizeToken(body, origin);
      registerSecret(token.access_token);
      this.token = { value: token.access_token, renewAt: this.now() + tokenRenewAfterSeconds(token.expires_in) * 1000 };
      return token;
    })();
    this.tokenInFlight = p;
    const clear = (): void => {
      if (this.tokenInFlight === p) this.tokenInFlight = null;
    };
    p.then(clear, clear);
    return p;
  }

  // ---------------------------------------------------------------- 4.1 version 2

  /** POST /v2/token. Always asks the service (sharing a request already in flight) and caches the result. */
  getToken(): Promise<Token> {
    return this.fetchToken();
  }

  async getV2Status(opts: { all?: boolean } = {}): Promise<StatusSummary> {
    const { body, origin } = await this.callObj({
      method: 'GET',
      path: '/v2/status',
      query: { all: opts.all ? 'true' : undefined },
      auth: 'v2',
    });
    return normalizeStatusSummary(body, 'monitors', origin);
  }

  async getV2Version(): Promise<Record<string, unknown>> {
    const { body } = await this.callObj({ method: 'GET', path: '/v2/version', auth: 'v2' });
    return body;
  }

  // ---------------------------------------------------------------- 4.2 status

  async getStatus(): Promise<StatusSummary> {
    const { body, origin } = await this.callObj({ method: 'GET', path: '/v1/Status/', auth: 'v1' });
    return normalizeStatusSummary(body, 'monitor_list', origin);
  }

  async getStatusFilter(query: StatusFilterQuery): Promise<{ t: number; monitor_list: FilteredStatusEntry[] }> {
    const { body, origin } = await this.callObj({
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

  async listGroups(): Promise<GroupSummary[]> {
    const { body, origin } = await this.callObj({ method: 'GET', path: '/v1/Config/Group/', auth: 'v1' });
    return asArray(body['groups'], 'groups', origin).map((g, i) => normalizeGroupSummary(g, `groups[${i}]`, origin));
  }

  async getGroup(id: string): Promise<Group> {
    const { body, origin } = await this.callObj({ method: 'GET', path: `/v1/Config/Group/${seg(id)}/`, auth: 'v1' });
    return normalizeGroup(body['group'], 'group', origin);
  }

  async createGroup(input: GroupCreate): Promise<Group> {
    const json: Obj = { name: input.name };
    if (input.monitors !== undefined) json['monitors'] = input.monitors;
    const { body, origin } = await this.callObj({ method: 'POST', path: '/v1/Config/Group/', json, auth: 'v1' });
    return normalizeGroup(body['group'], 'group', origin);
  }

  async updateGroup(id: string, input: GroupUpdate): Promise<Group> {
    const json: Obj = { name: input.name };
    if (input.monitors !== undefined) json['monitors'] = input.monitors;
    if (input.replace !== undefined) json['replace'] = input.replace;
    const { body, origin } = await this.callObj({ method: 'PUT', path: `/v1/Config/Group/${seg(id)}/`, json, auth: 'v1' });
    return normalizeGroup(body['group'], 'group', origin);
  }

  async deleteGroup(id: string): Promise<GroupSummary> {
    const spec: CallSpec = { method: 'DELETE', path: `/v1/Config/Group/${seg(id)}/`, auth: 'v1' };
    const body = await this.call(spec);
    if (body === GONE) return gone({ id, name: '' });
    const origin = this.originOf(spec);
    // Documented: `name` and `id` at the top level; accept a `group` object as well.
    const src = isObject(body['group']) ? body['group'] : body;
    return { id: requiredId(src, 'id', 'response', origin), name: optionalString(src, 'name', 'response', origin) };
  }

  // ---------------------------------------------------------------- 4.4 monitors

  async listMonitors(): Promise<Monitor[]> {
    const { body, origin } = await this.callObj({ method: 'GET', path: '/v1/Config/Monitor/', auth: 'v1' });
    return normalizeEach(asArray(body['monitor_list'], 'monitor_list', origin), 'monitor_list', normalizeMonitor, origin);
  }

  async getMonitor(id: string): Promise<Monitor> {
    const { body, origin } = await this.callObj({ method: 'GET', path: `/v1/Config/Monitor/${seg(id)}/`, auth: 'v1' });
    return normalizeMonitor(body['monitor'], 'monitor', origin);
  }

  async createMonitor(input: MonitorCreate): Promise<Monitor> {
    const { body, origin } = await this.callObj({ method: 'POST', path: '/v1/Config/Monitor/', json: input, auth: 'v1' });
    return normalizeMonitor(body['monitor'], 'monitor', origin);
  }

  async updateMonitor(id: string, input: MonitorUpdate): Promise<Monitor> {
    const { body, origin } = await this.callObj({
      method: 'PUT',
      path: `/v1/Config/Monitor/${seg(id)}/`,
      json: input,
      auth: 'v1',
    });
    return normalizeMonitor(body['monitor'], 'monitor', origin);
  }

  async deleteMonitor(id: string): Promise<Monitor> {
    const spec: CallSpec = { method: 'DELETE', path: `/v1/Config/Monitor/${seg(id)}/`, auth: 'v1' };
    const body = await this.call(spec);
    if (body === GONE) return gone(normalizeMonitor({ id }));
    return normalizeMonitor(body['monitor'], 'monitor', this.originOf(spec));
  }

  // ---------------------------------------------------------------- 4.5 alerts

  /** The real service misbehaves unless both message bodies are sent, so they always are. */
  private alertBody(input: AlertCreate): Obj {
    return { ...input, message_init: input.message_init ?? '', message_term: input.message_term ?? '' };
  }

  async listAlerts(): Promise<Alert[]> {
    const { body, origin } = await this.callObj({ method: 'GET', path: '/v1/Config/Alert/', auth: 'v1' });
    return normalizeEach(asArray(body['alert_list'], 'alert_list', origin), 'alert_list', normalizeAlert, origin);
  }

  async getAlert(id: string): Promise<Alert> {
    const { body, origin } = await this.callObj({ method: 'GET', path: `/v1/Config/Alert/${seg(id)}/`, auth: 'v1' });
    return normalizeAlert(body['alert'], 'alert', origin);
  }

  async createAlert(input: AlertCreate): Promise<Alert> {
    const { body, origin } = await this.callObj({
      method: 'POST',
      path: '/v1/Config/Alert/',
      json: this.alertBody(input),
      auth: 'v1',
    });
    return normalizeAlert(body['alert'], 'alert', origin);
  }

  async updateAlert(id: string, input: AlertCreate): Promise<Alert | null> {
    const { body, origin } = await this.callObj({
      method: 'PUT',
      path: `/v1/Config/Alert/${seg(id)}/`,
      json: this.alertBody(input),
      auth: 'v1',
    });
    // The modify response is undocumented: use the alert only if one came back.
    return body['alert'] === undefined || body['alert'] === null ? null : normalizeAlert(body['alert'], 'alert', origin);
  }

  async deleteAlert(id: string): Promise<Alert> {
    const spec: CallSpec = { method: 'DELETE', path: `/v1/Config/Alert/${seg(id)}/`, auth: 'v1' };
    const body = await this.call(spec);
    if (body === GONE) return gone(normalizeAlert({ id }));
    return normalizeAlert(body['alert'], 'alert', this.originOf(spec));
  }

  // ---------------------------------------------------------------- 4.6 pausing

  async listPausedAlerts(): Promise<PausedAlert[]> {
    const { body, origin } = await this.callObj({ method: 'GET', path: '/v1/Pause/Alert/', auth: 'v1' });
    return asArray(body['alert_list'] ?? [], 'alert_list', origin).map((p, i) =>
      normalizePausedAlert(p, `alert_list[${i}]`, origin),
    );
  }

  async pauseAllAlerts(seconds: number): Promise<{ alert_list: string[]; seconds: number }> {
    const { body, origin } = await this.callObj({ method: 'POST', path: '/v1/Pause/Alert/', json: { seconds }, auth: 'v1' });
    return {
      alert_list: normalizeIdList(body['alert_list'], 'alert_list', origin),
      seconds: echoedNumber(body, 'seconds', seconds, origin),
    };
  }

  async pauseAlert(alertId: string, seconds: number): Promise<{ alert: string; monitor: string; seconds: number }> {
    const { body, origin } = await this.callObj({
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
    const { body, origin } = await this.callObj({
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
    const body = await this.call(spec);
    if (body === GONE) return gone({ alert_list: [] });
    return { alert_list: normalizeIdList(body['alert_list'], 'alert_list', this.originOf(spec)) };
  }

  async resumeMonitor(monitorId: string): Promise<{ alert_list: string[] }> {
    const spec: CallSpec = { method: 'DELETE', path: `/v1/Pause/Alert/${seg(monitorId)}/`, auth: 'v1' };
    const body = await this.call(spec);
    if (body === GONE) return gone({ alert_list: [] });
    return { alert_list: normalizeIdList(body['alert_list'], 'alert_list', this.originOf(spec)) };
  }

  // ---------------------------------------------------------------- 4.7 alert destinations

  async listDestinations(): Promise<Destination[]> {
    const { body, origin } = await this.callObj({ method: 'GET', path: '/v1/Config/AlertDestination/', auth: 'v1' });
    return asArray(body['alertdestination_list'], 'alertdestination_list', origin).map((d, i) =>
      normalizeDestination(d, `alertdestination_list[${i}]`, origin),
    );
  }

  async getDestination(id: string): Promise<Destination> {
    const { body, origin } = await this.callObj({
      method: 'GET',
      path: `/v1/Config/AlertDestination/${seg(id)}/`,
      auth: 'v1',
    });
    return normalizeDestination(body['alertdestination'], 'alertdestination', origin);
  }

  // ---------------------------------------------------------------- 4.8 data

  async getAllMonitorData(query: DataQuery & { meta?: string }): Promise<Record<string, unknown>> {
    const { body } = await this.callObj({
      method: 'GET',
      path: '/v1/Data/Monitor/',
      query: { begin: query.begin, end: query.end, average: query.average, meta: query.meta },
      auth: 'v1',
    });
    const { path: _path, error: _error, ...rest } = body;
    return rest;
  }

  async getMonitorData(id: string, query: DataQuery): Promise<MonitorData> {
    const { body, origin } = await this.callObj({
      method: 'GET',
      path: `/v1/Data/Monitor/${seg(id)}/`,
      query: { begin: query.begin, end: query.end, average: query.average },
      auth: 'v1',
    });
    return normalizeMonitorData(body, origin);
  }

  async getResponseAnalysis(id: string, query: { begin?: number; end?: number }): Promise<ResponseAnalysis> {
    const { body, origin } = await this.callObj({
      method: 'GET',
      path: `/v1/Data/Monitor/Response/${seg(id)}/`,
      query: { begin: query.begin, end: query.end },
      auth: 'v1',
    });
    return normalizeResponseAnalysis(body, origin);
  }
}
