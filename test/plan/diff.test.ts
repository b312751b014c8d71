import { describe, expect, it } from 'vitest';
import { executePlan } from '../../src/apply/execute.js';
import { parseSavedPlan, serializePlan } from '../../src/apply/saved-plan.js';
import { diff, PlanError, type DiffOptions } from '../../src/plan/diff.js';
import type { Monitor } from '../../src/model/live.js';
import type { MonitorSpec, DesiredState } from '../../src/model/desired.js';
import type { Change, Plan } from '../../src/plan/types.js';
import type { LiveState } from '../../src/model/live.js';
import {
  NOW,
  OWNER,
  TARGET,
  dAlert,
  dGroup,
  dMonitor,
  desiredState,
  dest,
  liveAlert,
  liveGroup,
  liveMonitor,
  liveState,
  simulateApply,
  topAlert,
} from './helpers.js';
import { FakeApi } from '../apply/fake-api.js';

const opts = (p: Partial<DiffOptions> = {}): DiffOptions => ({ target: TARGET, now: NOW, ...p });
const plan = (d: DesiredState, l: LiveState, p: Partial<DiffOptions> = {}): Plan => diff(d, l, opts(p));
const only = (p: Plan): Change => {
  expect(p.changes).toHaveLength(1);
  return p.changes[0]!;
};
const find = (p: Plan, ref: string): Change => {
  const c = p.changes.find((x) => x.ref === ref);
  if (!c) throw new Error(`no change ${ref} in ${p.changes.map((x) => x.ref).join(', ')}`);
  return c;
};
function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof PlanError) return e.problems;
    throw e;
  }
  throw new Error('expected a PlanError');
}

describe('monitor fields', () => {
  type Row = [string, Partial<Monitor>, Partial<MonitorSpec>, Record<string, unknown>];
  const rows: Row[] = [
    ['ip_address', { ip_address: 'mx1.example.com' }, { ip_address: 'mx:failover' }, { ip_address: 'mx:failover' }],
    ['test_account', { test_account: 'a@example.com' }, { test_account: 'b@example.com' }, { test_account: 'b@example.com' }],
    ['timer', { timer: 10 }, { timer: 5 }, { timer: 5 }],
    ['timer', { timer: null }, { timer: 5 }, { timer: 5 }],
    ['time_zone', { time_zone: 'UTC' }, { time_zone: 'Europe/Berlin' }, { time_zone: 'Europe/Berlin' }],
    ['port', { port: 2525 }, {}, { port: 25 }],
    ['port', { port: null }, { port: 587 }, { port: 587 }],
    ['ipv6', { ipv6: true }, {}, { ipv6: false }],
    ['ipv6', { ipv6: null }, { ipv6: true }, { ipv6: true }],
    ['use_tls', { use_tls: 'on' }, {}, { use_tls: 'auto' }],
    ['use_tls', { use_tls: 'auto' }, { use_tls: 'off' }, { use_tls: 'off' }],
    ['attachment', { attachment: 'pdf' }, {}, { attachment: '' }],
    ['attachment', { attachment: 'pdf' }, { attachment: null }, { attachment: '' }],
    ['attachment', { attachment: null }, { attachment: 'docx' }, { attachment: 'docx' }],
    ['custom_subject', { custom_subject: 'old' }, {}, { custom_subject: '' }],
    ['custom_subject', { custom_subject: null }, { custom_subject: '[probe]' }, { custom_subject: '[probe]' }],
    ['custom_body', { custom_body: 'a\nb' }, { custom_body: 'a\nc' }, { custom_body: 'a\nc' }],
    ['message_format', { message_format: 'text/html' }, {}, { message_format: 'text/plain' }],
    ['message_format', { message_format: null }, { message_format: 'text/html' }, { message_format: 'text/html' }],
    ['ttl', { ttl: 600 }, {}, { ttl: 0 }],
    ['ttl', { ttl: null }, { ttl: 1800 }, { ttl: 1800 }],
    ['meta', { meta: { 'managed-by': OWNER, region: 'eu' } }, { meta: { region: 'us' } }, { meta: { 'managed-by': OWNER, region: 'us' } }],
    ['meta', { meta: { 'managed-by': OWNER, extra: 'x' } }, {}, { meta: { 'managed-by': OWNER } }],
  ];
  it.each(rows)('%s: %j -> %j is one update sending only %j', (field, liveP, specP, body) => {
    const live = liveState({ monitors: [liveMonitor({ id: '1', label: 'mx', ...liveP })] });
    const c = only(plan(desiredState({ monitors: [dMonitor('mx', specP)] }), live));
    expect(c).toMatchObject({ action: 'update', kind: 'monitor', key: 'mx', id: '1', changed: [field] });
    expect(c.call).toEqual({ method: 'PUT', path: '/v1/Config/Monitor/1/', body });
    expect(c.before![field]).not.toEqual(c.after![field]);
  });

  type Same = [string, Partial<Monitor>, Partial<MonitorSpec>];
  const same: Same[] = [
    ['attachment null vs unset', { attachment: null }, {}],
    ['attachment null vs null', { attachment: null }, { attachment: null }],
    ['port null vs unset', { port: null }, {}],
    ['port null vs 25', { port: null }, { port: 25 }],
    ['every optional null vs unset', { port: null, ipv6: null, use_tls: null, custom_subject: null, custom_body: null, message_format: null, ttl: null }, {}],
    ['every optional null vs documented defaults', { port: null, ipv6: null, use_tls: null, message_format: null, ttl: null }, { port: 25, ipv6: false, use_tls: 'auto', message_format: 'text/plain', ttl: 0, custom_body: '' }],
    ['meta key order', { meta: { z: '1', 'managed-by': OWNER, a: '2' } }, { meta: { a: '2', z: '1' } }],
    ['fields not diffed', { description: 'x', timeout: 999, data_label: 'ms', use_client_cert: true }, {}],
  ];
  it.each(same)('no change: %s', (_name, liveP, specP) => {
    const live = liveState({ monitors: [liveMonitor({ id: '1', label: 'mx', ...liveP })] });
    expect(plan(desiredState({ monitors: [dMonitor('mx', specP)] }), live).changes).toEqual([]);
  });

  it('sends every changed field and nothing else', () => {
    const live = liveState({ monitors: [liveMonitor({ id: '1', label: 'mx', timer: 10, ttl: 0, port: 25 })] });
    const c = only(plan(desiredState({ monitors: [dMonitor('mx', { timer: 5, ttl: 600 })] }), live));
    expect(c.changed).toEqual(['timer', 'ttl']);
    expect(c.call.body).toEqual({ timer: 5, ttl: 600 });
  });
});

