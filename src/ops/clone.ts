/**
 * Reading an account for a replica (`monsync emulator --clone-from URL`): the whole account, read
 * once and only read (the four lists, and single-group reads where monitors do not report their
 * groups), cross-checked as plan reads it, then written out as plain objects in the wire shape the
 * emulator's seed takes (src/emulator/store/seed.ts), ids included. The emulator knows nothing of
 * the API client: this module reads, the CLI hands the objects to startEmulator.
 *
 * The copy is of the canonical account (src/model/live.ts), so a replica read back through the client
 * gives exactly what the original gave: the same plan, the same fingerprint. Monitor types are the
 * exception: each is copied as the original sent it (`HTTP`, `Ping`, `DNS Query`, `smtp`), since any
 * other client reading the replica (a script, the status pages' types) must see what it would see
 * on the original. Other wire quirks (`timer: "5"`, `hostname`) are not copied: normalisation has
 * already made them canonical. Fields the original did not send (null) are left out. A monitor reports its `groups`
 * in the replica exactly when it did in the original, and its `alerts` when the original's list gave
 * its alerts (or it had none), so membership and the cross-checks are read the same way from both.
 * Not copied: pauses, alert states, test results and history (the replica simulates its own).
 */
import type { LiveState } from '../model/live.js';
import { plural } from '../util/plural.js';

export type WireObject = Record<string, unknown>;

/** The body of the emulator's seed (POST /_emulator/seed), ids given. */
export interface AccountCopy {
  destinations: WireObject[];
  monitors: WireObject[];
  alerts: WireObject[];
  groups: { id: string; name: string; monitors: string[] }[];
}

/** Every field but the null ones (never sent) and those the replica computes. */
function present(o: object, computed: readonly string[] = []): WireObject {
  const out: WireObject = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === null || v === undefined || computed.includes(k)) continue;
    out[k] = Array.isArray(v) ? [...(v as unknown[])] : typeof v === 'object' ? { ...(v as object) } : v;
  }
  return out;
}

/** `wireTypes`: each monitor's type as the original sent it, by id (the canonical one where absent). */
export function copyOf(live: LiveState, wireTypes: ReadonlyMap<string, string> = new Map()): AccountCopy {
  const hasAlerts = new Set(live.alerts.map((a) => a.monitor));
  return {
    destinations: live.destinations.map((d) => present(d)),
    monitors: live.monitors.map((m) => {
      const o = present(m, ['alerts', 'groups']);
      o['type'] = wireTypes.get(m.id) ?? m.type;
      // The emulator computes both lists from the relations; whether it reports them is what is copied.
      if (m.alerts.length > 0 || (!hasAlerts.has(m.id) && m.groups !== null)) o['alerts'] = [];
      if (m.groups !== null) o['groups'] = [];
      return o;
    }),
    alerts: live.alerts.map((a) => present(a)),
    groups: live.groups.map((g) => ({ id: g.id, name: g.name, monitors: g.members.map((m) => m.id) })),
  };
}

/** `12 monitors, 30 alerts, 3 groups, 4 destinations`. */
export function describeCopy(copy: AccountCopy): string {
  return [plural(copy.monitors.length, 'monitor'), plural(copy.alerts.length, 'alert'), plural(copy.groups.length, 'group'), plural(copy.destinations.length, 'destination')].join(', ');
}
