/**
 * A fingerprint of the live state a plan was computed from. Apply recomputes it just before running
 * a saved plan: a different value means the account changed since, and the plan's calls may no
 * longer be right.
 */
import { createHash } from 'node:crypto';
import type { LiveState } from '../model/live.js';
import { matchesAny } from './glob.js';

/**
 * The live state without what `settings.ignore` hides: monitors by label (and their alerts) and
 * groups by name. Memberships of kept groups are kept whole: they are that group's state.
 */
export function filterIgnored(live: LiveState, ignore: readonly string[]): LiveState {
  if (ignore.length === 0) return live;
  const monitors = live.monitors.filter((m) => !matchesAny(ignore, m.label));
  const kept = new Set(monitors.map((m) => m.id));
  const ignoredIds = new Set(live.monitors.filter((m) => !kept.has(m.id)).map((m) => m.id));
  return {
    monitors,
    alerts: live.alerts.filter((a) => !ignoredIds.has(a.monitor)),
    groups: live.groups.filter((g) => !matchesAny(ignore, g.name)),
    destinations: live.destinations,
  };
}

/** JSON with object keys sorted at every level: equal data, equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortDeep(value, new Map()));
}

type KeyCache = Map<number, { keys: string[]; sorted: string[] }>;

/** Object.keys(o).sort(), reusing the last sort for objects whose keys come in the same order. */
function sortedKeys(o: object, cache: KeyCache): string[] {
  const keys = Object.keys(o);
  const hit = cache.get(keys.length);
  if (hit !== undefined) {
    const k = hit.keys;
    let same = true;
    for (let i = 0; i < keys.length; i++) {
      if (k[i] !== keys[i]) {
        same = false;
        break;
      }
    }
    if (same) return hit.sorted;
  }
  const sorted = [...keys].sort();
  cache.set(keys.length, { keys, sorted });
  return sorted;
}

function sortDeep(value: unknown, cache: KeyCache): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = sortDeep(value[i], cache);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const k of sortedKeys(value, cache)) {
    const v = (value as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = sortDeep(v, cache);
  }
  return out;
}

const byId = <T extends { id: string }>(a: T, b: T): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const sorted = (xs: readonly string[]): string[] => [...xs].sort();

/**
 * sha256 (hex) of the canonical live state after ignore filtering. Left out: volatile fields that say
 * nothing about configuration (alert `violations`), order the service does not promise (list order,
 * the order of id arrays), and group member lists: read-live fills those from monitors' `groups` or
 * from single-group reads of only the groups a plan needs, so they differ between two reads of an
 * unchanged account. Membership is still covered through each monitor's `groups`, including the
 * memberships of ignored monitors in groups that are not ignored.
 *
 * The second argument is the ignore globs, or an object carrying them (a plan's `options`).
 */
export function fingerprintLive(
  live: LiveState,
  ignore: readonly string[] | { ignore?: readonly string[] | undefined } = [],
): string {
  const globs = Array.isArray(ignore) ? ignore : ((ignore as { ignore?: readonly string[] }).ignore ?? []);
  const l = filterIgnored(live, globs);
  // Ignored monitors stay out, but not their membership of groups the plan may replace: a declared
  // group's PUT (replace: true) carries the ignored members it saw, so a change there must be seen.
  const keptGroups = new Set(l.groups.map((g) => g.id));
  const keptMonitors = new Set(l.monitors.map((m) => m.id));
  const ignoredMemberships = [...live.monitors]
    .filter((m) => !keptMonitors.has(m.id) && m.groups !== null)
    .sort(byId)
    .map((m) => ({ id: m.id, groups: sorted((m.groups ?? []).filter((g) => keptGroups.has(g))) }))
    .filter((m) => m.groups.length > 0);
  const canonical = {
    ...(ignoredMemberships.length > 0 ? { ignored_memberships: ignoredMemberships } : {}),
    monitors: [...l.monitors].sort(byId).map((m) => ({
      ...m,
      alerts: sorted(m.alerts),
      groups: m.groups === null ? null : sorted(m.groups),
    })),
    alerts: [...l.alerts].sort(byId).map(({ violations: _volatile, ...a }) => ({
      ...a,
      alert_destinations: sorted(a.alert_destinations),
    })),
    groups: [...l.groups].sort(byId).map((g) => ({ id: g.id, name: g.name })),
    destinations: [...l.destinations].sort(byId),
  };
  return createHash('sha256').update(canonicalJson(canonical)).digest('hex');
}
