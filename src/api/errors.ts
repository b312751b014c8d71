/**
 * Typed failures of API calls. Messages name the method and path, never credentials or tokens.
 */
import { redact } from '../util/redact.js';

export type ApiErrorKind =
  /** 401 / 403, or a token request refused. */
  | 'auth'
  /** Non-2xx status other than auth. */
  | 'http'
  /** 2xx with a non-null `error` field: the service refused the request. */
  | 'service'
  /** Body was not JSON, or not the documented shape, or larger than the client's cap. */
  | 'malformed'
  /** No response within the configured timeout, or the call's deadline spent. */
  | 'timeout'
  /** Connection refused, reset, DNS failure. */
  | 'network'
  /** Refused before sending: plain http to a non-loopback host, missing credentials. */
  | 'config';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  method: string;
  path: string;
  message: string;
  status?: number | null;
  serviceError?: string | null;
  maybeApplied?: boolean;
  followUp?: string;
  interrupted?: boolean;
  /** How many times the call was sent; above 1 the message says so (`(5 attempts)`). */
  attempts?: number;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly method: string;
  readonly path: string;
  readonly status: number | null;
  /** The service's own `error` string, when it sent one. */
  readonly serviceError: string | null;
  /**
   * True when the request may have reached the service and been acted on although no answer came
   * back (timeout or reset after the body was sent). A create is then looked up before it is ever
   * sent again (CreateOptions.lookup).
   */
  readonly maybeApplied: boolean;
  /**
   * What the client did after the failure, appended to the message: `; interrupted before
   * retrying`, `; could not check whether the service created it: ...`. Empty when nothing.
   */
  readonly followUp: string;
  /** The call stopped early because its signal was aborted: a retry or a check was not made. */
  readonly interrupted: boolean;
  /** The message without the method, path and follow-up (with the count of attempts). */
  readonly detail: string;
  /** The message without the count of attempts, the method, path and follow-up. */
  readonly reason: string;
  /** How many times the call was sent (1 unless the client retried). */
  readonly attempts: number;

  constructor(init: ApiErrorInit) {
    const followUp = init.followUp ?? '';
    const attempts = init.attempts ?? 1;
    const detail = `${init.message}${attempts > 1 ? ` (${attempts} attempts)` : ''}`;
    // Configuration errors raised before any request exists have neither method nor path.
    super(`${init.method || init.path ? `${detail} (${init.method} ${init.path})` : detail}${followUp}`);
    this.kind = init.kind;
    this.method = init.method;
    this.path = init.path;
    this.status = init.status ?? null;
    this.serviceError = init.serviceError ?? null;
    this.maybeApplied = init.maybeApplied ?? false;
    this.followUp = followUp;
    this.interrupted = init.interrupted ?? false;
    this.detail = detail;
    this.reason = init.message;
    this.attempts = attempts;
  }

  /** The same failure with `text` appended to what the client did after it. */
  withFollowUp(text: string, opts: { interrupted?: boolean } = {}): ApiError {
    return new ApiError({
      kind: this.kind,
      method: this.method,
      path: this.path,
      status: this.status,
      serviceError: this.serviceError,
      maybeApplied: this.maybeApplied,
      message: this.reason,
      attempts: this.attempts,
      followUp: this.followUp + text,
      interrupted: this.interrupted || (opts.interrupted ?? false),
    });
  }
}

/**
 * One line for a person: the service's own words when it gave a reason (`the service said "..."
 * (POST /v1/Config/Monitor/)`), else the error's message; secrets redacted. Without the count of
 * attempts: apply's line for the change states it (`failed after 5 attempts: ...`), and saying it
 * twice read as two different counts.
 */
export function describeError(err: unknown): string {
  let text: string;
  if (err instanceof ApiError) {
    const said = err.serviceError ? `the service said ${JSON.stringify(err.serviceError)}` : err.reason;
    text = `${err.method || err.path ? `${said} (${err.method} ${err.path})` : said}${err.followUp}`;
  } else if (err instanceof Error) {
    text = err.message;
  } else {
    text = String(err);
  }
  return redact(text);
}
