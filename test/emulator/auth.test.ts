import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiCall, basicAuth, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

const tokenRequest = (auth: string | null, body: string, contentType = 'application/x-www-form-urlencoded') =>
  apiCall(emu, 'POST', '/v2/token', { auth, body, headers: { 'content-type': contentType } });

const clientAuth = basicAuth('demo-client', 'demo-secret');
const b64url = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('version 1 Basic auth', () => {
  it('accepts the default account', async () => {
    expect((await apiCall(emu, 'GET', '/v1/Status/')).status).toBe(200);
  });

  it.each([
    ['no credentials', null, 'authentication required'],
    ['a wrong password', basicAuth('demo@example.com', 'nope'), 'invalid credentials'],
    ['a wrong user', basicAuth('someone@example.com', 'demo-password'), 'invalid credentials'],
    ['a malformed header', 'Basic', 'malformed Authorization header'],
    ['a bearer token', 'Bearer abc', 'malformed Authorization header'],
  ])('rejects %s with 401, path and error', async (_name, auth, message) => {
    const r = await apiCall(emu, 'GET', '/v1/Config/Monitor/', { auth });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect(r.json.path).toBe('/v1/Config/Monitor/');
    expect(r.json.error).toContain(message);
    expect(JSON.stringify(r.json)).not.toContain('demo-password');
  });

  it('checks credentials before telling whether an endpoint exists', async () => {
    expect((await apiCall(emu, 'GET', '/v1/Nope/', { auth: null })).status).toBe(401);
  });
});

describe('version 2 token endpoint', () => {
  it('issues an HS256 JWT with exp, iat and sub', async () => {
    const r = await tokenRequest(clientAuth, 'grant_type=client_credentials');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const token = r.json.access_token as string;
    expect(decodeProtectedHeader(token).alg).toBe('HS256');
    const claims = decodeJwt(token);
    expect(claims.sub).toBe('demo-client');
    expect(claims.exp! - claims.iat!).toBe(3600);
    const now = (await emu.control.clock()).now;
    expect(Math.abs(claims.iat! - now)).toBeLessThanOrEqual(2);
  });

  it.each([
    ['no client credentials', null, 'grant_type=client_credentials', 401, 'invalid_client'],
    ['a wrong secret', basicAuth('demo-client', 'wrong'), 'grant_type=client_credentials', 401, 'invalid_client'],
    ['the v1 account', basicAuth('demo@example.com', 'demo-password'), 'grant_type=client_credentials', 401, 'invalid_client'],
    ['no grant_type', clientAuth, '', 400, 'grant_type is required'],
    ['another grant_type', clientAuth, 'grant_type=password', 400, 'unsupported_grant_type: password'],
  ])('rejects %s', async (_name, auth, body, status, message) => {
    const r = await tokenRequest(auth, body);
    expect(r.status).toBe(status);
    expect(Object.keys(r.json)).toEqual(['error']);
    expect(r.json.error).toContain(message);
  });

  it('wants a form-encoded body', async () => {
    const r = await tokenRequest(clientAuth, '{"grant_type":"client_credentials"}', 'application/json');
    expect(r.status).toBe(400);
    expect(r.json.error).toContain('form-encoded');
  });
});

describe('version 2 bearer tokens', () => {
  const v2 = (auth: string | null) => apiCall(emu, 'GET', '/v2/version', { auth });

  it('accepts a fresh token and refuses a missing one', async () => {
    expect((await v2(`Bearer ${await emu.token()}`)).status).toBe(200);
    const none = await v2(null);
    expect(none.status).toBe(401);
    expect(none.json).toEqual({ error: expect.stringContaining('authentication required') });
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('expires tokens by the emulator clock', async () => {
    const token = await emu.token();
    await emu.control.advance(3590);
    expect((await v2(`Bearer ${token}`)).status).toBe(200);
    await emu.control.advance(20);
    const r = await v2(`Bearer ${token}`);
    expect(r.status).toBe(401);
    expect(r.json.error).toBe('invalid token: expired');
    expect((await apiCall(emu, 'GET', '/v2/status', { auth: `Bearer ${token}` })).status).toBe(401);
  });

  it('rejects malformed tokens', async () => {
    for (const t of ['abc', 'a.b.c', 'Bearer', '']) {
      const r = await v2(`Bearer ${t}`);
      expect(r.status).toBe(401);
      expect(r.json.error).toMatch(/malformed/);
    }
  });

  it('rejects a token signed with another key', async () => {
    const now = (await emu.control.clock()).now;
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('demo-client')
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(new TextEncoder().encode('x'.repeat(32)));
    const r = await v2(`Bearer ${forged}`);
    expect(r.status).toBe(401);
    expect(r.json.error).toBe('invalid token: signature verification failed');
  });

  it('rejects alg none, and a real token with its signature stripped', async () => {
    const now = (await emu.control.clock()).now;
    const unsigned = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ sub: 'demo-client', iat: now, exp: now + 3600 })}.`;
    const r = await v2(`Bearer ${unsigned}`);
    expect(r.status).toBe(401);
    expect(r.json.error).toMatch(/^invalid token: /);

    const [, payload] = (await emu.token()).split('.');
    const downgraded = `${b64url({ alg: 'none' })}.${payload}.`;
    expect((await v2(`Bearer ${downgraded}`)).status).toBe(401);
  });

  it('does not accept v1 Basic credentials on v2 endpoints', async () => {
    expect((await v2(emu.v1Auth)).status).toBe(401);
  });
});
