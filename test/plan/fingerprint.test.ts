import { describe, expect, it } from 'vitest';
import { checkFingerprint } from '../../src/apply/saved-plan.js';
import type { LiveState } from '../../src/model/live.js';
import { diff } from '../../src/plan/diff.js';
import { filterIgnored, fingerprintLive } from '../../src/plan/fingerprint.js';
import { desiredState, dest, dGroup, dMonitor, liveAlert, liveGroup, liveMonitor, liveState } from './helpers.js';

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

  it('does not depend on the order of keys in an object, and an undefined field is no field', () => {
    const fp = fingerprintLive(live);
    const reordered = structuredClone(live);
    reordered.monitors = reordered.monitors.map((m) => Object.fromEntries(Object.entries(m).reverse()) as typeof m);
    reordered.monitors[0]!.meta = { region: 'eu', 'managed-by': 'mail-team' };
    const expected = structuredClone(live);
    expected.monitors[0]!.meta = { 'managed-by': 'mail-team', region: 'eu' };
    expect(fingerprintLive(reordered)).toBe(fingerprintLive(expected));
    // Records of one list in different key orders: the first keeps the order the second has.
    const mixed = structuredClone(live);
    mixed.alerts[1] = Object.fromEntries(Object.entries(mixed.alerts[1]!).reverse()) as (typeof mixed.alerts)[number];
    expect(fingerprintLive(mixed)).toBe(fp);
    const withUndefined = structuredClone(live) as LiveState & { monitors: Record<string, unknown>[] };
    withUndefined.monitors[1]!['later'] = undefined;
    (withUndefined.monitors[0]!['meta'] as Record<string, unknown>)['x'] = undefined;
    expect(fingerprintLive(withUndefined)).toBe(fp);
    const nested = (value: unknown): string => {
      const c = structuredClone(live) as unknown as { monitors: Record<string, unknown>[] };
      c.monitors[0]!['nested'] = value;
      return fingerprintLive(c as unknown as LiveState);
    };
    expect(nested({ b: [1, { d: 'x', c: undefined, a: null }], a: 2 })).toBe(nested({ a: 2, b: [1, { a: null, d: 'x' }] }));
    expect(nested({ '10': 'a', '9': 'b' })).toBe(nested(JSON.parse('{"9":"b","10":"a"}')));
    expect(nested({ a: 2, b: [1, { a: null, d: 'x' }] })).not.toBe(nested({ a: 2, b: [{ a: null, d: 'x' }, 1] }));
  });

  it('covers fields the model does not know, in every kind of record and nested object', () => {
    const fp = fingerprintLive(live);
    const seen = new Set([fp]);
    for (const mutate of [
      (s: Record<string, Record<string, unknown>[]>) => (s['monitors']![1]!['new_field'] = 1),
      (s: Record<string, Record<string, unknown>[]>) => (s['alerts']![0]!['new_field'] = 'x'),
      (s: Record<string, Record<string, unknown>[]>) => (s['groups']![0]!['new_field'] = true),
      (s: Record<string, Record<string, unknown>[]>) => (s['destinations']![1]!['new_field'] = null),
      (s: Record<string, Record<string, unknown>[]>) => (s['monitors']![0]!['nested'] = { b: [1, { c: 'd' }], a: 2 }),
      (s: Record<string, Record<string, unknown>[]>) => (s['monitors']![0]!['nested'] = { a: 2, b: [1, { c: 'e' }] }),
    ]) {
      const c = structuredClone(live) as unknown as Record<string, Record<string, unknown>[]>;
      mutate(c);
      const other = fingerprintLive(c as unknown as LiveState);
      expect(seen.has(other)).toBe(false);
      seen.add(other);
    }
  });

  it('tells values apart that a naive text would join: types, boundaries, lone surrogates', () => {
    const variants: [string, unknown][] = [
      ['label', 'ab'],
      ['label', 'a"b'],
      ['description', '1'],
      ['description', 1],
      ['description', true],
      ['description', 'true'],
      ['description', 'null'],
      ['ip_address', '\ud800'],
      ['ip_address', '\ufffd'],
      ['ip_address', '\ud800\udc00'],
    ];
    const seen = new Set<string>();
    for (const [field, value] of variants) {
      const c = structuredClone(live) as unknown as { monitors: Record<string, unknown>[] };
      c.monitors[0]![field] = value;
      if (field === 'label') c.monitors[0]!['description'] = 'x';
      seen.add(fingerprintLive(c as unknown as LiveState));
    }
    expect(seen.size).toBe(variants.length);
    // The same characters split differently between two fields.
    const split = (a: string, b: string): string => {
      const c = structuredClone(live);
      c.alerts[0]!.subject_init = a;
      c.alerts[0]!.subject_term = b;
      return fingerprintLive(c);
    };
    expect(split('ab', 'c')).not.toBe(split('a', 'bc'));
  });
});

describe('fingerprint: ignored members of declared groups', () => {
  // A saved plan must be refused when the account changed in a way that changes what its calls do.
  // A declared group's update (PUT, replace: true) carries the ids of the ignored monitors that were
  // members when the plan was made, so that ignore means hands off. The fingerprint dropped ignored
  // monitors and group member lists altogether, so an ignored monitor joining or leaving the group
  // after the plan went unnoticed, and `apply --plan` then took it out of the group again (or put it
  // back): a change to a resource monsync promises never to touch.
  const mx = liveMonitor({ id: '1', label: 'mx' });
  const mx2 = liveMonitor({ id: '2', label: 'mx2' });
  const legacy = liveMonitor({ id: '9', label: 'legacy-x', meta: {} });
  const desired = desiredState({
    settings: { ignore: ['legacy-*'] },
    monitors: [dMonitor('mx'), dMonitor('mx2')],
    groups: [dGroup('prod', ['mx', 'mx2'])],
  });

  it('refuses a saved plan after an ignored monitor left a group the plan replaces', () => {
    const before = liveState({ monitors: [mx, mx2, legacy], groups: [liveGroup('g1', 'prod', [mx, legacy])] });
    const plan = diff(desired, before, { target: 'http://127.0.0.1:1' });
    const update = plan.changes.find((c) => c.kind === 'group')!;
    expect(update.call.body).toMatchObject({ monitors: ['1', '2', '9'], replace: true });

    // Someone takes the ignored monitor out of the group in the web UI.
    const after = liveState({ monitors: [mx, mx2, legacy], groups: [liveGroup('g1', 'prod', [mx])] });
    expect(checkFingerprint(plan, fingerprintLive(after, plan.options)).ok).toBe(false);
  });

  it('refuses a saved plan after an ignored monitor joined a group the plan replaces', () => {
    const before = liveState({ monitors: [mx, mx2, legacy], groups: [liveGroup('g1', 'prod', [mx])] });
    const plan = diff(desired, before, { target: 'http://127.0.0.1:1' });
    const after = liveState({ monitors: [mx, mx2, legacy], groups: [liveGroup('g1', 'prod', [mx, legacy])] });
    expect(checkFingerprint(plan, fingerprintLive(after, plan.options)).ok).toBe(false);
  });

  it('still leaves the ignored monitors themselves out', () => {
    const a = liveState({ monitors: [mx, legacy], groups: [liveGroup('g1', 'prod', [mx, legacy])] });
    const b = structuredClone(a);
    b.monitors[1]!.timer = 30;
    b.monitors[1]!.meta = { note: 'x' };
    expect(fingerprintLive(b, ['legacy-*'])).toBe(fingerprintLive(a, ['legacy-*']));
  });
});