describe('monitor create and delete', () => {
  it('creates with type smtp, the given fields and the ownership marker', () => {
    const d = desiredState({ monitors: [dMonitor('mx-eu-3', { ip_address: 'mx3.example.eu', ttl: 600, attachment: null, meta: { region: 'eu' } })] });
    const c = only(plan(d, liveState({})));
    expect(c).toMatchObject({ ref: 'monitor:mx-eu-3', action: 'create', id: null, before: null });
    expect(c.call).toEqual({
      method: 'POST',
      path: '/v1/Config/Monitor/',
      body: {
        type: 'smtp',
        label: 'mx-eu-3',
        ip_address: 'mx3.example.eu',
        test_account: 'probe@example.com',
        timer: 5,
        time_zone: 'Europe/Berlin',
        ttl: 600,
        meta: { region: 'eu', 'managed-by': OWNER },
      },
    });
    expect(c.changed).toEqual(['label', 'ip_address', 'test_account', 'timer', 'time_zone', 'ttl', 'meta']);
    expect(c.after).toMatchObject({ port: 25, use_tls: 'auto', attachment: null, ttl: 600 });
  });

  it('deletes a managed monitor that is no longer declared, with its alerts, in one call', () => {
    const m = liveMonitor({ id: '40001', label: 'mx-legacy' });
    const live = liveState({
      monitors: [m],
      alerts: [liveAlert({ id: 'a1', monitor: '40001', subject_init: 'down' }), liveAlert({ id: 'a2', monitor: '40001', subject_init: 'slow' })],
    });
    const c = only(plan(desiredState(), live));
    expect(c).toMatchObject({ action: 'delete', key: 'mx-legacy', id: '40001', after: null, changed: [], effects: { cascade_alerts: 2 } });
    expect(c.call).toEqual({ method: 'DELETE', path: '/v1/Config/Monitor/40001/' });
  });

  it('escapes ids in paths', () => {
    const live = liveState({ monitors: [liveMonitor({ id: 'a/b?c', label: 'x' })] });
    expect(only(plan(desiredState(), live)).call.path).toBe('/v1/Config/Monitor/a%2Fb%3Fc/');
  });
});

