/**
 * The HTTP trace (src/api/trace.ts): one line per attempt at `debug`, bodies at `trace`, retries and
 * their decisions under injected faults, a file instead of stderr, and never a secret, at any level.
 * Against an emulator on 127.0.0.1, the client built from the environment as every command builds it.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MonitoringClient } from '../../src/api/client.js';
import { clientOptionsFromEnv } from '../../src/api/config.js';
import { ApiError } from '../../src/api/errors.js';
import { formatExchange, httpLogFromEnv, MAX_BODY_CHARS, showBody, type Exchange } from '../../src/api/trace.js';
import { DEFAULT_CREDENTIALS } from '../../src/emulator/index.js';
import { basicAuth, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

let emu: TestEmulator;
let dir: string;
let n = 0;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'default' });
  dir = await mkdtemp(join(tmpdir(), 'monsync-trace-'));
});
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await emu.control.reset('default');
});

const { v1, v2 } = DEFAULT_CREDENTIALS;
/** Every form a credential could leak in: as given, and inside the Basic headers. */
const SECRETS = [v1.password, v2.clientSecret, basicAuth(v1.user, v1.password).slice(6), basicAuth(v2.clientId, v2.clientSecret).slice(6)];

function env(extra: Record<string, string>): Record<string, string> {
  return {
    MONSYNC_URL: emu.url,
    MONSYNC_USERNAME: v1.user,
    MONSYNC_PASSWORD: v1.password,
    MONSYNC_CLIENT_ID: v2.clientId,
    MONSYNC_CLIENT_SECRET: v2.clientSecret,
    ...extra,
  };
}

/** A client as commands build it, tracing to a fresh file; retries do not really wait. */
function tracedClient(level: string): { client: MonitoringClient; file: string; lines: () => Promise<string[]> } {
  const file = join(dir, `trace-${++n}.log`);
  const client = new MonitoringClient({ ...clientOptionsFromEnv(env({ MONSYNC_LOG: level, MONSYNC_LOG_FILE: file })), sleep: async () => {} });
  return { client, file, lines: async () => (await readFile(file, 'utf8')).split('\n').filter((l) => l !== '') };
}

function expectNoSecret(text: string, extra: string[] = []): void {
  for (const s of [...SECRETS, ...extra]) expect(text.includes(s), `the trace shows a secret ${JSON.stringify(s.slice(0, 6))}...:\n${text}`).toBe(false);
}

const FIRST_LINE = /^monsync http \d{4}-\d\d-\d\dT[\d:.]+Z (GET|POST|PUT|DELETE) (\S+) -> (\d{3}|no answer \(.*\)) in \d+ ms, attempt (\d+), (\d+) B sent, (\d+) B received: (.+)$/;

describe('MONSYNC_LOG=debug', () => {
  it('writes one line per request: method, path and query, status, duration, attempt, bytes, and the decision', async () => {
    const { client, lines } = tracedClient('debug');
    try {
      await client.listMonitors();
      await client.getStatusFilter({ t: 600, prefix: 'mx' });
      await client.getV2Status({ all: true });
    } finally {
      await client.close();
    }
    const got = await lines();
    expect(got.map((l) => l.replace(FIRST_LINE, '$1 $2 -> $3 attempt $4: $7'))).toEqual([
      'GET /v1/Config/Monitor/ -> 200 attempt 1: done',
      'GET /v1/Status/Filter/?t=600&prefix=mx -> 200 attempt 1: done',
      'POST /v2/token -> 200 attempt 1: done',
      'GET /v2/status?all=true -> 200 attempt 1: done',
    ]);
    const list = FIRST_LINE.exec(got[0]!)!;
    expect(Number(list[6])).toBeGreaterThan(100);
    expect(Number(list[5])).toBe(0);
    // The token request's form body is counted, never shown at this level.
    expect(Number(FIRST_LINE.exec(got[2]!)![5])).toBe('grant_type=client_credentials'.length);
    expect(got.join('\n')).not.toContain('grant_type');
    expectNoSecret(got.join('\n'));
  });

  it('shows every retry under injected 503s, with its wait, and where the budget ends', async () => {
    await emu.control.faults({ error_rate: 1, error_status: 503, path_prefix: '/v1/Config/Monitor' });
    const { client, lines } = tracedClient('debug');
    await expect(client.listMonitors()).rejects.toThrow(/HTTP 503/);
    await client.close();
    const got = (await lines()).map((l) => l.replace(FIRST_LINE, '$3 attempt $4: $7'));
    expect(got).toHaveLength(5);
    got.slice(0, 4).forEach((l, i) => expect(l).toMatch(new RegExp(`^503 attempt ${i + 1}: retry ${i + 1} of 4 in \\d+ ms$`)));
    expect(got[4]).toBe('503 attempt 5: gave up after 5 attempts');
  });

  it('shows a 429 holding every request of the client back, attempt by attempt', async () => {
    await emu.control.faults({ rate_limit_every: 1, retry_after: 2, methods: ['GET'], path_prefix: '/v1/Config/Group' });
    const { client, lines } = tracedClient('debug');
    await expect(client.listGroups()).rejects.toThrow(/HTTP 429/);
    await client.close();
    const got = (await lines()).map((l) => l.replace(FIRST_LINE, '$3 attempt $4: $7'));
    expect(got[0]).toBe('429 attempt 1: retry 1 of 4 after 2000 ms (429: every request of this client waits)');
    expect(got.at(-1)).toBe('429 attempt 5: gave up after 5 attempts');
  });

  it('says when a connection was lost, that a read is retried and that a create is not sent again', async () => {
    await emu.control.faults({ drop_rate: 1, path_prefix: '/v1/Config/' });
    const { client, lines } = tracedClient('debug');
    await expect(client.listDestinations()).rejects.toThrow(ApiError);
    const err = await client
      .createGroup({ name: 'g' })
      .then(() => null)
      .catch((e: unknown) => e);
    await client.close();
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).maybeApplied).toBe(true);
    const got = (await lines()).map((l) => l.replace(FIRST_LINE, '$1 $2 -> $3 attempt $4: $7'));
    expect(got[0]).toMatch(/^GET \/v1\/Config\/AlertDestination\/ -> no answer \(connection lost.*\) attempt 1: retry 1 of 4 in \d+ ms$/);
    expect(got.at(-1)).toMatch(/^POST \/v1\/Config\/Group\/ -> no answer \(connection lost.*\) attempt 1: not retried: may have been applied$/);
  });
});

