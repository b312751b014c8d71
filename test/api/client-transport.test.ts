/**
 * Transport behaviour of the client against a scripted HTTP server on 127.0.0.1: things the
 * emulator cannot be asked to do (bodies that are not JSON, errors with HTTP 200, hanging answers,
 * 404 after a lost DELETE) and exact header checks.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MonitoringClient, wasAlreadyGone, type MonitoringClientOptions, type RequestEvent } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Handler = (req: Seen, res: http.ServerResponse, n: number) => void;

let server: http.Server;
let base = '';
let handler: Handler = (_req, res) => res.end('{}');
let seen: Seen[] = [];
let inFlight = 0;
let peak = 0;
const clients: MonitoringClient[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() };
      seen.push(s);
      inFlight++;
      peak = Math.max(peak, inFlight);
      res.on('close', () => inFlight--);
      handler(s, res, seen.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  seen = [];
  peak = 0;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const PASSWORD = 'pw-transport-7f3a';
const SECRET = 'cs-transport-91bd';
const TOKEN_PREFIX = 'tok-transport-';

function client(extra: Partial<MonitoringClientOptions> = {}): MonitoringClient {
  const c = new MonitoringClient({
    baseUrl: base,
    username: 'demo@example.com',
    password: PASSWORD,
    clientId: 'cid',
    clientSecret: SECRET,
    timeoutMs: 2000,
    sleep: async () => {},
    // Every backoff a wait: tests here hold or count the sleeps, and full jitter draws a wait of
    // 0 ms (no sleep at all) once in 200 first retries.
    random: () => 0.5,
    ...extra,
  });
  clients.push(c);
  return c;
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected the call to fail');
}

function expectNoSecrets(err: ApiError, extra: string[] = []): void {
  const text = `${err.message}\n${String(err.stack)}\n${JSON.stringify(err)}`;
  for (const s of [PASSWORD, SECRET, Buffer.from(`demo@example.com:${PASSWORD}`).toString('base64'), TOKEN_PREFIX, ...extra]) {
    expect(text).not.toContain(s);
  }
}

describe('requests', () => {
  it('sends Basic auth, JSON content type, and message bodies on alert create', async () => {
    handler = (_r, res) =>
      json(res, 200, { path: '/v1/Config/Alert/', error: null, alert: { id: 'a9', type: 'up-down', monitor: 'm1' } });
    const a = await client().createAlert({ type: 'up-down', monitor: 'm1', subject_init: 'd', subject_term: 'u', timeout: 10 });
    expect(a.id).toBe('a9');
    const req = seen[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/Config/Alert/');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from(`demo@example.com:${PASSWORD}`).toString('base64')}`);
    expect(JSON.parse(req.body)).toEqual({
      type: 'up-down',
      monitor: 'm1',
      subject_init: 'd',
      subject_term: 'u',
      timeout: 10,
      message_init: '',
      message_term: '',
    });
  });

  it('keeps a base path prefix and encodes ids', async () => {
    handler = (_r, res) => json(res, 200, { path: '', error: null, monitor: { id: 'a/b', type: 'smtp' } });
    const c = client({ baseUrl: `${base}/api/` });
    await c.getMonitor('a/b');
    expect(seen[0]!.url).toBe('/api/v1/Config/Monitor/a%2Fb/');
    expect(c.baseUrl).toBe(`${base}/api`);
  });

  it('updateAlert returns null when the response carries no alert', async () => {
    handler = (_r, res) => json(res, 200, { path: '/v1/Config/Alert/a1/', error: null });
    const body = { type: 'up-down', monitor: 'm1', subject_init: 'd', subject_term: 'u', timeout: 10 } as const;
    expect(await client().updateAlert('a1', body)).toBeNull();
    expect(JSON.parse(seen[0]!.body)).toMatchObject({ message_init: '', message_term: '' });
  });

  it('caps concurrent requests across calls', async () => {
    handler = (_r, res) => setTimeout(() => json(res, 200, { path: '', error: null, groups: [] }), 30);
    const c = client({ concurrency: 3 });
    await Promise.all(Array.from({ length: 10 }, () => c.listGroups()));
    expect(seen).toHaveLength(10);
    expect(peak).toBe(3);
  });

  it('reports every attempt to onRequest and counts them', async () => {
    handler = (_r, res, n) => (n === 1 ? json(res, 503, { error: 'busy' }) : json(res, 200, { path: '', error: null, groups: [] }));
    const events: RequestEvent[] = [];
    const c = client({ onRequest: (e) => events.push(e) });
    await c.listGroups();
    expect(events.map((e) => [e.method, e.path, e.status, e.attempt])).toEqual([
      ['GET', '/v1/Config/Group/', 503, 1],
      ['GET', '/v1/Config/Group/', 200, 2],
    ]);
    expect(c.stats).toEqual({ requests: 2, retries: 1 });
  });
});

describe('errors', () => {
  it('treats a non-null error with HTTP 200 as a service failure', async () => {
    handler = (_r, res) => json(res, 200, { path: '/v1/Config/Monitor/', error: 'timer must be one of 3, 5, 10, 15, 20, 30' });
    const err = await failure(client().createMonitor({ type: 'smtp', label: 'x', timer: 7, time_zone: 'UTC', ip_address: 'mx', test_account: 't@e.x' }));
    expect(err.kind).toBe('service');
    expect(err.serviceError).toBe('timer must be one of 3, 5, 10, 15, 20, 30');
    expect(err.message).toContain('POST /v1/Config/Monitor/');
    expect(err.maybeApplied).toBe(false);
    expect(seen).toHaveLength(1);
  });

  it('treats an empty error string with HTTP 200 as no error', async () => {
    handler = (_r, res) => json(res, 200, { path: '/v1/Config/Group/', error: '', groups: [{ id: '1', name: 'g' }] });
    await expect(client().listGroups()).resolves.toEqual([{ id: '1', name: 'g' }]);
  });

  it('maps non-2xx to http with the service error, 401/403 to auth', async () => {
    handler = (_r, res) => json(res, 422, { path: '', error: 'label is required' });
    const e1 = await failure(client().listMonitors());
    expect([e1.kind, e1.status, e1.serviceError]).toEqual(['http', 422, 'label is required']);
    expect(e1.message).toContain('label is required');

    handler = (_r, res) => json(res, 403, { path: '', error: 'forbidden' });
    expect((await failure(client().listMonitors())).kind).toBe('auth');

    handler = (_r, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<html>oops</html>');
    };
    const e3 = await failure(client().listMonitors());
    expect([e3.kind, e3.status, e3.serviceError]).toEqual(['http', 500, null]);
  });

  it('reports bodies that are not JSON objects, or lack the list, as malformed', async () => {
    handler = (_r, res) => res.end('<html>proxy page</html>');
    expect((await failure(client().listMonitors())).kind).toBe('malformed');
    handler = (_r, res) => json(res, 200, [1, 2]);
    expect((await failure(client().listMonitors())).kind).toBe('malformed');
    handler = (_r, res) => json(res, 200, { path: '', error: null });
    const err = await failure(client().listMonitors());
    expect(err.kind).toBe('malformed');
    expect(err.message).toContain('monitor_list');
    handler = (_r, res) => json(res, 200, { path: '', error: null, monitor_list: [{ label: 'no id' }] });
    expect((await failure(client().listMonitors())).message).toContain('monitor_list[0].id');
  });

  it('marks an unreadable 2xx answer to a write as maybeApplied, not to a read', async () => {
    handler = (_r, res) => res.end('OK');
    const read = await failure(client().listGroups());
    expect([read.kind, read.maybeApplied]).toEqual(['malformed', false]);
    const created = await failure(client().createGroup({ name: 'g' }));
    expect([created.kind, created.maybeApplied]).toEqual(['malformed', true]);
    handler = (_r, res) => json(res, 200, { path: '', error: null, group: { name: 'g' } });
    const noId = await failure(client().createGroup({ name: 'g' }));
    expect([noId.kind, noId.maybeApplied]).toEqual(['malformed', true]);
    expect(noId.message).toContain('group.id');
    expect(seen).toHaveLength(3);
  });

  it('times out a read, retries it, then fails with timeout', async () => {
    handler = () => {}; // never answers
    // 1 s per try, as below: at 100 ms a loaded machine may time out before the server counts the request.
    const c = client({ timeoutMs: 1000, maxRetries: 1 });
    const err = await failure(c.listAlerts());
    expect(err.kind).toBe('timeout');
    expect(err.maybeApplied).toBe(false);
    expect(seen).toHaveLength(2);
    expect(c.stats).toEqual({ requests: 2, retries: 1 });
  });

  it('never retries a create that timed out, and marks it maybeApplied', async () => {
    handler = () => {};
    // Long enough for the request to reach this server on a loaded machine (at 100 ms it sometimes timed
    // out before the server saw it, and the test then counted nothing).
    const c = client({ timeoutMs: 1000 });
    const err = await failure(c.createGroup({ name: 'g' }));
    expect([err.kind, err.maybeApplied]).toEqual(['timeout', true]);
    expect(seen).toHaveLength(1);
  });

  it('retries a refused connection for every method, then reports network', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const c = client({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 2 });
    const err = await failure(c.createMonitor({ type: 'smtp', label: 'x', timer: 5, time_zone: 'UTC', ip_address: 'mx', test_account: 't@e.x' }));
    expect([err.kind, err.maybeApplied]).toEqual(['network', false]);
    expect(c.stats).toEqual({ requests: 3, retries: 2 });
  });

  it('waits as long as a 429 Retry-After says, for creates too', async () => {
    handler = (_r, res, n) =>
      n === 1
        ? json(res, 429, { error: 'slow down' }, { 'retry-after': '2' })
        : json(res, 200, { path: '', error: null, group: { id: 'g1', name: 'g', monitors: null } });
    const waits: number[] = [];
    const c = client({ sleep: async (ms) => void waits.push(ms) });
    const g = await c.createGroup({ name: 'g' });
    expect(g).toEqual({ id: 'g1', name: 'g', members: [] });
    // The wait is what is left of the hold when the request reaches the gate: a hair under 2 s.
    expect(waits).toHaveLength(1);
    expect(waits[0]!).toBeGreaterThan(1900);
    expect(waits[0]!).toBeLessThanOrEqual(2000);
    expect(seen).toHaveLength(2);
  });

  it('counts a retried DELETE answered 404 as done', async () => {
    handler = (_r, res, n) => (n === 1 ? json(res, 503, { error: 'busy' }) : json(res, 404, { path: '', error: 'Monitor not found' }));
    const m = await client().deleteMonitor('m1');
    expect(m.id).toBe('m1');
    expect(wasAlreadyGone(m)).toBe(true);
  });

  it('does not excuse a 404 on the first DELETE attempt', async () => {
    handler = (_r, res) => json(res, 404, { path: '', error: 'Monitor not found' });
    const err = await failure(client().deleteMonitor('m1'));
    expect([err.kind, err.status]).toEqual(['http', 404]);
  });

  it('says an https:// URL reached a server answering plain HTTP, and suggests http://, instead of blaming a certificate', async () => {
    const err = await failure(client({ baseUrl: base.replace(/^http:/, 'https:') }).listGroups());
    expect(err.message).toMatch(
      /^TLS handshake with 127\.0\.0\.1:\d+ failed: the server answered in plain HTTP, not TLS \(ERR_SSL_WRONG_VERSION_NUMBER\); if it serves plain HTTP, write the URL with http:\/\//,
    );
    expect(err.message).not.toMatch(/certificate/);
  });

  it('refuses plain http to a non-loopback host before any request', () => {
    const events: RequestEvent[] = [];
    expect(() => new MonitoringClient({ baseUrl: 'http://api.example.com', username: 'u', password: PASSWORD, onRequest: (e) => events.push(e) })).toThrow(
      ApiError,
    );
    expect(events).toEqual([]);
  });

  it('reports missing credentials as config without sending', async () => {
    const c = new MonitoringClient({ baseUrl: base });
    clients.push(c);
    expect((await failure(c.listGroups())).kind).toBe('config');
    expect((await failure(c.getV2Status())).message).toContain('MONSYNC_CLIENT_ID');
    expect(seen).toHaveLength(0);
  });
});

describe('v2 tokens', () => {
  let issued = 0;
  function v2Server(opts: { rejectTokens?: Set<string> } = {}): void {
    issued = 0;
    handler = (req, res) => {
      if (req.url === '/v2/token') {
        issued++;
        json(res, 200, { access_token: `${TOKEN_PREFIX}${issued}`, token_type: 'Bearer', expires_in: 3600 });
        return;
      }
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!token.startsWith(TOKEN_PREFIX) || opts.rejectTokens?.has(token)) {
        json(res, 401, { detail: 'invalid token' });
        return;
      }
      json(res, 200, { global_alert_active: false, monitors: [] });
    };
  }

  it('posts client credentials as a form and reuses the token', async () => {
    v2Server();
    const c = client();
    await c.getV2Status();
    await c.getV2Status({ all: true });
    const tokenReq = seen.find((s) => s.url === '/v2/token')!;
    expect(tokenReq.method).toBe('POST');
    expect(tokenReq.body).toBe('grant_type=client_credentials');
    expect(tokenReq.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(tokenReq.headers.authorization).toBe(`Basic ${Buffer.from(`cid:${SECRET}`).toString('base64')}`);
    expect(issued).toBe(1);
    expect(seen.map((s) => s.url)).toEqual(['/v2/token', '/v2/status', '/v2/status?all=true']);
    expect(seen[1]!.headers.authorization).toBe(`Bearer ${TOKEN_PREFIX}1`);
  });

  it('shares one token request between concurrent callers', async () => {
    v2Server();
    const c = client();
    await Promise.all([c.getV2Status(), c.getV2Status(), c.getV2Version(), c.getV2Status()]);
    expect(issued).toBe(1);
  });

  it('renews the token before it expires', async () => {
    v2Server();
    let now = 1_000_000;
    const c = client({ now: () => now });
    await c.getV2Status();
    now += 3000 * 1000;
    await c.getV2Status();
    expect(issued).toBe(1);
    now += 300 * 1000; // 3300 s: past 90% of 3600
    await c.getV2Status();
    expect(issued).toBe(2);
    expect(seen.at(-1)!.headers.authorization).toBe(`Bearer ${TOKEN_PREFIX}2`);
  });

  it('refetches the token exactly once on a 401, then gives up with auth', async () => {
    v2Server({ rejectTokens: new Set([`${TOKEN_PREFIX}1`]) });
    const c = client();
    await c.getV2Status();
    expect(issued).toBe(2);

    v2Server({ rejectTokens: new Set([`${TOKEN_PREFIX}1`, `${TOKEN_PREFIX}2`, `${TOKEN_PREFIX}3`]) });
    const c2 = client();
    const err = await failure(c2.getV2Status());
    expect(err.kind).toBe('auth');
    expect(issued).toBe(2);
    expectNoSecrets(err);
  });

  it('reports a refused token request as auth without leaking the secret', async () => {
    handler = (_r, res) => json(res, 401, { error: 'invalid_client' });
    const err = await failure(client().getV2Version());
    expect(err.kind).toBe('auth');
    expect(err.path).toBe('/v2/token');
    expect(err.serviceError).toBe('invalid_client');
    expectNoSecrets(err);
  });
});

describe("the service's clock", () => {
  const answerWithDate = (date: string | null) => {
    handler = (_req, res) => {
      res.sendDate = false;
      if (date !== null) res.setHeader('Date', date);
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ monitor_list: [] }));
    };
  };

  it('is read from the Date header: a clock three hours ahead is seen to the second', async () => {
    const local = Date.UTC(2024, 5, 3, 12, 0, 0, 700);
    answerWithDate(new Date(local + 3 * 3600_000).toUTCString());
    const c = client({ now: () => local });
    expect(c.serviceClockOffsetMs()).toBe(0);
    await c.listMonitors();
    expect(c.serviceClockOffsetMs()).toBe(3 * 3600_000);
  });

  it('counts as the local one when they agree to within the header whole seconds, or no date came', async () => {
    const local = Date.UTC(2024, 5, 3, 12, 0, 0, 900);
    answerWithDate(new Date(local - 1000).toUTCString());
    const c = client({ now: () => local });
    await c.listMonitors();
    expect(c.serviceClockOffsetMs()).toBe(0);
    answerWithDate(null);
    const d = client({ now: () => local });
    await d.listMonitors();
    expect(d.serviceClockOffsetMs()).toBe(0);
  });
});

const smtpBody = { type: 'smtp', label: 'x', timer: 5, time_zone: 'UTC', ip_address: 'mx', test_account: 't@e.x' } as const;

/** A sleep the test releases by hand, recording what was asked. */
function heldSleep() {
  const asked: number[] = [];
  const waiting: (() => void)[] = [];
  return {
    asked,
    sleep: (ms: number) => {
      asked.push(ms);
      return new Promise<void>((r) => waiting.push(r));
    },
    releaseAll: () => waiting.splice(0).forEach((r) => r()),
  };
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 2));
  expect(cond()).toBe(true);
}

