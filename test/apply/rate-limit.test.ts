/**
 * 429s answered per 1,000 creates. The service's rate limiter is modelled the way API gateways
 * work: a fixed window admits so many requests, a request over the limit is refused at once with
 * a 429 whose Retry-After says when the window ends, and admitted requests take their time in the
 * backend. Scaled down to run in seconds: 100 ms windows of 10 requests, 5 to 25 ms per create, a
 * Retry-After in fractions of a second (the client reads `0.05` as 50 ms), 500 creates counted
 * and scaled to 1,000 (RATE_LIMIT_CREATES=1000 counts 1,000).
 *
 * When each request waited out its own 429 (before the shared gate), each of apply's 8 workers ran
 * into the closed window on its own: 680-720 refusals per 1,000 creates measured here. With the
 * gate the first 429 holds the whole client back and only requests already on their way are
 * refused: 240-350. With the sending rate learnt from the 429s (src/api/adaptive-rate.ts, issue
 * 25): 6-14, in 10-14 s where the gate alone took 5 s (the windows admit 100 a second, and the
 * rate climbs back from a first estimate taken 30 ms into the run). (The emulator's `rate_limit_every` refuses every n-th request whatever the
 * timing, so no client can change its count: that fault tests that 429s are retried, not how many.)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitoringClient } from '../../src/api/client.js';
import { executePlan } from '../../src/apply/execute.js';
import { createMonitor, makePlan, OWNER } from './plan-builder.js';

const WINDOW_MS = 100;
const LIMIT = 10;
/** An admitted create takes 5 to 25 ms (a fixed pseudo-random sequence): workers do not march in step. */
const latency = (n: number) => 5 + ((n * 7919) % 21);
const CREATES = Number(process.env.RATE_LIMIT_CREATES ?? 500);

let server: http.Server;
let base = '';
let windowStart = 0;
let admitted = 0;
let refused = 0;
let nextId = 1;
const made: Record<string, unknown>[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    // The answer names the monitor the request described (apply checks that it does).
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const sent = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { label?: string; meta?: Record<string, string> };
      const now = performance.now();
      if (now - windowStart >= WINDOW_MS) {
        windowStart = now - ((now - windowStart) % WINDOW_MS);
        admitted = 0;
      }
      if (admitted >= LIMIT) {
        refused++;
        const left = (windowStart + WINDOW_MS - now) / 1000;
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': left.toFixed(3) });
        res.end(JSON.stringify({ error: 'rate limit exceeded' }));
        return;
      }
      admitted++;
      if (req.method === 'GET') {
        // A create answered 429 is looked up before it is sent again: the list of what was made.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ path: '/v1/Config/Monitor/', error: null, monitor_list: made }));
        return;
      }
      const id = String(nextId++);
      const monitor = { id, type: 'smtp', label: sent.label, meta: sent.meta ?? {} };
      made.push(monitor);
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ path: '/v1/Config/Monitor/', error: null, monitor }));
      }, latency(nextId));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/**
 * Time-based because a rate limit is: the windows are real 100 ms. On a quiet machine the learnt
 * rate gives 6-14 refusals per 1,000; with both cores busy, timers fire late and the count drifts up
 * (22 seen at load 19 on 2 cores, issue 34). The bound, 60, is four times the quiet figures and a
 * quarter of what the gate alone gives (240-350), so it still tells the learnt rate from none. The
 * 2% target itself is held without real time by test/api/adaptive-rate.test.ts (a simulated clock)
 * and measured by `npm run bench` (docs/performance.md, apply under a rate limit).
 */
describe('429s per 1,000 creates under a windowed rate limit', () => {
  it('are few (at most 60, where the gate alone gives 240 and more): the client learns the rate the service accepts and keeps below it', async () => {
    const client = new MonitoringClient({ baseUrl: base, username: 'u', password: 'pw-rate-limit-test', timeoutMs: 10_000 });
    const changes = Array.from({ length: CREATES }, (_, i) => createMonitor(`m-${i}`));
    windowStart = performance.now();
    refused = 0;
    const t0 = performance.now();
    const result = await executePlan(makePlan(changes), client, { parallelism: 8, owner: OWNER });
    const seconds = (performance.now() - t0) / 1000;
    await client.close();
    expect(result.done).toBe(CREATES);
    const perThousand = Math.round((refused * 1000) / CREATES);
    // The figure for the closing note.
    console.log(`429s per 1,000 creates: ${perThousand} (${refused} for ${CREATES} creates in ${seconds.toFixed(1)} s)`);
    expect(perThousand).toBeLessThanOrEqual(60);
  }, 60_000);
});