describe('renames', () => {
  it('a monitor found by a previous label is renamed in place', () => {
    const live = liveState({
      monitors: [liveMonitor({ id: '48377', label: 'mx-b' })],
      alerts: [liveAlert({ id: 'a1', monitor: '48377', subject_init: 'down' })],
    });
    const d = desiredState({ monitors: [dMonitor('mx-bravo', {}, { previous_labels: ['mx-b'], alerts: [dAlert('down', { subject_term: 'down (reset)' })] })] });
    const c = only(plan(d, live));
    expect(c).toMatchObject({ action: 'update', key: 'mx-bravo', id: '48377', changed: ['label'], note: { renamed_from: 'mx-b' } });
    expect(c.call.body).toEqual({ label: 'mx-bravo' });
  });

  it('the label and a previous label both live, the old one to be deleted: a problem, never a guess', () => {
    const live = liveState({ monitors: [liveMonitor({ id: '1', label: 'old' }), liveMonitor({ id: '2', label: 'new' })] });
    const problems = problemsOf(() => plan(desiredState({ monitors: [dMonitor('new', {}, { previous_labels: ['old'] })] }), live));
    expect(problems.join('\n')).toMatch(/has both monitor "new" \(id 2\) and monitor "old" \(id 1\), named by previous_labels/);
  });

  it('an exact label wins over a previous label naming a monitor the plan leaves alone', () => {
    const live = liveState({
      monitors: [liveMonitor({ id: '1', label: 'old', meta: {} }), liveMonitor({ id: '2', label: 'new' })],
    });
    const p = plan(desiredState({ monitors: [dMonitor('new', {}, { previous_labels: ['old'] })] }), live);
    expect(p.changes).toEqual([]);
    expect(p.unmanaged.monitors).toBe(1);
  });

  it('a previous label matches a live monitor only once', () => {
    const live = liveState({ monitors: [liveMonitor({ id: '1', label: 'old' })] });
    const d = desiredState({ monitors: [dMonitor('a', {}, { previous_labels: ['old'] }), dMonitor('b', {}, { previous_labels: ['old'] })] });
    const problems = problemsOf(() => plan(d, live));
    expect(problems.join('\n')).toMatch(/"a" and "b" both name monitor "old" \(id 1\)/);
  });

  it('the first previous label that matches is used', () => {
    const live = liveState({ monitors: [liveMonitor({ id: '2', label: 'older' })] });
    const c = only(plan(desiredState({ monitors: [dMonitor('new', {}, { previous_labels: ['old', 'older'] })] }), live));
    expect(c.note).toEqual({ renamed_from: 'older' });
  });

  it('a group found by a previous name is renamed, keeping its members', () => {
    const m = liveMonitor({ id: '1', label: 'mx' });
    const live = liveState({ monitors: [m], groups: [liveGroup('310', 'prod', [m])] });
    const d = desiredState({ monitors: [dMonitor('mx')], groups: [dGroup('production', ['mx'], ['prod'])] });
    const c = only(plan(d, live));
    expect(c).toMatchObject({ kind: 'group', action: 'update', id: '310', changed: ['name'], note: { renamed_from: 'prod' } });
    expect(c.call.body).toEqual({ name: 'production', monitors: ['1'], replace: true });
  });

  it('renamed monitors are group members under their new label', () => {
    const m = liveMonitor({ id: '1', label: 'mx-b' });
    const live = liveState({ monitors: [m], groups: [liveGroup('310', 'prod', [m])] });
    const d = desiredState({ monitors: [dMonitor('mx-bravo', {}, { previous_labels: ['mx-b'] })], groups: [dGroup('prod', ['mx-bravo'])] });
    expect(plan(d, live).changes.map((c) => c.ref)).toEqual(['monitor:mx-bravo']);
    const stale = desiredState({ monitors: [dMonitor('mx-bravo', {}, { previous_labels: ['mx-b'] })], groups: [dGroup('prod', ['mx-b'])] });
    expect(problemsOf(() => plan(stale, live)).join()).toMatch(/renamed to "mx-bravo"/);
  });
});

