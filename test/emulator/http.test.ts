import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApiRouter } from '../../src/emulator/routes.js';
import { mulberry32 } from '../../src/emulator/faults.js';
import { apiCall, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

describe('routing', () => {
  it('accepts paths with and without the trailing slash, echoing the path as sent', async () => {
    const a = await apiCall(emu, 'GET', '/v1/Config/Monitor/10004/');
    const b = await apiCall(emu, 'GET', '/v1/Config/Monitor/10004');
    expect(a.json.path).toBe('/v1/Config/Monitor/10004/');
    expect(b.json.path).toBe('/v1/Config/Monitor/10004');
    expect(a.json.monitor).toEqual(b.json.monitor);
  });

  it('answers 404 with path and error for unknown v1 routes, {error} for v2', async () => {
    const v1 = await apiCall(emu, 'GET', '/v1/Config/Nothing/');
    expect(v1.status).toBe(404);
    expect(v1.json).toEqual({ path: '/v1/Config/Nothing/', error: 'no such endpoint: GET /v1/Config/Nothing/' });
    const v2 = await apiCall(emu, 'GET', '/v2/nothing', { auth: `Bearer ${await emu.token()}` });
    expect(v2.status).toBe(404);
    expect(Object.keys(v2.json)).toEqual(['error']);
    const root = await apiCall(emu, 'GET', '/');
    expect(root.status).toBe(404);
    expect(root.json.error).toContain('/v1/');
  });

  it('answers 405 with Allow for a known path and a wrong method', async () => {
    const r = await apiCall(emu, 'PATCH', '/v1/Config/Monitor/10004/', { body: {} });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, PUT, DELETE');
    expect(r.json.error).toContain('PATCH');
    // The doubled prefix is an alias of two operations only.
    expect((await apiCall(emu, 'GET', '/v1/v1/Config/Alert/1/')).status).toBe(405);
  });

  it('serves the v2 docs page without a token', async () => {
    const res = await fetch(`${emu.url}/v2/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('has a route for every endpoint of sections 4.1 to 4.8', () => {
    const table = buildApiRouter().routes.map((r) => `${r.method} ${r.pattern}`);
    expect(table).toEqual(
      expect.arrayContaining([
        'POST /v2/token',
        'GET /v2/status',
        'GET /v2/version',
        'GET /v1/Status',
        'GET /v1/Status/Filter',
        'GET /v1/Config/Group',
        'GET /v1/Config/Group/:id',
        'POST /v1/Config/Group',
        'PUT /v1/Config/Group/:id',
        'DELETE /v1/Config/Group/:id',
        'GET /v1/Config/Monitor',
        'GET /v1/Config/Monitor/:id',
        'POST /v1/Config/Monitor',
        'PUT /v1/Config/Monitor/:id',
        'DELETE /v1/Config/Monitor/:id',
        'GET /v1/Config/Alert',
        'GET /v1/Config/Alert/:id',
        'POST /v1/Config/Alert',
        'PUT /v1/Config/Alert/:id',
        'PUT /v1/v1/Config/Alert/:id',
        'DELETE /v1/Config/Alert/:id',
        'GET /v1/Pause/Alert',
        'POST /v1/Pause/Alert',
        'POST /v1/Pause/Alert/:id',
        'POST /v1/Pause/Monitor/:id',
        'DELETE /v1/Pause/Alert',
        'DELETE /v1/Pause/Alert/:id',
        'DELETE /v1/v1/Pause/Alert/:id',
        'GET /v1/Config/AlertDestination',
        'GET /v1/Config/AlertDestination/:id',
        'GET /v1/Data/Monitor',
        'GET /v1/Data/Monitor/:id',
        'GET /v1/Data/Monitor/Response/:id',
      ]),
    );
  });
});

describe('bodies', () => {
  it('answers malformed JSON with 400 and an error', async () => {
    const r = await apiCall(emu, 'POST', '/v1/Config/Monitor/', { body: '{"type": "smtp",' });
    expect(r.status).toBe(400);
    expect(r.json.path).toBe('/v1/Config/Monitor/');
    expect(r.json.error).toMatch(/^malformed JSON body/);
  });

  it.each([['[]'], ['"text"'], ['42'], ['null'], ['']])('answers a body of %s with 400', async (body) => {
    const r = await apiCall(emu, 'POST', '/v1/Config/Group/', { body, headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.json.error).toContain('request body must be a JSON object');
  });

  it('refuses a body that is not declared as JSON', async () => {
    const r = await apiCall(emu, 'POST', '/v1/Config/Group/', { body: '{"name":"x"}', headers: { 'content-type': 'text/plain' } });
    expect(r.status).toBe(415);
    expect(r.json.error).toContain('application/json');
  });
});

describe('robustness', () => {
  it('turns a handler exception into a 500 with an error body', async () => {
    const original = emu.store.listMonitors;
    emu.store.listMonitors = () => {
      throw new Error('boom');
    };
    try {
      const r = await apiCall(emu, 'GET', '/v1/Config/Monitor/');
      expect(r.status).toBe(500);
      expect(r.json).toEqual({ path: '/v1/Config/Monitor/', error: 'internal error in the emulator: boom' });
    } finally {
      emu.store.listMonitors = original;
    }
    expect((await apiCall(emu, 'GET', '/v1/Config/Monitor/')).status).toBe(200);
  });

  it('never answers 5xx to random bodies on any route', async () => {
    const rnd = mulberry32(7);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
    const values = [null, true, 0, -1, 1.5, 1e300, '', 'x', '10004', '50001', [], ['10004'], [1, 2], {}, { a: 'b' }];
    const keys = ['type', 'label', 'timer', 'time_zone', 'ip_address', 'test_account', 'monitor', 'seconds', 'name', 'monitors', 'replace', 'meta', 'timeout', 'alert_destinations', 'subject_init', 'subject_term', 'port', 'ttl'];
    const routes = buildApiRouter().routes.filter((r) => r.pattern.startsWith('/v1'));
    for (let i = 0; i < 300; i++) {
      const route = pick(routes);
      const path = route.pattern.replace(':id', pick(['10004', '50001', '301', '701', 'x', '%E0%A4%A', '..', '']));
      const body: Record<string, unknown> = {};
      for (let k = Math.floor(rnd() * 6); k > 0; k--) body[pick(keys)] = pick(values);
      const query = `?t=${pick(['', '-1', 'x', '99'])}&average=${pick(['', 'raw', 'x'])}&prefix=${pick(['', 'l'])}`;
      const sendBody = route.method !== 'GET' ? { body: rnd() < 0.1 ? '{oops' : body } : {};
      const r = await apiCall(emu, route.method, `${path}${query}`, sendBody);
      expect(r.status, `${route.method} ${path} ${JSON.stringify(body)}`).toBeLessThan(500);
      expect(r.json).toHaveProperty('error');
    }
    expect((await apiCall(emu, 'GET', '/v1/Status/')).status).toBe(200);
  });

  it('survives a request that is not valid HTTP', async () => {
    const { Socket } = await import('node:net');
    const answer = await new Promise<string>((resolve) => {
      const s = new Socket();
      let out = '';
      s.connect(emu.port, '127.0.0.1', () => s.write('NONSENSE\r\n\r\n'));
      s.on('data', (d) => (out += d.toString()));
      s.on('close', () => resolve(out));
      s.on('error', () => resolve(out));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect((await apiCall(emu, 'GET', '/v1/Status/')).status).toBe(200);
  });

  it('keeps the path with an odd query string and an absolute-form URL', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: emu.port, path: '//v1//Status?&&=&', headers: { authorization: emu.v1Auth } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
  });
});

describe('request log', () => {
  it('records v1 and v2 calls with their outcome, not control calls', async () => {
    await emu.control.clearRequests();
    await apiCall(emu, 'POST', '/v1/Config/Group/?x=1', { body: { name: 'logged' } });
    await apiCall(emu, 'GET', '/v1/Config/Group/999/');
    await emu.token();
    await emu.control.state();
    const log = await emu.control.requests();
    expect(log).toEqual([
      { seq: expect.any(Number), method: 'POST', path: '/v1/Config/Group/', query: { x: '1' }, body: { name: 'logged' }, status: 200, fault: null },
      { seq: expect.any(Number), method: 'GET', path: '/v1/Config/Group/999/', query: {}, status: 404, fault: null },
      { seq: expect.any(Number), method: 'POST', path: '/v2/token', query: {}, body: { grant_type: 'client_credentials' }, status: 200, fault: null },
    ]);
    expect(log[0]!.seq).toBeLessThan(log[1]!.seq);
    expect(JSON.stringify(log)).not.toContain('demo-secret');
    await emu.control.clearRequests();
    expect(await emu.control.requests()).toEqual([]);
  });
});

describe('control API', () => {
  it('seeds raw objects and returns their ids', async () => {
    const r = await emu.control.seed({
      destinations: [{ label: 'pager', destination: '+1555', type: 'SMS', subscribed: true }],
      monitors: [{ id: 'tcp-1', label: 'tcp', type: 'TCP Port', timer: '10' }],
      alerts: [{ monitor: 'tcp-1', type: 'up-down', subject_init: 'a', subject_term: 'b' }],
      groups: [{ name: 'infra', monitors: ['tcp-1', '10004'] }],
    });
    expect(r).toEqual({ destinations: ['705'], monitors: ['tcp-1'], alerts: ['50001'], groups: ['301'] });
    const m = await apiCall(emu, 'GET', '/v1/Config/Monitor/tcp-1/');
    expect(m.json.monitor).toMatchObject({ type: 'TCP Port', timer: '10' });
    const status = await apiCall(emu, 'GET', '/v1/Status/');
    expect(status.json.monitor_list.at(-1)).toEqual({ id: 'tcp-1', label: 'tcp', type: 'TCP Port', alert_active: false });
  });

  it('rejects bad control input with 400 and {error}', async () => {
    for (const [path, body] of [
      ['seed', { monitors: 'x' }],
      ['clock', { advance_seconds: 'x' }],
      ['faults', { error_rate: 2 }],
      ['alert-active', { monitor: '10004' }],
      ['data', { monitor: '10004', items: [{ value: 1 }] }],
      ['reset', { seed: 'fancy' }],
    ] as const) {
      const res = await fetch(`${emu.url}/_emulator/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBeTypeOf('string');
    }
    const unknown = await fetch(`${emu.url}/_emulator/alert-active`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ monitor: '1', active: true }),
    });
    expect(unknown.status).toBe(404);
  });

  it('resets state, clock, faults and the log', async () => {
    await apiCall(emu, 'POST', '/v1/Config/Group/', { body: { name: 'g' } });
    await emu.control.advance(5000);
    await emu.control.faults({ latency_ms: 1 });
    await emu.control.reset('empty');
    const state = await emu.control.state();
    expect(state).toMatchObject({ monitors: [], groups: [], destinations: [], clock_offset_ms: 0 });
    expect(await emu.control.requests()).toEqual([]);
    const faults = (await (await fetch(`${emu.url}/_emulator/faults`)).json()) as { faults: unknown };
    expect(faults.faults).toBeNull();
    await emu.control.reset();
    expect(((await emu.control.state()).monitors as unknown[]).length).toBe(4);
  });

  it('sets and advances the clock', async () => {
    const set = await fetch(`${emu.url}/_emulator/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ set: 2_000_000_000 }),
    });
    const body = (await set.json()) as { now: number };
    expect(Math.abs(body.now - 2_000_000_000)).toBeLessThanOrEqual(1);
    const adv = await emu.control.advance(60);
    expect(Math.abs(adv.now - 2_000_000_060)).toBeLessThanOrEqual(1);
  });
});
