/**
 * The checks of a write's answer (src/apply/verify.ts, issue 23), one by one: an answer about another
 * object fails its change; a field stored otherwise than sent is named with both values.
 */
import { describe, expect, it } from 'vitest';
import { answerMismatch, heldIds, notKept } from '../../src/apply/verify.js';
import type { Change } from '../../src/plan/types.js';
import { liveAlert, liveGroup, liveMonitor, liveState } from '../plan/helpers.js';
import { createAlert, createGroup, createMonitor } from './plan-builder.js';

const account = liveState({
  monitors: [liveMonitor({ id: '10001', label: 'legacy-mx' })],
  alerts: [liveAlert({ id: '50001', monitor: '10001', subject_init: 'legacy down' })],
  groups: [liveGroup('301', 'mail', ['10001'])],
});
const held = heldIds(account);
const bodyOf = (c: Change) => c.call.body as Record<string, unknown>;

describe('answerMismatch', () => {
  it('passes an answer naming what the create sent, with a new id', () => {
    const c = createMonitor('newmon');
    expect(answerMismatch(c, bodyOf(c), liveMonitor({ id: '10004', label: 'newmon' }), held)).toBeNull();
  });

  it('fails a create answered with an id the account held, per kind, naming what it was', () => {
    const c = createMonitor('newmon');
    expect(answerMismatch(c, bodyOf(c), liveMonitor({ id: '10001', label: 'newmon' }), held)).toBe(
      'the service answered with id 10001, which the account already held for monitor "legacy-mx"; what the create made is not known',
    );
    const a = createAlert('legacy-mx', 'mx down', '10001');
    expect(answerMismatch(a, bodyOf(a), liveAlert({ id: '50001', monitor: '10001', subject_init: 'mx down' }), held)).toMatch(
      /already held for alert "legacy-mx \/ legacy down"/,
    );
    // A group id equal to a monitor id is no contradiction: ids are per kind.
    const g = createGroup('web', []);
    expect(answerMismatch(g, bodyOf(g), liveGroup('10001', 'web', []), held)).toBeNull();
  });

  it('fails a create whose answer names another label, type, monitor, subject or name', () => {
    const c = createMonitor('newmon');
    expect(answerMismatch(c, bodyOf(c), liveMonitor({ id: '10005', label: 'newmo', type: 'http' }), held)).toBe(
      'the service answered a monitor with label "newmo", type "http" (id 10005), not the one sent; it was not kept as written',
    );
    const a = createAlert('legacy-mx', 'mx down', '10001');
    expect(answerMismatch(a, bodyOf(a), liveAlert({ id: '50009', monitor: '10002', subject_init: 'mx down' }), held)).toMatch(
      /^the service answered an alert with monitor "10002" \(id 50009\)/,
    );
    const g = createGroup('web', []);
    expect(answerMismatch(g, bodyOf(g), liveGroup('302', 'mail', []), held)).toMatch(/^the service answered a group with name "mail"/);
  });

  it('fails an update or delete answered about another id', () => {
    const c: Change = { ...createMonitor('legacy-mx'), action: 'update', id: '10001' };
    expect(answerMismatch(c, {}, liveMonitor({ id: '10002', label: 'legacy-mx' }), held)).toBe('the service answered about id 10002, not id 10001');
    expect(answerMismatch(c, {}, liveMonitor({ id: '10001', label: 'legacy-mx' }), held)).toBeNull();
  });
});

describe('notKept', () => {
  const update = (changed: string[], after: Record<string, unknown>): Change => ({
    ...createMonitor('m1'),
    action: 'update',
    id: '10001',
    before: {},
    after,
    changed,
    call: { method: 'PUT', path: '/v1/Config/Monitor/10001/', body: Object.fromEntries(changed.map((f) => [f, after[f]])) },
  });

  it('names each monitor field stored otherwise, with both values; documented defaults count as kept', () => {
    const c = update(['time_zone', 'timer', 'port'], { label: 'm1', time_zone: 'US/Eastern', timer: 10, port: 25 });
    const answer = liveMonitor({ id: '10001', label: 'm1', time_zone: 'America/New_York', timer: 5, port: null });
    expect(notKept(c, bodyOf(c), answer)).toEqual([
      'the service stored time_zone "America/New_York" for "US/Eastern": write that value in the configuration',
      'the service stored timer 5 for 10: it did not keep the value sent',
    ]);
  });

  it("compares only the meta keys the configuration sets (the service may add its own)", () => {
    const c = update(['meta'], { label: 'm1', meta: { 'managed-by': 'monsync', team: 'mail' } });
    expect(notKept(c, bodyOf(c), liveMonitor({ id: '10001', label: 'm1', meta: { 'managed-by': 'monsync', team: 'mail', x: '1' } }))).toEqual([]);
    expect(notKept(c, bodyOf(c), liveMonitor({ id: '10001', label: 'm1', meta: { 'managed-by': 'monsync' } }))).toEqual([
      'the service stored meta.team null for "mail": it did not keep the value sent',
    ]);
  });

  it('names alert fields and destinations stored otherwise; empty messages and false flags are the defaults', () => {
    const a = createAlert('legacy-mx', 'mx down', '10001');
    const kept = liveAlert({ id: '50002', monitor: '10001', subject_init: 'mx down', subject_term: 'mx down (up)', timeout: 10 });
    expect(notKept(a, bodyOf(a), kept)).toEqual([]);
    expect(notKept(a, bodyOf(a), { ...kept, timeout: 15 })).toEqual(['the service stored timeout 15 for 10: it did not keep the value sent']);
  });

  it('names group members stored otherwise', () => {
    const g = createGroup('web', ['10001', '10002']);
    expect(notKept(g, bodyOf(g), liveGroup('302', 'web', ['10001']))).toEqual([
      'the service stored monitors ["10001"] for ["10001","10002"]: it did not keep the value sent',
    ]);
  });
});