describe('alerts', () => {
  const mon = liveMonitor({ id: '48213', label: 'mx-us-1' });
  const base = (alerts: ReturnType<typeof liveAlert>[], p: Partial<LiveState> = {}) =>
    liveState({ monitors: [mon], alerts, destinations: [dest('d1', 'ops-mail'), dest('d2', 'oncall-sms', { type: 'sms' })], ...p });
  const want = (...alerts: ReturnType<typeof dAlert>[]) => desiredState({ monitors: [dMonitor('mx-us-1', {}, { alerts })] });

  it('an undeclared alert of another type on an owned monitor is left alone: the API could never recreate it', () => {
    const p = plan(want(), base([liveAlert({ id: '7', monitor: '48213', subject_init: 'slow', type: 'threshold' })]));
    expect(p.changes).toEqual([]);
    // Counted apart from undeclared alerts on monitors left alone (issue 19, item 7).
    expect(p.unmanaged).toMatchObject({ alerts: 0, other_type_alerts: 1 });
  });

  type Row = [string, Partial<ReturnType<typeof liveAlert>>, Partial<ReturnType<typeof dAlert>>];
  const rows: Row[] = [
    ['subject_term', { subject_term: 'up' }, { subject_term: 'UP again' }],
    ['timeout', { timeout: 10 }, { timeout: 15 }],
    ['timeout', { timeout: null }, { timeout: 15 }],
    ['alert_destinations', { alert_destinations: ['d1'] }, { alert_destinations: ['ops-mail', 'oncall-sms'] }],
    ['message_init', { message_init: 'a\nb' }, { message_init: 'a\nc' }],
    ['message_init', { message_init: 'x' }, {}],
    ['message_term', { message_term: '' }, { message_term: 'back' }],
    ['down_only', { down_only: true }, {}],
    ['repeat', { repeat: false }, { repeat: true }],
  ];
  it.each(rows)('%s: %j -> %j is one update with the full body', (field, liveP, desiredP) => {
    const live = base([liveAlert({ id: '99120', monitor: '48213', subject_init: 'down', subject_term: 'up', timeout: 15, ...liveP })]);
    const c = only(plan(want(dAlert('down', { subject_term: 'up', timeout: 15, ...desiredP })), live));
    expect(c).toMatchObject({ action: 'update', kind: 'alert', key: 'mx-us-1 / down', monitor: 'mx-us-1', id: '99120', changed: [field] });
    expect(c.call.method).toBe('PUT');
    expect(c.call.path).toBe('/v1/Config/Alert/99120/');
    expect(Object.keys(c.call.body!).sort()).toEqual(
      ['type', 'monitor', 'subject_init', 'subject_term', 'timeout', 'alert_destinations', 'message_init', 'message_term', 'down_only', 'repeat'].sort(),
    );
    expect(c.call.body).toMatchObject({ type: 'up-down', monitor: '48213', subject_init: 'down' });
  });

  it('destinations compare as a set of labels; order and duplicates do not matter', () => {
    const live = base([liveAlert({ id: 'a', monitor: '48213', subject_init: 'down', alert_destinations: ['d2', 'd1'] })]);
    expect(plan(want(dAlert('down', { alert_destinations: ['ops-mail', 'oncall-sms', 'ops-mail'] })), live).changes).toEqual([]);
  });

  it('live destination ids the account does not list are shown as ids', () => {
    const live = base([liveAlert({ id: 'a', monitor: '48213', subject_init: 'down', alert_destinations: ['d1', 'gone-7'] })]);
    const c = only(plan(want(dAlert('down', { alert_destinations: ['ops-mail'] })), live));
    expect(c.before!.alert_destinations).toEqual(['gone-7', 'ops-mail']);
    expect(c.after!.alert_destinations).toEqual(['ops-mail']);
    expect(c.call.body!.alert_destinations).toEqual(['d1']);
  });

  it('an unknown or ambiguous destination label is a problem naming it', () => {
    const live = base([], { destinations: [dest('d1', 'ops'), dest('d2', 'ops'), dest('d3', 'sms')] });
    const problems = problemsOf(() => plan(want(dAlert('down', { alert_destinations: ['ops', 'pager'] })), live));
    expect(problems).toHaveLength(2);
    expect(problems.join('\n')).toMatch(/"ops" is ambiguous \(ids d1, d2\)/);
    expect(problems.join('\n')).toMatch(/unknown alert destination "pager"; the account has "ops", "sms"/);
  });

  it('warns about unsubscribed destinations', () => {
    const live = base([], { destinations: [dest('d1', 'ops', { subscribed: false })] });
    const p = plan(want(dAlert('down', { alert_destinations: ['ops'] })), live);
    expect(p.warnings.join()).toMatch(/"ops" \(id d1\) has unsubscribed/);
  });

  it('alerts that match still report their destinations: an unsubscribed one once, an ambiguous label as a problem', () => {
    const same = (id: string, subject: string) => liveAlert({ id, monitor: '48213', subject_init: subject, alert_destinations: ['d1'] });
    const declared = want(dAlert('down', { alert_destinations: ['ops-mail'] }), dAlert('slow', { alert_destinations: ['ops-mail'] }));
    const unsubscribed = plan(declared, base([same('a', 'down'), same('b', 'slow')], { destinations: [dest('d1', 'ops-mail', { subscribed: false })] }));
    expect(unsubscribed.changes).toEqual([]);
    expect(unsubscribed.warnings.filter((w) => w.includes('has unsubscribed'))).toEqual([
      'alert destination "ops-mail" (id d1) has unsubscribed: it receives no alerts',
    ]);
    const ambiguous = base([same('a', 'down'), same('b', 'slow')], { destinations: [dest('d1', 'ops-mail'), dest('d2', 'ops-mail')] });
    expect(problemsOf(() => plan(declared, ambiguous))).toHaveLength(2);
    // Same subjects, other order, repeated labels: still nothing to do.
    const reordered = base([same('a', 'slow'), same('b', 'down')]);
    const repeated = want(dAlert('down', { alert_destinations: ['ops-mail', 'ops-mail'] }), dAlert('slow', { alert_destinations: ['ops-mail'] }));
    expect(plan(repeated, reordered).changes).toEqual([]);
  });

  it('a subject change through previous_subjects is one update, never delete + create', () => {
    const live = base([
      liveAlert({ id: '1', monitor: '48213', subject_init: 'old subject', subject_term: 'x' }),
      liveAlert({ id: '2', monitor: '48213', subject_init: 'other', subject_term: 'x' }),
    ]);
    const p = plan(want(dAlert('new subject', { subject_term: 'x', previous_subjects: ['old subject'] }), dAlert('other', { subject_term: 'x' })), live);
    const c = only(p);
    expect(c).toMatchObject({ action: 'update', id: '1', key: 'mx-us-1 / new subject', changed: ['subject_init'], note: { subject_changed_from: 'old subject' } });
  });

  it('a lone leftover desired and live alert on a managed monitor are paired', () => {
    const live = base([liveAlert({ id: '1', monitor: '48213', subject_init: 'mx is DOWN', subject_term: 'a' })]);
    const c = only(plan(want(dAlert('mx-us-1 is DOWN', { subject_term: 'b' })), live));
    expect(c).toMatchObject({ action: 'update', id: '1', changed: ['subject_init', 'subject_term'], note: { subject_changed_from: 'mx is DOWN' } });
  });

  it('leftovers pair by a subject_term unique on both sides; the rest are created and deleted', () => {
    const live = base([
      liveAlert({ id: '1', monitor: '48213', subject_init: 'A', subject_term: 'TA' }),
      liveAlert({ id: '2', monitor: '48213', subject_init: 'B', subject_term: 'TB' }),
    ]);
    const p = plan(want(dAlert('A2', { subject_term: 'TA' }), dAlert('C', { subject_term: 'TC' })), live);
    expect(p.changes.map((c) => [c.action, c.key, c.id])).toEqual([
      ['update', 'mx-us-1 / A2', '1'],
      ['create', 'mx-us-1 / C', null],
      ['delete', 'mx-us-1 / B', '2'],
    ]);
  });

  it('an alert create on a monitor created in the same plan refers to it and depends on it', () => {
    const p = plan(desiredState({ monitors: [dMonitor('mx-eu-3', {}, { alerts: [dAlert('mx-eu-3 is DOWN')] })] }), liveState({}));
    const a = find(p, 'alert:mx-eu-3/mx-eu-3 is DOWN');
    expect(a.call.body!.monitor).toEqual({ $ref: 'monitor:mx-eu-3' });
    expect(a.depends_on).toEqual(['monitor:mx-eu-3']);
    expect(a.changed).toEqual(['subject_init', 'subject_term', 'timeout', 'alert_destinations']);
    expect(a.call.body).toMatchObject({ message_init: '', message_term: '', down_only: false, repeat: false });
  });

  it('undeclared alerts on a managed monitor are deleted', () => {
    const live = base([liveAlert({ id: '1', monitor: '48213', subject_init: 'keep' }), liveAlert({ id: '2', monitor: '48213', subject_init: 'drop' })]);
    const c = only(plan(want(dAlert('keep')), live));
    expect(c).toMatchObject({ action: 'delete', kind: 'alert', id: '2', key: 'mx-us-1 / drop' });
  });

  it('duplicate live alerts on a managed monitor: one is kept, the other deleted, refs stay unique', () => {
    const live = base([
      liveAlert({ id: '1', monitor: '48213', subject_init: 'down' }),
      liveAlert({ id: '2', monitor: '48213', subject_init: 'down' }),
      liveAlert({ id: '3', monitor: '48213', subject_init: 'down' }),
    ]);
    const p = plan(want(), live);
    expect(p.changes.map((c) => c.ref)).toEqual(['alert:mx-us-1/down', 'alert:mx-us-1/down#2', 'alert:mx-us-1/down#3']);
  });

  it('the same subject declared twice on a monitor is a problem', () => {
    expect(problemsOf(() => plan(want(dAlert('x'), dAlert('x')), base([]))).join()).toMatch(/"mx-us-1 \/ x".* more than once/);
  });

  it('top-level alerts on unmanaged and other-type monitors: declared ones only; the rest counted', () => {
    const u = liveMonitor({ id: 'u', label: 'hand-made', meta: {} });
    const h = liveMonitor({ id: 'h', label: 'web', type: 'http', meta: {} });
    const live = liveState({
      monitors: [u, h],
      alerts: [
        liveAlert({ id: '1', monitor: 'u', subject_init: 'theirs' }),
        liveAlert({ id: '2', monitor: 'u', subject_init: 'ours', timeout: 5 }),
        liveAlert({ id: '3', monitor: 'h', subject_init: 'web down' }),
      ],
    });
    const d = desiredState({ alerts: [topAlert('hand-made', 'ours', { timeout: 10 }), topAlert('web', 'web slow'), topAlert('hand-made', 'new')] });
    const p = plan(d, live);
    expect(p.changes.map((c) => [c.action, c.key])).toEqual([
      ['create', 'hand-made / new'],
      ['update', 'hand-made / ours'],
      ['create', 'web / web slow'],
    ]);
    expect(p.unmanaged).toMatchObject({ monitors: 1, alerts: 2, other_type_monitors: 1 });
  });

  it('a top-level alert naming an unknown, foreign or undeclared managed monitor is a problem', () => {
    const live = liveState({
      monitors: [liveMonitor({ id: 'f', label: 'theirs', meta: { 'managed-by': 'other-team' } }), liveMonitor({ id: 'm', label: 'stale' })],
    });
    const d = desiredState({ alerts: [topAlert('nowhere', 's'), topAlert('theirs', 's'), topAlert('stale', 's')] });
    const problems = problemsOf(() => plan(d, live));
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/no monitor "nowhere"/);
    expect(problems[1]).toMatch(/"theirs" \(id f\) is managed by "other-team"/);
    expect(problems[2]).toMatch(/"stale" \(id m\) is marked managed-by/);
  });

  it('a top-level alert on a declared monitor joins its alerts', () => {
    const p = plan(desiredState({ monitors: [dMonitor('new')], alerts: [topAlert('new', 'down')] }), liveState({}));
    expect(find(p, 'alert:new/down').call.body!.monitor).toEqual({ $ref: 'monitor:new' });
  });
});