describe('the shared 429 gate', () => {
  it('holds back every request of the client for a 429 Retry-After, not only the one that got it', async () => {
    handler = (r, res, n) =>
      n === 1
        ? json(res, 429, { error: 'slow down' }, { 'retry-after': '2' })
        : json(res, 200, { path: '', error: null, groups: [], monitor_list: [] });
    const held = heldSleep();
    const c = client({ sleep: held.sleep });
    const first = c.listGroups();
    await until(() => held.asked.length === 1);
    // Started while the gate is closed: it waits too, and nothing more reaches the service.
    const second = c.listMonitors();
    await until(() => held.asked.length === 2);
    expect(seen).toHaveLength(1);
    expect(held.asked.every((ms) => ms > 1900 && ms <= 2000)).toBe(true);
    held.releaseAll();
    await expect(first).resolves.toEqual([]);
    await expect(second).resolves.toEqual([]);
    expect(seen.map((s) => s.url)).toEqual(['/v1/Config/Group/', '/v1/Config/Group/', '/v1/Config/Monitor/']);
  });

  it('a 429 without Retry-After holds the gate for the backoff', async () => {
    handler = (_r, res, n) => (n === 1 ? json(res, 429, { error: 'slow down' }) : json(res, 200, { path: '', error: null, groups: [] }));
    const held = heldSleep();
    const c = client({ sleep: held.sleep, random: () => 0.5 });
    const first = c.listGroups();
    await until(() => held.asked.length === 1);
    const second = c.listGroups();
    await until(() => held.asked.length === 2);
    expect(seen).toHaveLength(1);
    held.releaseAll();
    await Promise.all([first, second]);
    expect(seen).toHaveLength(3);
  });
});

