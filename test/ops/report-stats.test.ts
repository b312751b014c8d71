/**
 * The report's value counts (src/ops/report-stats.ts ValueCounts) against the plain definition:
 * the nearest rank over every value sorted, for monitors' sets and for the dense sets many
 * monitors add to, values on both sides of DENSE_LIMIT_MS included. Fixed seed, fixed size.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 as random } from '../../src/emulator/faults.js';
import { DENSE_LIMIT_MS, ValueCounts } from '../../src/ops/report-stats.js';

const nearestRank = (values: number[], p: number): number => [...values].sort((a, b) => a - b)[Math.max(1, Math.ceil((p / 100) * values.length)) - 1]!;

describe('value counts', () => {
  it('give the nearest-rank percentiles of every value added, per monitor and merged densely over many', () => {
    const rnd = random(38);
    const all: number[] = [];
    const account = new ValueCounts(true);
    const plain = new ValueCounts(false);
    for (let m = 0; m < 60; m++) {
      const monitor = new ValueCounts();
      const values = Array.from({ length: 1 + Math.floor(rnd() * 400) }, () => {
        const r = rnd();
        // Most below the dense limit, some far above it, some exactly on it, and repeats.
        return r < 0.8 ? Math.floor(rnd() * 20_000) : r < 0.9 ? DENSE_LIMIT_MS - 1 + Math.floor(rnd() * 3) : r < 0.95 ? 1500 : Math.floor(DENSE_LIMIT_MS + rnd() * 300_000);
      });
      for (const v of values) monitor.add(v);
      for (const p of [1, 50, 95, 100]) expect(monitor.percentile(p)).toBe(nearestRank(values, p));
      account.addAll(monitor);
      plain.addAll(monitor);
      all.push(...values);
      if (m % 7 === 0) for (const p of [50, 95]) expect(account.percentile(p)).toBe(nearestRank(all, p));
    }
    expect(account.total).toBe(all.length);
    for (const p of [0.1, 50, 95, 99.9, 100]) {
      expect(account.percentile(p)).toBe(nearestRank(all, p));
      expect(plain.percentile(p)).toBe(nearestRank(all, p));
    }
    // An aggregate merged into another counts the same.
    const outer = new ValueCounts(true);
    outer.addAll(account);
    expect([outer.total, outer.percentile(50), outer.percentile(95)]).toEqual([all.length, nearestRank(all, 50), nearestRank(all, 95)]);
    expect(new ValueCounts(true).percentile(50)).toBeNull();
  });
});