describe('adoption and ownership', () => {
  it('an unmanaged monitor the config names is adopted: marker added, fields fixed, undeclared alerts deleted', () => {
    const live = liveState({
      monitors: [liveMonitor({ id: '7', label: 'mx', meta: { team: 'x' }, timer: 10 })],
      alerts: [liveAlert({ id: 'a', monitor: '7', subject_init: 'old' }), liveAlert({ id: 'b', monitor: '7', subject_init: 'keep' })],
    });
    const d = desiredState({ monitors: [dMonitor('mx', { meta: { team: 'x' } }, { alerts: [dAlert('keep')] })] });
    const p = plan(d, live);
    const m = find(p, 'monitor:mx');
    expect(m).toMatchObject({ action: 'update', id: '7', changed: ['timer', 'meta'], note: { adopt: true } });
    expect(m.call.body).toEqual({ timer: 5, meta: { team: 'x', 'managed-by': OWNER } });
    expect(find(p, 'alert:mx/old')).toMatchObject({ action: 'delete', id: 'a' });
    expect(p.changes).toHaveLength(2);
  });

  it('an adopted monitor renamed through a previous label', () => {
    const live = liveState({ monitors: [liveMonitor({ id: '7', label: 'old', meta: {} })] });
    const c = only(plan(desiredState({ monitors: [dMonitor('new', {}, { previous_labels: ['old'] })] }), live));
    expect(c.note).toEqual({ adopt: true, renamed_from: 'old' });
    expect(c.changed).toEqual(['label', 'meta']);
  });

  it('a monitor owned by another configuration is a conflict, by label or previous label', () => {
    const live = liveState({
      monitors: [liveMonitor({ id: '5', label: 'mx', meta: { 'managed-by': 'other-team' } }), liveMonitor({ id: '6', label: 'old', meta: { 'managed-by': 'x' } })],
    });
    const problems = problemsOf(() => plan(desiredState({ monitors: [dMonitor('mx'), dMonitor('new', {}, { previous_labels: ['old'] })] }), live));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/monitor "mx".* conflicts with monitor "mx" \(id 5\), which is managed by "other-team"/);
    expect(problems[1]).toMatch(/previous label "old" names monitor "old" \(id 6\)/);
  });

  it('foreign monitors not named are left alone, even with prune', () => {
    const live = liveState({ monitors: [liveMonitor({ id: '5', label: 'mx', meta: { 'managed-by': 'other-team' } })] });
    const p = plan(desiredState(), live, { prune: true });
    expect(p.changes).toEqual([]);
    expect(p.unmanaged).toMatchObject({ monitors: 1, foreign_monitors: 1 });
  });

  it('a desired label held by a monitor of another type is a problem', () => {
    const live = liveState({ monitors: [liveMonitor({ id: '9', label: 'web', type: 'http', meta: {} })] });
    expect(problemsOf(() => plan(desiredState({ monitors: [dMonitor('web')] }), live))[0]).toMatch(/type http \(id 9\)/);
  });

  it('other-type monitors are never changed, even with a managed-by marker or prune', () => {
    const live = liveState({ monitors: [liveMonitor({ id: '9', label: 'ping', type: 'ping' })] });
    const p = plan(desiredState(), live, { prune: true });
    expect(p.changes).toEqual([]);
    expect(p.unmanaged.other_type_monitors).toBe(1);
  });
});

