/**
 * What a write's answer must show before apply goes on from it (issue 23). Pure.
 *
 * - The answer is about what was written (`answerMismatch`): a create's answer names the object the
 *   request described (a monitor's label and type, an alert's monitor and subject, a group's name)
 *   and an id the account did not already hold for something else; an update's or delete's answer
 *   carries the id it was sent to. Otherwise the change failed: its dependents are not started (an
 *   alert would land on another monitor, a group would list the wrong one), and the error says what
 *   the service answered.
 * - The write was kept (`notKept`): each field the change sets is compared, with the planner's own
 *   comparison (documented defaults on both sides), to what the service answered or read back. A
 *   field it stored otherwise is named with both values, e.g.
 *   `the service stored time_zone "America/New_York" for "US/Eastern": write that value in the configuration`:
 *   the next plan would show the same change again, for ever.
 */
import type { Alert, Group, GroupSummary, LiveState, Monitor } from '../model/live.js';
import { liveMonitorFields, sameSet, sameValue } from '../plan/phases/values.js';
import type { Change, ChangeKind } from '../plan/types.js';

export type Answer = Monitor | Alert | Group | GroupSummary;

/** The ids the account held when the plan was made, per kind, with what each was (`monitor "legacy-mx"`). */
export type HeldIds = Readonly<Record<ChangeKind, ReadonlyMap<string, string>>>;

const q = (s: unknown): string => JSON.stringify(s);

export function heldIds(live: LiveState): HeldIds {
  const labels = new Map(live.monitors.map((m) => [m.id, m.label]));
  return {
    monitor: new Map(live.monitors.map((m) => [m.id, `monitor ${q(m.label)}`])),
    alert: new Map(live.alerts.map((a) => [a.id, `alert ${q(`${labels.get(a.monitor) ?? a.monitor} / ${a.subject_init}`)}`])),
    group: new Map(live.groups.map((g) => [g.id, `group ${q(g.name)}`])),
  };
}

/** Why the answer is not about the change's object, or null when it is. `body` is what was sent, refs resolved. */
export function answerMismatch(c: Change, body: Record<string, unknown>, answer: Answer, held: HeldIds | undefined): string | null {
  if (c.action !== 'create') {
    return answer.id !== c.id ? `the service answered about id ${answer.id}, not id ${c.id}` : null;
  }
  const before = held?.[c.kind].get(answer.id);
  if (before !== undefined) {
    return `the service answered with id ${answer.id}, which the account already held for ${before}; what the create made is not known`;
  }
  const differs: string[] = [];
  const expect = (field: string, sent: unknown, got: unknown) => {
    if (sent !== undefined && got !== sent) differs.push(`${field} ${q(got)}`);
  };
  if (c.kind === 'monitor') {
    const m = answer as Monitor;
    expect('label', body.label, m.label);
    expect('type', 'smtp', m.type);
  } else if (c.kind === 'alert') {
    const a = answer as Alert;
    expect('monitor', body.monitor, a.monitor);
    expect('subject_init', body.subject_init, a.subject_init);
  } else {
    expect('name', body.name, (answer as Group).name);
  }
  if (differs.length === 0) return null;
  return `the service answered ${c.kind === 'alert' ? 'an' : 'a'} ${c.kind} with ${differs.join(', ')} (id ${answer.id}), not the one sent; it was not kept as written`;
}

/** The fields of the write the answer shows stored otherwise, one message each (empty: all kept). */
export function notKept(c: Change, body: Record<string, unknown>, answer: Answer): string[] {
  if (c.action === 'delete') return [];
  const out: string[] = [];
  const stored = (field: string, got: unknown, sent: unknown) => {
    const advice = typeof got === 'string' && typeof sent === 'string' && got !== '' ? ': write that value in the configuration' : ': it did not keep the value sent';
    out.push(`the service stored ${field} ${show(got)} for ${show(sent)}${advice}`);
  };
  if (c.kind === 'monitor') {
    const after = c.after ?? {};
    const live = liveMonitorFields(answer as Monitor);
    for (const f of c.changed) {
      if (f === 'meta') {
        // Only the keys this configuration sets: the service may add its own.
        const want = (after.meta ?? {}) as Record<string, unknown>;
        const got = live.meta as Record<string, unknown>;
        for (const k of Object.keys(want)) if (!sameValue(want[k], got[k] ?? null)) stored(`meta.${k}`, got[k] ?? null, want[k]);
        continue;
      }
      if (f in after && !sameValue(after[f] ?? null, live[f] ?? null)) stored(f, live[f] ?? null, after[f] ?? null);
    }
  } else if (c.kind === 'alert') {
    const a = answer as Alert;
    const defaults: Record<string, unknown> = { message_init: '', message_term: '', down_only: false, repeat: false, timeout: null };
    for (const [f, sent] of Object.entries(body)) {
      if (f === 'type' || f === 'monitor' || sent === undefined) continue;
      const got = (a as unknown as Record<string, unknown>)[f];
      if (f === 'alert_destinations') {
        if (!sameSet(sent as string[], a.alert_destinations)) stored(f, a.alert_destinations, sent);
      } else if (!sameValue(sent ?? defaults[f] ?? null, got ?? defaults[f] ?? null)) {
        stored(f, got ?? null, sent);
      }
    }
  } else {
    const name = (answer as Group).name;
    if (typeof body.name === 'string' && name !== body.name) stored('name', name, body.name);
    const members = (answer as Group).members;
    if (Array.isArray(body.monitors) && members !== undefined) {
      const got = members.map((m) => m.id);
      if (!sameSet(body.monitors as string[], got)) stored('monitors', got, body.monitors);
    }
  }
  return out;
}

/** A value as a message shows it: strings and lists as JSON, the rest as written. */
function show(v: unknown): string {
  return JSON.stringify(v ?? null);
}
