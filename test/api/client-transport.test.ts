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
    const c = client({ timeoutMs: 100, maxRetries: 1 });
    const err = await failure(c.listAlerts());
    expect(err.kind).toBe('timeout');
    expect(err.maybeApplied).toBe(false);
    expect(seen).toHaveLength(2);
    expect(c.stats).toEqual({ requests: 2, retries: 1 });
  });

  it('never retries a create that timed out, and marks it maybeApplied', async () => {
    handler = () => {};
    const c = client({ timeoutMs: 100 });
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
    expect(waits).toEqual([2000]);
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
