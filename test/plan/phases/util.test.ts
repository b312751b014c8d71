import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareIds, distinct, keeperOf } from '../../../src/plan/phases/util.js';

describe('the planner helpers', () => {
  it('ids compare as numbers when both are numbers, else as text', () => {
    expect(['10', '9', '0010', '100', 'a1', '11'].sort(compareIds)).toEqual(['9', '0010', '10', '11', '100', 'a1']);
  });

  it('the copy kept is the heaviest, then the lowest id, whatever order the copies come in', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat({ max: 500 }), { minLength: 1, maxLength: 8 }), fc.func(fc.nat({ max: 2 })), fc.nat(), (ns, weightOf, turn) => {
        const copies = ns.map((n) => ({ id: String(n) }));
        const weight = (c: { id: string }) => weightOf(c.id);
        const rotated = [...copies.slice(turn % copies.length), ...copies.slice(0, turn % copies.length)];
        const kept = keeperOf(copies, weight);
        expect(keeperOf(rotated, weight)).toBe(kept);
        const heaviest = Math.max(...copies.map(weight));
        expect(weight(kept)).toBe(heaviest);
        expect(Math.min(...copies.filter((c) => weight(c) === heaviest).map((c) => Number(c.id)))).toBe(Number(kept.id));
      }),
      { numRuns: 500 },
    );
  });

  it('distinct keeps first occurrences and returns the list itself when it has no repeats', () => {
    const xs = ['a', 'b'];
    expect(distinct(xs)).toBe(xs);
    expect(distinct(['a', 'b', 'a'])).toEqual(['a', 'b']);
    expect(distinct([...'abcdefghij', 'a'])).toEqual([...'abcdefghij']);
  });
});
