/**
 * An account of thousands of monitors plans to the right changes. How fast is a benchmark, not a
 * test (issue 34): test/bench/in-process.bench.ts times this same plan (docs/performance.md).
 */
import { describe, expect, it } from 'vitest';
import { largeAccount, planLargeAccount } from '../bench/workloads.js';

describe('scale', () => {
  it('plans an account of 5,000 monitors and 10,000 alerts: updates, deletes and the group', () => {
    const p = planLargeAccount(largeAccount(5000));
    expect(p.summary.update).toBeGreaterThan(0);
    expect(p.summary.delete).toBeGreaterThan(0);
    expect(p.changes.some((c) => c.kind === 'group')).toBe(true);
  });
});
