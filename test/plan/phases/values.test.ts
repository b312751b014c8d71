/**
 * The value comparison: the fast checks (monitorUnchanged, alertFieldsUnchanged, sameSet) must
 * answer exactly what comparing the built before/after values field by field answers, or a plan
 * would miss a change or show a perpetual one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Alert, Monitor } from '../../../src/model/live.js';
import type { DesiredAlert, DesiredMonitor } from '../../../src/model/desired.js';
import {
  ALERT_FIELDS,
  MONITOR_FIELDS,
  alertFieldsUnchanged,
  desiredAlertFields,
  desiredMonitorFields,
  liveAlertFields,
  liveMonitorFields,
  monitorUnchanged,
  sameSet,
  sameValue,
} from '../../../src/plan/phases/values.js';
import { OWNER, dMonitor, liveAlert, liveMonitor, topAlert } from '../helpers.js';

const maybeNull = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const liveArb: fc.Arbitrary<Monitor> = fc
  .record({
    label: fc.constantFrom('mx', 'mx2'),
    port: maybeNull(fc.constantFrom(25, 587)),
    ipv6: maybeNull(fc.boolean()),
    use_tls: maybeNull(fc.constantFrom('auto' as const, 'on' as const)),
    attachment: maybeNull(fc.constantFrom('pdf' as const)),
    custom_body: maybeNull(fc.constantFrom('', 'x')),
    ttl: maybeNull(fc.constantFrom(0, 600)),
    timer: maybeNull(fc.constantFrom(5, 10)),
    meta: fc.constantFrom<Record<string, string>[]>({ 'managed-by': OWNER }, { 'managed-by': OWNER, region: 'eu' }, {}, { region: 'eu' }),
  })
  .map((p) => liveMonitor({ id: '1', ...p }));

const desiredArb: fc.Arbitrary<DesiredMonitor> = fc
  .record({
    label: fc.constantFrom('mx', 'mx2'),
    port: maybe(fc.constantFrom(25, 587)),
    ipv6: maybe(fc.boolean()),
    use_tls: maybe(fc.constantFrom('auto' as const, 'on' as const)),
    attachment: maybe(fc.constantFrom('pdf' as const, null)),
    custom_body: maybe(fc.constantFrom('', 'x')),
    ttl: maybe(fc.constantFrom(0, 600)),
    timer: fc.constantFrom(5, 10),
    meta: maybe(fc.constantFrom<Record<string, string>>({}, { region: 'eu' })),
  })
  .map(({ label, ...spec }) => dMonitor(label, Object.fromEntries(Object.entries(spec).filter(([, v]) => v !== undefined))));

describe('the value comparison', () => {
  it('monitorUnchanged answers what comparing every field of MONITOR_FIELDS answers', () => {
    fc.assert(
      fc.property(liveArb, desiredArb, (m, dm) => {
        const before = liveMonitorFields(m);
        const after = desiredMonitorFields(dm, OWNER);
        expect(monitorUnchanged(m, dm, OWNER)).toBe(MONITOR_FIELDS.every((f) => sameValue(before[f], after[f])));
      }),
      { numRuns: 2000 },
    );
  });

  it('alertFieldsUnchanged answers what comparing every field but the destinations answers', () => {
    const alertArb = fc.record({
      subject_term: fc.constantFrom('up', 'ok'),
      timeout: maybeNull(fc.constantFrom(10, 15)),
      message_init: fc.constantFrom('', 'm'),
      down_only: fc.boolean(),
      repeat: fc.boolean(),
    });
    const declaredArb = fc.record({
      subject_term: fc.constantFrom('up', 'ok'),
      timeout: fc.constantFrom(10, 15),
      message_init: maybe(fc.constantFrom('', 'm')),
      down_only: maybe(fc.boolean()),
      repeat: maybe(fc.boolean()),
    });
    fc.assert(
      fc.property(alertArb, declaredArb, (l, d) => {
        const a: Alert = liveAlert({ id: '1', monitor: '1', subject_init: 'down', ...l });
        const da: DesiredAlert = topAlert('mx', 'down', Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined)));
        const before = liveAlertFields(a, (id) => id);
        const after = desiredAlertFields(da, [], (id) => id);
        const fields = ALERT_FIELDS.filter((f) => f !== 'alert_destinations');
        expect(alertFieldsUnchanged(a, da)).toBe(fields.every((f) => sameValue(before[f], after[f])));
      }),
      { numRuns: 1000 },
    );
  });

  it('sameSet compares members, ignoring order and repeats, for short and long lists', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 40 }), fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 40 }), (a, b) => {
        const sa = new Set(a);
        const sb = new Set(b);
        expect(sameSet(a, b)).toBe(sa.size === sb.size && [...sa].every((x) => sb.has(x)));
      }),
      { numRuns: 1000 },
    );
  });

  it('sameValue is JSON equality: key order does not matter, an undefined field is no field', () => {
    expect(sameValue({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(sameValue({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameValue({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(sameValue([1, 2], [2, 1])).toBe(false);
  });
});
