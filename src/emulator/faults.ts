/**
 * Fault injection for /v1 and /v2 calls, deterministic through a seeded PRNG so a failing test
 * replays the same sequence of faults. Beside the faults, a rate limit as a service has one
 * (`rate_limit_per_second`): a token bucket on the emulator clock, refilled at that rate and
 * holding `rate_limit_burst` tokens; a call that finds it empty is answered 429 with the whole
 * seconds until the next token in Retry-After (at least 1), and takes no token. `repeat_data`
 * answers every data item of the data endpoints (API 4.8) that many times in a row, as a service
 * whose data store holds each test twice would: the answer's shape stays valid, its counts do not.
 */
import { badRequest } from './errors.js';
import { isObject, show } from './validate.js';

export interface FaultConfig {
  latency_ms: number;
  error_rate: number;
  error_status: number;
  rate_limit_every: number;
  retry_after: number;
  /** Requests per second the bucket lets through on average; 0: no limit. */
  rate_limit_per_second: number;
  /** Tokens the bucket holds (requests that may come at once after a quiet time); default: one second's worth. */
  rate_limit_burst: number;
  drop_rate: number;
  /** Each data item of a data answer sent this many times in a row; 1: as stored. */
  repeat_data: number;
  methods: string[] | null;
  path_prefix: string | null;
  seed: number;
}

export interface FaultDecision {
  latencyMs: number;
  /** Answer this instead of processing the request. */
  reject: { status: number; headers: Record<string, string>; error: string; label: string } | null;
  /** Process the request, then destroy the socket without answering. */
  drop: boolean;
  /** Data items of the answer repeated this many times (1: not). */
  repeatData: number;
}

