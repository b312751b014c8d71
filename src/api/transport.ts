/**
 * The one way a request reaches the service, and the one retry policy (retry.ts): one keep-alive
 * pool per client, one concurrency cap for all its requests, the shared 429 gate (gate.ts), a
 * per-attempt timeout inside an overall per-call deadline, a cap on the size of an answer, and
 * status / `error` checks. Results are parsed JSON objects; endpoints.ts makes them canonical.
 *
 * Why not undici's own retry interceptor (`interceptors.retry`, `RetryAgent`): it retries one
 * dispatch at a time, and what this client must do happens around dispatches. A create must never
 * be sent again once it may have been applied, and before any resend the caller's lookup reads the
 * account (more requests through this same client); a 429 must hold back every request of the
 * client, not the one that got it; a call needs one deadline over all its attempts and waits; a v2
 * 401 needs a new token, i.e. another Authorization header; and each attempt is reported
 * (onRequest, stats) and stoppable by apply's signal. A retry function given to the interceptor
 * could decide, but the gate, the deadline, the lookup and the header would still live here, so
 * the loop stays here, in one place, with the decision itself in retry.ts.
 */
import type { Dispatcher, Pool } from 'undici';
// Pool and request() alone, not the package index: the index also loads fetch, WebSocket, the cache
// and the mocks, ~40 ms more of every command's start-up (measured in a fresh process). The index
// would install request() on every dispatcher; here it is called with the pool as `this`. The version
// is pinned by the lockfile and every test of the client goes through this path.
import undiciRequest from 'undici/lib/api/api-request.js';
import PoolClass from 'undici/lib/dispatcher/pool.js';
import { VERSION } from '../version.js';
import { AttemptFailure, classifyTransportError, parseJson, serviceErrorOf, tooLarge } from './answer.js';
import { ApiError } from './errors.js';
import { AdaptiveRate } from './adaptive-rate.js';
import { RateGate } from './gate.js';
import { isGoneAnswer } from './gone.js';
import { settleLostCreate } from './lost-create.js';
import { isObject, type Origin } from './normalize.js';
import { QuirkCounter } from './quirks.js';
import { backoffMs, classifyMethod, isRetryableStatus, mayHaveApplied, parseRetryAfter, retryDecision, type Failure } from './retry.js';
import { Semaphore } from './semaphore.js';
import type { AuthMode, Credentials } from './token.js';
import type { HttpLog } from './trace.js';
import type { CallOptions, ClientStats, CreateOptions } from './types.js';
import { settleTiering } from './wasm-tier.js';

// After undici and the built-ins it loads, before its first connection compiles llhttp and before
// any answer is read (wasm-tier.ts).
settleTiering();

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_DEADLINE_MS = 60_000;
export const DEFAULT_CONCURRENCY = 16;
export const DEFAULT_MAX_RETRIES = 4;
/** Decimal megabytes: a longer answer would not fit in one JavaScript string anyway (~536 M characters). */
export const DEFAULT_MAX_RESPONSE_BYTES = 512_000_000;

export type Obj = Record<string, unknown>;

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

/** How a client's requests travel: MonitoringClientOptions hands these to the transport. */
export interface TransportTuning {
  /** Per attempt, from sending the request to the end of the response body. Default 30000. */
  timeoutMs?: number;
  /**
   * All attempts and waits of one call, from its first send (retry.ts, rule 7). Default 60000, or
   * timeoutMs when that is longer.
   */
  deadlineMs?: number;
  /** Requests in flight at once, over all calls of this client. Default 16. */
  concurrency?: number;
  /** Retries per call in addition to the first attempt. Default 4. */
  maxRetries?: number;
  /** Longest answer read, in bytes; a longer one fails its call once, unretried. Default 512 MB. */
  maxResponseBytes?: number;
  onRequest?: (e: RequestEvent) => void;
  /** The HTTP trace (trace.ts; MONSYNC_LOG, MONSYNC_LOG_FILE): every attempt and what was decided after it. */
  log?: HttpLog;
  /** Waits between retries; tests inject a fake to avoid real waiting. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Jitter source in [0, 1). Default Math.random. */
  random?: () => number;
  /** Wall clock for token renewal and the service's clock offset, in milliseconds. Default Date.now. */
  now?: () => number;
  /**
   * Where the credentials came from, for the message of a refused one: `MONSYNC_` (default), or a
   * declared account's `env_prefix` (`MONSYNC_PROD_`: "check MONSYNC_PROD_USERNAME and ...").
   */
  variablePrefix?: string;
}

