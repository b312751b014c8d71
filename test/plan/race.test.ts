/**
 * Issue 12 §2 as a property: whatever two applies racing on one account leave (the second one
 * planned before the first one's creates were visible, and stopped after any number of its
 * changes), the next plan heals it, and applying that plan converges: its next plan is empty and
 * the account holds exactly one of each monitor, alert and group.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diff } from '../../src/plan/diff.js';
import type { LiveState } from '../../src/model/live.js';
import type { DesiredAlert, DesiredGroup, DesiredMonitor, DesiredState } from '../../src/model/desired.js';
import type { Plan } from '../../src/plan/types.js';
import { NOW, OWNER, TARGET, dest, liveMonitor, liveState, simulateApply } from './helpers.js';

const src = { file: 'race.yaml', line: 1, column: 1 };
const LABELS = ['m1', 'm2', 'm3'];
const SUBJECTS = ['down', 'slow'];

const alertsArb = (monitor: string): fc.Arbitrary<DesiredAlert[]> =>
  fc.subarray(SUBJECTS).chain((subjects) =>
    fc.tuple(
      ...subjects.map((subject_init) =>
        fc.record({
          monitor: fc.constant(monitor),
          subject_init: fc.constant(subject_init),
          subject_term: fc.constant(`${subject_init} over`),
          timeout: fc.constantFrom(10, 15),
          alert_destinations: fc.subarray(['ops', 'sms']),
          source: fc.constant(src),
        }),
      ),
    ),
  );

const desiredArb: fc.Arbitrary<DesiredState> = fc
  .record({ labels: fc.subarray(LABELS, { minLength: 1 }), groups: fc.subarray(['g1', 'g2']) })
  .chain(({ labels, groups }) =>
    fc.record({
      settings: fc.constant({ owner: OWNER, ignore: [], prune: false }),
      monitors: fc.tuple(
        ...labels.map(
          (label): fc.Arbitrary<DesiredMonitor> =>
            fc.record({
              label: fc.constant(label),
              previous_labels: fc.constant([]),
              spec: fc.record({
                ip_address: fc.constant(`${label}.example.com`),
                test_account: fc.constant('probe@example.com'),
                timer: fc.constantFrom(5, 10),
                time_zone: fc.constant('Europe/Berlin'),
              }),
              alerts: alertsArb(label),
              source: fc.constant(src),
            }),
        ),
      ),
      alerts: alertsArb('web'),
      groups: fc.tuple(
        ...groups.map(
          (name): fc.Arbitrary<DesiredGroup> =>
            fc.record({ name: fc.constant(name), previous_names: fc.constant([]), monitors: fc.subarray([...labels, 'web']), source: fc.constant(src) }),
        ),
      ),
      files: fc.constant(['race.yaml']),
    }),
  );

const base = (): LiveState =>
  liveState({
    monitors: [liveMonitor({ id: 'w', label: 'web', type: 'http', meta: {}, groups: null })],
    destinations: [dest('d1', 'ops'), dest('d2', 'sms')],
  });

/** `s` with every id the base account does not hold prefixed, so two runs' new ids never collide. */
function prefixed(s: LiveState, known: ReadonlySet<string>, prefix: string): LiveState {
  const id = (x: string): string => (known.has(x) ? x : `${prefix}${x}`);
  return {
    destinations: s.destinations,
    monitors: s.monitors.map((m) => ({ ...m, id: id(m.id), alerts: m.alerts.map(id), groups: m.groups?.map(id) ?? null })),
    alerts: s.alerts.map((a) => ({ ...a, id: id(a.id), monitor: id(a.monitor) })),
    groups: s.groups.map((g) => ({ ...g, id: id(g.id), members: g.members.map((x) => ({ ...x, id: id(x.id) })) })),
  };
}

/** Both runs' creates in one account, as the service would list them. */
function merge(a: LiveState, b: LiveState, known: ReadonlySet<string>): LiveState {
  const fresh = <T extends { id: string }>(xs: T[]): T[] => xs.filter((x) => !known.has(x.id));
  return liveState({
    monitors: [...a.monitors, ...fresh(b.monitors)],
    alerts: [...a.alerts, ...fresh(b.alerts)],
    groups: [...a.groups, ...fresh(b.groups)],
    destinations: a.destinations,
  });
}

const repeated = (xs: string[]): string[] => xs.filter((x, i) => xs.indexOf(x) !== i);
const prefix = (p: Plan, n: number): Plan => ({ ...p, changes: p.changes.slice(0, n) });

describe('property: duplicates two racing applies leave heal on the next apply', () => {
  it('the healing plan applies, and the plan after it is empty with one of each', () => {
    fc.assert(
      fc.property(desiredArb, fc.nat(), fc.boolean(), (desired, cut, firstIsLower) => {
        const start = base();
        const known = new Set([...start.monitors, ...start.alerts, ...start.groups].map((x) => x.id));
        const first = diff(desired, start, { target: TARGET, now: NOW });
        // The second run planned against the same account, before the first one's creates landed.
        const a = prefixed(simulateApply(start, first), known, firstIsLower ? 'a' : 'b');
        const b = prefixed(simulateApply(start, prefix(first, cut % (first.changes.length + 1))), known, firstIsLower ? 'b' : 'a');
        const raced = merge(a, b, known);

        const heal = diff(desired, raced, { target: TARGET, now: NOW });
        expect(heal.changes.filter((c) => c.action === 'delete' && c.note?.duplicate_of === undefined)).toEqual([]);
        const after = simulateApply(raced, heal);
        expect(diff(desired, after, { target: TARGET, now: NOW }).changes).toEqual([]);
        expect(repeated(after.monitors.map((m) => m.label))).toEqual([]);
        expect(repeated(after.alerts.map((x) => `${x.monitor} / ${x.subject_init}`))).toEqual([]);
        expect(repeated(after.groups.map((g) => g.name))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