describe('groups', () => {
  const a = liveMonitor({ id: '1', label: 'a' });
  const b = liveMonitor({ id: '2', label: 'b' });
  const web = liveMonitor({ id: '3', label: 'web', type: 'http', meta: {}, groups: null });

  it('a declared group is owned whole: membership replaced, added and removed labels noted', () => {
    const live = liveState({ monitors: [a, b, web], groups: [liveGroup('310', 'production', [a, b])] });
    const d = desiredState({ monitors: [dMonitor('a'), dMonitor('c')], groups: [dGroup('production', ['a', 'c', 'web'])] });
    const p = plan(d, live);
    const g = find(p, 'group:production');
    expect(g).toMatchObject({ action: 'update', id: '310', changed: ['monitors'], note: { members_added: ['c', 'web'], members_removed: ['b'] } });
    expect(g.call.body).toEqual({ name: 'production', monitors: ['1', { $ref: 'monitor:c' }, '3'], replace: true });
    expect(g.depends_on).toEqual(['monitor:c']);
    expect(g.before).toEqual({ name: 'production', monitors: ['a', 'b'] });
    expect(g.after).toEqual({ name: 'production', monitors: ['a', 'c', 'web'] });
    // b is managed and undeclared: deleted after the group update that drops it.
    expect(find(p, 'monitor:b').depends_on).toEqual(['group:production']);
  });

  it('creates a group with its members', () => {
    const live = liveState({ monitors: [a] });
    const c = only(plan(desiredState({ monitors: [dMonitor('a')], groups: [dGroup('g', ['a', 'a'])] }), live));
    expect(c.call).toEqual({ method: 'POST', path: '/v1/Config/Group/', body: { name: 'g', monitors: ['1'] } });
    expect(c.changed).toEqual(['name', 'monitors']);
  });

  it('an unknown member label is a problem', () => {
    expect(problemsOf(() => plan(desiredState({ groups: [dGroup('g', ['nope'])] }), liveState({})))[0]).toMatch(/group "g".*no monitor "nope"/);
  });

  it('undeclared groups are left alone and counted, or deleted with prune', () => {
    const live = liveState({ groups: [liveGroup('9', 'legacy', [])] });
    expect(plan(desiredState(), live).unmanaged.groups).toBe(1);
    const c = only(plan(desiredState(), live, { prune: true }));
    expect(c).toMatchObject({ action: 'delete', kind: 'group', key: 'legacy', note: { pruned: true }, call: { method: 'DELETE', path: '/v1/Config/Group/9/' } });
  });

  it('settings.prune applies when the option is not given', () => {
    const live = liveState({ groups: [liveGroup('9', 'legacy', [])] });
    expect(only(plan(desiredState({ settings: { prune: true } }), live)).action).toBe('delete');
  });
});

describe('prune', () => {
  it('deletes unmanaged SMTP monitors the config does not name or reference', () => {
    const live = liveState({
      monitors: [liveMonitor({ id: '1', label: 'lonely', meta: {} }), liveMonitor({ id: '2', label: 'alerted', meta: {} }), liveMonitor({ id: '3', label: 'grouped', meta: {} })],
      alerts: [liveAlert({ id: 'x', monitor: '1', subject_init: 's' })],
    });
    const d = desiredState({ alerts: [topAlert('alerted', 'down')], groups: [dGroup('g', ['grouped'])] });
    const p = plan(d, live, { prune: true });
    expect(p.changes.filter((c) => c.action === 'delete').map((c) => [c.key, c.note, c.effects])).toEqual([['lonely', { pruned: true, cascade_subjects: ['s'] }, { cascade_alerts: 1 }]]);
    expect(p.options.prune).toBe(true);
    expect(plan(d, live).changes.filter((c) => c.action === 'delete')).toEqual([]);
  });
});