/** mulberry32: tiny, fast, and good enough to spread faults evenly. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = [
  'latency_ms',
  'error_rate',
  'error_status',
  'rate_limit_every',
  'retry_after',
  'rate_limit_per_second',
  'rate_limit_burst',
  'drop_rate',
  'repeat_data',
  'methods',
  'path_prefix',
  'seed',
] as const;

export function parseFaultConfig(body: unknown): FaultConfig {
  if (!isObject(body)) throw badRequest('faults: body must be a JSON object');
  const extra = Object.keys(body).filter((k) => !(KEYS as readonly string[]).includes(k));
  if (extra.length) throw badRequest(`faults: unknown key ${extra.join(', ')} (allowed: ${KEYS.join(', ')})`);
  const num = (k: (typeof KEYS)[number], def: number, min: number, max: number, integer: boolean): number => {
    const v = body[k];
    if (v === undefined || v === null) return def;
    if (typeof v !== 'number' || !Number.isFinite(v) || (integer && !Number.isInteger(v)) || v < min || v > max) {
      throw badRequest(`faults: ${k} must be ${integer ? 'an integer' : 'a number'} in ${min}..${max}, got ${show(v)}`);
    }
    return v;
  };
  let methods: string[] | null = null;
  if (body.methods !== undefined && body.methods !== null) {
    if (!Array.isArray(body.methods) || !body.methods.every((m) => typeof m === 'string')) {
      throw badRequest('faults: methods must be an array of HTTP method names');
    }
    methods = (body.methods as string[]).map((m) => m.toUpperCase());
  }
  let path_prefix: string | null = null;
  if (body.path_prefix !== undefined && body.path_prefix !== null) {
    if (typeof body.path_prefix !== 'string') throw badRequest('faults: path_prefix must be a string');
    path_prefix = body.path_prefix;
  }
  const perSecond = num('rate_limit_per_second', 0, 0, 1_000_000, false);
  return {
    latency_ms: num('latency_ms', 0, 0, 120_000, false),
    error_rate: num('error_rate', 0, 0, 1, false),
    error_status: num('error_status', 503, 400, 599, true),
    rate_limit_every: num('rate_limit_every', 0, 0, Number.MAX_SAFE_INTEGER, true),
    retry_after: num('retry_after', 1, 0, 86_400, true),
    rate_limit_per_second: perSecond,
    rate_limit_burst: num('rate_limit_burst', Math.max(1, Math.ceil(perSecond)), 1, 1_000_000, true),
    drop_rate: num('drop_rate', 0, 0, 1, false),
    repeat_data: num('repeat_data', 1, 1, 10, true),
    methods,
    path_prefix,
    seed: num('seed', 1, 0, 0xffffffff, true),
  };
}

export class FaultInjector {
  private cfg: FaultConfig | null = null;
  private rng: () => number = mulberry32(1);
  private matched = 0;
  /** The rate limit's bucket: tokens at `at` (ms on the clock). */
  private bucket = { tokens: 0, at: 0 };

  /** @param now the emulator clock in milliseconds (moving it refills the bucket, as time would) */
  constructor(private readonly now: () => number = Date.now) {}

  get config(): FaultConfig | null {
    return this.cfg;
  }

  set(cfg: FaultConfig): void {
    this.cfg = cfg;
    this.rng = mulberry32(cfg.seed);
    this.matched = 0;
    this.bucket = { tokens: cfg.rate_limit_burst, at: this.now() };
  }

  /** Takes a token of the rate limit; the whole seconds to wait for one when there is none. */
  private overLimit(c: FaultConfig): number | null {
    if (c.rate_limit_per_second <= 0) return null;
    const t = this.now();
    const b = this.bucket;
    b.tokens = Math.min(c.rate_limit_burst, b.tokens + (Math.max(0, t - b.at) * c.rate_limit_per_second) / 1000);
    b.at = t;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return null;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / c.rate_limit_per_second));
  }

  clear(): void {
    this.cfg = null;
    this.matched = 0;
  }

  decide(method: string, path: string): FaultDecision | null {
    const c = this.cfg;
    if (!c) return null;
    if (c.methods && !c.methods.includes(method.toUpperCase())) return null;
    if (c.path_prefix !== null && !path.startsWith(c.path_prefix)) return null;
    this.matched++;
    // Both rolls happen on every matching call so the sequence depends only on the call count.
    const errorRoll = this.rng();
    const dropRoll = this.rng();
    let reject: FaultDecision['reject'] = null;
    const waitSeconds = this.overLimit(c);
    if (waitSeconds !== null) {
      reject = {
        status: 429,
        headers: { 'Retry-After': String(waitSeconds) },
        error: `rate limit exceeded (${c.rate_limit_per_second} requests per second): retry after ${waitSeconds} seconds`,
        label: 'rate_limit',
      };
    } else if (c.rate_limit_every > 0 && this.matched % c.rate_limit_every === 0) {
      reject = {
        status: 429,
        headers: { 'Retry-After': String(c.retry_after) },
        error: `rate limit exceeded: retry after ${c.retry_after} seconds (injected fault)`,
        label: 'rate_limit',
      };
    } else if (errorRoll < c.error_rate) {
      reject = { status: c.error_status, headers: {}, error: `injected fault: HTTP ${c.error_status}`, label: 'error' };
    }
    return { latencyMs: c.latency_ms, reject, drop: reject === null && dropRoll < c.drop_rate, repeatData: c.repeat_data };
  }
}

/**
 * A data answer (`data` of one monitor, or `monitors[].data` of all) with each item repeated `times`
 * times in a row; any other body as it is. Only the emulator's own answers pass here.
 */
export function repeatDataItems(body: unknown, times: number): unknown {
  if (times <= 1 || !isObject(body)) return body;
  const repeat = (items: unknown): unknown => (Array.isArray(items) ? items.flatMap((item) => Array.from({ length: times }, () => item)) : items);
  if (Array.isArray(body.data)) return { ...body, data: repeat(body.data) };
  if (Array.isArray(body.monitors)) return { ...body, monitors: body.monitors.map((m) => (isObject(m) ? { ...m, data: repeat(m.data) } : m)) };
  return body;
}
