/**
 * Typed failures of API calls. Messages name the method and path, never credentials or tokens.
 */

export type ApiErrorKind =
  /** 401 / 403, or a token request refused. */
  | 'auth'
  /** Non-2xx status other than auth. */
  | 'http'
  /** 2xx with a non-null `error` field: the service refused the request. */
  | 'service'
  /** Body was not JSON, or not the documented shape. */
  | 'malformed'
  /** No response within the configured timeout. */
  | 'timeout'
  /** Connection refused, reset, DNS failure. */
  | 'network'
  /** Refused before sending: plain http to a non-loopback host, missing credentials. */
  | 'config';

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
   * back (timeout or reset after the body was sent). Apply must read back before retrying a create.
   */
  readonly maybeApplied: boolean;

  constructor(init: {
    kind: ApiErrorKind;
    method: string;
    path: string;
    message: string;
    status?: number | null;
    serviceError?: string | null;
    maybeApplied?: boolean;
  }) {
    // Configuration errors raised before any request exists have neither method nor path.
    super(init.method || init.path ? `${init.message} (${init.method} ${init.path})` : init.message);
    this.kind = init.kind;
    this.method = init.method;
    this.path = init.path;
    this.status = init.status ?? null;
    this.serviceError = init.serviceError ?? null;
    this.maybeApplied = init.maybeApplied ?? false;
  }
}