describe('ignore', () => {
  const live = liveState({
    monitors: [liveMonitor({ id: '1', label: 'legacy-1' }), liveMonitor({ id: '2', label: 'mx' }), liveMonitor({ id: '3', label: 'legacy-2', meta: {} })],
    alerts: [liveAlert({ id: 'a', monitor: '1', subject_init: 's' })],
    groups: [liveGroup('g1', 'legacy group', []), liveGroup('g2', 'prod', ['1', '2'])],
  });
  const d = (p: Partial<Parameters<typeof desiredState>[0]> = {}) =>
    desiredState({ settings: { ignore: ['legacy*'] }, monitors: [dMonitor('mx')], groups: [dGroup('prod', [])], ...p });

  it('ignored monitors and groups are not considered, even when managed or pruned; counted', () => {
    const p = plan(d(), live, { prune: true });
    expect(p.unmanaged.ignored).toBe(3);
    const g = only(p);
    // The ignored member stays in the group: ignore means hands off.
    expect(g.call.body).toEqual({ name: 'prod', monitors: ['1'], replace: true });
    expect(g.note).toEqual({ members_removed: ['mx'] });
  });

  it('a desired resource matching ignore is a problem', () => {
    const problems = problemsOf(() =>
      plan(d({ monitors: [dMonitor('legacy-3')], groups: [dGroup('legacy g', ['legacy-1'])], alerts: [topAlert('legacy-2', 's')] }), live),
    );
    expect(problems).toHaveLength(4);
  });

  it('ignored resources do not change the fingerprint', () => {
    const moved = structuredClone(live);
    moved.monitors[0]!.timer = 30;
    moved.alerts[0]!.subject_init = 'changed';
    expect(plan(d(), moved).fingerprint).toBe(plan(d(), live).fingerprint);
    moved.monitors[1]!.timer = 30;
    expect(plan(d(), moved).fingerprint).not.toBe(plan(d(), live).fingerprint);
  });
});

describe('target', () => {
  const live = liveState({ monitors: [liveMonitor({ id: '1', label: 'old-1' }), liveMonitor({ id: '2', label: 'eu-2', timer: 10 })] });
  const d = desiredState({
    monitors: [dMonitor('eu-1', {}, { alerts: [dAlert('eu-1 down')] }), dMonitor('eu-2'), dMonitor('us-1', {}, { alerts: [dAlert('us-1 down')] })],
    groups: [dGroup('eu', ['eu-1', 'us-1'])],
  });

  it('limits changes to matching keys and warns', () => {
    const p = plan(d, live, { targets: ['eu-*'] });
    expect(p.changes.map((c) => c.ref)).toEqual(['monitor:eu-1', 'monitor:eu-2', 'alert:eu-1/eu-1 down']);
    expect(p.options.targets).toEqual(['eu-*']);
    expect(p.warnings.join()).toMatch(/--target limits this plan to 3 changes; 4 other changes are left out/);
  });

  it('pulls in the creates a targeted change needs', () => {
    const p = plan(d, live, { targets: ['eu'] });
    expect(p.changes.map((c) => c.ref)).toEqual(['monitor:eu-1', 'monitor:us-1', 'group:eu']);
    expect(p.summary).toEqual({ create: 3, update: 0, delete: 0 });
  });

  it('an alert is targeted by its monitor label or its full key', () => {
    expect(plan(d, live, { targets: ['us-1 / *'] }).changes.map((c) => c.ref)).toEqual(['monitor:us-1', 'alert:us-1/us-1 down']);
  });
});

describe('duplicates and problems', () => {
  it('duplicate live labels a desired monitor would touch: a problem listing the ids', () => {
    const live = liveState({ monitors: [liveMonitor({ id: '11', label: 'mx' }), liveMonitor({ id: '12', label: 'mx', meta: {} })] });
    expect(problemsOf(() => plan(desiredState({ monitors: [dMonitor('mx')] }), live))[0]).toMatch(/2 monitors with this label \(ids 11, 12\)/);
  });

  it('duplicate live labels a delete would touch, leaving another with that label', () => {
    const live = liveState({ monitors: [liveMonitor({ id: '11', label: 'mx' }), liveMonitor({ id: '12', label: 'mx', meta: {} })] });
    const problems = problemsOf(() => plan(desiredState(), live));
    expect(problems[0]).toMatch(/would delete id 11.*ids 11, 12/);
  });

  it('duplicate labels nobody touches are fine', () => {
    const live = liveState({ monitors: [liveMonitor({ id: '11', label: 'mx', meta: {} }), liveMonitor({ id: '12', label: 'mx', meta: {} })] });
    expect(plan(desiredState(), live).unmanaged.monitors).toBe(2);
  });

  it('duplicate group names a declared group would touch: the copies are its own, so they heal (issue 12)', () => {
    const live = liveState({ groups: [liveGroup('1', 'g', []), liveGroup('2', 'g', [])] });
    expect(plan(desiredState({ groups: [dGroup('g', [])] }), live).changes.map((c) => [c.action, c.id, c.note])).toEqual([
      ['delete', '2', { duplicate_of: '1' }],
    ]);
  });

  it('a monitor declared twice', () => {
    expect(problemsOf(() => plan(desiredState({ monitors: [dMonitor('x'), dMonitor('x')] }), liveState({})))[0]).toMatch(/declared more than once/);
  });

  it('PlanError lists every problem and names the source', () => {
    try {
      plan(desiredState({ groups: [dGroup('g', ['a', 'b'])] }), liveState({}));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(PlanError);
      const pe = e as PlanError;
      expect(pe.problems).toHaveLength(2);
      expect(pe.problems[0]).toContain('monitoring/main.yaml:1');
      expect(pe.message).toBe('cannot plan: 2 problems to fix first');
    }
  });
});

