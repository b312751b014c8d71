/**
 * RETRY RULE (also in docs/retries.md). The decision lives in
 * retryDecision(); the transport (transport.ts) asks it and is the only place that sends a request
 * again: apply has no retry loop of its own.
 *
 * A failed attempt is one of:
 *   - `not-sent`  the request never reached the service: connection refused, DNS failure,
 *                 connect timeout. Nothing can have been applied.
 *   - `status`    an HTTP answer. 429 means "slow down, nothing done"; 502/503/504 mean the
 *                 gateway or service failed and the request may or may not have been acted on.
 *   - `reset`     the connection broke after the request may have been written.
 *   - `timeout`   no complete answer within the per-attempt timeout (or the call's deadline).
 *   - `too-large` the answer was longer than the client's cap (maxResponseBytes, 512 MB).
 *   - `tls`       the TLS handshake failed (untrusted or expired certificate, wrong host name):
 *                 nothing was sent, and the next handshake would fail the same way.
 *
 * 1. 429 and `not-sent` are retried for every method (the service did nothing). A 429 holds back
 *    every request of the client, not only the one that got it (a shared gate, gate.ts), for its
 *    Retry-After (seconds or an HTTP date, capped at 30 s), or for the backoff when it gives none.
 * 2. Reads (GET) and the token request (POST /v2/token, which only mints a token) are retried
 *    on 502, 503, 504, `reset` and `timeout` too.
 * 3. Writes that are idempotent by id are treated like reads: PUT and DELETE of a resource named
 *    by id, and POST /v1/Pause/... (pausing again just restarts the pause). A DELETE retried after
 *    an attempt that may have been applied, and then answered "no such object" (gone.ts), counts
 *    as success: the first attempt did the work.
 * 4. Creates (POST /v1/Config/Monitor/, /v1/Config/Alert/, /v1/Config/Group/, and any other POST
 *    not listed above) are NEVER sent again while they may have been applied. After a 5xx, a
 *    reset, a timeout or an unreadable 2xx, the caller's lookup (CreateOptions.lookup; apply reads
 *    the account by natural key) is asked first: found -> that is the result; absent after an
 *    answered 502/503/504 (the service is done with the request) -> sent again, within the same
 *    budget; absent after a timeout or reset (it may still be in flight) -> the call fails, saying
 *    so. Without a lookup the error carries `maybeApplied: true`. An answered create that rule 1
 *    would send again (429, a v2 401) is looked up first too, after the 429's hold: a gateway may
 *    have forwarded it and the service made it, whatever the status it answered.
 * 5. Any other status (4xx besides 429, 500, 501, ...) is not retried: repeating will not help.
 *    Nor is `too-large`: the answer would be as large again; nor `tls`: the certificate would be
 *    the same again.
 * 6. Budget: at most `maxRetries` (default 4) retries per call, so a call (and so a change of
 *    apply) sends at most 1 + maxRetries requests; a create's lookups are reads with budgets of
 *    their own. Delay before retry n: full-jitter exponential backoff, random in
 *    [0, min(5 s, 200 ms * 2^(n-1))].
 * 7. Deadline: one call's attempts and waits end within `deadlineMs` of its first send (default
 *    60 s, never less than the per-attempt timeout; MONSYNC_DEADLINE in seconds). An attempt's
 *    timeout is cut to what is left and no wait outlasts it, so a hung service fails a call in
 *    about a minute instead of 5 x 30 s.
 * 8. A call given an AbortSignal (apply, on Ctrl-C or SIGTERM) starts no further attempt or lookup
 *    once it is aborted; the attempt in flight finishes.
 */

export type Failure =
  | { kind: 'not-sent' }
  | { kind: 'status'; status: number }
  | { kind: 'reset' }
  | { kind: 'timeout' }
  | { kind: 'too-large' }
  | { kind: 'tls' };

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

/** 502/503/504: a gateway or the service failed; it answered, so it is done with the request. */
export function isRetryableStatus(status: number | null): boolean {
  return status !== null && RETRYABLE_STATUSES.has(status);
}

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
    case 'tls':
      return false;
    case 'status':
      return failure.status >= 500;
    case 'reset':
    case 'timeout':
    case 'too-large':
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
  } else if ((failure.kind === 'status' && !isRetryableStatus(failure.status)) || failure.kind === 'too-large' || failure.kind === 'tls') {
    retryable = false;
  } else {
    // 502/503/504, reset, timeout: safe only when repeating cannot duplicate anything.
    retryable = cls !== 'create';
  }
  return { retry: retryable && budgetLeft, maybeApplied };
}

/**
 * Delay before retry number `retry` (1-based). `retryAfterMs` (from a 429's Retry-After) wins
 * over the computed backoff, capped at RETRY_AFTER_CAP_MS. For a 429 this is how long the shared
 * gate holds every request back.
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
