/**
 * Cross-checks the lists of one read of the account. The service is read list by list (monitors,
 * alerts, groups, destinations); each answer can be well-formed and still wrong: a cache serving a
 * stale page, a gateway answering `{"monitor_list": []}`. Such an answer looks like an account
 * without monitors, and a plan made from it creates a second copy of everything. But the lists name
 * each other, so one that lacks what the others name shows itself:
 *
 * - every alert's `monitor` is in the monitor list;
 * - the ids in a monitor's `alerts` field are in the alert list, those in its `groups` field (when
 *   the service gave the field) in the group list;
 * - every member of a group (from monitors' `groups` fields or single-group reads) is in the
 *   monitor list;
 * - every destination an alert names is in the destination list;
 * - in the other direction, an alert listed on an SMTP monitor is among the ids of that monitor's
 *   `alerts` field, and a member of a group read singly is a monitor whose `groups` field (when it
 *   has one) names the group: a second, stale entry the monitor does not name is not an alert of it;
 * - an id listed twice in one list is one resource: copies that agree are merged by the reader
 *   (`mergeRepeats`), copies that differ are a contradiction (which one is the account?).
 *
 * A relation is checked only when both of its lists were read: callers pass the lists they have.
 * `checkAccountConsistency` is pure; `readConsistently` runs a caller's read once more on a
 * contradiction (a stale page is usually gone on the next request) and throws
 * `AccountContradictionError`, a UserError, when the second read contradicts itself too.
 */
import { isDeepStrictEqual } from 'node:util';
import { UserError } from '../util/errors.js';
import type { Alert, Destination, Group, Monitor } from '../model/live.js';
import { plural } from '../util/plural.js';

export type ListName = 'monitor' | 'alert' | 'group' | 'destination';

/** Ids one list names that another list lacks. */
export interface MissingContradiction {
  kind?: undefined;
  /** Where the ids were named: a list, or the single-group reads (`group-reads`). */
  naming: 'monitor' | 'alert' | 'group-reads';
  /** The list that does not contain them. */
  missingFrom: ListName;
  /** Distinct ids named but missing, in id order (numbers by value). */
  ids: string[];
}

/** Alerts (or group members) a monitor's own `alerts` (`groups`) field does not name. */
export interface UnnamedContradiction {
  kind: 'unnamed';
  naming: 'alert' | 'group-reads';
  /** The monitor field that does not name them. */
  field: 'alerts' | 'groups';
  /** The alert ids (for `alerts`) or the group ids (for `groups`), in id order. */
  ids: string[];
}

/** Ids a list holds more than once, the copies differing. */
export interface RepeatContradiction {
  kind: 'repeated';
  list: ListName;
  ids: string[];
}

export type Contradiction = MissingContradiction | UnnamedContradiction | RepeatContradiction;

/** The lists of one read; a list not read is left out, and the relations needing it are not checked. */
export interface AccountLists {
  /** `type` (when given) limits the check of an alert against its monitor's `alerts` field to SMTP monitors. */
  monitors?: readonly (Pick<Monitor, 'id' | 'alerts' | 'groups'> & { type?: string })[];
  alerts?: readonly Pick<Alert, 'id' | 'monitor' | 'alert_destinations'>[];
  /**
   * Groups with their members. `membersFrom: 'group-reads'` says members came from single-group
   * reads (the monitor list is then checked against them); members derived from the monitors'
   * own `groups` fields cannot contradict the monitor list.
   */
  groups?: readonly Pick<Group, 'id' | 'members'>[];
  membersFrom?: 'monitor-fields' | 'group-reads';
  destinations?: readonly Pick<Destination, 'id'>[];
}

