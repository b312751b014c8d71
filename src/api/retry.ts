/**
 * RETRY RULE (also in CONTRIBUTING.md, "Retries of API calls"). The whole rule lives in
 * retryDecision(); the client only asks it.
 *
 * A failed attempt is one of:
 *   - `not-sent`  the request never reached the service: connection refused, DNS failure,
 *                 connect timeout. Nothing can have been applied.
 *   - `status`    an HTTP answer. 429 means "slow down, nothing done"; 502/503/504 mean the
 *                 gateway or service failed and the request may or may not have been acted on.
 *   - `reset`     the connection broke after the request may have been written.
 *   - `timeout`   no complete answer within the per-request timeout.
 *
 * 1. 429 and `not-sent` are retried for every method (the service did nothing).
 * 2. Reads (GET) and the token request (POST /v2/token, which only mints a token) are retried
 *    on 502, 503, 504, `reset` and `timeout` too.
 * 3. Writes that are idempotent by id are treated like reads: PUT and DELETE of a resource named
 *    by id, and POST /v1/Pause/... (pausing again just restarts the pause). A DELETE retried after
 *    an attempt that may have been applied, and then answered 404, counts as success: the first
 *    attempt did the work.
 * 4. Creates (POST /v1/Config/Monitor/, /v1/Config/Alert/, /v1/Config/Group/, and any other POST
 *    not listed above) are NEVER retried once the request may have been sent. Their error carries
 *    `maybeApplied: true` (timeout, reset, any 5xx), so apply reads back by label before trying
 *    again instead of creating a duplicate.
 * 5. Any other status (4xx besides 429, 500, 501, ...) is not retried: repeating will not help.
 * 6. At most `maxRetries` retries per call. Delay: exponential backoff with full jitter
 *    (random in [0, min(5 s, 200 ms * 2^(n-1))] before retry n); a 429's Retry-After, when
 *    given in seconds or as an HTTP date, is honoured instead, capped at 30 s.
 */

export type Failure =
  | { kind: 'not-sent' }
  | { kind: 'status'; status: number }
  | { kind: 'reset' }
  | { kind: 'timeout' };

export type MethodClass = 'read' | 'idempotent-write' | 'create';

export interface RetryDecision {
  retry: boolean;
  /** Whether the failed attempt may have been acted on by the service (only meaningful for writes). */
  maybeApplied: boolean;
}

export const BACKOFF_BASE_MS = 200;
export const BACKOFF_CAP_MS = 5_000;
export const RETRY_AFTER_CAP_MS = 30_000;

const RETRYABLE_STATUSES = new Set([502, 503, 504]);

/** Strip the query and normalise to a leading and trailing slash so the tests below are simple. */
function bare(path: string): string {
  let p = path.split('?')[0] ?? '';
  if (!p.startsWith('/')) p = `/${p}`;
  if (!p.endsWith('/')) p = `${p}/`;
  return p;
}

export function classifyMethod(method: string, path: string): MethodClass {
  const m = method.toUpperCase();
  const p = bare(path);
  if (m === 'GET' || m === 'HEAD') return 'read';
  if (m === 'POST' && p === '/v2/token/') return 'read';
  if (m === 'PUT' || m === 'DELETE') return 'idempotent-write';
  if (m === 'POST' && p.startsWith('/v1/Pause/')) return 'idempotent-write';
  return 'create';
}

/** True when the failure means the request may have reached the service and been acted on. */
export function mayHaveApplied(failure: Failure): boolean {
  switch (failure.kind) {
    case 'not-sent':
      return false;
    case 'status':
      return failure.status >= 500;
    case 'reset':
    case 'timeout':
      return true;
  }
}

/**
 * Decide whether to retry after attempt number `attempt` (1-based) failed with `failure`.
 * `maxRetries` is the number of retries allowed in addition to the first attempt.
 */
export function retryDecision(
  method: string,
  path: string,
  failure: Failure,
  attempt: number,
  maxRetries: number,
): RetryDecision {
  const cls = classifyMethod(method, path);
  const maybeApplied = cls !== 'read' && mayHaveApplied(failure);
  const budgetLeft = attempt <= maxRetries;
  let retryable: boolean;
  if (failure.kind === 'not-sent' || (failure.kind === 'status' && failure.status === 429)) {
    retryable = true;
  } else if (failure.kind === 'status' && !RETRYABLE_STATUSES.has(failure.status)) {
    retryable = false;
  } else {
    // 502/503/504, reset, timeout: safe only when repeating cannot duplicate anything.
    retryable = cls !== 'create';
  }
  return { retry: retryable && budgetLeft, maybeApplied };
}

/**
 * Delay before retry number `retry` (1-based). `retryAfterMs` (from a 429's Retry-After) wins
 * over the computed backoff, capped at RETRY_AFTER_CAP_MS.
 */
export function backoffMs(retry: number, retryAfterMs: number | null, random: () => number = Math.random): number {
  if (retryAfterMs !== null && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) {
    return Math.min(retryAfterMs, RETRY_AFTER_CAP_MS);
  }
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number = Date.now()): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return null;
  const s = raw.trim();
  if (s === '') return null;
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  const date = Date.parse(s);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - nowMs);
}
