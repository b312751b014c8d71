/**
 * What a person reads when the connection set-up is wrong (issue 18): a URL with the API version
 * in it, a port nobody listens on, a wrong password, a wrong client secret. Each message says what
 * was tried or which variables to check, in exact words, and never the secret.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/api/connect.js';
import { ApiError } from '../../src/api/errors.js';
import { UserError } from '../../src/util/errors.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { closedPort } from '../helpers/ports.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.close();
});

const V1 = { MONSYNC_USERNAME: 'demo@example.com', MONSYNC_PASSWORD: 'demo-password' };

async function failure(call: () => Promise<unknown>): Promise<ApiError> {
  try {
    await call();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected the call to fail');
}


describe('connection messages', () => {
  it('refuses a MONSYNC_URL ending in the API version and names the base URL to give instead', () => {
    for (const [given, version] of [
      [`${emu.url}/v1`, 'v1'],
      [`${emu.url}/v2/`, 'v2'],
      [`${emu.url}/monitoring/V1`, 'V1'],
    ] as const) {
      let err: unknown;
      try {
        connect({}, { ...V1, MONSYNC_URL: given });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(UserError);
      const base = given.replace(/\/v[12]\/?$/i, '');
      expect((err as Error).message).toBe(`MONSYNC_URL ends in /${version}: give the base URL only (${base}); monsync adds /v1/ and /v2/ itself`);
    }
    // --url says so in its own name; a path prefix without the version is a base URL and kept.
    expect(() => connect({ url: `${emu.url}/v1` }, V1)).toThrow(/^the --url value ends in \/v1: give the base URL only/);
    expect(connect({}, { ...V1, MONSYNC_URL: `${emu.url}/monitoring` }).baseUrl).toBe(`${emu.url}/monitoring`);
  });

  it('names the host and port it could not connect to', async () => {
    const port = await closedPort();
    const client = connect({}, { ...V1, MONSYNC_URL: `http://127.0.0.1:${port}`, MONSYNC_DEADLINE: '5' });
    const err = await failure(() => client.listMonitors());
    await client.close();
    expect(err.kind).toBe('network');
    expect(err.detail).toMatch(new RegExp(`^could not connect to 127\\.0\\.0\\.1:${port}: connection refused \\(ECONNREFUSED\\)( \\(\\d attempts\\))?$`));
  });

  it('names MONSYNC_USERNAME and MONSYNC_PASSWORD when the service refuses them, never the password', async () => {
    const client = connect({}, { MONSYNC_URL: emu.url, MONSYNC_USERNAME: 'demo@example.com', MONSYNC_PASSWORD: 'wrong-pw-msg-18' });
    const err = await failure(() => client.listMonitors());
    await client.close();
    expect(err.message).toBe('not authorised (HTTP 401): invalid credentials; check MONSYNC_USERNAME and MONSYNC_PASSWORD (GET /v1/Config/Monitor/)');
    expect(err.message).not.toContain('wrong-pw-msg-18');
  });

  it('names MONSYNC_CLIENT_ID and MONSYNC_CLIENT_SECRET when the token request is refused, never the secret', async () => {
    const client = connect(
      {},
      { MONSYNC_URL: emu.url, MONSYNC_CLIENT_ID: 'demo-client', MONSYNC_CLIENT_SECRET: 'not-the-secret-18' },
      { oauthSuffices: true },
    );
    const err = await failure(() => client.getV2Status());
    await client.close();
    expect(err.message).toMatch(/^token request refused \(HTTP 401\): .*; check MONSYNC_CLIENT_ID and MONSYNC_CLIENT_SECRET \(POST \/v2\/token\)$/);
    expect(err.message).not.toContain('not-the-secret-18');
  });
});
