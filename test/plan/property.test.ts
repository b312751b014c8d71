/**
 * Convergence: whatever the account and the configuration, running the plan's calls (in an
 * in-memory service) leaves an account whose plan is empty, and touches nothing the plan does not own.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diff, PlanError } from '../../src/plan/diff.js';
import type { Alert, Group, LiveState, Monitor } from '../../src/model/live.js';
import type { DesiredAlert, DesiredGroup, DesiredMonitor, DesiredState } from '../../src/model/desired.js';
import { NOW, OWNER, TARGET, dest, liveMonitor, simulateApply } from './helpers.js';

const LABELS = ['m1', 'm2', 'm3', 'm4', 'm5', 'legacy-6'];
const SUBJECTS = ['down', 'slow', 'bounce', 'tls'];
const GROUPS = ['g1', 'g2', 'g3'];
const DESTS = ['ops', 'sms', 'voice'];
const src = { file: 'p.yaml', line: 1, column: 1 };

const subset = <T>(xs: readonly T[]) => fc.subarray([...xs]);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const text = fc.constantFrom('', 'a', 'b', 'line 1\nline 2', 'line 1\nline 3');

const liveArb: fc.Arbitrary<LiveState> = fc
  .record({
    monitors: subset(LABELS).chain((labels) =>
      fc.tuple(
        ...labels.map((label, i) =>
          fc.record({
            label: fc.constant(label),
            id: fc.constant(`L${i}`),
            cls: fc.constantFrom('managed', 'managed', 'unmanaged', 'foreign', 'other'),
            timer: fc.constantFrom(5, 10, null),
            port: fc.constantFrom(25, 2525, null),
            attachment: fc.constantFrom('pdf' as const, null),
            ttl: fc.constantFrom(0, 600, null),
            use_tls: fc.constantFrom('auto' as const, 'on' as const, null),
            custom_body: fc.oneof(text, fc.constant(null)),
            region: maybe(fc.constantFrom('eu', 'us')),
          }),
        ),
      ),
    ),
    alerts: fc.array(
      fc.record({
        monitor: fc.integer({ min: 0, max: LABELS.length - 1 }),
        subject_init: fc.constantFrom(...SUBJECTS),
        subject_term: fc.constantFrom('up', 'reset'),
        timeout: fc.constantFrom(10, 15, null),
        dests: subset(['d1', 'd2', 'gone']),
        message_init: text,
        repeat: fc.boolean(),
      }),
      { maxLength: 10 },
    ),
    groups: subset(GROUPS).chain((names) =>
      fc.tuple(...names.map((name) => fc.record({ name: fc.constant(name), members: subset([0, 1, 2, 3, 4, 5]) }))),
    ),
  })
  .map(({ monitors, alerts, groups }) => {
    const ms: Monitor[] = monitors.map((m) =>
      liveMonitor({
        id: m.id,
        label: m.label,
        type: m.cls === 'other' ? 'ping' : 'smtp',
        timer: m.timer,
        port: m.port,
        attachment: m.attachment,
        ttl: m.ttl,
        use_tls: m.use_tls,
        custom_body: m.custom_body,
        meta: {
          ...(m.cls === 'managed' ? { 'managed-by': OWNER } : m.cls === 'foreign' ? { 'managed-by': 'others' } : {}),
          ...(m.region ? { region: m.region } : {}),
        },
        groups: m.cls === 'other' ? null : [],
      }),
    );
    const as: Alert[] = alerts.flatMap((a, i) => {
      const m = ms[a.monitor % Math.max(ms.length, 1)];
      if (!m) return [];
      return [
        {
          id: `A${i}`,
          type: 'up-down',
          monitor: m.id,
          alert_destinations: a.dests,
          subject_init: a.subject_init,
          subject_term: a.subject_term,
          message_init: a.message_init,
          message_term: '',
          down_only: false,
          repeat: a.repeat,
          timeout: a.timeout,
          violations: '0',
        },
      ];
    });
    const gs: Group[] = groups.map((g, i) => ({
      id: `G${i}`,
      name: g.name,
      members: g.members.flatMap((j) => (ms[j] ? [{ id: ms[j].id, label: ms[j].label }] : [])),
    }));
    for (const m of ms) {
      m.alerts = as.filter((a) => a.monitor === m.id).map((a) => a.id);
      if (m.groups !== null) m.groups = gs.filter((g) => g.members.some((x) => x.id === m.id)).map((g) => g.id);
    }
    return { monitors: ms, alerts: as, groups: gs, destinations: [dest('d1', 'ops'), dest('d2', 'sms'), dest('d3', 'voice')] };
  });

const alertArb = (monitor: string): fc.Arbitrary<DesiredAlert> =>
  fc.record({
    monitor: fc.constant(monitor),
    subject_init: fc.constantFrom(...SUBJECTS, 'new subject'),
    subject_term: fc.constantFrom('up', 'reset'),
    timeout: fc.constantFrom(10, 15),
    alert_destinations: subset(DESTS),
    message_init: maybe(text),
    message_term: maybe(text),
    down_only: maybe(fc.boolean()),
    repeat: maybe(fc.boolean()),
    previous_subjects: maybe(subset(SUBJECTS)),
    source: fc.constant(src),
  });

const uniqueBySubject = (as: DesiredAlert[]): DesiredAlert[] => {
  const seen = new Set<string>();
  return as.filter((a) => !seen.has(a.subject_init) && seen.add(a.subject_init));
};

/**
 * Desired states for a given account, mostly plannable: declared labels avoid the account's
 * foreign and other-type monitors, top-level alerts go on monitors the config does not own.
 */