export interface TransportOptions extends TransportTuning {
  /** scheme://host[:port] */
  origin: string;
  /** Path prefix without trailing slash ('' for none). */
  prefix: string;
}

export interface CallSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** API path, e.g. /v1/Config/Monitor/ */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  form?: string;
  auth: AuthMode;
}

/** Returned by a DELETE whose object was already gone after an earlier attempt's answer was lost. */
export const GONE = Symbol('gone');

/** Returned to create() when its lookup found what an answered attempt had made after all. */
const FOUND = Symbol('found');

/** Asked before an answered create is sent again: true when the lookup found what it made. */
type BeforeResend = (err: ApiError) => Promise<boolean>;

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One call's use of its budget: shared by the resends of a create. */
interface Run {
  attempt: number;
  retriesUsed: number;
  /** Monotonic ms; set at the first send. */
  deadlineAt: number | null;
  earlierMaybeApplied: boolean;
  refreshedToken: boolean;
  lastError: ApiError | null;
  /** Duration of the last attempt, for the trace. */
  lastMs: number;
}

const newRun = (): Run => ({ attempt: 0, retriesUsed: 0, deadlineAt: null, earlierMaybeApplied: false, refreshedToken: false, lastError: null, lastMs: 0 });

/** What one answer or failure means for the call. */
type Verdict = { done: Obj | typeof GONE } | { again: true } | { retry: ApiError; waitMs: number; holdMs?: number };

/** A wait that an aborted `signal` ends at once, its timer cleared: a pending 30 s timer would keep the process alive after SIGTERM. */
function realSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

function positive(name: string, v: number): number {
  if (!(v > 0)) throw new ApiError({ kind: 'config', method: '', path: '', message: `${name} must be positive` });
  return v;
}

function whole(name: string, v: number, min: number): number {
  if (!Number.isInteger(v) || v < min) {
    throw new ApiError({ kind: 'config', method: '', path: '', message: `${name} must be ${min === 0 ? 'a non-negative' : 'a positive'} integer` });
  }
  return v;
}

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

export class Transport {
  readonly stats: ClientStats = { requests: 0, retries: 0 };
  readonly maxRetries: number;
  /** The wire quirks normalisation met in this client's answers (on every Origin). */
  readonly quirks = new QuirkCounter();

  private readonly prefix: string;
  /** host:port connected to, for messages (the port spelled out even when it is the scheme's). */
  private readonly target: string;
  private readonly pool: Pool;
  private readonly semaphore: Semaphore;
  private readonly gate: RateGate;
  /** The sending rate learnt from 429s, shared by every request of the client (adaptive-rate.ts). */
  readonly rate: AdaptiveRate;
  private readonly timeoutMs: number;
  private readonly deadlineMs: number;
  private readonly maxResponseBytes: number;
  private readonly onRequest: ((e: RequestEvent) => void) | undefined;
  private readonly log: HttpLog | undefined;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly variablePrefix: string;
  /** Monotonic: deadlines and the gate must not jump with the wall clock. */
  private readonly clock = (): number => performance.now();
  /** Service clock minus local clock, from the last Date header. */
  private clockOffsetMs = 0;
  private clockSeen = false;