export function checkAccountConsistency(lists: AccountLists): Contradiction[] {
  const out: Contradiction[] = [];
  const { monitors, alerts, groups, destinations } = lists;
  const ids = (xs: readonly { id: string }[]) => new Set(xs.map((x) => x.id));
  // By id: what the lists name is looked up here, and the monitors' own fields for the other direction.
  const monitorIds = monitors && new Map(monitors.map((m) => [m.id, m]));
  const add = (naming: MissingContradiction['naming'], missingFrom: ListName, named: Iterable<string>, known: { has(id: string): boolean }) => {
    const missing = new Set<string>();
    for (const id of named) if (!known.has(id)) missing.add(id);
    if (missing.size > 0) out.push({ naming, missingFrom, ids: [...missing].sort(compareIds) });
  };

  if (alerts && monitorIds) add('alert', 'monitor', alerts.map((a) => a.monitor), monitorIds);
  if (monitors && alerts) add('monitor', 'alert', monitors.flatMap((m) => m.alerts), ids(alerts));
  if (monitors && groups) add('monitor', 'group', monitors.flatMap((m) => m.groups ?? []), ids(groups));
  if (groups && monitorIds && lists.membersFrom === 'group-reads') {
    add('group-reads', 'monitor', groups.flatMap((g) => g.members.map((m) => m.id)), monitorIds);
  }
  if (alerts && destinations) add('alert', 'destination', alerts.flatMap((a) => a.alert_destinations), ids(destinations));

  // The other direction: what a monitor's own fields say about itself.
  if (monitorIds && alerts) {
    const named = monitorIds;
    const unnamed = new Set<string>();
    for (const a of alerts) {
      const m = named.get(a.monitor);
      // The documented monitor carries `alerts`; a monitor of another type may not report it.
      if (m === undefined || (m.type !== undefined && m.type !== 'smtp' && m.alerts.length === 0)) continue;
      if (!m.alerts.includes(a.id)) unnamed.add(a.id);
    }
    if (unnamed.size > 0) out.push({ kind: 'unnamed', naming: 'alert', field: 'alerts', ids: [...unnamed].sort(compareIds) });
  }
  if (monitorIds && groups && lists.membersFrom === 'group-reads') {
    const named = monitorIds;
    const unnamed = new Set<string>();
    for (const g of groups) {
      for (const member of g.members) {
        const fields = named.get(member.id)?.groups;
        if (fields && !fields.includes(g.id)) unnamed.add(g.id);
      }
    }
    if (unnamed.size > 0) out.push({ kind: 'unnamed', naming: 'group-reads', field: 'groups', ids: [...unnamed].sort(compareIds) });
  }

  const repeats: [ListName, readonly { id: string }[] | undefined][] = [
    ['monitor', monitors],
    ['alert', alerts],
    ['group', groups],
    ['destination', destinations],
  ];
  for (const [list, xs] of repeats) {
    const differing = xs ? repeatedIds(xs) : [];
    if (differing.length > 0) out.push({ kind: 'repeated', list, ids: differing });
  }
  return out;
}

/**
 * No id twice, decided without hashing when the ids come in increasing order (as the service lists
 * them): the check runs on every read of accounts with tens of thousands of entries.
 */
function distinctIds(xs: readonly { id: string }[]): boolean {
  for (let i = 1; i < xs.length; i++) if (compareIds(xs[i - 1]!.id, xs[i]!.id) >= 0) return false;
  return true;
}

/** Ids listed more than once whose copies differ, in id order; copies that agree are one entry. */
function repeatedIds(xs: readonly { id: string }[]): string[] {
  if (distinctIds(xs)) return [];
  const first = new Map<string, { id: string }>();
  const differing = new Set<string>();
  for (const x of xs) {
    const seen = first.get(x.id);
    if (seen === undefined) first.set(x.id, x);
    else if (!isDeepStrictEqual(seen, x)) differing.add(x.id);
  }
  return [...differing].sort(compareIds);
}

/**
 * The list with each id once: a copy equal to an earlier one is dropped (an entry listed twice is
 * one entry, never its own duplicate). Differing copies are kept, for `checkAccountConsistency` to
 * report. The list itself when nothing repeats (the usual case).
 */
export function mergeRepeats<T extends { id: string }>(xs: T[]): T[] {
  if (distinctIds(xs)) return xs;
  const first = new Map<string, T[]>();
  let repeated = false;
  for (const x of xs) {
    const copies = first.get(x.id);
    if (copies === undefined) first.set(x.id, [x]);
    else {
      repeated = true;
      if (!copies.some((c) => isDeepStrictEqual(c, x))) copies.push(x);
    }
  }
  if (!repeated) return xs;
  const out: T[] = [];
  const emitted = new Set<string>();
  for (const x of xs) {
    if (emitted.has(x.id)) continue;
    emitted.add(x.id);
    out.push(...first.get(x.id)!);
  }
  return out;
}