const desiredArbFor = (live: LiveState): fc.Arbitrary<DesiredState> => {
  const owned = (m: Monitor) => m.type === 'smtp' && m.meta['managed-by'] === OWNER;
  const free = LABELS.slice(0, 5)
    .concat(['n1', 'n2'])
    .filter((l) => !live.monitors.some((m) => m.label === l && (m.type !== 'smtp' || (m.meta['managed-by'] ?? OWNER) !== OWNER)));
  const unowned = live.monitors.filter((m) => !owned(m) && m.meta['managed-by'] === undefined).map((m) => m.label);
  return fc
  .record({
    labels: subset(free),
    ignore: fc.constantFrom<string[][]>([], ['legacy-*']),
    prune: fc.boolean(),
    topLabels: subset(unowned),
  })
  .chain(({ labels, ignore, prune, topLabels }) =>
    fc.record({
      settings: fc.constant({ owner: OWNER, ignore, prune }),
      monitors: fc.tuple(
        ...labels.map(
          (label): fc.Arbitrary<DesiredMonitor> =>
            fc.record({
              label: fc.constant(label),
              previous_labels: subset(free.filter((l) => l !== label)).map((xs) => xs.slice(0, 1)),
              spec: fc.record(
                {
                  ip_address: fc.constant('mx.example.com'),
                  test_account: fc.constant('probe@example.com'),
                  timer: fc.constantFrom(5, 10),
                  time_zone: fc.constant('Europe/Berlin'),
                  port: fc.constantFrom(25, 2525),
                  attachment: fc.constantFrom('pdf' as const, 'docx' as const, null),
                  ttl: fc.constantFrom(0, 600),
                  use_tls: fc.constantFrom('auto' as const, 'off' as const),
                  custom_body: text,
                  meta: fc.constantFrom<Record<string, string>[]>({}, { region: 'eu' }),
                },
                { requiredKeys: ['ip_address', 'test_account', 'timer', 'time_zone'] },
              ),
              alerts: fc.array(alertArb(label), { maxLength: 3 }).map(uniqueBySubject),
              source: fc.constant(src),
            }),
        ),
      ),
      alerts: fc.tuple(...topLabels.filter((l) => !labels.includes(l)).map((l) => fc.array(alertArb(l), { maxLength: 2 }).map(uniqueBySubject))).map((xs) => xs.flat()),
      groups: subset(GROUPS).chain((names) =>
        fc.tuple(
          ...names.map(
            (name): fc.Arbitrary<DesiredGroup> =>
              fc.record({
                name: fc.constant(name),
                previous_names: subset(GROUPS.filter((g) => g !== name)).map((xs) => xs.slice(0, 1)),
                monitors: subset(labels),
                source: fc.constant(src),
              }),
          ),
        ),
      ),
      files: fc.constant(['p.yaml']),
    }),
  );
};
const casesArb = liveArb.chain((l) => desiredArbFor(l).map((d) => [d, l] as const));

function tryDiff(d: DesiredState, l: LiveState) {
  try {
    return diff(d, l, { target: TARGET, now: NOW });
  } catch (e) {
    if (e instanceof PlanError) return null;
    throw e;
  }
}

describe('property: applying a plan converges', () => {
  it('the plan of the applied account is empty, and only owned resources changed', () => {
    let planned = 0;
    let total = 0;
    fc.assert(
      fc.property(casesArb, fc.boolean(), ([d, l], nullDefaults) => {
        total++;
        const p = tryDiff(d, l);
        if (!p) return;
        planned++;
        expect(p.summary.create + p.summary.update + p.summary.delete).toBe(p.changes.length);
        expect(new Set(p.changes.map((c) => c.ref)).size).toBe(p.changes.length);
        const after = simulateApply(l, p, { nullDefaults });
        const again = diff(d, after, { target: TARGET, now: NOW });
        expect(again.changes.map((c) => `${c.action} ${c.ref} ${c.changed.join(',')}`)).toEqual([]);
        // Never touched: other types, foreign monitors, ignored monitors, and alerts on them.
        const untouchable = (m: Monitor) =>
          m.type !== 'smtp' || (m.meta['managed-by'] !== undefined && m.meta['managed-by'] !== OWNER) || d.settings.ignore.some((g) => m.label.startsWith(g.replace('*', '')));
        for (const m of l.monitors.filter(untouchable)) {
          const now = after.monitors.find((x) => x.id === m.id);
          expect(now && { ...now, alerts: [], groups: [] }).toEqual({ ...m, alerts: [], groups: [] });
        }
        // An unchanged plan is idempotent: planning the same inputs twice gives the same plan.
        expect(diff(d, l, { target: TARGET, now: NOW })).toEqual(p);
      }),
      { numRuns: 400 },
    );
    // The generators must produce mostly plannable inputs, or the property says little.
    expect(planned / total).toBeGreaterThan(0.7);
  });

  it('the plan does not depend on the order the account lists things in', () => {
    fc.assert(
      fc.property(casesArb, ([d, l]) => {
        const p = tryDiff(d, l);
        if (!p) return;
        const r: LiveState = { monitors: [...l.monitors].reverse(), alerts: [...l.alerts].reverse(), groups: [...l.groups].reverse(), destinations: [...l.destinations].reverse() };
        expect(diff(d, r, { target: TARGET, now: NOW })).toEqual(p);
      }),
      { numRuns: 200 },
    );
  });
});
