/**
 * The account as the checks that need it look things up: destinations, monitors and groups by
 * label or name (every copy: labels are not unique in the service), monitors by id. Built once per
 * run from the LiveState plan read; never fetched here.
 */
import type { Destination, Group, LiveState, Monitor } from '../model/live.js';

export interface Account {
  destinationsByLabel: ReadonlyMap<string, readonly Destination[]>;
  monitorsByLabel: ReadonlyMap<string, readonly Monitor[]>;
  monitorsById: ReadonlyMap<string, Monitor>;
  groupsByName: ReadonlyMap<string, readonly Group[]>;
}

function byKey<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

export function indexAccount(live: LiveState): Account {
  return {
    destinationsByLabel: byKey(live.destinations, (d) => d.label),
    monitorsByLabel: byKey(live.monitors, (m) => m.label),
    monitorsById: new Map(live.monitors.map((m) => [m.id, m])),
    groupsByName: byKey(live.groups, (g) => g.name),
  };
}

/** The one live item with this label, or undefined when there is none or several (the plan reports those). */
export function only<T>(items: readonly T[] | undefined): T | undefined {
  return items?.length === 1 ? items[0] : undefined;
}