describe('the deadline of a call', () => {
  it('ends all attempts of a call to a hung service at the deadline, not after every timeout', async () => {
    handler = () => {}; // never answers
    const events: RequestEvent[] = [];
    const c = client({ timeoutMs: 200, deadlineMs: 500, maxRetries: 50, onRequest: (e) => events.push(e) });
    const t0 = performance.now();
    const err = await failure(c.listAlerts());
    const ms = performance.now() - t0;
    expect(err.kind).toBe('timeout');
    expect(err.message).toMatch(/^no answer.* \(GET \/v1\/Config\/Alert\/\); gave up at the call's deadline of 0\.5 s \(MONSYNC_DEADLINE\)$/);
    expect(err.message.match(/deadline/g)).toHaveLength(1);
    // Time-based because a deadline is: the attempts are counted below, but only the clock shows the
    // third one cut short. Two full attempts, then a third cut short or a backoff that would pass the
    // deadline: about 0.5 s, where the 51 attempts allowed would take over 10 s. The upper bound is
    // ten times the deadline, for a machine whose two cores are busy (issue 34), and still far
    // below what missing the deadline costs.
    expect(ms).toBeGreaterThanOrEqual(390);
    expect(ms).toBeLessThan(5000);
    expect(events.length).toBeLessThanOrEqual(3);
  });

  it('does not wait for a Retry-After that ends past the deadline', async () => {
    handler = (_r, res) => json(res, 429, { error: 'slow down' }, { 'retry-after': '20' });
    const waits: number[] = [];
    const c = client({ deadlineMs: 5000, sleep: async (ms) => void waits.push(ms) });
    const err = await failure(c.listGroups());
    expect([err.kind, err.status]).toEqual(['http', 429]);
    expect(err.message).toMatch(/deadline of 5 s \(MONSYNC_DEADLINE\)/);
    expect(waits).toEqual([]);
    expect(seen).toHaveLength(1);
  });
});

describe('the size of an answer', () => {
  const big = JSON.stringify({ path: '', error: null, groups: [{ id: '1', name: 'x'.repeat(4000) }] });

  it('reports an answer longer than the cap once, without retrying it (length given up front)', async () => {
    handler = (_r, res) => json(res, 200, JSON.parse(big));
    const c = client({ maxResponseBytes: 1024 });
    const err = await failure(c.listGroups());
    expect(err.kind).toBe('malformed');
    expect(err.message).toMatch(/answer larger than 1024 bytes, the most monsync reads \(GET \/v1\/Config\/Group\/\)/);
    expect(seen).toHaveLength(1);
    expect(c.stats).toEqual({ requests: 1, retries: 0 });
  });

  it('reports an answer longer than the cap once, without retrying it (streamed without a length)', async () => {
    handler = (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < big.length; i += 500) res.write(big.slice(i, i + 500));
      res.end();
    };
    const c = client({ maxResponseBytes: 1024 });
    const err = await failure(c.listGroups());
    expect(err.message).toMatch(/answer larger than 1024 bytes/);
    expect(seen).toHaveLength(1);
    // Under the cap the same answer reads fine.
    expect((await client({ maxResponseBytes: 100_000 }).listGroups())[0]!.id).toBe('1');
  });
});