describe('the plan envelope', () => {
  it('carries options, files, fingerprint and time; an empty account and config plan nothing', () => {
    const p = plan(desiredState(), liveState({}));
    expect(p).toMatchObject({
      format_version: 1,
      created_at: '2026-11-22T10:41:00.000Z',
      target: TARGET,
      files: ['monitoring/main.yaml'],
      options: { prune: false, targets: [], owner: OWNER, ignore: [] },
      changes: [],
      summary: { create: 0, update: 0, delete: 0 },
      warnings: [],
    });
    expect(p.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('diff does not mutate its inputs', () => {
    const live = liveState({ monitors: [liveMonitor({ id: '1', label: 'a', timer: 10 })], groups: [liveGroup('g', 'g', ['1'])] });
    const d = desiredState({ monitors: [dMonitor('a', {}, { alerts: [dAlert('x')] })], groups: [dGroup('g', [])], alerts: [] });
    const [l0, d0] = [structuredClone(live), structuredClone(d)];
    plan(d, live);
    expect(live).toEqual(l0);
    expect(d).toEqual(d0);
  });
});

describe('an applied configuration plans empty', () => {
  const d = desiredState({
    monitors: [
      dMonitor('mx-eu-3', { ip_address: 'mx3.example.eu', meta: { region: 'eu' }, custom_body: 'line 1\nline 2' }, {
        alerts: [dAlert('mx-eu-3 is DOWN', { alert_destinations: ['ops-mail'], repeat: true, message_init: 'm' })],
      }),
      dMonitor('mx-us-1', { port: 25, ttl: 600, attachment: null, use_tls: 'on' }),
    ],
    alerts: [topAlert('web', 'web down')],
    groups: [dGroup('production', ['mx-eu-3', 'web']), dGroup('empty', [])],
  });
  const live = liveState({
    monitors: [liveMonitor({ id: 'w', label: 'web', type: 'http', meta: {}, groups: null }), liveMonitor({ id: 'old', label: 'mx-old' })],
    groups: [liveGroup('g1', 'production', ['old'])],
    destinations: [dest('d1', 'ops-mail')],
  });
  it.each([false, true])('with omitted fields read back as null: %s', (nullDefaults) => {
    const first = plan(d, live);
    expect(first.summary).toEqual({ create: 5, update: 1, delete: 1 });
    const after = simulateApply(live, first, { nullDefaults });
    const second = plan(d, after);
    expect(second.changes).toEqual([]);
    expect(second.fingerprint).not.toBe(first.fingerprint);
  });
});

describe('diff: change refs are unique even when labels and subjects contain "/"', () => {
  // monitor "a" with alert "b/c" and monitor "a/b" with alert "c" both made the ref `alert:a/b/c`:
  // apply then refused one of them ("the plan has two changes with ref") and a saved plan was invalid.
  const desired = desiredState({
    monitors: [dMonitor('a', {}, { alerts: [dAlert('b/c')] }), dMonitor('a/b', {}, { alerts: [dAlert('c')] })],
  });

  it('gives every change its own ref', () => {
    const refs = plan(desired, liveState({})).changes.map((c) => c.ref);
    expect(new Set(refs).size).toBe(refs.length);
  });

  it('makes a plan that saves, loads and applies completely', async () => {
    const p = plan(desired, liveState({}));
    expect(parseSavedPlan(serializePlan(p)).ok).toBe(true);
    const api = new FakeApi();
    const result = await executePlan(p, api, { parallelism: 4, owner: desired.settings.owner });
    expect(result.failed).toBe(0);
    expect(result.done).toBe(4);
  });
});

describe('diff: a declared alert never silently rewrites a live alert of another type', () => {
  // Only up-down alerts can be created, but HTTP and other monitors carry other alert types. An
  // up-down alert declared with the subject of such an alert was planned as an update whose PUT
  // body carries `type: "up-down"`: the plan text showed at most a subject or timeout change, while
  // apply converted the other alert into an up-down one.
  it('makes it a problem the user must resolve, not an update', () => {
    const web = liveMonitor({ id: 'h1', label: 'www-http', type: 'http', meta: {} });
    const live = liveState({
      monitors: [web],
      alerts: [liveAlert({ id: 'a1', monitor: 'h1', subject_init: 'www down', type: 'threshold', timeout: null })],
    });
    const desired = desiredState({ alerts: [topAlert('www-http', 'www down', { timeout: 5 })] });
    let err: unknown;
    try {
      plan(desired, live);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PlanError);
    expect((err as PlanError).problems.join('\n')).toMatch(/threshold/);
  });

  it('still updates an alert whose type the service did not report (only a known other type is refused)', () => {
    const web = liveMonitor({ id: 'h1', label: 'www-http', type: 'http', meta: {} });
    const live = liveState({ monitors: [web], alerts: [liveAlert({ id: 'a1', monitor: 'h1', subject_init: 'www down', type: '', timeout: 10 })] });
    const p = plan(desiredState({ alerts: [topAlert('www-http', 'www down', { timeout: 5 })] }), live);
    expect(p.changes.map((c) => [c.action, c.id, c.changed])).toEqual([['update', 'a1', ['timeout']]]);
  });
});
