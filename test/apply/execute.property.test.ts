/**
 * Random plans shaped as dependency graphs, run against the fake with random faults (refusals,
 * 503s the client gave up on, answers lost after the write was done), random latency and random
 * interruptions. Whatever happens: no duplicates, nothing starts before what it needs is done, no
 * more than `parallelism` calls in flight, each change's call sent once by the engine, and the
 * results account for every change exactly once.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { executePlan, type ApplyEvent } from '../../src/apply/execute.js';
import { refsInBody } from '../../src/plan/order.js';
import type { Change } from '../../src/plan/types.js';
import { FakeApi, refused, type Fault } from './fake-api.js';
import {
  createAlert,
  createGroup,
  createMonitor,
  deleteChange,
  makePlan,
  OWNER,
  ref,
  updateAlert,
  updateMonitor,
} from './plan-builder.js';

const spec = fc.record({
  existing: fc.integer({ min: 0, max: 3 }),
  newMonitors: fc.integer({ min: 0, max: 5 }),
  alerts: fc.array(fc.record({ on: fc.nat(), subject: fc.integer({ min: 0, max: 2 }) }), { maxLength: 6 }),
  groups: fc.array(fc.array(fc.nat(), { maxLength: 3 }), { maxLength: 3 }),
  updates: fc.array(fc.nat(), { maxLength: 3 }),
  alertUpdate: fc.boolean(),
  deletes: fc.array(fc.record({ kind: fc.constantFrom('monitor', 'alert', 'group'), gone: fc.boolean() }), { maxLength: 3 }),
  edges: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 6 }),
  faults: fc.array(fc.constantFrom<'none' | 'fail' | 'lose' | 'refuse'>('none', 'none', 'none', 'fail', 'lose', 'refuse'), {
    maxLength: 80,
  }),
  latency: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 80 }),
  parallelism: fc.integer({ min: 1, max: 5 }),
  abortAfterEvents: fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }),
});

type Spec = typeof spec extends fc.Arbitrary<infer T> ? T : never;

function build(s: Spec, api: FakeApi): Change[] {
  const changes: Change[] = [];
  // Monitors the plan may point at: existing ones by id, new ones by ref.
  const targets: { label: string; id: string | { $ref: string } }[] = [];
  for (let i = 0; i < s.existing; i++) {
    const m = api.seedMonitor(`live-${i}`, { meta: { 'managed-by': OWNER } });
    targets.push({ label: m.label, id: m.id });
  }
  for (let i = 0; i < s.newMonitors; i++) {
    changes.push(createMonitor(`new-${i}`));
    targets.push({ label: `new-${i}`, id: ref(`monitor:new-${i}`) });
  }
  const seen = new Set<string>();
  if (targets.length > 0) {
    for (const a of s.alerts) {
      const t = targets[a.on % targets.length]!;
      const c = createAlert(t.label, `${t.label} down ${a.subject}`, t.id);
      if (seen.has(c.ref)) continue;
      seen.add(c.ref);
      changes.push(c);
    }
    s.groups.forEach((members, gi) => {
      const ids = [...new Set(members.map((k) => k % targets.length))].map((k) => targets[k]!.id);
      changes.push(createGroup(`group-${gi}`, ids));
    });
  }
  for (const u of [...new Set(s.updates)]) {
    if (s.existing === 0) break;
    const m = targets[u % s.existing]!;
    if (changes.some((c) => c.ref === `monitor:${m.label}`)) continue;
    changes.push(updateMonitor(m.label, m.id as string, { timer: 10 }));
  }
  if (s.alertUpdate) {
    const host = api.seedMonitor('host', { meta: { 'managed-by': OWNER } });
    const a = api.seedAlert(host.id, 'host down');
    changes.push(updateAlert('host', 'host down', a.id, host.id, 30));
  }
  s.deletes.forEach((d, i) => {
    let id = `9999${i}`;
    if (!d.gone) {
      if (d.kind === 'monitor') id = api.seedMonitor(`doomed-${i}`, { meta: { 'managed-by': OWNER } }).id;
      else if (d.kind === 'group') id = api.seedGroup(`doomed-${i}`).id;
      else id = api.seedAlert(api.seedMonitor(`doomed-host-${i}`).id, 'x').id;
    }
    changes.push(deleteChange(d.kind, `doomed-${i}`, id));
  });
  // Extra ordering edges, always from a later change to an earlier one: still a DAG.
  for (const [a, b] of s.edges) {
    if (changes.length < 2) break;
    const i = a % changes.length;
    const j = b % changes.length;
    if (i === j) continue;
    const [later, earlier] = i > j ? [i, j] : [j, i];
    const c = changes[later]!;
    if (!c.depends_on.includes(changes[earlier]!.ref)) changes[later] = { ...c, depends_on: [...c.depends_on, changes[earlier]!.ref] };
  }
  return changes;
}

async function ticks(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
}

async function check(s: Spec, onlyLostCreates = false): Promise<{ failed: number; done: number; total: number }> {
  const api = new FakeApi({
    fault: (c): Fault | undefined => {
      const f = s.faults[c.seq - 1];
      if (onlyLostCreates) return f === 'lose' && c.name.startsWith('create') ? { type: 'lose' } : undefined;
      if (f === 'fail') return { type: 'fail' };
      if (f === 'lose') return { type: 'lose' };
      if (f === 'refuse') return { type: 'fail', error: refused(c.name, 'refused by the property test') };
      return undefined;
    },
    gate: (c) => {
      const n = s.latency[c.seq - 1] ?? 0;
      return n > 0 ? ticks(n) : undefined;
    },
  });
  const changes = build(s, api);
  const controller = new AbortController();
  const events: ApplyEvent[] = [];
  let abortedAt = -1;
  const result = await executePlan(makePlan(changes), api, {
    parallelism: s.parallelism,
    owner: OWNER,
    signal: controller.signal,
    onEvent: (e) => {
      events.push(e);
      if (s.abortAfterEvents !== undefined && events.length === s.abortAfterEvents && abortedAt < 0) {
        abortedAt = events.length;
        controller.abort();
      }
    },
  });

  // Every change accounted for once, in plan order.
  expect(result.results.map((r) => r.ref)).toEqual(changes.map((c) => c.ref));
  expect(result.done + result.failed + result.skipped + result.notStarted).toBe(changes.length);
  // The engine sends each change's call once (retries are the client's): one write call per change started.
  const writes = api.calls.filter((c) => /^(create|update|delete)/.test(c.name));
  expect(writes.length).toBe(events.filter((e) => e.type === 'started').length);
  const finishedEvents = events.filter((e) => e.type === 'finished');
  expect(finishedEvents).toHaveLength(changes.length);

  // No duplicates, whatever was lost or retried.
  const monitorLabels = [...api.monitors.values()].map((m) => m.label);
  expect(new Set(monitorLabels).size).toBe(monitorLabels.length);
  const alertKeys = [...api.alerts.values()].map((a) => `${a.monitor}/${a.subject_init}`);
  expect(new Set(alertKeys).size).toBe(alertKeys.length);
  const groupNames = [...api.groups.values()].map((g) => g.name);
  expect(new Set(groupNames).size).toBe(groupNames.length);

  expect(api.maxInFlight).toBeLessThanOrEqual(s.parallelism);

  // Nothing starts before what it needs is done; nothing starts twice; nothing starts after an abort.
  const startedAt = new Map<string, number>();
  const finishedAt = new Map<string, number>();
  events.forEach((e, pos) => {
    if (e.type === 'started') {
      expect(startedAt.has(e.ref)).toBe(false);
      startedAt.set(e.ref, pos);
      if (abortedAt >= 0) expect(pos).toBeLessThan(abortedAt);
    }
    if (e.type === 'finished') finishedAt.set(e.result.ref, pos);
  });
  const status = new Map(result.results.map((r) => [r.ref, r.status]));
  for (const c of changes) {
    const needs = [...new Set([...c.depends_on, ...refsInBody(c.call.body)])];
    const r = result.results.find((x) => x.ref === c.ref)!;
    if (startedAt.has(c.ref)) {
      for (const d of needs) {
        expect(status.get(d)).toBe('done');
        expect(finishedAt.get(d)!).toBeLessThan(startedAt.get(c.ref)!);
      }
    }
    if (r.status === 'done') {
      expect(startedAt.has(c.ref)).toBe(true);
      if (c.action === 'create') {
        const store = c.kind === 'monitor' ? api.monitors : c.kind === 'alert' ? api.alerts : api.groups;
        expect(store.has(r.id!)).toBe(true);
      }
      if (c.action === 'delete') {
        const store = c.kind === 'monitor' ? api.monitors : c.kind === 'alert' ? api.alerts : api.groups;
        expect(store.has(c.id!)).toBe(false);
      }
    }
    if (r.status === 'skipped') {
      expect(startedAt.has(c.ref)).toBe(false);
      if (r.reason !== 'interrupted') expect(needs.some((d) => status.get(d) !== 'done')).toBe(true);
    }
  }
  // Without an abort, only a real failure leaves anything undone.
  if (abortedAt < 0) {
    expect(result.interrupted).toBe(false);
    if (result.failed === 0) expect(result.done).toBe(changes.length);
  }
  // A create that failed without being found must not have left its resource behind unseen...
  // unless the failure was a lost answer that could not be checked (reported as such).
  for (const r of result.results) {
    if (r.status !== 'failed' || r.action !== 'create') continue;
    const c = changes.find((x) => x.ref === r.ref)!;
    const body = c.call.body!;
    const exists =
      c.kind === 'monitor'
        ? monitorLabels.includes(body.label as string)
        : c.kind === 'group'
          ? groupNames.includes(body.name as string)
          : [...api.alerts.values()].some((a) => a.subject_init === body.subject_init);
    if (exists) expect(r.error).toMatch(/could not check|interrupted before checking/);
  }
  return { failed: result.failed, done: result.done, total: changes.length };
}

describe('executePlan under random plans and faults', () => {
  it('never duplicates, never runs a change before its dependencies, never exceeds parallelism', async () => {
    await fc.assert(
      fc.asyncProperty(spec, async (s) => {
        await check(s);
      }),
      { numRuns: 300 },
    );
  });

  it('when the only faults are lost answers to creates, every change gets done: each lost create is found', async () => {
    const lostOnly = spec.map((s) => ({ ...s, abortAfterEvents: undefined }));
    await fc.assert(
      fc.asyncProperty(lostOnly, async (s) => {
        const r = await check(s, true);
        expect(r.failed).toBe(0);
        expect(r.done).toBe(r.total);
      }),
      { numRuns: 150 },
    );
  });
});
