/**
 * Authorization of requests: v1 HTTP Basic with the account's login, v2 Basic with the client
 * credentials for the token request, and v2 Bearer with one cached token per client, renewed
 * before it expires and shared by concurrent callers. Every credential and token is registered
 * with redact() the moment it is known.
 */
import { registerSecret } from '../util/redact.js';
import { ApiError } from './errors.js';
import type { Token } from './types.js';

/** v1 Basic, v2 Bearer, or the v2 client's Basic (only for POST /v2/token). */
export type AuthMode = 'v1' | 'v2' | 'token';

/** Token renewal point: at 90% of the lifetime, at least 60 s before expiry, never before half of it. */
export function tokenRenewAfterSeconds(expiresIn: number): number {
  return Math.max(expiresIn * 0.5, Math.min(expiresIn * 0.9, expiresIn - 60));
}

export interface CredentialOptions {
  username?: string;
  password?: string;
  clientId?: string;
  clientSecret?: string;
  /** Clock for renewal, in milliseconds. */
  now: () => number;
  /** Asks the service for a token (POST /v2/token, authorised as mode `token`). */
  requestToken: () => Promise<Token>;
}

const basic = (user: string | undefined, secret: string | undefined): string | null =>
  user !== undefined && secret !== undefined ? `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}` : null;

export class Credentials {
  private readonly basicV1: string | null;
  private readonly basicV2: string | null;
  private token: { value: string; renewAt: number } | null = null;
  private tokenInFlight: Promise<Token> | null = null;

  constructor(private readonly opts: CredentialOptions) {
    registerSecret(opts.password);
    registerSecret(opts.clientSecret);
    this.basicV1 = basic(opts.username, opts.password);
    this.basicV2 = basic(opts.clientId, opts.clientSecret);
    registerSecret(this.basicV1);
    registerSecret(this.basicV2);
  }

  /** The Authorization header for a request; a config ApiError (nothing sent) when credentials are missing. */
  header(mode: AuthMode, method: string, path: string): string | Promise<string> {
    if (mode === 'v1') {
      if (this.basicV1 === null) throw missing(method, path, 'no v1 credentials: set MONSYNC_USERNAME and MONSYNC_PASSWORD');
      return this.basicV1;
    }
    if (this.basicV2 === null) throw missing(method, path, 'no v2 client credentials: set MONSYNC_CLIENT_ID and MONSYNC_CLIENT_SECRET');
    if (mode === 'token') return this.basicV2;
    return this.bearer().then((t) => `Bearer ${t}`);
  }

  /** A request authorised with `header` was answered 401: drop its token unless a newer one replaced it. */
  rejected(header: string): void {
    const used = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : null;
    // Only the token this request used: a concurrent caller may already have renewed it.
    if (used !== null && this.token?.value === used) this.token = null;
  }

  /** Fetches a token; concurrent callers share the request in flight, and the result is cached. */
  fetchToken(): Promise<Token> {
    if (this.tokenInFlight) return this.tokenInFlight;
    const p = (async () => {
      const token = await this.opts.requestToken();
      registerSecret(token.access_token);
      this.token = { value: token.access_token, renewAt: this.opts.now() + tokenRenewAfterSeconds(token.expires_in) * 1000 };
      return token;
    })();
    this.tokenInFlight = p;
    const clear = (): void => {
      if (this.tokenInFlight === p) this.tokenInFlight = null;
    };
    p.then(clear, clear);
    return p;
  }

  private async bearer(): Promise<string> {
    if (this.token && this.opts.now() < this.token.renewAt) return this.token.value;
    return (await this.fetchToken()).access_token;
  }
}

function missing(method: string, path: string, message: string): ApiError {
  return new ApiError({ kind: 'config', method, path, message });
}