describe('"already gone" is read alike everywhere', () => {
  it('counts a DELETE whose retry is refused with "Unknown group id 9" as done', async () => {
    handler = (_r, res, n) => (n === 1 ? json(res, 503, { error: 'busy' }) : json(res, 200, { path: '', error: 'Unknown group id 9' }));
    const g = await client().deleteGroup('9');
    expect(wasAlreadyGone(g)).toBe(true);
  });

  it('does not count a retried DELETE refused with "unknown error" or a 500 "no such table" as done', async () => {
    handler = (_r, res, n) => (n === 1 ? json(res, 503, { error: 'busy' }) : json(res, 200, { path: '', error: 'unknown error' }));
    expect((await failure(client().deleteGroup('9'))).serviceError).toBe('unknown error');
    handler = (_r, res, n) => (n % 2 === 1 ? json(res, 503, { error: 'busy' }) : json(res, 500, { error: 'no such table' }));
    expect((await failure(client().deleteGroup('9'))).status).toBe(500);
  });
});

describe('a create whose answer was lost asks the caller before anything is sent again', () => {
  const made = { id: 'm7', type: 'smtp', label: 'x' };

  it('takes what the lookup finds after a dropped answer, sending the create once', async () => {
    handler = (_r, res) => res.socket!.destroy();
    let lookups = 0;
    const c = client();
    const m = await c.createMonitor(smtpBody, { lookup: async () => (lookups++, { ...made, id: 'found-1' } as never) });
    expect(m).toMatchObject({ id: 'found-1' });
    expect(lookups).toBe(1);
    expect(seen).toHaveLength(1);
  });

  it('sends it again after an answered 503 when the lookup finds nothing, within the one budget', async () => {
    handler = (_r, res) => json(res, 503, { error: 'busy' });
    let lookups = 0;
    const attempts: number[] = [];
    const c = client({ maxRetries: 4 });
    const err = await failure(c.createMonitor(smtpBody, { lookup: async () => void lookups++, onAttempt: (n) => attempts.push(n) }));
    expect([err.kind, err.status]).toEqual(['http', 503]);
    // 1 + maxRetries sends, each followed by a lookup: never more.
    expect(seen.filter((s) => s.method === 'POST')).toHaveLength(5);
    expect(attempts).toEqual([1, 2, 3, 4, 5]);
    expect(lookups).toBe(5);
    expect(c.stats).toEqual({ requests: 5, retries: 4 });
  });

  it('a resend that gets through is the result', async () => {
    handler = (_r, res, n) => (n === 1 ? json(res, 503, { error: 'busy' }) : json(res, 200, { path: '', error: null, monitor: made }));
    const m = await client().createMonitor(smtpBody, { lookup: async () => undefined });
    expect(m.id).toBe('m7');
    expect(seen).toHaveLength(2);
  });

  it('never sends it again after a timeout the lookup cannot see: it may still be in flight', async () => {
    handler = () => {};
    // 1 s, not 100 ms: long enough for the request to reach this server on a loaded machine (failed once at
    // load 18 on Node 22, timing out before the server had counted it).
    const err = await failure(client({ timeoutMs: 1000 }).createMonitor(smtpBody, { lookup: async () => undefined }));
    expect(err.message).toMatch(/may still create it, so monsync did not send it again/);
    expect(seen).toHaveLength(1);
  });

  it('looks a create answered 429 up before sending it again, and takes what it finds', async () => {
    handler = (_r, res) => json(res, 429, { error: 'slow down' }, { 'retry-after': '1' });
    let lookups = 0;
    const m = await client().createMonitor(smtpBody, { lookup: async () => (lookups++, { ...made, id: 'found-429' } as never) });
    expect(m).toMatchObject({ id: 'found-429' });
    expect(lookups).toBe(1);
    expect(seen.filter((s) => s.method === 'POST')).toHaveLength(1);
  });

  it('sends a create answered 429 again only when the lookup finds nothing', async () => {
    handler = (_r, res, n) =>
      n === 1 ? json(res, 429, { error: 'slow down' }, { 'retry-after': '1' }) : json(res, 200, { path: '', error: null, monitor: made });
    let lookups = 0;
    const c = client();
    const m = await c.createMonitor(smtpBody, { lookup: async () => void lookups++ });
    expect(m.id).toBe('m7');
    expect(lookups).toBe(1);
    expect(seen.filter((s) => s.method === 'POST')).toHaveLength(2);
    expect(c.stats).toEqual({ requests: 2, retries: 1 });
  });

  it('fails, saying so, when the lookup itself fails', async () => {
    handler = (_r, res) => res.socket!.destroy();
    const err = await failure(
      client().createMonitor(smtpBody, {
        lookup: async () => {
          throw new ApiError({ kind: 'http', method: 'GET', path: '/v1/Config/Monitor/', message: 'HTTP 503', status: 503 });
        },
      }),
    );
    expect(err.message).toMatch(/could not check whether the service created it: HTTP 503 \(GET \/v1\/Config\/Monitor\/\)/);
    expect(err.maybeApplied).toBe(true);
    expect(seen).toHaveLength(1);
  });
});

describe('a call given a signal', () => {
  it('starts no retry once the signal is aborted; the attempt in flight finishes', async () => {
    handler = (_r, res) => json(res, 503, { error: 'busy' });
    const held = heldSleep();
    const controller = new AbortController();
    const c = client({ sleep: held.sleep });
    const p = failure(c.updateMonitor('m1', { timer: 10 }, { signal: controller.signal }));
    await until(() => held.asked.length === 1);
    controller.abort();
    const err = await p;
    expect(err.interrupted).toBe(true);
    expect(err.message).toMatch(/; interrupted before retrying$/);
    expect(seen).toHaveLength(1);
  });
});
