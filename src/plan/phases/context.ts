/**
 * What the planner's phases share: the inputs, indexes of the (ignore-filtered) account, the
 * problem and warning sink, and the findings each phase leaves for the later ones. Phases run in a
 * fixed order (see diff.ts), so problems and warnings come out in the order a user reads them.
 *
 * Indexes are built with plain loops: the account may hold tens of thousands of records, and a plan
 * runs once per process, mostly before the JIT has compiled anything, so every intermediate array
 * counts.
 */
import type { DesiredAlert, DesiredGroup, DesiredMonitor, DesiredState, StatePositions } from '../../model/desired.js';
import { OWNER_META_KEY, type Alert, type Destination, type Group, type LiveState, type Monitor } from '../../model/live.js';
import type { Change, IdOrRef, UnmanagedCounts } from '../types.js';
import type { IgnoreOutcome } from './ignore.js';
import { byId, groupBy, inIdOrder, located, q } from './util.js';

export type MonitorClass = 'managed' | 'unmanaged' | 'foreign' | 'other';

export function classify(m: Monitor, owner: string): MonitorClass {
  if (m.type !== 'smtp') return 'other';
  if (!Object.hasOwn(m.meta, OWNER_META_KEY)) return 'unmanaged';
  return m.meta[OWNER_META_KEY] === owner ? 'managed' : 'foreign';
}

/** Where a desired monitor or group found its live counterpart. */
export interface Match<T> {
  live: T;
  renamedFrom: string | null;
}

/** A declared monitor and what the plan found for it. */
export interface Declared {
  dm: DesiredMonitor;
  match: Match<Monitor> | null;
  /** Top-level alerts on this monitor, planned with its own. */
  extraAlerts: DesiredAlert[] | null;
}

/** A declared group member: a live id, or the ref of the monitor this plan creates. */
export interface Member {
  id: IdOrRef;
  label: string;
}

export interface PlanSettings {
  owner: string;
  ignore: readonly string[];
  prune: boolean;
}

export class PlanContext {
  readonly owner: string;
  readonly ignore: readonly string[];
  readonly prune: boolean;
  /** The account as read, and without what settings.ignore matches. */
  readonly liveAll: LiveState;
  readonly live: LiveState;
  readonly ignoredMonitorIds: ReadonlySet<string>;
  /** Where values were written, for problems (absent for a state the loader did not build). */
  readonly positions: StatePositions | undefined;

  readonly monitorsByLabel = new Map<string, Monitor[]>();
  /** In id order per monitor, as if the whole list had been sorted first (the sort is stable). */
  readonly alertsByMonitor = new Map<string, Alert[]>();
  readonly destById = new Map<string, Destination>();
  readonly destsByLabel: Map<string, Destination[]>;
  readonly groupsByName: Map<string, Group[]>;
  /** Declared monitors by label (the first of a label declared twice). */
  readonly declared = new Map<string, Declared>();

  // Monitors (identity): which live monitor each declared one took, extra copies that heal, and
  // live monitors a problem is about (never deleted).
  readonly takenBy = new Map<string, DesiredMonitor>();
  readonly duplicateOf = new Map<string, Monitor>();
  readonly blocked = new Set<string>();
  // Alerts (homes) and groups (members): live monitors the configuration refers to, never pruned.
  readonly referenced = new Set<string>();
  /** Live monitors given top-level alerts, in order of first reference. */
  readonly liveHomes = new Map<string, { live: Monitor; desired: DesiredAlert[] }>();
  // Groups (identity and members).
  readonly desiredGroups = new Map<string, DesiredGroup>();
  readonly groupMatches = new Map<DesiredGroup, Match<Group>>();
  readonly groupTaken = new Map<string, DesiredGroup>();
  readonly groupDuplicateOf = new Map<string, Group>();
  readonly desiredMembers = new Map<DesiredGroup, Member[]>();

  readonly changes: Change[] = [];
  /** The monitor deletes among `changes`: they wait for the group updates that drop them. */
  readonly monitorDeletes: Change[] = [];
  readonly unmanaged: UnmanagedCounts;
  readonly problems: string[];
  readonly warnings: string[] = [];

  constructor(desired: DesiredState, liveAll: LiveState, seen: IgnoreOutcome, settings: PlanSettings, problems: string[]) {
    this.owner = settings.owner;
    this.ignore = settings.ignore;
    this.prune = settings.prune;
    this.liveAll = liveAll;
    this.live = seen.live;
    this.ignoredMonitorIds = seen.ignoredMonitorIds;
    this.positions = desired.positions;
    this.problems = problems;
    const live = seen.live;
    for (const m of live.monitors) {
      const list = this.monitorsByLabel.get(m.label);
      if (list) list.push(m);
      else this.monitorsByLabel.set(m.label, [m]);
    }
    let unordered = false;
    for (const a of live.alerts) {
      const list = this.alertsByMonitor.get(a.monitor);
      if (!list) this.alertsByMonitor.set(a.monitor, [a]);
      else {
        if (list[list.length - 1]!.id > a.id) unordered = true;
        list.push(a);
      }
    }
    if (unordered) for (const list of this.alertsByMonitor.values()) if (!inIdOrder(list)) list.sort(byId);
    for (const d of live.destinations) this.destById.set(d.id, d);
    this.destsByLabel = groupBy(live.destinations, (d) => d.label);
    this.groupsByName = groupBy(live.groups, (g) => g.name);
    for (const dm of desired.monitors) {
      if (this.declared.has(dm.label)) this.problem(located(dm.source, `monitor ${q(dm.label)} is declared more than once`));
      else this.declared.set(dm.label, { dm, match: null, extraAlerts: null });
    }
    this.unmanaged = {
      monitors: 0,
      foreign_monitors: 0,
      alerts: 0,
      groups: 0,
      other_type_monitors: 0,
      ignored: seen.ignoredCount,
    };
  }

  problem(msg: string): void {
    this.problems.push(msg);
  }

  /** Ids are unique in the service, so a monitor's class is its own (no lookup by id needed). */
  classOf(m: Monitor): MonitorClass {
    return classify(m, this.owner);
  }

  describe(m: Monitor): string {
    return `monitor ${q(m.label)} (id ${m.id})`;
  }

  foreignOwner(m: Monitor): string {
    return q(m.meta[OWNER_META_KEY] ?? '');
  }

  /** A destination's label, or its id when the account does not list it. */
  readonly destLabel = (id: string): string => this.destById.get(id)?.label ?? id;
}
