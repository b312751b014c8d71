import { describe, expect, it } from 'vitest';
import { canonicalJson, filterIgnored, fingerprintLive } from '../../src/plan/fingerprint.js';
import { dest, liveAlert, liveGroup, liveMonitor, liveState } from './helpers.js';

const a = liveMonitor({ id: '1', label: 'a' });
const b = liveMonitor({ id: '2', label: 'legacy-b' });
const live = liveState({
  monitors: [a, b],
  alerts: [liveAlert({ id: 'x', monitor: '1', subject_init: 's', alert_destinations: ['d1', 'd2'] }), liveAlert({ id: 'y', monitor: '2', subject_init: 's' })],
  groups: [liveGroup('g', 'g', [a, b])],
  destinations: [dest('d1', 'ops'), dest('d2', 'sms')],
});

describe('fingerprintLive', () => {
  it('is a sha256 hex digest, stable under list and id-array order', () => {
    const fp = fingerprintLive(live);
    expect(fp).toMatch(/^[0-9a-f]{64}$/);
    const shuffled = structuredClone(live);
    shuffled.monitors.reverse();
    shuffled.alerts.reverse();
    shuffled.destinations.reverse();
    shuffled.alerts[1]!.alert_destinations.reverse();
    expect(fingerprintLive(shuffled)).toBe(fp);
  });

  it('ignores violations and member labels, sees configuration changes', () => {
    const fp = fingerprintLive(live);
    const v = structuredClone(live);
    v.alerts[0]!.violations = '7';
    v.groups[0]!.members[0]!.label = null;
    expect(fingerprintLive(v)).toBe(fp);
    for (const mutate of [
      (s: typeof live) => (s.monitors[0]!.ttl = 600),
      (s: typeof live) => (s.alerts[0]!.message_init = 'x'),
      (s: typeof live) => (s.groups[0]!.name = 'h'),
      (s: typeof live) => (s.monitors[0]!.groups = []),
      (s: typeof live) => (s.destinations[0]!.label = 'ops2'),
      (s: typeof live) => (s.monitors[0]!.meta = {}),
    ]) {
      const c = structuredClone(live);
      mutate(c);
      expect(fingerprintLive(c)).not.toBe(fp);
    }
  });

  it('filters ignored monitors, their alerts and groups; accepts plan options', () => {
    const c = structuredClone(live);
    c.monitors[1]!.timer = 30;
    c.alerts[1]!.subject_init = 'other';
    expect(fingerprintLive(c, ['legacy-*'])).toBe(fingerprintLive(live, ['legacy-*']));
    expect(fingerprintLive(c, { ignore: ['legacy-*'] })).toBe(fingerprintLive(live, ['legacy-*']));
    expect(fingerprintLive(c, {})).not.toBe(fingerprintLive(live));
    const f = filterIgnored(live, ['legacy-*']);
    expect(f.monitors.map((m) => m.id)).toEqual(['1']);
    expect(f.alerts.map((x) => x.id)).toEqual(['x']);
  });

  it('canonicalJson sorts keys at every level and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[{"y":2,"z":1}]},"b":1}');
  });
});