  constructor(
    opts: TransportOptions,
    private readonly credentials: Credentials,
  ) {
    this.prefix = opts.prefix;
    const url = new URL(opts.origin);
    this.target = `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
    this.timeoutMs = positive('timeoutMs', opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    // A deadline shorter than one attempt's timeout would make a longer --timeout meaningless.
    this.deadlineMs = positive('deadlineMs', opts.deadlineMs ?? Math.max(DEFAULT_DEADLINE_MS, this.timeoutMs));
    const concurrency = whole('concurrency', opts.concurrency ?? DEFAULT_CONCURRENCY, 1);
    this.maxRetries = whole('maxRetries', opts.maxRetries ?? DEFAULT_MAX_RETRIES, 0);
    this.maxResponseBytes = whole('maxResponseBytes', opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, 1);
    this.semaphore = new Semaphore(concurrency);
    this.gate = new RateGate(this.clock);
    this.rate = new AdaptiveRate(this.clock);
    this.pool = new PoolClass(opts.origin, {
      connections: concurrency,
      // Short idle life: a socket the server already closed must not be picked for a create.
      keepAliveTimeout: 4_000,
      connectTimeout: Math.min(this.timeoutMs, 10_000),
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      maxResponseSize: this.maxResponseBytes,
    });
    this.onRequest = opts.onRequest;
    this.log = opts.log;
    this.sleep = opts.sleep ?? realSleep;
    this.random = opts.random ?? Math.random;
    this.now = opts.now ?? Date.now;
    this.variablePrefix = opts.variablePrefix ?? 'MONSYNC_';
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  destroy(): Promise<void> {
    return this.pool.destroy();
  }

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
    if (Number.isFinite(t)) {
      this.clockOffsetMs = Math.round((t + 500 - this.now()) / 1000) * 1000;
      this.clockSeen = true;
    }
  }

  /** Whether an answer carried a readable Date header (otherwise the offset is an assumed 0). */
  serviceClockKnown(): boolean {
    return this.clockSeen;
  }

  fullPath(spec: CallSpec): string {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(spec.query ?? {})) {
      if (v !== undefined) params.set(k, String(v));
    }
    const qs = params.toString();
    return qs === '' ? spec.path : `${spec.path}?${qs}`;
  }

  /** Where a body came from, for malformed-response errors. */
  originOf(spec: CallSpec): Origin {
    return {
      method: spec.method,
      path: this.fullPath(spec),
      maybeApplied: classifyMethod(spec.method, spec.path) !== 'read',
      quirks: this.quirks,
    };
  }

  /**
   * Runs one API call under the retry rule. Resolves to the parsed body, or GONE for a DELETE that
   * found its object already deleted by an earlier attempt whose answer was lost.
   */
  async call(spec: CallSpec, opts: CallOptions = {}, run: Run = newRun(), display = this.fullPath(spec)): Promise<Obj | typeof GONE> {
    const body = await this.send(spec, opts, run, undefined, display);
    if (body === FOUND) throw new ApiError({ kind: 'malformed', ...this.originOf(spec), message: 'unexpected empty result' });
    return body;
  }

  /** call()'s loop; with `beforeResend` (a create's lookup) it may end in FOUND instead of a resend. */
  private async send(spec: CallSpec, opts: CallOptions, run: Run, beforeResend?: BeforeResend, display = this.fullPath(spec)): Promise<Obj | typeof GONE | typeof FOUND> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': `monsync/${VERSION}` };
    let body: string | undefined;
    if (spec.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(spec.json);
    } else if (spec.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = spec.form;
    }
    for (;;) {
      const auth = await this.credentials.header(spec.auth, spec.method, display);
      headers['authorization'] = auth;
      const res = await this.attempt(spec, display, headers, body, run, opts);
      if (!(res instanceof AttemptFailure)) this.rate.answered(res.status === 429);
      let verdict: Verdict;
      try {
        verdict = res instanceof AttemptFailure ? this.judgeFailure(spec, display, res, run) : this.judgeAnswer(spec, display, res, auth, run);
      } catch (err) {
        if (this.log) this.trace(spec, display, auth, body, res, run, this.stopOutcome(err, run));
        throw err;
      }
      if (this.log) this.trace(spec, display, auth, body, res, run, this.verdictOutcome(verdict, run));
      if ('done' in verdict) return verdict.done;
      if ('retry' in verdict && verdict.holdMs !== undefined) this.gate.hold(verdict.holdMs);
      // Whatever its status says, an answered create may have been done by the service (a gateway
      // that forwarded it and then answered 429 or 401): it is looked up before it is sent again.
      if (beforeResend !== undefined && !(res instanceof AttemptFailure) && classifyMethod(spec.method, spec.path) === 'create') {
        const err = 'retry' in verdict ? verdict.retry : this.tokenRefused(spec, display, res.status);
        if (await beforeResend(err)) return FOUND;
      }
      if ('again' in verdict) continue;
      run.lastError = verdict.retry;
      await this.pause(verdict.waitMs, run, opts, verdict.retry, '; interrupted before retrying');
      run.retriesUsed++;
      this.stats.retries++;
    }
  }

  /** What the client does after an attempt it judged, in the words of the trace. */
  private verdictOutcome(verdict: Verdict, run: Run): string {
    if ('done' in verdict) return verdict.done === GONE ? 'already gone after an earlier attempt whose answer was lost: counts as done' : 'done';
    if ('again' in verdict) return 'token refused: fetching a new token, then sending again';
    const n = `retry ${run.retriesUsed + 1} of ${this.maxRetries}`;
    if (verdict.holdMs !== undefined) return `${n} after ${verdict.holdMs} ms (429: every request of this client waits)`;
    if (run.deadlineAt !== null && this.clock() + verdict.waitMs > run.deadlineAt) {
      return `gave up: waiting ${verdict.waitMs} ms would pass the call's deadline of ${seconds(this.deadlineMs)}`;
    }
    return `${n} in ${verdict.waitMs} ms`;
  }

  /** Why a call ends with the failure of this attempt, in the words of the trace. */
  private stopOutcome(err: unknown, run: Run): string {
    if (!(err instanceof ApiError)) return 'failed';
    if (err.kind === 'service') return 'refused by the service: not retried';
    if (err.kind === 'malformed') return `unreadable answer: not retried${err.maybeApplied ? ' (the write was probably done)' : ''}`;
    if (err.maybeApplied) return 'not retried: may have been applied';
    if (run.attempt > 1 && run.retriesUsed >= this.maxRetries) return `gave up after ${run.attempt} attempts`;
    return 'not retried';
  }

  private trace(
    spec: CallSpec,
    display: string,
    auth: string,
    body: string | undefined,
    res: RawResponse | AttemptFailure,
    run: Run,
    outcome: string,
  ): void {
    const log = this.log!;
    const failed = res instanceof AttemptFailure;
    log.exchange({
      method: spec.method,
      path: display,
      status: failed ? null : res.status,
      ...(failed && { failure: res.detail }),
      ms: run.lastMs,
      attempt: run.attempt,
      sentBytes: body === undefined ? 0 : Buffer.byteLength(body),
      receivedBytes: failed ? 0 : Buffer.byteLength(res.text),
      outcome,
      ...(log.level === 'trace' && {
        authScheme: auth.split(' ', 1)[0] ?? '',
        ...(body !== undefined && { requestBody: body }),
        ...(!failed && { responseHeaders: res.headers, responseBody: res.text }),
      }),
    });
  }

  /** The 401 a v2 create got before its token is fetched again, as the lookup's error. */
  private tokenRefused(spec: CallSpec, display: string, status: number): ApiError {
    return new ApiError({ kind: 'auth', method: spec.method, path: display, message: `not authorised (HTTP ${status})`, status });
  }

  /** call() for everything except DELETE: GONE cannot happen. */
  async callObj(spec: CallSpec, opts: CallOptions = {}, run: Run = newRun()): Promise<{ body: Obj; origin: Origin }> {
    // The path with its query made once for the call (a URLSearchParams each time), not again for the origin.
    const origin = this.originOf(spec);
    const body = await this.call(spec, opts, run, origin.path);
    if (body === GONE) throw new ApiError({ kind: 'malformed', ...origin, message: 'unexpected empty result' });
    return { body, origin };
  }

  /**
   * A create: call() and `parse`, and when an attempt may have been applied although its answer
   * was lost, the caller's lookup before anything is sent again (retry.ts, rule 4). Resends share
   * the call's one budget and deadline.
   */
  async create<T>(spec: CallSpec, parse: (body: Obj, origin: Origin) => T, opts: CreateOptions<T> = {}): Promise<T> {
    const run = newRun();
    const lookup = opts.lookup;
    let found: T | undefined;
    // Before a resend the service asked for (429, or a v2 401): the lookup, after the gate's hold
    // (its reads pass the same gate), so a create the service did is taken instead of made twice.
    const beforeResend: BeforeResend | undefined =
      lookup === undefined
        ? undefined
        : async (err) => {
            found = await settleLostCreate(err, lookup, opts.signal);
            return found !== undefined;
          };
    for (;;) {
      let err: ApiError;
      try {
        const body = await this.send(spec, opts, run, beforeResend);
        if (body === FOUND) return found!;
        const origin = this.originOf(spec);
        if (body === GONE) throw new ApiError({ kind: 'malformed', ...origin, message: 'unexpected empty result' });
        return parse(body, origin);
      } catch (e) {
        if (!(e instanceof ApiError) || !e.maybeApplied || opts.lookup === undefined) throw e;
        err = e;
      }
      // A short wait first gives a request still being processed time to land, so the lookup
      // sees it instead of a resend duplicating it.
      // The lookup is made even at the deadline: it only reads, and it may prove the create done.
      const wait = backoffMs(run.retriesUsed + 1, null, this.random);
      await this.pause(wait, run, opts, err, '; interrupted before checking whether the service created it (plan again will show it)', true);
      const hit = await settleLostCreate(err, opts.lookup, opts.signal);
      if (hit !== undefined) return hit;
      // Not there, and the service answered, so it is done with the request: safe to send again.
      if (!isRetryableStatus(err.status) || run.retriesUsed >= this.maxRetries) throw err;
      if (this.timeLeft(run) <= 0) throw this.pastDeadline(err);
      if (opts.signal?.aborted) throw err.withFollowUp('; interrupted before retrying', { interrupted: true });
      run.lastError = err;
      run.retriesUsed++;
      this.stats.retries++;
    }
  }

  private timeLeft(run: Run): number {
    return run.deadlineAt === null ? this.deadlineMs : run.deadlineAt - this.clock();
  }

  private pastDeadline(err: ApiError): ApiError {
    return err.withFollowUp(`; gave up at the call's deadline of ${seconds(this.deadlineMs)} (MONSYNC_DEADLINE)`);
  }

  /**
   * Waits `ms` before the next step of a call. When its signal is aborted (before or during the
   * wait) the call fails with `err` and `interruptedText`; a wait that would pass the deadline fails
   * it too, unless `shorten`: then it ends at the deadline.
   */
  private async pause(ms: number, run: Run, opts: CallOptions, err: ApiError, interruptedText: string, shorten = false): Promise<void> {
    const interrupted = () => err.withFollowUp(interruptedText, { interrupted: true });
    const signal = opts.signal;
    if (signal?.aborted) throw interrupted();
    if (run.deadlineAt !== null && this.clock() + ms > run.deadlineAt) {
      if (!shorten) throw this.pastDeadline(err);
      ms = run.deadlineAt - this.clock();
    }
    if (ms <= 0) return;
    if (!signal) {
      await this.sleep(ms);
      return;
    }
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<void>((resolve) => {
      onAbort = resolve;
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([this.sleep(ms, signal), aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort!);
    }
    if (signal.aborted) throw interrupted();
  }

  /**
   * Waits for the 429 gate, a concurrency slot and this request's turn in the learnt rate
   * (adaptive-rate.ts); returns the slot's release.
   */
  private async turn(spec: CallSpec, display: string, run: Run, opts: CallOptions): Promise<() => void> {
    // Before the first send there is no failure to report: an interruption then is one of its own.
    // Made only when a wait needs it: an error's stack costs more than the rest of a request's turn.
    const err = () =>
      run.lastError ??
      new ApiError({ kind: 'network', method: spec.method, path: display, message: 'not sent: the service had asked to slow down (HTTP 429)' });
    const wait = (ms: number) => this.pause(ms, run, opts, err(), '; interrupted while waiting');
    for (;;) {
      await this.gate.pass(wait);
      const passed = this.gate.until;
      const release = await this.semaphore.acquire();
      const ms = this.rate.delay();
      if (ms > 0) {
        try {
          await wait(ms);
        } catch (e) {
          release();
          throw e;
        }
      }
      // A 429 may have closed the gate again while this request waited for its slot or its turn.
      if (this.gate.until === passed || this.gate.remaining() === 0) return release;
      release();
    }
  }

  /** One HTTP exchange. Resolves to the answer, or to an AttemptFailure when none came. */
  private async attempt(
    spec: CallSpec,
    display: string,
    headers: Record<string, string>,
    body: string | undefined,
    run: Run,
    opts: CallOptions,
  ): Promise<RawResponse | AttemptFailure> {
    const release = await this.turn(spec, display, run, opts);
    run.attempt++;
    run.deadlineAt ??= this.clock() + this.deadlineMs;
    const left = run.deadlineAt - this.clock();
    if (left <= 0 && run.lastError) {
      release();
      throw this.pastDeadline(run.lastError);
    }
    const timeoutMs = Math.max(1, Math.min(this.timeoutMs, left));
    try {
      opts.onAttempt?.(run.attempt);
    } catch {
      // An observer must not change the outcome of a call.
    }
    const started = performance.now();
    const controller = new AbortController();
    let fired = false;
    const timer = setTimeout(() => {
      fired = true;
      controller.abort();
    }, timeoutMs);
    let result: RawResponse | AttemptFailure;
    try {
      const res = await undiciRequest.call(this.pool, {
        method: spec.method as Dispatcher.HttpMethod,
        path: this.prefix + display,
        headers,
        body,
        signal: controller.signal,
      });
      const length = Number(res.headers['content-length']);
      if (Number.isFinite(length) && length > this.maxResponseBytes) {
        // Said up front: not one byte of it is read.
        res.body.destroy();
        result = tooLarge(this.maxResponseBytes);
      } else {
        result = { status: res.statusCode, headers: res.headers, text: await res.body.text() };
      }
    } catch (err) {
      result = classifyTransportError(err, fired, timeoutMs < this.timeoutMs, this.timeoutMs, this.maxResponseBytes, this.target);
    } finally {
      clearTimeout(timer);
      release();
    }
    run.lastMs = Math.round(performance.now() - started);
    this.report(spec.method, display, result, started, run.attempt);
    return result;
  }

  private report(method: string, path: string, result: RawResponse | AttemptFailure, started: number, attempt: number): void {
    this.stats.requests++;
    try {
      const status = result instanceof AttemptFailure ? null : result.status;
      this.onRequest?.({ method, path, status, ms: Math.round(performance.now() - started), attempt });
    } catch {
      // An observer must not change the outcome of a call.
    }
  }

  private judgeFailure(spec: CallSpec, display: string, f: AttemptFailure, run: Run): Verdict {
    const decision = retryDecision(spec.method, spec.path, f.failure, run.retriesUsed + 1, this.maxRetries);
    const error = new ApiError({
      kind: f.apiKind,
      method: spec.method,
      path: display,
      message: f.detail,
      attempts: run.attempt,
      maybeApplied: decision.maybeApplied,
    });
    if (f.atDeadline) throw this.pastDeadline(error);
    if (!decision.retry) throw error;
    run.earlierMaybeApplied ||= mayHaveApplied(f.failure);
    return { retry: error, waitMs: backoffMs(run.retriesUsed + 1, null, this.random) };
  }

  private judgeAnswer(spec: CallSpec, display: string, r: RawResponse, auth: string, run: Run): Verdict {
    this.noteServiceClock(r.headers['date']);
    const parsed = parseJson(r.text);
    const serviceError = parsed.ok ? serviceErrorOf(parsed.value) : null;
    const gone = spec.method === 'DELETE' && run.earlierMaybeApplied && isGoneAnswer(r.status, serviceError);
    if (r.status < 200 || r.status >= 300) {
      if (spec.auth === 'v2' && r.status === 401 && !run.refreshedToken) {
        // The token may have expired early or been revoked: fetch one new token, retry once.
        run.refreshedToken = true;
        this.credentials.rejected(auth);
        this.stats.retries++;
        return { again: true };
      }
      if (gone) return { done: GONE };
      return this.judgeStatus(spec, display, r, serviceError, run);
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
    if (err === undefined || err === null || err === '') return { done: obj };
    if (gone) return { done: GONE };
    const text = serviceError ?? 'unspecified error';
    throw new ApiError({
      kind: 'service',
      method: spec.method,
      path: display,
      message: `service refused the request: ${text}`,
      status: r.status,
      serviceError: text,
    });
  }

  private judgeStatus(spec: CallSpec, display: string, r: RawResponse, serviceError: string | null, run: Run): Verdict {
    const failure: Failure = { kind: 'status', status: r.status };
    const decision = retryDecision(spec.method, spec.path, failure, run.retriesUsed + 1, this.maxRetries);
    const isAuth = r.status === 401 || r.status === 403 || (spec.auth === 'token' && r.status >= 400 && r.status < 500);
    const what = isAuth ? (spec.auth === 'token' ? `token request refused (HTTP ${r.status})` : `not authorised (HTTP ${r.status})`) : `HTTP ${r.status}`;
    // Refused credentials: the variables they came from (src/api/config.ts reads them).
    const v = this.variablePrefix;
    const check = isAuth ? `; check ${spec.auth === 'v1' ? `${v}USERNAME and ${v}PASSWORD` : `${v}CLIENT_ID and ${v}CLIENT_SECRET`}` : '';
    const error = new ApiError({
      kind: isAuth ? 'auth' : 'http',
      method: spec.method,
      path: display,
      message: `${serviceError ? `${what}: ${serviceError}` : what}${check}`,
      status: r.status,
      serviceError,
      maybeApplied: decision.maybeApplied,
    });
    if (!decision.retry) throw error;
    run.earlierMaybeApplied ||= mayHaveApplied(failure);
    if (r.status !== 429) return { retry: error, waitMs: backoffMs(run.retriesUsed + 1, null, this.random) };
    // The gate holds this request back with every other one; it needs no wait of its own.
    const retryAfter = parseRetryAfter(r.headers['retry-after'], this.now());
    return { retry: error, waitMs: 0, holdMs: backoffMs(run.retriesUsed + 1, retryAfter, this.random) };
  }
}
