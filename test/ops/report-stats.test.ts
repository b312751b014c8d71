/**
 * The report's value counts (src/ops/report-stats.ts ValueCounts) against the plain definition:
 * the nearest rank over every value sorted, for monitors' sets and for the dense sets many
 * monitors add to, values on both sides of DENSE_LIMIT_MS included; a monitor's tally (its values
 * kept with their days in pooled buffers) per day and period, its tests in any order, merged into
 * aggregates and into another monitor-style tally. Fixed seed, fixed size.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 as random } from '../../src/emulator/faults.js';
import { DAY_SECONDS, DENSE_LIMIT_MS, Tally, ValueCounts } from '../../src/ops/report-stats.js';

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

describe('tallies', () => {
  const FROM = 1_790_000_000 - (1_790_000_000 % DAY_SECONDS);
  const DAYS = 9;

  it('give each day and the period the nearest-rank percentiles of their values, tests in any order, merged and released', () => {
    const rnd = random(7);
    const all: number[] = [];
    const byDay = new Map<number, number[]>();
    const account = new Tally(true, true);
    const group = new Tally(false, true);
    const plain = new Tally();
    for (let m = 0; m < 12; m++) {
      const t = new Tally();
      const values: number[] = [];
      const perDay = new Map<number, number[]>();
      // Every third monitor's tests come shuffled (days interleaved), the others in time order.
      const starts = Array.from({ length: DAYS * 48 }, (_, i) => FROM + i * 1800 + m);
      if (m % 3 === 0) starts.sort(() => rnd() - 0.5);
      for (const start of starts) {
        const r = rnd();
        if (r < 0.05) t.addTest(start, true, null);
        else {
          const v = r < 0.9 ? 1500 + rnd() * 13_000 : r < 0.97 ? rnd() * 3 : DENSE_LIMIT_MS + rnd() * 900_000;
          t.addTest(start, false, v);
          const day = start - (start % DAY_SECONDS);
          for (const map of [perDay, byDay]) map.set(day, [...(map.get(day) ?? []), Math.round(v)]);
          values.push(Math.round(v));
        }
      }
      const f = t.figures(FROM, FROM + DAYS * DAY_SECONDS);
      expect([f.medianMs, f.p95Ms]).toEqual([nearestRank(values, 50), nearestRank(values, 95)]);
      for (const d of f.days) expect([d.medianMs, d.p95Ms]).toEqual([nearestRank(perDay.get(d.day)!, 50), nearestRank(perDay.get(d.day)!, 95)]);
      account.merge(t);
      group.merge(t);
      plain.merge(t);
      all.push(...values);
      t.release();
      expect(() => t.figures(FROM, FROM + DAYS * DAY_SECONDS)).toThrow(/release/);
    }
    for (const agg of [account, group, plain]) {
      const f = agg.figures(FROM, FROM + DAYS * DAY_SECONDS);
      expect([f.tests, f.medianMs, f.p95Ms]).toEqual([12 * DAYS * 48, nearestRank(all, 50), nearestRank(all, 95)]);
      for (const d of f.days) {
        const expected = agg === group ? [null, null] : [nearestRank(byDay.get(d.day)!, 50), nearestRank(byDay.get(d.day)!, 95)];
        expect([d.medianMs, d.p95Ms]).toEqual(expected);
      }
    }
  });

  it('select the same ranks from inputs a partition handles badly (equal values, sorted, reversed, organ pipe)', () => {
    const n = 5000;
    const inputs = [
      Array.from({ length: n }, () => 42),
      Array.from({ length: n }, (_, i) => i),
      Array.from({ length: n }, (_, i) => n - i),
      Array.from({ length: n }, (_, i) => Math.min(i, n - i)),
      Array.from({ length: n }, (_, i) => i % 2),
    ];
    for (const values of inputs) {
      const t = new Tally(false);
      values.forEach((v, i) => t.addTest(FROM + i, false, v));
      const f = t.figures(FROM, FROM + DAY_SECONDS);
      expect([f.medianMs, f.p95Ms]).toEqual([nearestRank(values, 50), nearestRank(values, 95)]);
    }
  });
});
