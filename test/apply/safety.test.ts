import { describe, expect, it } from 'vitest';
import { checkDeletes, defaultMaxDeletes } from '../../src/apply/safety.js';
import { createMonitor, deleteChange, makePlan } from './plan-builder.js';

function deletes(n: number, cascade = 0) {
  return Array.from({ length: n }, (_, i) => {
    const c = deleteChange('monitor', `mx-${i}`, String(40000 + i));
    return cascade ? { ...c, effects: { cascade_alerts: cascade } } : c;
  });
}

describe('checkDeletes', () => {
  it('allows up to 10 deletes, or 30% of the managed resources when that is more', () => {
    expect(defaultMaxDeletes(0)).toBe(10);
    expect(defaultMaxDeletes(33)).toBe(10);
    expect(defaultMaxDeletes(100)).toBe(30);
    expect(checkDeletes(makePlan(deletes(10)), 20)).toEqual({ ok: true });
    expect(checkDeletes(makePlan(deletes(30)), 100)).toEqual({ ok: true });
    expect(checkDeletes(makePlan(deletes(31)), 100).ok).toBe(false);
  });

  it('refuses a plan deleting more than the limit, naming every delete, unless forced', () => {
    const plan = makePlan([createMonitor('new'), ...deletes(11)]);
    const check = checkDeletes(plan, 20);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.message).toMatch(/^refusing to apply a plan that deletes 11 resources \(more than 10\)/);
    expect(check.message).toMatch(/--force/);
    expect(check.deletes).toHaveLength(11);
    expect(check.deletes[0]).toBe('monitor "mx-0" (id 40000)');
    expect(checkDeletes(plan, 20, { force: true })).toEqual({ ok: true });
  });

  it('counts the alerts a monitor delete takes with it', () => {
    const check = checkDeletes(makePlan(deletes(3, 3)), 10);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.message).toMatch(/deletes 12 resources/);
    expect(check.deletes[0]).toBe('monitor "mx-0" (id 40000) and its 3 alerts');
  });

  it('says how its count relates to the plan\'s "to destroy", which counts each monitor delete once', () => {
    const check = checkDeletes(makePlan(deletes(3, 3)), 10);
    if (check.ok) throw new Error('expected a refusal');
    expect(check.message).toBe(
      'refusing to apply a plan that deletes 12 resources (more than 10): the plan\'s 3 deletes and the 9 alerts the service deletes with their monitors. ' +
        'If that is intended, run again with --force or a higher --max-deletes; otherwise check the configuration paths, owner and --target.',
    );
    const plain = checkDeletes(makePlan(deletes(11)), 20);
    if (plain.ok) throw new Error('expected a refusal');
    expect(plain.message).toMatch(/^refusing to apply a plan that deletes 11 resources \(more than 10\)\. If that/);
  });

  it('honours an explicit --max-deletes, including 0', () => {
    const one = makePlan(deletes(1));
    const zero = checkDeletes(one, 1000, { maxDeletes: 0 });
    expect(zero.ok).toBe(false);
    if (!zero.ok) expect(zero.message).toMatch(/deletes 1 resource \(more than --max-deletes 0\)/);
    expect(checkDeletes(makePlan(deletes(50)), 0, { maxDeletes: 50 })).toEqual({ ok: true });
    expect(checkDeletes(makePlan(deletes(51)), 1000, { maxDeletes: 50 }).ok).toBe(false);
  });

  it('mentions the managed count when the 30% share sets the limit', () => {
    const check = checkDeletes(makePlan(deletes(31)), 100);
    if (check.ok) throw new Error('expected a refusal');
    expect(check.message).toMatch(/more than 30, 30% of the 100 managed/);
  });
});
