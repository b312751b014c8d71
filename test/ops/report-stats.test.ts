/**
 * The report's tallies (src/ops/report-stats.ts) against the plain definition: the nearest rank over
 * every value sorted, per day and period, a monitor's tests in any order, merged into the account
 * and a group (no daily values). Fixed seed, fixed size.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 as random } from '../../src/emulator/faults.js';
import { DAY_SECONDS, Tally } from '../../src/ops/report-stats.js';

/** Values far above a minute (a slow answer) among the usual ones. */
const LONG_MS = 65_536;

const nearestRank = (values: number[], p: number): number => [...values].sort((a, b) => a - b)[Math.max(1, Math.ceil((p / 100) * values.length)) - 1]!;

describe('tallies', () => {
  const FROM = 1_790_000_000 - (1_790_000_000 % DAY_SECONDS);
  const DAYS = 9;

  it('give each day and the period the nearest-rank percentiles of their values, tests in any order, merged', () => {
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
          const v = r < 0.9 ? 1500 + rnd() * 13_000 : r < 0.97 ? rnd() * 3 : LONG_MS + rnd() * 900_000;
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

  it('give the same ranks for equal values, sorted, reversed and organ-pipe inputs', () => {
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
