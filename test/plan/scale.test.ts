import { describe, expect, it } from 'vitest';
import { diff } from '../../src/plan/diff.js';
import { NOW, TARGET, dAlert, dGroup, dMonitor, desiredState, dest, liveAlert, liveGroup, liveMonitor } from './helpers.js';

describe('scale', () => {
  it('plans an account of thousands of monitors quickly', () => {
    const n = 5000;
    const monitors = Array.from({ length: n }, (_, i) => liveMonitor({ id: `m${i}`, label: `mx-${i}`, timer: i % 7 === 0 ? 10 : 5, meta: i % 2 ? { 'managed-by': 'mail-team' } : {} }));
    const alerts = monitors.flatMap((m, i) => [liveAlert({ id: `a${i}`, monitor: m.id, subject_init: `${m.label} down` }), liveAlert({ id: `b${i}`, monitor: m.id, subject_init: `${m.label} slow` })]);
    // Built directly: the liveState helper's cross-referencing is quadratic.
    const live = { monitors, alerts, groups: [liveGroup('g', 'all', monitors.slice(0, 3000))], destinations: [dest('d1', 'ops')] };
    const desired = desiredState({
      monitors: monitors.filter((_, i) => i % 2 === 1 && i % 5 !== 0).map((m) => dMonitor(m.label, {}, { alerts: [dAlert(`${m.label} down`)] })),
      groups: [dGroup('all', monitors.slice(1000, 4000).filter((_, i) => i % 2 === 0).map((m) => m.label))],
    });
    const started = performance.now();
    const p = diff(desired, live, { target: TARGET, now: NOW });
    const ms = performance.now() - started;
    expect(p.summary.update).toBeGreaterThan(0);
    expect(p.summary.delete).toBeGreaterThan(0);
    expect(ms).toBeLessThan(3000);
  });
});
