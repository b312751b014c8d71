/**
 * The one way every command builds its client (src/api/connect.ts): flags over the environment,
 * problems as UserErrors naming the flag or variable.
 */
import { describe, expect, it } from 'vitest';
import { clientOptionsFromEnv } from '../../src/api/config.js';
import { connect } from '../../src/api/connect.js';
import { userError } from '../helpers/user-error.js';

const V1 = { MONSYNC_URL: 'http://127.0.0.1:9', MONSYNC_USERNAME: 'me@example.com', MONSYNC_PASSWORD: 'pw-connect-test-1' };
const OAUTH = { MONSYNC_URL: 'http://127.0.0.1:9', MONSYNC_CLIENT_ID: 'cid', MONSYNC_CLIENT_SECRET: 'cs-connect-test-2' };

describe('connect', () => {
  it('builds a client for the URL of --url over MONSYNC_URL', async () => {
    const client = connect({ url: 'http://127.0.0.1:8/' }, V1);
    expect(client.baseUrl).toBe('http://127.0.0.1:8');
    await client.close();
  });

  it('refuses a --timeout that is not a positive number of seconds, an empty one too, before any request', () => {
    for (const bad of ['', '0', '-1', 'soon']) {
      expect(userError(() => connect({ timeout: bad }, V1)).message).toBe(`--timeout must be a positive number of seconds, got "${bad}"`);
    }
  });

  it('turns a missing credential into a UserError naming the variable, without method or path', () => {
    const err = userError(() => connect({}, { MONSYNC_URL: V1.MONSYNC_URL }));
    expect(err.message).toMatch(/^no v1 credentials: set MONSYNC_USERNAME and MONSYNC_PASSWORD/);
    expect(err.message).not.toMatch(/\(\S+ \S*\)$/);
  });

  it('needs v1 credentials unless an OAuth client is said to suffice', async () => {
    expect(userError(() => connect({}, OAUTH)).message).toMatch(/^no v1 credentials/);
    const client = connect({}, OAUTH, { oauthSuffices: true });
    expect(client.baseUrl).toBe('http://127.0.0.1:9');
    await client.close();
  });
});

describe('clientOptionsFromEnv with an OAuth client that suffices', () => {
  it('reads MONSYNC_DEADLINE and the timeout for an OAuth-only client as for any other', () => {
    expect(clientOptionsFromEnv({ ...OAUTH, MONSYNC_DEADLINE: '90' }, { oauthSuffices: true, timeoutMs: 5000 })).toEqual({
      baseUrl: 'http://127.0.0.1:9',
      clientId: 'cid',
      clientSecret: 'cs-connect-test-2',
      timeoutMs: 5000,
      deadlineMs: 90_000,
    });
  });

  it('still checks v1 credentials that are given, and still refuses half an OAuth client', () => {
    expect(() => clientOptionsFromEnv({ ...OAUTH, MONSYNC_USERNAME: 'u' }, { oauthSuffices: true })).toThrow(/set MONSYNC_PASSWORD/);
    expect(() => clientOptionsFromEnv({ ...V1, MONSYNC_CLIENT_ID: 'c' }, { oauthSuffices: true })).toThrow(/MONSYNC_CLIENT_SECRET/);
  });
});

describe('a refused credential of a declared account (issue 45)', () => {
  it('names the account\'s own variables, not MONSYNC_USERNAME and MONSYNC_PASSWORD', async () => {
    const { startTestEmulator } = await import('../helpers/emulator.js');
    const emu = await startTestEmulator();
    const env = { MONSYNC_URL: emu.url, MONSYNC_PROD_URL: emu.url, MONSYNC_PROD_USERNAME: 'demo@example.com', MONSYNC_PROD_PASSWORD: 'not-the-password-45' };
    const client = connect({}, env, { account: { name: 'prod', envPrefix: 'MONSYNC_PROD_' } });
    try {
      const err = await client.listMonitors().then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(err?.message).toMatch(/not authorised \(HTTP 401\).*; check MONSYNC_PROD_USERNAME and MONSYNC_PROD_PASSWORD/);
      expect(err?.message).not.toMatch(/\bMONSYNC_USERNAME\b/);
    } finally {
      await client.close();
      await emu.close();
    }
  });
});
