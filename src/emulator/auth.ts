/**
 * Authentication of both API versions. v1: HTTP Basic with the account login. v2: OAuth 2.0
 * client credentials -> HS256 JWT signed with a per-process random secret and checked against
 * the emulator clock, so tests can expire a token by advancing the clock.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { EmulatorClock } from './clock.js';

export interface Credentials {
  v1: { user: string; password: string };
  v2: { clientId: string; clientSecret: string };
}

export const DEFAULT_CREDENTIALS: Credentials = {
  v1: { user: 'demo@example.com', password: 'demo-password' },
  v2: { clientId: 'demo-client', clientSecret: 'demo-secret' },
};

export const TOKEN_LIFETIME_SECONDS = 3600;

export function parseBasic(header: string | undefined): { user: string; password: string } | undefined {
  if (!header) return undefined;
  const m = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!m) return undefined;
  const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Compares digests so neither the length nor the content of the secret leaks through timing. */
function same(a: string, b: string): boolean {
  const h = (s: string): Buffer => createHash('sha256').update(s).digest();
  return timingSafeEqual(h(a), h(b));
}

/** Null when the v1 Basic credentials are right, else the reason (never echoing the secret). */
export function checkV1(header: string | undefined, creds: Credentials): string | null {
  if (!header) return 'authentication required: send HTTP Basic credentials (account e-mail and password)';
  const basic = parseBasic(header);
  if (!basic) return 'malformed Authorization header: expected HTTP Basic credentials';
  const okUser = same(basic.user, creds.v1.user);
  const okPass = same(basic.password, creds.v1.password);
  return okUser && okPass ? null : 'invalid credentials';
}

export type TokenRequestResult =
  | { status: 200; body: { access_token: string; token_type: 'Bearer'; expires_in: number } }
  | { status: 400 | 401; body: { error: string }; headers?: Record<string, string> };

export class TokenService {
  private readonly secret = randomBytes(32);

  constructor(
    private readonly clock: EmulatorClock,
    private readonly creds: Credentials,
  ) {}

  /** POST /v2/token: client authenticated first, then the grant checked. */
  async handleTokenRequest(authorization: string | undefined, grantType: string | undefined): Promise<TokenRequestResult> {
    const basic = parseBasic(authorization);
    if (!basic) {
      return {
        status: 401,
        body: { error: 'invalid_client: send the client id and secret as HTTP Basic credentials' },
        headers: { 'WWW-Authenticate': 'Basic realm="token"' },
      };
    }
    const okId = same(basic.user, this.creds.v2.clientId);
    const okSecret = same(basic.password, this.creds.v2.clientSecret);
    if (!okId || !okSecret) {
      return { status: 401, body: { error: 'invalid_client: unknown client id or wrong secret' }, headers: { 'WWW-Authenticate': 'Basic realm="token"' } };
    }
    if (grantType === undefined || grantType === '') {
      return { status: 400, body: { error: 'invalid_request: grant_type is required (grant_type=client_credentials)' } };
    }
    if (grantType !== 'client_credentials') {
      return { status: 400, body: { error: `unsupported_grant_type: ${grantType} (only client_credentials is supported)` } };
    }
    const now = this.clock.nowSeconds();
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(basic.user)
      .setIssuedAt(now)
      .setExpirationTime(now + TOKEN_LIFETIME_SECONDS)
      .setJti(randomUUID())
      .sign(this.secret);
    return { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS } };
  }

  /** Null when the bearer token is valid now (emulator clock), else the reason. */
  async checkBearer(authorization: string | undefined): Promise<string | null> {
    if (!authorization) return 'authentication required: send Authorization: Bearer <token> (from POST /v2/token)';
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!m) return 'malformed Authorization header: expected a Bearer token';
    try {
      const { payload } = await jwtVerify(m[1] as string, this.secret, {
        algorithms: ['HS256'],
        currentDate: new Date(this.clock.nowMs()),
        requiredClaims: ['exp', 'sub'],
      });
      if (payload.sub !== this.creds.v2.clientId) return 'invalid token: unknown client';
      return null;
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) return 'invalid token: expired';
      if (err instanceof joseErrors.JWSSignatureVerificationFailed) return 'invalid token: signature verification failed';
      if (err instanceof joseErrors.JOSEAlgNotAllowed) return 'invalid token: algorithm not allowed (HS256 expected)';
      if (err instanceof joseErrors.JWTClaimValidationFailed) return `invalid token: ${err.message}`;
      return 'invalid token: malformed';
    }
  }
}
