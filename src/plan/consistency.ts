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
 * - every destination an alert names is in the destination list.
 *
 * A relation is checked only when both of its lists were read: callers pass the lists they have.
 * `checkAccountConsistency` is pure; `readConsistently` runs a caller's read once more on a
 * contradiction (a stale page is usually gone on the next request) and throws
 * `AccountContradictionError`, a UserError, when the second read contradicts itself too.
 */
import { UserError } from '../util/errors.js';
import type { Alert, Destination, Group, Monitor } from '../model/live.js';
import { plural } from '../util/plural.js';

export type ListName = 'monitor' | 'alert' | 'group' | 'destination';

export interface Contradiction {
  /** Where the ids were named: a list, or the single-group reads (`group-reads`). */
  naming: 'monitor' | 'alert' | 'group-reads';
  /** The list that does not contain them. */
  missingFrom: ListName;
  /** Distinct ids named but missing, in id order (numbers by value). */
  ids: string[];
}

/** The lists of one read; a list not read is left out, and the relations needing it are not checked. */
export interface AccountLists {
  monitors?: readonly Pick<Monitor, 'id' | 'alerts' | 'groups'>[];
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
  const monitorIds = monitors && ids(monitors);
  const add = (naming: Contradiction['naming'], missingFrom: ListName, named: Iterable<string>, known: ReadonlySet<string>) => {
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

const NAMING: Record<Contradiction['naming'], string> = {
  monitor: 'the monitor list names',
  alert: 'the alert list names',
  'group-reads': 'the single-group reads name',
};

/** "the alert list names 30 monitors the monitor list does not contain (e.g. id 10034)" */
export function describeContradiction(c: Contradiction): string {
  const n = c.ids.length;
  return `${NAMING[c.naming]} ${plural(n, c.missingFrom)} the ${c.missingFrom} list does not contain (e.g. id ${c.ids[0]})`;
}

/** "an incomplete monitor list", "incomplete monitor and alert lists": the lists that lack what others name. */
function incompleteLists(cs: readonly Contradiction[]): string {
  const lists = [...new Set(cs.map((c) => c.missingFrom))];
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