describe('MONSYNC_LOG=trace', () => {
  it('adds the bodies and response headers, with every credential and token masked', async () => {
    const { client, lines } = tracedClient('trace');
    let token = '';
    try {
      token = (await client.getToken()).access_token;
      await client.getV2Version();
      await client.createGroup({ name: 'traced' });
      await client.updateMonitor((await client.listMonitors()).find((m) => m.label === 'legacy-mx')!.id, { ttl: 60 });
    } finally {
      await client.close();
    }
    const text = (await lines()).join('\n');
    expect(token.length).toBeGreaterThan(20);
    expectNoSecret(text, [token]);
    // The token answer is shown with the token masked; the request that carries it shows only its scheme.
    expect(text).toMatch(/< \{"access_token":"\*\*\*"/);
    expect(text).toContain('> authorization: Bearer ***');
    expect(text).toContain('> authorization: Basic ***');
    expect(text).toContain('> {"name":"traced"}');
    expect(text).toContain('> {"ttl":60}');
    expect(text).toMatch(/< date: .* GMT/);
    expect(text).toMatch(/< \{"path":.*"group":\{.*"name":"traced"/);
  });

  it('cuts long bodies to a few KB and says how long they were', async () => {
    await emu.control.seed({
      monitors: Array.from({ length: 60 }, (_, i) => ({ label: `http-${i}`, type: 'HTTP', description: 'x'.repeat(100), timer: 5 })),
    });
    const { client, lines } = tracedClient('trace');
    await client.listMonitors();
    await client.close();
    const body = (await lines()).find((l) => l.startsWith('    < {'))!;
    expect(body.length).toBeLessThan(MAX_BODY_CHARS + 100);
    expect(body).toMatch(/\.\.\. \(cut; \d+ characters in all\)$/);
  });
});

describe('trace formatting', () => {
  const base: Exchange = { method: 'POST', path: '/v2/token', status: 200, ms: 3, attempt: 1, sentBytes: 10, receivedBytes: 20, outcome: 'done' };

  it('masks values under secret keys in JSON and form bodies, whatever their type, and keeps the rest', () => {
    expect(showBody('{"access_token":"abc.def","expires_in":3600,"nested":{"password":12345,"label":"x"}}')).toBe(
      '{"access_token":"***","expires_in":3600,"nested":{"password":"***","label":"x"}}',
    );
    expect(showBody('grant_type=client_credentials&client_secret=s3cr3t&client_id=me')).toBe('grant_type=client_credentials&client_secret=***&client_id=me');
    expect(showBody('{"error":"Bearer abcdef123 rejected"}')).toBe('{"error":"Bearer *** rejected"}');
  });

  it('keeps one exchange on its own lines: control characters in a body are escaped', () => {
    const text = formatExchange({ ...base, responseBody: '{"label":"a\nb\u001b[31m"}' }, 'trace', new Date(0));
    expect(text.split('\n')).toHaveLength(3);
    expect(text).toContain('\\u001b');
  });

  it('escapes what acts on a terminal beyond C0 controls too: bidi overrides, C1 controls, zero-width characters', () => {
    const text = formatExchange({ ...base, responseBody: '{"label":"evil\u202e\u009b\u200bx\r"}' }, 'trace', new Date(0));
    expect(text).not.toMatch(/[\u202e\u009b\u200b\r]/);
    expect(text).toContain('evil\\u202e\\u009b\\u200bx\\r');
  });

  it('MONSYNC_LOG accepts debug, trace and off; MONSYNC_LOG_FILE alone means debug; problems name the variable', async () => {
    expect(httpLogFromEnv({})).toBeUndefined();
    expect(httpLogFromEnv({ MONSYNC_LOG: 'off' })).toBeUndefined();
    expect(httpLogFromEnv({ MONSYNC_LOG: 'verbose' })).toEqual({ error: 'MONSYNC_LOG must be debug, trace or off, got "verbose"' });
    const log = httpLogFromEnv({ MONSYNC_LOG_FILE: join(dir, 'alone.log') });
    expect(log && 'level' in log && log.level).toBe('debug');
    const bad = httpLogFromEnv({ MONSYNC_LOG: 'debug', MONSYNC_LOG_FILE: join(dir, 'no-such-dir', 'x.log') });
    expect(bad).toEqual({ error: expect.stringMatching(/^MONSYNC_LOG_FILE: cannot append to .*x\.log \(ENOENT\)$/) });
    expect(() => clientOptionsFromEnv(env({ MONSYNC_LOG: 'loud' }))).toThrow(/MONSYNC_LOG must be debug, trace or off/);
  });
});