/** Numeric ids by value, then everything else in code-point order: the same on every machine. */
export function compareIds(a: string, b: string): number {
  const an = /^\d+$/.test(a);
  const bn = /^\d+$/.test(b);
  if (an && bn && a.length !== b.length) return a.length - b.length;
  if (an !== bn) return an ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const NAMING: Record<MissingContradiction['naming'], string> = {
  monitor: 'the monitor list names',
  alert: 'the alert list names',
  'group-reads': 'the single-group reads name',
};

/** "the alert list names 30 monitors the monitor list does not contain (e.g. id 10034)" */
export function describeContradiction(c: Contradiction): string {
  const n = c.ids.length;
  if (c.kind === 'repeated') return `the ${c.list} list holds ${plural(n, c.list)} more than once, the copies differing (e.g. id ${c.ids[0]})`;
  if (c.kind === 'unnamed') {
    return c.field === 'alerts'
      ? `the alert list names ${plural(n, 'alert')} on monitors whose own alerts field does not name them (e.g. id ${c.ids[0]})`
      : `the single-group reads name members of ${plural(n, 'group')} whose own groups field does not name the group (e.g. id ${c.ids[0]})`;
  }
  return `${NAMING[c.naming]} ${plural(n, c.missingFrom)} the ${c.missingFrom} list does not contain (e.g. id ${c.ids[0]})`;
}

/** "an incomplete monitor list", "incomplete monitor and alert lists": the lists that lack what others name. */
function incompleteLists(cs: readonly Contradiction[]): string {
  const missing = cs.filter((c): c is MissingContradiction => c.kind === undefined);
  if (missing.length === 0) {
    const c = cs[0]!;
    if (c.kind === 'repeated') return `${c.list === 'alert' ? 'an' : 'a'} ${c.list} list that repeats an entry with different values`;
    return c.kind === 'unnamed' && c.field === 'alerts' ? 'monitor and alert lists that disagree' : 'monitors and groups that disagree';
  }
  const lists = [...new Set(missing.map((c) => c.missingFrom))];
  if (lists.length === 1) return `an incomplete ${lists[0]} list`;
  return `incomplete ${lists.slice(0, -1).join(', ')} and ${lists[lists.length - 1]} lists`;
}

/**
 * The account read twice, contradicting itself both times. The message names what the lists
 * disagree on and ends with what did not happen (`consequence`: "nothing was sent" for plan and
 * apply, whose reads come before any write).
 */
export class AccountContradictionError extends UserError {
  readonly contradictions: Contradiction[];
  constructor(contradictions: Contradiction[], consequence = 'nothing was sent') {
    const [first, ...rest] = contradictions;
    if (!first) throw new Error('AccountContradictionError needs a contradiction');
    super(`${describeContradiction(first)}: the service answered ${incompleteLists(contradictions)}; ${consequence}`, {
      details: [
        ...rest.map((c) => `  - also: ${describeContradiction(c)}`),
        '  The account was read twice and both answers contradicted themselves: a cache or proxy in front of the',
        '  service may be serving stale or partial pages. Try again later.',
      ],
    });
    this.contradictions = contradictions;
  }

  /** The same contradictions, for a command whose reads precede something else than a write. */
  withConsequence(consequence: string): AccountContradictionError {
    return new AccountContradictionError(this.contradictions, consequence);
  }
}

/** The warning for a read that contradicted itself once and agreed with itself when read again. */
export function healedWarning(healed: readonly Contradiction[]): string {
  const more = healed.length > 1 ? `, and ${healed.length - 1} more` : '';
  return `the first read of the account contradicted itself (${describeContradiction(healed[0]!)}${more}); read again: consistent.`;
}

export interface ConsistentRead<T> {
  value: T;
  /** What the first read contradicted, when it did and the second read did not; else empty. */
  healed: Contradiction[];
}

/**
 * Runs `read`, checks its lists, and on a contradiction runs `read` once more (all of it: a stale
 * page of one list may equally be a fresh page of another). Throws AccountContradictionError when
 * the second read contradicts itself too.
 */
export async function readConsistently<T>(
  read: () => Promise<T>,
  lists: (value: T) => AccountLists,
  consequence?: string,
): Promise<ConsistentRead<T>> {
  const first = await read();
  const healed = checkAccountConsistency(lists(first));
  if (healed.length === 0) return { value: first, healed };
  const second = await read();
  const still = checkAccountConsistency(lists(second));
  if (still.length > 0) throw new AccountContradictionError(still, consequence);
  return { value: second, healed };
}
