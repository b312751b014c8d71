import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FaultInjector, parseFaultConfig } from '../../src/emulator/faults.js';
import { apiCall, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

async function groupNames(): Promise<string[]> {
  await emu.control.clearFaults();
  const r = await apiCall(emu, 'GET', '/v1/Config/Group/');
  return r.json.groups.map((g: { name: string }) => g.name);
}

describe('fault injection', () => {
  it('adds latency', async () => {
    await emu.control.faults({ latency_ms: 250 });
    const t0 = performance.now();
    const r = await apiCall(emu, 'GET', '/v1/Status/');
    expect(r.status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(240);
    expect((await emu.control.requests()).at(-1)).toMatchObject({ status: 200, fault: 'latency' });
  });

  it('answers error_status before processing with error_rate 1.0', async () => {
    await emu.control.faults({ error_rate: 1.0 });
    const r = await apiCall(emu, 'POST', '/v1/Config/Group/', { body: { name: 'lost' } });
    expect(r.status).toBe(503);
    expect(r.json).toEqual({ path: '/v1/Config/Group/', error: 'injected fault: HTTP 503' });
    const v2 = await apiCall(emu, 'POST', '/v2/token', { auth: null, body: 'grant_type=client_credentials', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(v2.status).toBe(503);
    expect(Object.keys(v2.json)).toEqual(['error']);
    // Control endpoints are never faulted.
    expect((await emu.control.state()).groups).toEqual([]);
    expect((await emu.control.requests()).map((e) => [e.status, e.fault])).toEqual([
      [503, 'error'],
      [503, 'error'],
    ]);
    expect(await groupNames()).toEqual([]);
  });

  it('honours error_status, methods and path_prefix', async () => {
    await emu.control.faults({ error_rate: 1, error_status: 500, methods: ['post'], path_prefix: '/v1/Config/Group' });
    expect((await apiCall(emu, 'POST', '/v1/Config/Group/', { body: { name: 'g' } })).status).toBe(500);
    expect((await apiCall(emu, 'GET', '/v1/Config/Group/')).status).toBe(200);
    expect((await apiCall(emu, 'POST', '/v1/Pause/Alert/', { body: { seconds: 5 } })).status).toBe(200);
  });

  it('answers every n-th call 429 with Retry-After', async () => {
    await emu.control.faults({ rate_limit_every: 3, retry_after: 7 });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await apiCall(emu, 'GET', '/v1/Status/');
      statuses.push(r.status);
      if (r.status === 429) {
        expect(r.headers.get('retry-after')).toBe('7');
        expect(r.json.error).toContain('rate limit');
      }
    }
    expect(statuses).toEqual([200, 200, 429, 200, 200, 429]);
  });

  it('drops the answer after processing the request', async () => {
    await emu.control.faults({ drop_rate: 1 });
    await expect(apiCall(emu, 'POST', '/v1/Config/Group/', { body: { name: 'made-but-unanswered' } })).rejects.toThrow();
    expect((await emu.control.requests()).at(-1)).toMatchObject({ status: 200, fault: 'drop' });
    expect(await groupNames()).toEqual(['made-but-unanswered']);
  });

  it('repeat_data sends each data item of a data answer that many times in a row, and leaves other answers alone', async () => {
    const [monitor] = (await emu.control.seed({ monitors: [{ label: 'rep', type: 'smtp', ip_address: 'mx', test_account: 'r@example.org', timer: 5 }] })).monitors;
    const t0 = 1_790_000_000;
    await emu.control.setData(monitor!, [
      { utc_mktime: t0, value: 1200, failed: false },
      { utc_mktime: t0 + 300, value: null, failed: true, error: 'no response' },
    ]);
    await emu.control.faults({ repeat_data: 2 });
    const r = await apiCall(emu, 'GET', `/v1/Data/Monitor/${monitor}/?begin=${t0 - 1}&end=${t0 + 600}`);
    expect(r.json.data.map((d: { utc_mktime: number }) => d.utc_mktime)).toEqual([t0, t0, t0 + 300, t0 + 300]);
    expect((await emu.control.requests()).at(-1)).toMatchObject({ status: 200, fault: 'repeat_data' });
    const list = await apiCall(emu, 'GET', '/v1/Config/Monitor/');
    expect(list.status).toBe(200);
    expect((await emu.control.requests()).at(-1)).toMatchObject({ status: 200, fault: null });
  });

  it('is deterministic for a given seed', async () => {
    const run = async (): Promise<number[]> => {
      await emu.control.faults({ error_rate: 0.5, seed: 42 });
      const out: number[] = [];
      for (let i = 0; i < 20; i++) out.push((await apiCall(emu, 'GET', '/v1/Status/')).status);
      return out;
    };
    const first = await run();
    expect(await run()).toEqual(first);
    expect(first).toContain(503);
    expect(first).toContain(200);
  });

  it('spreads error_rate close to the requested share', () => {
    const f = new FaultInjector();
    f.set(parseFaultConfig({ error_rate: 0.3, seed: 9 }));
    let errors = 0;
    for (let i = 0; i < 10_000; i++) if (f.decide('GET', '/v1/Status/')?.reject) errors++;
    expect(errors / 10_000).toBeGreaterThan(0.27);
    expect(errors / 10_000).toBeLessThan(0.33);
  });

  it('limits calls to rate_limit_per_second with a token bucket on the emulator clock, answering 429 with Retry-After', async () => {
    await emu.control.faults({ rate_limit_per_second: 2, rate_limit_burst: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await apiCall(emu, 'GET', '/v1/Status/')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await apiCall(emu, 'GET', '/v1/Status/');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.json.error).toBe('rate limit exceeded (2 requests per second): retry after 1 seconds');
    expect((await emu.control.requests()).at(-1)).toMatchObject({ status: 429, fault: 'rate_limit' });
    // A second of the emulator clock refills two tokens, no more.
    await emu.control.advance(1);
    const after: number[] = [];
    for (let i = 0; i < 3; i++) after.push((await apiCall(emu, 'GET', '/v1/Status/')).status);
    expect(after).toEqual([200, 200, 429]);
  });

  it('lets a rate limit through at its rate over time, refused calls taking no token', () => {
    let now = 0;
    const f = new FaultInjector(() => now);
    f.set(parseFaultConfig({ rate_limit_per_second: 10 }));
    let admitted = 0;
    let refused = 0;
    // 100 calls a second for 10 seconds against 10 a second with a burst of 10.
    for (let i = 0; i < 1000; i++, now += 10) {
      const d = f.decide('POST', '/v1/Config/Monitor/');
      if (d?.reject) {
        refused++;
        expect(d.reject.headers['Retry-After']).toBe('1');
      } else admitted++;
    }
    expect(admitted).toBe(10 + 100 - 1);
    expect(refused).toBe(1000 - admitted);
  });

  it('refuses a rate limit that is not a number of 0 or more', () => {
    expect(() => parseFaultConfig({ rate_limit_per_second: -1 })).toThrow(/rate_limit_per_second must be a number in 0\.\.1000000, got -1/);
    expect(parseFaultConfig({ rate_limit_per_second: 2.5 }).rate_limit_burst).toBe(3);
  });
});
