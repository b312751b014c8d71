/**
 * The adaptive sending rate (src/api/adaptive-rate.ts) on a simulated clock: apply's workers (a
 * shared 429 gate as transport.ts has, parallelism 8, 50 ms per request) against a service limited
 * by a token bucket as the emulator's `rate_limit_per_second` is (Retry-After in whole seconds).
 * No real time passes; the figures are exact for the model.
 */
import { describe, expect, it } from 'vitest';
import { AdaptiveRate } from '../../src/api/adaptive-rate.js';

interface Outcome {
  requests: number;
  refused: number;
  seconds: number;
}

/** `tasks` requests by `parallelism` workers against a limit of `perSecond` (0: none). */
function simulate(tasks: number, perSecond: number, parallelism = 8, latencyMs = 50, adaptive = true): Outcome {
  let now = 0;
  const rate = new AdaptiveRate(() => now);
  let tokens = perSecond;
  let tokensAt = 0;
  /** The service: null to admit, or the Retry-After in ms. */
  const service = (): number | null => {
    if (perSecond <= 0) return null;
    tokens = Math.min(perSecond, tokens + ((now - tokensAt) * perSecond) / 1000);
    tokensAt = now;
    if (tokens >= 1) {
      tokens--;
      return null;
    }
    return Math.max(1, Math.ceil((1 - tokens) / perSecond)) * 1000;
  };
  let gateOpen = 0;
  let next = 0;
  let requests = 0;
  let refused = 0;
  type Step = 'ready' | 'send' | 'answer';
  const events: { t: number; worker: number; step: Step; refusedFor?: number | null }[] = [];
  const at = (t: number, worker: number, step: Step, refusedFor?: number | null) => events.push({ t, worker, step, refusedFor });
  const hasTask = new Array<boolean>(parallelism).fill(false);
  for (let w = 0; w < parallelism; w++) at(0, w, 'ready');
  while (events.length > 0) {
    events.sort((a, b) => a.t - b.t || a.worker - b.worker);
    const e = events.shift()!;
    now = e.t;
    if (e.step === 'ready') {
      if (!hasTask[e.worker]) {
        if (next >= tasks) continue;
        next++;
        hasTask[e.worker] = true;
      }
      if (gateOpen > now) at(gateOpen, e.worker, 'ready');
      else at(now + (adaptive ? rate.delay() : 0), e.worker, 'send');
    } else if (e.step === 'send') {
      // As transport.ts's turn(): a gate closed during the wait sends the request back to it.
      if (gateOpen > now) {
        at(gateOpen, e.worker, 'ready');
        continue;
      }
      requests++;
      at(now + latencyMs, e.worker, 'answer', service());
    } else {
      if (adaptive) rate.answered(e.refusedFor !== null);
      if (e.refusedFor !== null && e.refusedFor !== undefined) {
        refused++;
        gateOpen = Math.max(gateOpen, now + e.refusedFor);
      } else {
        hasTask[e.worker] = false;
      }
      at(now, e.worker, 'ready');
    }
  }
  return { requests, refused, seconds: now / 1000 };
}

describe('the adaptive sending rate', () => {
  it('adds no wait at all while the service has never answered 429', () => {
    let now = 0;
    const rate = new AdaptiveRate(() => now);
    for (let i = 0; i < 1000; i++, now += 1) {
      expect(rate.delay()).toBe(0);
      rate.answered(false);
    }
    expect(rate.rate).toBeUndefined();
    expect(simulate(1000, 0)).toEqual(simulate(1000, 0, 8, 50, false));
  });

  it('does not turn on for a 429 before it has answers to measure a rate by (the Retry-After hold is all)', () => {
    let now = 0;
    const rate = new AdaptiveRate(() => now);
    rate.answered(false);
    now += 50;
    rate.answered(true);
    expect(rate.rate).toBeUndefined();
    expect(rate.delay()).toBe(0);
  });

  // 1.5 in 100 on this model leaves room for what a real service adds (the account reads before
  // and after, answers that vary in time): the target is 2 in 100 against the emulator (issue 38).
  it.each([20, 50])('keeps 1,000 creates under a limit of %i per second to at most 1.5 in 100 answered 429, within 1.15x of requests / limit', (limit) => {
    const r = simulate(1000, limit);
    expect(r.refused / r.requests).toBeLessThanOrEqual(0.015);
    expect(r.seconds).toBeLessThanOrEqual((1.15 * 1000) / limit);
    // Without the learnt rate (only the shared gate) the same run meets the limit over and over.
    const gateOnly = simulate(1000, limit, 8, 50, false);
    expect(gateOnly.refused / gateOnly.requests).toBeGreaterThan(0.05);
  });

  it('takes the burst a service lets through at the start for no more than a second of its rate', () => {
    let now = 0;
    const rate = new AdaptiveRate(() => now);
    // A bucket holding a second of 20 requests/s, emptied by 8 workers in 150 ms, then a 429.
    for (let i = 0; i < 20; i++, now += 7.5) rate.answered(false);
    rate.answered(true);
    expect(rate.rate!).toBeLessThanOrEqual(20);
  });

  it('cuts the rate on a 429 to below what the service accepted, and creeps back up after it', () => {
    let now = 0;
    const rate = new AdaptiveRate(() => now);
    // 40 answers a second for two seconds, then a 429.
    for (let i = 0; i < 80; i++, now += 25) rate.answered(false);
    rate.answered(true);
    const cut = rate.rate!;
    expect(cut).toBeGreaterThan(30);
    expect(cut).toBeLessThan(40);
    // Evenly spaced turns at the new rate, reserved in order.
    rate.delay();
    const waits = [rate.delay(), rate.delay(), rate.delay()];
    expect(waits[1]! - waits[0]!).toBeCloseTo(1000 / cut, -1);
    // Ten seconds of answers later it is back above what was accepted before.
    for (let i = 0; i < 400; i++, now += 25) rate.answered(false);
    expect(rate.rate!).toBeGreaterThan(40);
  });
});
