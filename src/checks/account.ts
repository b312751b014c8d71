/**
 * The account as the checks that need it look things up: destinations, monitors and groups by
 * label or name (every copy: labels are not unique in the service), monitors by id. Built once per
 * run from the LiveState plan read; never fetched here.
 */
import type { Destination, Group, LiveState, Monitor } from '../model/live.js';
import { groupBy } from '../util/group-by.js';

export interface Account {
  destinationsByLabel: ReadonlyMap<string, readonly Destination[]>;
  monitorsByLabel: ReadonlyMap<string, readonly Monitor[]>;
  monitorsById: ReadonlyMap<string, Monitor>;
  groupsByName: ReadonlyMap<string, readonly Group[]>;
}

export function indexAccount(live: LiveState): Account {
  return {
    destinationsByLabel: groupBy(live.destinations, (d) => d.label),
    monitorsByLabel: groupBy(live.monitors, (m) => m.label),
    monitorsById: new Map(live.monitors.map((m) => [m.id, m])),
    groupsByName: groupBy(live.groups, (g) => g.name),
  };
}

/** The one live item with this label, or undefined when there is none or several (the plan reports those). */
export function only<T>(items: readonly T[] | undefined): T | undefined {
  return items?.length === 1 ? items[0] : undefined;
}
