/**
 * The planner: desired state + live state -> Plan. Pure: no I/O, and no clock unless `now` is absent.
 *
 * Identity is by name, never by position: monitors by label, groups by name, destinations by label,
 * alerts by their monitor plus subject_init. Renames are declared (previous_labels, previous_names,
 * previous_subjects) so that a rename keeps the live id, and with it alert history and membership.
 * Anything ambiguous or contradictory is a problem the user must fix; every problem is collected and
 * thrown together as one PlanError. The one exception is copies monsync itself could have made (two
 * applies racing): copies of a declared monitor that all carry this owner's marker, of a declared
 * group's name, or of an alert on a monitor this configuration owns (or exact copies of a declared
 * one elsewhere) heal: one is kept and the others are deleted (`note.duplicate_of`). README's
 * "Semantics" section states every rule applied here; test/plan/semantics.test.ts pins each.
 */
import {
  DOCUMENTED_MONITOR_DEFAULTS,
  OWNER_META_KEY,
  type Alert,
  type Destination,
  type Group,
  type LiveState,
  type Monitor,
} from '../model/live.js';
import {
  ALERT_BODY_FIELDS,
  MONITOR_SPEC_FIELDS,
  type DesiredAlert,
  type DesiredGroup,
  type DesiredMonitor,
  type DesiredState,
  type SourceRef,
} from '../model/desired.js';
import {
  PLAN_FORMAT_VERSION,
  type Change,
  type ChangeNote,
  type IdOrRef,
  type NearMiss,
  type Plan,
  type UnmanagedCounts,
} from './types.js';
import { PlanError } from './errors.js';
import { filterIgnored, fingerprintLive } from './fingerprint.js';
import { matchesAny } from './glob.js';
import { orderChanges, refsInBody, summarize } from './order.js';

export { PlanError } from './errors.js';

export interface DiffOptions {
  /** Delete unmanaged monitors and undeclared groups; defaults to `settings.prune`. */
  prune?: boolean;
  /** Globs on keys: only matching changes (and what they need) are planned. */
  targets?: string[];
  /** Base URL of the account (no credentials). */
  target: string;
  now?: Date;
}

/** The monitor fields plan compares, in display order. */
export const MONITOR_FIELDS = ['label', ...MONITOR_SPEC_FIELDS, 'meta'] as const;
export type MonitorField = (typeof MONITOR_FIELDS)[number];

/** The alert fields plan compares, in display order. */
export const ALERT_FIELDS = ['subject_init', 'subject_term', ...ALERT_BODY_FIELDS] as const;

type Fields = Record<string, unknown>;
type MonitorClass = 'managed' | 'unmanaged' | 'foreign' | 'other';

const SPEC_OPTIONAL = [
  'port',
  'ipv6',
  'use_tls',
  'attachment',
  'custom_subject',
  'custom_body',
  'message_format',
  'ttl',
] as const;

const q = (s: string): string => JSON.stringify(s);
const at = (src: SourceRef | undefined): string => (src ? ` (${src.file}:${src.line})` : '');
const idPath = (kind: 'Monitor' | 'Alert' | 'Group', id: string): string =>
  `/v1/Config/${kind}/${encodeURIComponent(id)}/`;
const ids = (xs: readonly { id: string }[]): string => xs.map((x) => x.id).join(', ');
const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * Equal as JSON would see it: key order does not matter and an undefined field is no field. Plan
 * values are JSON data (strings, numbers, booleans, null, arrays, plain objects).
 */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const y = b as unknown[];
    if (a.length !== y.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i] ?? null, y[i] ?? null)) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let defined = 0;
  for (const k of Object.keys(x)) {
    const v = x[k];
    if (v === undefined) continue;
    defined++;
    if (!Object.hasOwn(y, k) || !sameValue(v, y[k])) return false;
  }
  for (const k of Object.keys(y)) if (y[k] !== undefined) defined--;
  return defined === 0;
}

function byId<T extends { id: string }>(a: T, b: T): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

const DIGITS = /^[0-9]+$/;

/** Ids in the order the service gave them out: by number when both are numbers ('9' before '10'), else as text. */
export function compareIds(a: string, b: string): number {
  if (DIGITS.test(a) && DIGITS.test(b)) {
    const x = a.replace(/^0+(?=.)/, '');
    const y = b.replace(/^0+(?=.)/, '');
    if (x.length !== y.length) return x.length - y.length;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The copy with the most `weight`, the lowest id among equals: one answer whatever order the account lists them in. */
function keeperOf<T extends { id: string }>(copies: readonly T[], weight: (x: T) => number = () => 0): T {
  let best = copies[0]!;
  let bestWeight = weight(best);
  for (let i = 1; i < copies.length; i++) {
    const c = copies[i]!;
    const w = weight(c);
    if (w > bestWeight || (w === bestWeight && compareIds(c.id, best.id) < 0)) {
      best = c;
      bestWeight = w;
    }
  }
  return best;
}

/** Alerts of a type the API cannot create (anything but up-down; '' is an entry without a type). */
function isOtherType(a: Alert): boolean {
  return a.type !== 'up-down' && a.type !== '';
}

function groupBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    const list = out.get(k);
    if (list) list.push(x);
    else out.set(k, [x]);
  }
  return out;
}

function uniq<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}

const NO_ALERTS: readonly Alert[] = [];

/** `alert "<monitor> / <subject>" (file:line)`, for problems. */
function alertContext(monitorLabel: string, da: DesiredAlert): string {
  return `alert ${q(`${monitorLabel} / ${da.subject_init}`)}${at(da.source)}`;
}

function hasRepeatedSubject(xs: readonly DesiredAlert[]): boolean {
  if (xs.length > 16) return new Set(xs.map((x) => x.subject_init)).size !== xs.length;
  for (let i = 1; i < xs.length; i++) {
    for (let j = 0; j < i; j++) if (xs[j]!.subject_init === xs[i]!.subject_init) return true;
  }
  return false;
}

/** The fields an update compares, all equal: what liveAlertFields and desiredAlertFields would show. */
function alertUnchanged(a: Alert, da: DesiredAlert, destIds: readonly string[]): boolean {
  return alertFieldsUnchanged(a, da) && sameSet(a.alert_destinations, destIds);
}

/** Two live alerts alike in every field a plan compares (and type): one is a copy of the other. */
function sameLiveAlert(a: Alert, b: Alert): boolean {
  return (
    a.type === b.type &&
    a.subject_init === b.subject_init &&
    a.subject_term === b.subject_term &&
    a.timeout === b.timeout &&
    a.message_init === b.message_init &&
    a.message_term === b.message_term &&
    a.down_only === b.down_only &&
    a.repeat === b.repeat &&
    sameSet(a.alert_destinations, b.alert_destinations)
  );
}

/** alertUnchanged but for the destinations. */
function alertFieldsUnchanged(a: Alert, da: DesiredAlert): boolean {
  return (
    eq(a.subject_init, da.subject_init) &&
    eq(a.subject_term, da.subject_term) &&
    eq(a.timeout, da.timeout) &&
    eq(a.message_init, da.message_init ?? '') &&
    eq(a.message_term, da.message_term ?? '') &&
    eq(a.down_only, da.down_only ?? false) &&
    eq(a.repeat, da.repeat ?? false)
  );
}

/** sameValue, with === first: nearly every field is a string, number or boolean equal to its counterpart. */
function eq(x: unknown, y: unknown): boolean {
  return x === y || sameValue(x, y);
}

/** The same ids at the same positions: the same membership, without building anything. */
function samePositions(live: readonly { id: string }[], desired: readonly { id: IdOrRef }[]): boolean {
  if (live.length !== desired.length) return false;
  for (let i = 0; i < live.length; i++) if (live[i]!.id !== desired[i]!.id) return false;
  return true;
}

/** uniq(xs), but xs itself when it has no repeats (the usual case); short lists are checked without a Set. */
function distinct<T>(xs: readonly T[]): readonly T[] {
  if (xs.length > 8) return new Set(xs).size === xs.length ? xs : uniq(xs);
  for (let i = 1; i < xs.length; i++) if (xs.lastIndexOf(xs[i]!, i - 1) !== -1) return uniq(xs);
  return xs;
}

function inIdOrder(xs: readonly { id: string }[]): boolean {
  for (let i = 1; i < xs.length; i++) if (xs[i - 1]!.id > xs[i]!.id) return false;
  return true;
}

/** The same members, ignoring order and repeats; without allocating for the short lists alerts have. */
function sameSet(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 1 && b.length === 1) return a[0] === b[0];
  if (a.length > 16 || b.length > 16) {
    const sa = new Set(a);
    const sb = new Set(b);
    if (sa.size !== sb.size) return false;
    for (const x of sa) if (!sb.has(x)) return false;
    return true;
  }
  for (const x of a) if (!b.includes(x)) return false;
  for (const x of b) if (!a.includes(x)) return false;
  return true;
}

/**
 * Comparable monitor values: each spec field as given, or its documented default where the source
 * has none (the service's null, the config's omission). Both sides of the diff go through here, so
 * a default can never differ between them and plan a perpetual change.
 */
function monitorValues(label: string, source: Partial<Record<(typeof MONITOR_SPEC_FIELDS)[number], unknown>>, meta: Record<string, string>): Fields {
  const defaults: Record<string, unknown> = DOCUMENTED_MONITOR_DEFAULTS;
  const out: Fields = { label };
  for (const f of MONITOR_SPEC_FIELDS) out[f] = source[f] ?? (f in defaults ? defaults[f] : source[f]);
  out.meta = meta;
  return out;
}

/** Live monitor values with documented defaults for what the service left null. */
export function liveMonitorFields(m: Monitor): Fields {
  return monitorValues(m.label, m, { ...m.meta });
}

/** Desired monitor values: documented defaults overlaid with the spec, plus the ownership marker. */
export function desiredMonitorFields(dm: DesiredMonitor, owner: string): Fields {
  return monitorValues(dm.label, dm.spec, { ...DOCUMENTED_MONITOR_DEFAULTS.meta, ...(dm.spec.meta ?? {}), [OWNER_META_KEY]: owner });
}

/**
 * What liveMonitorFields(m) and desiredMonitorFields(dm, owner) would compare equal in every field,
 * decided without building either.
 */
function monitorUnchanged(m: Monitor, dm: DesiredMonitor, owner: string): boolean {
  if (m.label !== dm.label) return false;
  const spec: Partial<Record<(typeof MONITOR_SPEC_FIELDS)[number], unknown>> = dm.spec;
  for (let i = 0; i < MONITOR_SPEC_FIELDS.length; i++) {
    const f = MONITOR_SPEC_FIELDS[i]!;
    let l: unknown = m[f];
    let d: unknown = spec[f];
    if (l === d && l != null) continue;
    if (l == null && SPEC_HAS_DEFAULT[i]) l = SPEC_DEFAULT[i];
    if (d == null && SPEC_HAS_DEFAULT[i]) d = SPEC_DEFAULT[i];
    if (l !== d && !sameValue(l, d)) return false;
  }
  return metaUnchanged(m.meta, dm.spec.meta, owner);
}

/** The documented default of each of MONITOR_SPEC_FIELDS, by position, and whether it has one. */
const SPEC_HAS_DEFAULT: readonly boolean[] = MONITOR_SPEC_FIELDS.map((f) => f in DOCUMENTED_MONITOR_DEFAULTS);
const SPEC_DEFAULT: readonly unknown[] = MONITOR_SPEC_FIELDS.map((f) => (DOCUMENTED_MONITOR_DEFAULTS as Record<string, unknown>)[f]);

/** sameValue({...live}, {...DOCUMENTED_MONITOR_DEFAULTS.meta, ...declared, [OWNER_META_KEY]: owner}), without the copies. */
function metaUnchanged(live: Record<string, string>, declared: Record<string, string> | undefined, owner: string): boolean {
  const base: Record<string, string> = DOCUMENTED_MONITOR_DEFAULTS.meta;
  // Fields the merged object has with a defined value, each counted once (later sources win).
  // for-in with an own-property check: the keys Object.keys would give, without the array.
  let wanted = 0;
  for (const k in base) {
    if (!Object.hasOwn(base, k) || k === OWNER_META_KEY || (declared !== undefined && Object.hasOwn(declared, k))) continue;
    if (base[k] === undefined) continue;
    wanted++;
    if (!hasSame(live, k, base[k])) return false;
  }
  if (declared !== undefined) {
    for (const k in declared) {
      if (!Object.hasOwn(declared, k) || k === OWNER_META_KEY || declared[k] === undefined) continue;
      wanted++;
      if (!hasSame(live, k, declared[k])) return false;
    }
  }
  wanted++;
  if (!hasSame(live, OWNER_META_KEY, owner)) return false;
  for (const k in live) if (Object.hasOwn(live, k) && live[k] !== undefined) wanted--;
  return wanted === 0;
}

function hasSame(o: Record<string, unknown>, k: string, v: unknown): boolean {
  return Object.hasOwn(o, k) && (o[k] === v || sameValue(o[k], v));
}

/** The value a monitor field takes in a request body: the service clears an attachment with ''. */
function wireMonitorValue(field: string, value: unknown): unknown {
  return field === 'attachment' && value === null ? '' : value;
}

function classify(m: Monitor, owner: string): MonitorClass {
  if (m.type !== 'smtp') return 'other';
  if (!Object.hasOwn(m.meta, OWNER_META_KEY)) return 'unmanaged';
  return m.meta[OWNER_META_KEY] === owner ? 'managed' : 'foreign';
}

/** Where a desired monitor found its live counterpart. */
interface MonitorMatch {
  live: Monitor;
  renamedFrom: string | null;
}

/** A declared monitor and what the plan found for it. */
interface Declared {
  dm: DesiredMonitor;
  match: MonitorMatch | null;
  /** Top-level alerts on this monitor, planned with its own. */
  extraAlerts: DesiredAlert[] | null;
}

export function diff(desired: DesiredState, liveAll: LiveState, options: DiffOptions): Plan {
  const owner = desired.settings.owner;
  const ignore = desired.settings.ignore;
  const prune = options.prune ?? desired.settings.prune;
  const targets = options.targets ?? [];
  const problems: string[] = [];
  const warnings: string[] = [];
  const problem = (msg: string): void => {
    problems.push(msg);
  };

  // ---- ignore -------------------------------------------------------------------------------
  const ignoredMonitorIds = new Set<string>();
  let ignoredGroups = 0;
  if (ignore.length > 0) {
    for (const dm of desired.monitors) {
      for (const l of [dm.label, ...dm.previous_labels]) {
        if (matchesAny(ignore, l)) problem(`monitor ${q(dm.label)}${at(dm.source)}: label ${q(l)} matches settings.ignore`);
      }
    }
    for (const dg of desired.groups) {
      for (const n of [dg.name, ...dg.previous_names]) {
        if (matchesAny(ignore, n)) problem(`group ${q(dg.name)}${at(dg.source)}: name ${q(n)} matches settings.ignore`);
      }
    }
    for (const m of liveAll.monitors) if (matchesAny(ignore, m.label)) ignoredMonitorIds.add(m.id);
    for (const g of liveAll.groups) if (matchesAny(ignore, g.name)) ignoredGroups++;
  }
  const ignoredCount = ignoredMonitorIds.size + ignoredGroups;
  const live = filterIgnored(liveAll, ignore);

  // ---- indexes --------------------------------------------------------------------------------
  // Plain loops: the account may hold tens of thousands of records, and this runs once per process,
  // mostly before the JIT has compiled anything, so every intermediate array counts.
  const monitorsByLabel = new Map<string, Monitor[]>();
  for (const m of live.monitors) {
    const list = monitorsByLabel.get(m.label);
    if (list) list.push(m);
    else monitorsByLabel.set(m.label, [m]);
  }
  // Ids are unique in the service, so a monitor's class is its own (no lookup by id needed).
  const classOf = (m: Monitor): MonitorClass => classify(m, owner);
  // In id order per monitor, as if the whole list had been sorted first (the sort is stable).
  const alertsByMonitor = new Map<string, Alert[]>();
  let unordered = false;
  for (const a of live.alerts) {
    const list = alertsByMonitor.get(a.monitor);
    if (!list) alertsByMonitor.set(a.monitor, [a]);
    else {
      if (list[list.length - 1]!.id > a.id) unordered = true;
      list.push(a);
    }
  }
  if (unordered) for (const list of alertsByMonitor.values()) if (!inIdOrder(list)) list.sort(byId);
  const destById = new Map<string, Destination>();
  for (const d of live.destinations) destById.set(d.id, d);
  const destsByLabel = groupBy(live.destinations, (d) => d.label);
  const desiredByLabel = new Map<string, Declared>();
  for (const dm of desired.monitors) {
    if (desiredByLabel.has(dm.label)) problem(`monitor ${q(dm.label)}${at(dm.source)} is declared more than once`);
    else desiredByLabel.set(dm.label, { dm, match: null, extraAlerts: null });
  }
  const describe = (m: Monitor): string => `monitor ${q(m.label)} (id ${m.id})`;
  const foreignOwner = (m: Monitor): string => q(m.meta[OWNER_META_KEY] ?? '');

  // ---- monitor identity -----------------------------------------------------------------------
  const takenBy = new Map<string, DesiredMonitor>();
  // Extra copies of a declared monitor (same label, all with this owner's marker: two applies
  // raced), by id, with the copy kept; deleted by this plan.
  const duplicateOf = new Map<string, Monitor>();
  // Live monitors a declared label names ambiguously: a problem, and never deleted by this plan.
  const blocked = new Set<string>();
  // How many live groups list each monitor, for choosing which copy to keep; built on first need.
  let memberships: Map<string, number> | null = null;
  const usage = (m: Monitor): number => {
    if (memberships === null) {
      memberships = new Map();
      for (const g of live.groups) for (const id of new Set(g.members.map((x) => x.id))) memberships.set(id, (memberships.get(id) ?? 0) + 1);
    }
    return (alertsByMonitor.get(m.id)?.length ?? 0) + (memberships.get(m.id) ?? 0);
  };
  /** Copies all carrying this owner's marker: the one kept (the one alerts and groups use most, else the lowest id). */
  const healCopies = (cands: readonly Monitor[]): Monitor | null => {
    for (const m of cands) if (classOf(m) !== 'managed') return null;
    const keeper = keeperOf(cands, usage);
    for (const m of cands) if (m !== keeper) duplicateOf.set(m.id, keeper);
    return keeper;
  };
  for (const d of desiredByLabel.values()) {
    const dm = d.dm;
    const cands = monitorsByLabel.get(dm.label);
    if (cands === undefined) continue;
    const only = cands.length === 1 ? classOf(cands[0]!) : null;
    if (only === 'managed' || only === 'unmanaged') {
      d.match = { live: cands[0]!, renamedFrom: null };
      takenBy.set(cands[0]!.id, dm);
      continue;
    }
    const keeper = cands.length > 1 ? healCopies(cands) : null;
    if (keeper !== null) {
      d.match = { live: keeper, renamedFrom: null };
      takenBy.set(keeper.id, dm);
      continue;
    }
    for (const m of cands) blocked.add(m.id);
    const others = cands.filter((m) => classOf(m) === 'other');
    const foreign = cands.filter((m) => classOf(m) === 'foreign');
    if (others.length > 0) {
      problem(
        `monitor ${q(dm.label)}${at(dm.source)}: the account has a monitor of type ${others
          .map((m) => `${m.type} (id ${m.id})`)
          .join(', ')} with this label; monsync manages only smtp monitors, so rename one of them`,
      );
    } else if (foreign.length > 0) {
      problem(
        `monitor ${q(dm.label)}${at(dm.source)} conflicts with ${foreign
          .map((m) => `${describe(m)}, which is managed by ${foreignOwner(m)}`)
          .join('; ')}; this configuration's owner is ${q(owner)}`,
      );
    } else {
      // One candidate that is ours or unmanaged was matched above, and copies that are all ours
      // heal: these are several, not all ours.
      problem(
        `monitor ${q(dm.label)}${at(dm.source)}: the account has ${cands.length} monitors with this label (ids ${ids(
          cands,
        )}); rename or delete all but one in the service`,
      );
    }
  }
  // A monitor found by its label while one of its previous labels also names a monitor that this
  // plan would delete: was it renamed, or is the old one still wanted? Guessing would delete a
  // monitor and its history, so the user decides.
  for (const { dm, match } of desiredByLabel.values()) {
    if (dm.previous_labels.length === 0 || match === null) continue;
    for (const prev of dm.previous_labels) {
      if (prev === dm.label || desiredByLabel.has(prev)) continue;
      const doomed = (monitorsByLabel.get(prev) ?? []).filter(
        (m) => classOf(m) === 'managed' || (classOf(m) === 'unmanaged' && prune),
      );
      if (doomed.length === 0) continue;
      problem(
        `monitor ${q(dm.label)}${at(dm.source)}: the account has both ${describe(match.live)} and ${doomed
          .map(describe)
          .join(', ')}, named by previous_labels; renaming is not possible and deleting the old one would lose its history. ` +
          `Delete or rename one of them in the service, or remove ${q(prev)} from previous_labels to have it deleted`,
      );
    }
  }

  // Previous labels only after every exact label has claimed its monitor: exact wins.
  const claimedByPrevious = new Map<string, DesiredMonitor>();
  for (const d of desiredByLabel.values()) {
    const dm = d.dm;
    if (dm.previous_labels.length === 0 || d.match !== null || (monitorsByLabel.get(dm.label)?.length ?? 0) > 0) continue;
    for (const prev of dm.previous_labels) {
      if (prev === dm.label) continue;
      const cands = monitorsByLabel.get(prev) ?? [];
      const smtp = cands.filter((m) => classOf(m) !== 'other');
      for (const m of cands.filter((c) => classOf(c) === 'other')) {
        warnings.push(
          `monitor ${q(dm.label)}: previous label ${q(prev)} belongs to a ${m.type} monitor (id ${m.id}); not treated as a rename`,
        );
      }
      if (smtp.length === 0) continue;
      const foreign = smtp.filter((m) => classOf(m) === 'foreign');
      if (foreign.length > 0) {
        problem(
          `monitor ${q(dm.label)}${at(dm.source)}: previous label ${q(prev)} names ${foreign
            .map((m) => `${describe(m)}, which is managed by ${foreignOwner(m)}`)
            .join('; ')}; this configuration's owner is ${q(owner)}`,
        );
        break;
      }
      // Copies already sorted out by a declared label (kept or to be deleted) are that label's.
      const settled = smtp.find((m) => takenBy.has(m.id) || duplicateOf.has(m.id));
      let m: Monitor;
      if (smtp.length === 1 || settled !== undefined) {
        m = settled === undefined ? smtp[0]! : (duplicateOf.get(settled.id) ?? settled);
      } else {
        const keeper = healCopies(smtp);
        if (keeper === null) {
          problem(
            `monitor ${q(dm.label)}${at(dm.source)}: previous label ${q(prev)} matches ${smtp.length} monitors (ids ${ids(
              smtp,
            )}); rename or delete all but one in the service`,
          );
          for (const x of smtp) blocked.add(x.id);
          break;
        }
        m = keeper;
      }
      if (takenBy.has(m.id)) {
        const other = claimedByPrevious.get(m.id);
        if (other) {
          problem(
            `monitors ${q(other.label)} and ${q(dm.label)} both name ${describe(m)} as a previous label; keep it in one of them`,
          );
          break;
        }
        continue; // claimed by its exact label
      }
      d.match = { live: m, renamedFrom: prev };
      takenBy.set(m.id, dm);
      claimedByPrevious.set(m.id, dm);
      break;
    }
  }

  /**
   * Resolves a monitor label used by a reference (top-level alert, group member) that no declared
   * monitor has to a live monitor the plan does not change. The context of a problem is made only
   * when there is one.
   */
  const resolveLiveMonitor = (label: string, context: () => string): Monitor | null => {
    if (matchesAny(ignore, label)) {
      problem(`${context()}: monitor ${q(label)} matches settings.ignore`);
      return null;
    }
    const cands = monitorsByLabel.get(label) ?? [];
    if (cands.length === 0) {
      problem(`${context()}: no monitor ${q(label)} in the configuration or the account`);
      return null;
    }
    if (cands.length > 1) {
      problem(`${context()}: the account has ${cands.length} monitors labelled ${q(label)} (ids ${ids(cands)}); rename or delete all but one in the service`);
      return null;
    }
    const m = cands[0]!;
    const renamer = takenBy.get(m.id);
    if (renamer) {
      problem(`${context()}: ${describe(m)} is renamed to ${q(renamer.label)} by this configuration; refer to it by its new label`);
      return null;
    }
    if (classOf(m) === 'managed') {
      problem(
        `${context()}: ${describe(m)} is marked ${OWNER_META_KEY}: ${q(owner)} but not declared, so this plan would delete it; declare it or drop the reference`,
      );
      return null;
    }
    return m;
  };

  // ---- alert homes (needed before deletes: a referenced unmanaged monitor is never pruned) -----
  // Top-level alerts: on declared monitors they join the declared ones; live monitors that get
  // some are planned after all declared monitors, in order of first reference.
  const liveHomes = new Map<string, { live: Monitor; desired: DesiredAlert[] }>();
  const referenced = new Set<string>();
  for (const da of desired.alerts) {
    const context = (): string => `alert ${q(`${da.monitor} / ${da.subject_init}`)}${at(da.source)}`;
    const d = desiredByLabel.get(da.monitor);
    if (d) {
      (d.extraAlerts ??= []).push(da);
      continue;
    }
    const m = resolveLiveMonitor(da.monitor, context);
    if (!m) continue;
    if (classOf(m) === 'foreign') {
      problem(`${context()}: ${describe(m)} is managed by ${foreignOwner(m)}, whose configuration owns its alerts`);
      continue;
    }
    referenced.add(m.id);
    const home = liveHomes.get(m.id);
    if (home) home.desired.push(da);
    else liveHomes.set(m.id, { live: m, desired: [da] });
  }

  // ---- group identity and membership ---------------------------------------------------------
  const groupsByName = groupBy(live.groups, (g) => g.name);
  const desiredGroups = new Map<string, DesiredGroup>();
  for (const dg of desired.groups) {
    if (desiredGroups.has(dg.name)) problem(`group ${q(dg.name)}${at(dg.source)} is declared more than once`);
    else desiredGroups.set(dg.name, dg);
  }
  const groupMatches = new Map<DesiredGroup, { live: Group; renamedFrom: string | null }>();
  const groupTaken = new Map<string, DesiredGroup>();
  // Extra copies of a declared group (a group has no owner marker: its declared name makes every
  // copy this configuration's), by id, with the copy kept (the lowest id).
  const groupDuplicateOf = new Map<string, Group>();
  const healGroups = (cands: readonly Group[], dg: DesiredGroup): Group => {
    const keeper = keeperOf(cands);
    for (const g of cands) {
      if (g === keeper) continue;
      groupDuplicateOf.set(g.id, keeper);
      groupTaken.set(g.id, dg);
    }
    return keeper;
  };
  for (const dg of desiredGroups.values()) {
    const cands = groupsByName.get(dg.name) ?? [];
    if (cands.length === 0) continue;
    const g = cands.length === 1 ? cands[0]! : healGroups(cands, dg);
    groupMatches.set(dg, { live: g, renamedFrom: null });
    groupTaken.set(g.id, dg);
  }
  const groupClaimedByPrevious = new Map<string, DesiredGroup>();
  for (const dg of desiredGroups.values()) {
    if (groupMatches.has(dg) || (groupsByName.get(dg.name)?.length ?? 0) > 0) continue;
    for (const prev of dg.previous_names) {
      if (prev === dg.name) continue;
      const cands = groupsByName.get(prev) ?? [];
      if (cands.length === 0) continue;
      // Copies a declared name already sorted out are that name's; otherwise this name heals them.
      const settled = cands.find((x) => groupTaken.has(x.id));
      const g = settled !== undefined ? (groupDuplicateOf.get(settled.id) ?? settled) : cands.length === 1 ? cands[0]! : healGroups(cands, dg);
      if (groupTaken.has(g.id)) {
        const other = groupClaimedByPrevious.get(g.id);
        if (other) {
          problem(`groups ${q(other.name)} and ${q(dg.name)} both name group ${q(g.name)} (id ${g.id}) as a previous name; keep it in one of them`);
          break;
        }
        continue;
      }
      groupMatches.set(dg, { live: g, renamedFrom: prev });
      groupTaken.set(g.id, dg);
      groupClaimedByPrevious.set(g.id, dg);
      break;
    }
  }
  // The rule of previous_labels: the new name and an old one both live, the old one to be deleted
  // (by --prune, groups having no owner): only the user knows whether it is still wanted.
  if (prune) {
    for (const dg of desiredGroups.values()) {
      const match = groupMatches.get(dg);
      if (match === undefined || match.renamedFrom !== null) continue;
      for (const prev of dg.previous_names) {
        if (prev === dg.name || desiredGroups.has(prev)) continue;
        const doomed = (groupsByName.get(prev) ?? []).filter((g) => !groupTaken.has(g.id));
        if (doomed.length === 0) continue;
        for (const g of doomed) groupTaken.set(g.id, dg);
        problem(
          `group ${q(dg.name)}${at(dg.source)}: the account has both group ${q(match.live.name)} (id ${match.live.id}) and ${doomed
            .map((g) => `group ${q(g.name)} (id ${g.id})`)
            .join(', ')}, named by previous_names; renaming is not possible and --prune would delete the old one. ` +
            `Delete or rename one of them in the service, or remove ${q(prev)} from previous_names to have it deleted`,
        );
      }
    }
  }
  interface Member {
    id: IdOrRef;
    label: string;
  }
  const desiredMembers = new Map<DesiredGroup, Member[]>();
  for (const dg of desiredGroups.values()) {
    if (dg.monitors === null) continue;
    const members: Member[] = [];
    const context = (): string => `group ${q(dg.name)}${at(dg.source)}`;
    for (const label of distinct(dg.monitors)) {
      const d = desiredByLabel.get(label);
      if (d) {
        members.push({ id: d.match ? d.match.live.id : { $ref: `monitor:${d.dm.label}` }, label: d.dm.label });
        continue;
      }
      const m = resolveLiveMonitor(label, context);
      if (!m) continue;
      referenced.add(m.id);
      members.push({ id: m.id, label: m.label });
    }
    desiredMembers.set(dg, members);
  }

  // ---- monitor changes -------------------------------------------------------------------------
  // Unmanaged monitors nothing declared took, by their label folded (case, surrounding spaces); built
  // when a plan first creates a monitor.
  let folded: Map<string, Monitor[]> | null = null;
  const fold = (label: string): string => label.trim().toLowerCase();
  /** An unmanaged live monitor whose label differs from `label` only in case or surrounding spaces. */
  const nearMiss = (label: string): NearMiss | undefined => {
    if (folded === null) {
      folded = new Map();
      for (const m of live.monitors) {
        if (classOf(m) !== 'unmanaged' || takenBy.has(m.id) || blocked.has(m.id)) continue;
        const k = fold(m.label);
        const list = folded.get(k);
        if (list) list.push(m);
        else folded.set(k, [m]);
      }
    }
    const cands = folded.get(fold(label))?.filter((m) => m.label !== label);
    if (cands === undefined || cands.length === 0) return undefined;
    const m = keeperOf(cands);
    const differs = m.label.trim() === label.trim() ? 'spaces' : m.label.toLowerCase() === label.toLowerCase() ? 'case' : 'case and spaces';
    return { label: m.label, id: m.id, differs };
  };
  const changes: Change[] = [];
  const unmanaged: UnmanagedCounts = {
    monitors: 0,
    foreign_monitors: 0,
    alerts: 0,
    groups: 0,
    other_type_monitors: 0,
    ignored: ignoredCount,
  };
  for (const { dm, match } of desiredByLabel.values()) {
    // Most declared monitors match their live one exactly: find that out without building the
    // before and after values.
    if (match && monitorUnchanged(match.live, dm, owner)) continue;
    const after = desiredMonitorFields(dm, owner);
    if (!match) {
      const given: string[] = ['label', 'ip_address', 'test_account', 'timer', 'time_zone'];
      const body: Fields = {
        type: 'smtp',
        label: dm.label,
        ip_address: dm.spec.ip_address,
        test_account: dm.spec.test_account,
        timer: dm.spec.timer,
        time_zone: dm.spec.time_zone,
      };
      for (const f of SPEC_OPTIONAL) {
        const v = dm.spec[f];
        // An attachment of null is "none", which is what omitting it means on create.
        if (v === undefined || v === null) continue;
        given.push(f);
        body[f] = v;
      }
      given.push('meta');
      body.meta = after.meta;
      const near = nearMiss(dm.label);
      if (near !== undefined && prune && !referenced.has(near.id)) {
        // --prune would delete the very monitor the configuration most likely means, with its history.
        blocked.add(near.id);
        problem(
          `monitor ${q(dm.label)}${at(dm.source)}: the account has unmanaged monitor ${q(near.label)} (id ${near.id}), whose label differs only in ${near.differs}, ` +
            `and --prune would delete it while creating ${q(dm.label)}. To adopt it, use its exact label or add ${q(near.label)} to previous_labels; ` +
            'otherwise delete or rename it in the service',
        );
      }
      changes.push({
        ref: `monitor:${dm.label}`,
        action: 'create',
        kind: 'monitor',
        key: dm.label,
        id: null,
        before: null,
        after,
        changed: MONITOR_FIELDS.filter((f) => given.includes(f)),
        depends_on: [],
        call: { method: 'POST', path: '/v1/Config/Monitor/', body },
        ...(near !== undefined ? { note: { near_miss: near } } : {}),
        source: dm.source,
      });
      continue;
    }
    const m = match.live;
    const before = liveMonitorFields(m);
    const changed = MONITOR_FIELDS.filter((f) => !sameValue(before[f], after[f]));
    if (changed.length === 0) continue;
    const body: Fields = {};
    for (const f of changed) body[f] = wireMonitorValue(f, after[f]);
    const note: ChangeNote = {};
    if (classOf(m) === 'unmanaged') note.adopt = true;
    if (match.renamedFrom !== null) note.renamed_from = m.label;
    changes.push({
      ref: `monitor:${dm.label}`,
      action: 'update',
      kind: 'monitor',
      key: dm.label,
      id: m.id,
      before,
      after,
      changed,
      depends_on: [],
      call: { method: 'PUT', path: idPath('Monitor', m.id), body },
      ...(Object.keys(note).length > 0 ? { note } : {}),
      source: dm.source,
    });
  }

  const monitorDeletes: Change[] = [];
  const doomed: Monitor[] = [];
  let referencedKept = 0;
  for (const m of live.monitors) {
    const c = classOf(m);
    // Monitors of other types are never taken by a declared one.
    if (c !== 'other' && takenBy.has(m.id)) continue;
    // A label in question (a problem already says so) is never settled by a delete.
    if (blocked.size > 0 && blocked.has(m.id)) continue;
    let remove = false;
    if (c === 'other') {
      unmanaged.other_type_monitors++;
    } else {
      remove = c === 'managed' || (c === 'unmanaged' && prune && !referenced.has(m.id));
      if (remove) {
        doomed.push(m);
      } else {
        unmanaged.monitors++;
        if (c === 'foreign') unmanaged.foreign_monitors!++;
        else if (c === 'unmanaged' && prune) referencedKept++;
      }
    }
    // Undeclared alerts on monitors left alone: neither declared, deleted nor given top-level alerts.
    if (!remove && !(liveHomes.size > 0 && liveHomes.has(m.id))) unmanaged.alerts += alertsByMonitor.get(m.id)?.length ?? 0;
  }
  if (referencedKept > 0) unmanaged.referenced_monitors = referencedKept;
  // Deletes in id order; sorting only them gives the order sorting the whole account would.
  if (!inIdOrder(doomed)) doomed.sort(byId);
  for (const m of doomed) {
    const c = classOf(m);
    const liveAlerts = alertsByMonitor.get(m.id) ?? NO_ALERTS;
    const cascade = uniq([...liveAlerts.map((a) => a.id), ...m.alerts]).length;
    const note: ChangeNote = c === 'managed' ? { cascade_alerts: cascade } : { pruned: true, cascade_alerts: cascade };
    const keeper = duplicateOf.get(m.id);
    if (keeper !== undefined) note.duplicate_of = keeper.id;
    // The service deletes a monitor's alerts with it, and alerts of other types can never be made again.
    const lost = liveAlerts.filter(isOtherType);
    if (lost.length > 0) note.other_type_alerts = lost.map((a) => ({ id: a.id, type: a.type, subject_init: a.subject_init }));
    const change: Change = {
      ref: `monitor:${m.label}`,
      action: 'delete',
      kind: 'monitor',
      key: m.label,
      id: m.id,
      before: liveMonitorFields(m),
      after: null,
      changed: [],
      depends_on: [],
      call: { method: 'DELETE', path: idPath('Monitor', m.id) },
      note,
    };
    monitorDeletes.push(change);
    changes.push(change);
  }

  // ---- alerts ---------------------------------------------------------------------------------
  const warnedUnsubscribed = new Set<string>();
  // Other-type alerts on monitors this configuration owns, and old alerts a problem is about.
  let otherTypeKept = 0;
  const blockedAlerts = new Set<string>();
  const destLabel = (id: string): string => destById.get(id)?.label ?? id;
  /** Ids of the declared destinations; problems and warnings in the order alerts are planned. */
  const resolveDestinations = (da: DesiredAlert, monitorLabel: string): string[] => {
    const labels = da.alert_destinations;
    // Short lists (all real ones) skip repeats by position rather than through a Set.
    const list = labels.length > 16 ? uniq(labels) : labels;
    const out: string[] = [];
    for (let i = 0; i < list.length; i++) {
      const label = list[i]!;
      if (list === labels && labels.indexOf(label) !== i) continue;
      const cands: Destination[] = destsByLabel.get(label) ?? [];
      if (cands.length === 0) {
        const known = [...destsByLabel.keys()].sort().map(q).join(', ');
        problem(
          `${alertContext(monitorLabel, da)}: unknown alert destination ${q(label)}${known ? `; the account has ${known}` : '; the account has none'}`,
        );
        continue;
      }
      if (cands.length > 1) {
        problem(
          `${alertContext(monitorLabel, da)}: alert destination label ${q(label)} is ambiguous (ids ${ids(cands)}); rename all but one in the service`,
        );
        continue;
      }
      const d = cands[0]!;
      if (!d.subscribed && !warnedUnsubscribed.has(d.id)) {
        warnedUnsubscribed.add(d.id);
        warnings.push(`alert destination ${q(d.label)} (id ${d.id}) has unsubscribed: it receives no alerts`);
      }
      out.push(d.id);
    }
    return out;
  };
  const liveAlertFields = (a: Alert): Fields => ({
    subject_init: a.subject_init,
    subject_term: a.subject_term,
    timeout: a.timeout,
    alert_destinations: uniq(a.alert_destinations.map(destLabel)).sort(),
    message_init: a.message_init,
    message_term: a.message_term,
    down_only: a.down_only,
    repeat: a.repeat,
  });
  const desiredAlertFields = (da: DesiredAlert, destIds: readonly string[]): Fields => ({
    subject_init: da.subject_init,
    subject_term: da.subject_term,
    timeout: da.timeout,
    alert_destinations: uniq(destIds.map(destLabel)).sort(),
    message_init: da.message_init ?? '',
    message_term: da.message_term ?? '',
    down_only: da.down_only ?? false,
    repeat: da.repeat ?? false,
  });
  const alertBody = (da: DesiredAlert, destIds: string[], after: Fields, monitorId: IdOrRef): Fields => ({
    type: 'up-down',
    monitor: monitorId,
    subject_init: da.subject_init,
    subject_term: da.subject_term,
    timeout: da.timeout,
    alert_destinations: destIds,
    // The service misbehaves unless both messages are sent (service notes): always send them.
    message_init: after.message_init,
    message_term: after.message_term,
    down_only: after.down_only,
    repeat: after.repeat,
  });

  /**
   * The alert changes of one monitor: `label` is the one it has once the plan is applied,
   * `createRef` the ref of its create change when the plan creates it; undeclared live alerts are
   * deleted where the plan `owned` them (managed and adopted monitors), else left alone.
   */
  const planAlerts = (
    label: string,
    liveMonitor: Monitor | null,
    createRef: string | null,
    owned: boolean,
    alerts: readonly DesiredAlert[],
  ): void => {
    let declared = alerts;
    if (hasRepeatedSubject(declared)) {
      const seen = new Set<string>();
      const kept: DesiredAlert[] = [];
      for (const da of declared) {
        if (seen.has(da.subject_init)) {
          problem(`${alertContext(label, da)} is declared more than once`);
          continue;
        }
        seen.add(da.subject_init);
        kept.push(da);
      }
      declared = kept;
    }
    const liveAlerts = liveMonitor ? (alertsByMonitor.get(liveMonitor.id) ?? NO_ALERTS) : NO_ALERTS;
    const { partner, unmatchedLive } = pairAlerts(declared, liveAlerts, owned);
    const monitorId: IdOrRef = liveMonitor ? liveMonitor.id : { $ref: createRef! };

    for (let i = 0; i < declared.length; i++) {
      const a = partner[i];
      if (a === undefined) continue;
      const da = declared[i]!;
      if (a.type !== 'up-down' && a.type !== '') {
        // The update's body says `type: "up-down"`: it would convert the alert, which no field of the plan shows.
        // ('' is a list entry without a type: nothing says it is another type.)
        problem(
          `${alertContext(label, da)} matches alert ${q(a.subject_init)} (id ${a.id}) of type ${q(
            a.type,
          )}; monsync manages only up-down alerts, so give the declared alert another subject_init`,
        );
        continue;
      }
      const destIds = resolveDestinations(da, label);
      if (alertUnchanged(a, da, destIds)) continue;
      const after = desiredAlertFields(da, destIds);
      const before = liveAlertFields(a);
      const changed = ALERT_FIELDS.filter((f) =>
        f === 'alert_destinations' ? !sameSet(a.alert_destinations, destIds) : !sameValue(before[f], after[f]),
      );
      if (changed.length === 0) continue;
      changes.push({
        ref: `alert:${label}/${da.subject_init}`,
        action: 'update',
        kind: 'alert',
        key: `${label} / ${da.subject_init}`,
        monitor: label,
        id: a.id,
        before,
        after,
        changed,
        depends_on: [],
        call: { method: 'PUT', path: idPath('Alert', a.id), body: alertBody(da, destIds, after, monitorId) },
        ...(a.subject_init !== da.subject_init ? { note: { subject_changed_from: a.subject_init } } : {}),
        source: da.source,
      });
    }
    let creates = 0;
    for (let i = 0; i < declared.length; i++) {
      if (partner[i] !== undefined) continue;
      creates++;
      const da = declared[i]!;
      const destIds = resolveDestinations(da, label);
      const after = desiredAlertFields(da, destIds);
      const given: string[] = ['subject_init', 'subject_term', 'timeout', 'alert_destinations'];
      for (const f of ['message_init', 'message_term', 'down_only', 'repeat'] as const) {
        if (da[f] !== undefined) given.push(f);
      }
      changes.push({
        ref: `alert:${label}/${da.subject_init}`,
        action: 'create',
        kind: 'alert',
        key: `${label} / ${da.subject_init}`,
        monitor: label,
        id: null,
        before: null,
        after,
        changed: ALERT_FIELDS.filter((f) => given.includes(f)),
        depends_on: [],
        call: { method: 'POST', path: '/v1/Config/Alert/', body: alertBody(da, destIds, after, monitorId) },
        source: da.source,
      });
    }
    if (unmatchedLive.length === 0) return;
    // The live alert each declared one keeps, by its live subject: an unmatched live alert with the
    // same subject is an extra copy of it (two applies raced).
    const kept = new Map<string, { a: Alert; da: DesiredAlert }>();
    for (let i = 0; i < declared.length; i++) {
      const a = partner[i];
      if (a !== undefined && !kept.has(a.subject_init)) kept.set(a.subject_init, { a, da: declared[i]! });
    }
    if (owned) oldAndNewBothLive(label, declared, partner, unmatchedLive);
    const leftAlone: Alert[] = [];
    const differing = new Set<string>();
    for (const a of unmatchedLive) {
      // Alerts of other types cannot be created through the API: deleting one could never be undone.
      if (isOtherType(a)) {
        if (owned) otherTypeKept++;
        else unmanaged.alerts++;
        continue;
      }
      if (blockedAlerts.size > 0 && blockedAlerts.has(a.id)) continue;
      const copyOf = kept.get(a.subject_init);
      if (!owned) {
        // On a monitor this configuration does not own, only an exact copy of the alert it declares
        // is surely a duplicate; the rest is somebody else's.
        if (copyOf === undefined) {
          unmanaged.alerts++;
          leftAlone.push(a);
          continue;
        }
        if (!sameLiveAlert(a, copyOf.a)) {
          if (!differing.has(a.subject_init)) {
            differing.add(a.subject_init);
            const copies = (alertsByMonitor.get(liveMonitor!.id) ?? NO_ALERTS).filter((x) => x.subject_init === a.subject_init);
            problem(
              `${alertContext(label, copyOf.da)}: ${describe(liveMonitor!)} has ${copies.length} alerts with this subject that differ (ids ${ids(
                copies,
              )}); delete all but one in the service`,
            );
          }
          continue;
        }
      }
      changes.push({
        ref: `alert:${label}/${a.subject_init}`,
        action: 'delete',
        kind: 'alert',
        key: `${label} / ${a.subject_init}`,
        monitor: label,
        id: a.id,
        before: liveAlertFields(a),
        after: null,
        changed: [],
        depends_on: [],
        call: { method: 'DELETE', path: idPath('Alert', a.id) },
        ...(copyOf !== undefined ? { note: { duplicate_of: copyOf.a.id } } : {}),
      });
    }
    // The rule that pairs a lone leftover on a monitor this configuration owns, as a hint where it does not.
    if (!owned && creates === 1 && leftAlone.length === 1) {
      const da = declared[partner.indexOf(undefined)]!;
      const old = leftAlone[0]!;
      warnings.push(
        `alert ${q(`${label} / ${da.subject_init}`)}: monitor ${q(label)} also has alert ${q(old.subject_init)} (id ${old.id}), which this plan leaves alone; ` +
          `if it is this alert under an earlier subject, add ${q(old.subject_init)} to previous_subjects to update it instead of adding a second alert`,
      );
    }
  };
  /**
   * Previous subjects work as previous labels do: when a declared alert found its live alert by its
   * subject while an old subject names another live alert this plan would delete, the user decides.
   */
  const oldAndNewBothLive = (
    label: string,
    declared: readonly DesiredAlert[],
    partner: readonly (Alert | undefined)[],
    unmatchedLive: readonly Alert[],
  ): void => {
    for (let i = 0; i < declared.length; i++) {
      const da = declared[i]!;
      const a = partner[i];
      if (a === undefined || a.subject_init !== da.subject_init || !da.previous_subjects?.length) continue;
      for (const prev of da.previous_subjects) {
        if (prev === da.subject_init || declared.some((x) => x.subject_init === prev)) continue;
        const old = unmatchedLive.filter((x) => x.subject_init === prev && !isOtherType(x));
        if (old.length === 0) continue;
        for (const x of old) blockedAlerts.add(x.id);
        problem(
          `${alertContext(label, da)}: monitor ${q(label)} has both alert ${q(a.subject_init)} (id ${a.id}) and ${old
            .map((x) => `alert ${q(x.subject_init)} (id ${x.id})`)
            .join(', ')}, named by previous_subjects; changing the subject is not possible and deleting the old one would lose it. ` +
            `Delete or change one of them in the service, or remove ${q(prev)} from previous_subjects to have it deleted`,
        );
      }
    }
  };
  /**
   * A live alert's destinations are what the declared labels resolve to, and resolving them would
   * report nothing (no unknown or ambiguous label, no unsubscribed destination not yet warned of).
   * No side effects, no allocations.
   */
  const destinationsQuietlyEqual = (da: DesiredAlert, a: Alert): boolean => {
    const labels = da.alert_destinations;
    const liveIds = a.alert_destinations;
    if (labels.length > 8 || liveIds.length > 8) return false;
    // Distinct labels resolve to distinct destinations: equal sets once every resolved id is live
    // and the counts of distinct entries agree.
    let distinctLabels = 0;
    for (let i = 0; i < labels.length; i++) {
      const label = labels[i]!;
      if (labels.indexOf(label) !== i) continue;
      distinctLabels++;
      const cands = destsByLabel.get(label);
      if (cands === undefined || cands.length !== 1) return false;
      const d = cands[0]!;
      if ((!d.subscribed && !warnedUnsubscribed.has(d.id)) || !liveIds.includes(d.id)) return false;
    }
    let distinctIds = 0;
    for (let i = 0; i < liveIds.length; i++) if (liveIds.indexOf(liveIds[i]!) === i) distinctIds++;
    return distinctIds === distinctLabels;
  };
  /**
   * What planAlerts would find for most monitors, decided without its side effects: the declared
   * and live alerts have the same subjects in the same order (so they pair by position), all of
   * type up-down, equal in every field, with nothing to report. Such a monitor plans nothing.
   */
  const alertsQuietlyUnchanged = (declared: readonly DesiredAlert[], liveAlerts: readonly Alert[]): boolean => {
    if (declared.length !== liveAlerts.length || hasRepeatedSubject(declared)) return false;
    for (let i = 0; i < declared.length; i++) {
      const da = declared[i]!;
      const a = liveAlerts[i]!;
      if (da.subject_init !== a.subject_init || (a.type !== 'up-down' && a.type !== '')) return false;
      if (!alertFieldsUnchanged(a, da) || !destinationsQuietlyEqual(da, a)) return false;
    }
    return true;
  };
  for (const { dm, match, extraAlerts: extra } of desiredByLabel.values()) {
    const m = match?.live ?? null;
    const alerts = extra ? [...dm.alerts, ...extra] : dm.alerts;
    if (m !== null && alertsQuietlyUnchanged(alerts, alertsByMonitor.get(m.id) ?? NO_ALERTS)) continue;
    planAlerts(dm.label, m, m ? null : `monitor:${dm.label}`, true, alerts);
  }
  for (const h of liveHomes.values()) {
    planAlerts(h.live.label, h.live, null, false, h.desired);
  }
  if (otherTypeKept > 0) unmanaged.other_type_alerts = otherTypeKept;

  // ---- groups ----------------------------------------------------------------------------------
  // Needed only for groups that change.
  let monitorById: Map<string, Monitor> | null = null;
  const memberLabel = (member: { id: string; label: string | null }): string => {
    if (monitorById === null) monitorById = new Map(live.monitors.map((m) => [m.id, m]));
    return monitorById.get(member.id)?.label ?? member.label ?? member.id;
  };
  const removalsByMonitor = new Map<string, string[]>();
  /**
   * A live group declared without `monitors`: its membership is not managed, so only its name is
   * (a rename sends the name alone, which keeps the members). A create of one makes it empty.
   */
  const planNameOnly = (dg: DesiredGroup, match: { live: Group; renamedFrom: string | null }): void => {
    const g = match.live;
    if (g.name === dg.name) return;
    const monitors = uniq(g.members.filter((mem) => !ignoredMonitorIds.has(mem.id)).map(memberLabel)).sort();
    changes.push({
      ref: `group:${dg.name}`,
      action: 'update',
      kind: 'group',
      key: dg.name,
      id: g.id,
      before: { name: g.name, monitors },
      after: { name: dg.name, monitors },
      changed: ['name'],
      depends_on: [],
      call: { method: 'PUT', path: idPath('Group', g.id), body: { name: dg.name } },
      note: { renamed_from: g.name },
      source: dg.source,
    });
  };
  // Which group last listed an id, live and desired: one pair of maps for all groups instead of
  // two sets per group, for the common answer "no change".
  const liveMark = new Map<string, number>();
  const desiredMark = new Map<string, number>();
  let groupNo = 0;
  const ignoring = ignoredMonitorIds.size > 0;
  for (const dg of desiredGroups.values()) {
    const match = groupMatches.get(dg);
    if (dg.monitors === null && match !== undefined) {
      planNameOnly(dg, match);
      continue;
    }
    const members = desiredMembers.get(dg) ?? [];
    if (match && match.live.name === dg.name && !ignoring && samePositions(match.live.members, members)) continue;
    if (match && match.live.name === dg.name) {
      groupNo++;
      for (const mem of match.live.members) {
        if (!ignoring || !ignoredMonitorIds.has(mem.id)) liveMark.set(mem.id, groupNo);
      }
      let same = true;
      for (const m of members) {
        if (typeof m.id !== 'string' || liveMark.get(m.id) !== groupNo) {
          same = false;
          break;
        }
        desiredMark.set(m.id, groupNo);
      }
      if (same) {
        for (const mem of match.live.members) {
          if ((!ignoring || !ignoredMonitorIds.has(mem.id)) && desiredMark.get(mem.id) !== groupNo) {
            same = false;
            break;
          }
        }
      }
      if (same) continue;
    }
    const after: Fields = { name: dg.name, monitors: members.map((m) => m.label).sort() };
    if (!match) {
      const body: Fields = { name: dg.name };
      if (members.length > 0) body.monitors = members.map((m) => m.id);
      changes.push({
        ref: `group:${dg.name}`,
        action: 'create',
        kind: 'group',
        key: dg.name,
        id: null,
        before: null,
        after,
        changed: members.length > 0 ? ['name', 'monitors'] : ['name'],
        depends_on: [],
        call: { method: 'POST', path: '/v1/Config/Group/', body },
        source: dg.source,
      });
      continue;
    }
    const g = match.live;
    // Ignored monitors stay where they are: ignore means hands off, also for membership.
    const keptIgnored = uniq(g.members.filter((mem) => ignoredMonitorIds.has(mem.id)).map((mem) => mem.id));
    const liveMembers = g.members.filter((mem) => !ignoredMonitorIds.has(mem.id));
    const liveIds = new Set(liveMembers.map((mem) => mem.id));
    const desiredIds = new Set(members.flatMap((m) => (typeof m.id === 'string' ? [m.id] : [])));
    const added = members.filter((m) => typeof m.id !== 'string' || !liveIds.has(m.id));
    const removed = uniq(liveMembers.map((mem) => mem.id)).filter((id) => !desiredIds.has(id));
    const liveMemberById = new Map(liveMembers.map((mem) => [mem.id, mem]));
    const before: Fields = {
      name: g.name,
      monitors: [...liveMemberById.values()].map(memberLabel).sort(),
    };
    const changed: string[] = [];
    if (g.name !== dg.name) changed.push('name');
    if (added.length > 0 || removed.length > 0) changed.push('monitors');
    if (changed.length === 0) continue;
    const note: ChangeNote = {};
    if (match.renamedFrom !== null) note.renamed_from = g.name;
    if (added.length > 0) note.members_added = added.map((m) => m.label).sort();
    if (removed.length > 0) {
      note.members_removed = removed.map((id) => memberLabel(liveMemberById.get(id)!)).sort();
    }
    const ref = `group:${dg.name}`;
    for (const id of removed) removalsByMonitor.set(id, [...(removalsByMonitor.get(id) ?? []), ref]);
    changes.push({
      ref,
      action: 'update',
      kind: 'group',
      key: dg.name,
      id: g.id,
      before,
      after,
      changed,
      depends_on: [],
      call: {
        method: 'PUT',
        path: idPath('Group', g.id),
        body: { name: dg.name, monitors: [...members.map((m) => m.id), ...keptIgnored], replace: true },
      },
      note,
      source: dg.source,
    });
  }
  const undeclaredGroups = live.groups.filter((g) => !groupTaken.has(g.id));
  if (!prune) unmanaged.groups += undeclaredGroups.length;
  const prunedGroups = prune ? undeclaredGroups : [];
  if (!inIdOrder(prunedGroups)) prunedGroups.sort(byId);
  for (const g of prunedGroups) {
    const liveMembers = g.members.filter((mem) => !ignoredMonitorIds.has(mem.id));
    changes.push({
      ref: `group:${g.name}`,
      action: 'delete',
      kind: 'group',
      key: g.name,
      id: g.id,
      before: { name: g.name, monitors: uniq(liveMembers.map(memberLabel)).sort() },
      after: null,
      changed: [],
      depends_on: [],
      call: { method: 'DELETE', path: idPath('Group', g.id) },
      note: { pruned: true },
    });
  }
  const groupCopies = [...groupDuplicateOf.keys()].sort(compareIds);
  for (const id of groupCopies) {
    const g = live.groups.find((x) => x.id === id)!;
    changes.push({
      ref: `group:${g.name}#${g.id}`,
      action: 'delete',
      kind: 'group',
      key: g.name,
      id: g.id,
      before: { name: g.name, monitors: uniq(g.members.filter((mem) => !ignoredMonitorIds.has(mem.id)).map(memberLabel)).sort() },
      after: null,
      changed: [],
      depends_on: [],
      call: { method: 'DELETE', path: idPath('Group', g.id) },
      note: { duplicate_of: groupDuplicateOf.get(id)!.id },
    });
  }
  // A monitor leaves its groups (by their replace) before it is deleted.
  for (const c of monitorDeletes) c.depends_on = removalsByMonitor.get(c.id!) ?? [];
  // Deleting a copy takes it out of its groups; where this configuration does not set the members,
  // that would change a group behind the user's back.
  if (duplicateOf.size > 0) {
    for (const g of liveAll.groups) {
      if (groupDuplicateOf.has(g.id) || (groupTaken.get(g.id)?.monitors ?? null) !== null) continue;
      const listed = new Set(g.members.map((mem) => mem.id));
      for (const id of listed) {
        const keeper = duplicateOf.get(id);
        if (keeper === undefined || listed.has(keeper.id)) continue;
        problem(
          `${describe(keeper)}: its copy id ${id} is a member of group ${q(g.name)} (id ${g.id}), which this configuration does not declare with its monitors; ` +
            `deleting the copy would take it out of that group. Declare the group's monitors, or put ${describe(keeper)} in it and delete the copy in the service`,
        );
      }
    }
  }

  // ---- touched duplicates ------------------------------------------------------------------------
  // Deletes go by id, but a person reading "delete monitor x" cannot tell which x: refuse instead,
  // unless the delete is of a copy of one the plan keeps, or every one of them goes.
  const deletedByKey = new Map<string, number>();
  for (const c of changes) if (c.action === 'delete' && c.kind !== 'alert') deletedByKey.set(`${c.kind}:${c.key}`, (deletedByKey.get(`${c.kind}:${c.key}`) ?? 0) + 1);
  for (const c of changes) {
    if (c.action !== 'delete' || c.kind === 'alert' || c.note?.duplicate_of !== undefined) continue;
    const same =
      c.kind === 'monitor' ? (monitorsByLabel.get(c.key) ?? []) : (groupsByName.get(c.key) ?? []);
    if (same.length > 1 && deletedByKey.get(`${c.kind}:${c.key}`) !== same.length) {
      problem(
        `${c.kind} ${q(c.key)}: this plan would delete id ${c.id}, but the account has ${same.length} ${c.kind}s with this ${
          c.kind === 'monitor' ? 'label' : 'name'
        } (ids ${ids(same)}); rename or delete all but one in the service`,
      );
    }
  }

  if (problems.length > 0) throw new PlanError(uniq(problems));

  // ---- refs, targets, order -------------------------------------------------------------------------
  uniqueRefs(changes);
  let planned = changes;
  if (targets.length > 0) {
    planned = selectTargets(changes, targets);
    const left = changes.length - planned.length;
    if (left > 0) {
      warnings.push(
        `--target limits this plan to ${plural(planned.length, 'change')}; ${plural(left, 'other change')} ${
          left === 1 ? 'is' : 'are'
        } left out, so the account will not match the configuration afterwards`,
      );
    }
  }
  const ordered = orderChanges(planned);

  return {
    format_version: PLAN_FORMAT_VERSION,
    created_at: (options.now ?? new Date()).toISOString(),
    target: options.target,
    files: [...desired.files],
    options: { prune, targets: [...targets], owner, ignore: [...ignore] },
    changes: ordered,
    summary: summarize(ordered),
    unmanaged,
    fingerprint: fingerprintLive(liveAll, ignore),
    warnings,
  };
}

export interface AlertPairing {
  /** Per desired alert, at the same index: the live alert it updates, or undefined (a create). */
  partner: readonly (Alert | undefined)[];
  /** Live alerts no desired alert took, in live order. */
  unmatchedLive: readonly Alert[];
}

/**
 * Pairs desired and live alerts of one monitor: exact subject_init, then previous_subjects; then,
 * only where this plan owns the monitor's alerts (fuzzy), a lone leftover pair, else leftovers
 * with a subject_term that is unique on both sides. On monitors we do not own, a leftover live alert
 * is somebody else's and must not be rewritten into ours.
 */
export function pairAlerts(desired: readonly DesiredAlert[], live: readonly Alert[], fuzzy: boolean): AlertPairing {
  // The usual case, once per monitor: the same subjects in the same order. Each desired alert then
  // takes the live alert at its own index (the first unused one with its subject), and nothing is
  // left for the later passes.
  if (desired.length === live.length) {
    let aligned = true;
    for (let i = 0; i < desired.length; i++) {
      if (desired[i]!.subject_init !== live[i]!.subject_init) {
        aligned = false;
        break;
      }
    }
    if (aligned) return { partner: live, unmatchedLive: NO_ALERTS };
  }
  const partner = new Array<Alert | undefined>(desired.length).fill(undefined);
  const used = new Array<boolean>(live.length).fill(false);
  const firstUnused = (subject: string): number => {
    for (let j = 0; j < live.length; j++) if (!used[j] && live[j]!.subject_init === subject) return j;
    return -1;
  };
  const take = (i: number, j: number): void => {
    used[j] = true;
    partner[i] = live[j];
  };
  for (let i = 0; i < desired.length; i++) {
    const j = firstUnused(desired[i]!.subject_init);
    if (j >= 0) take(i, j);
  }
  for (let i = 0; i < desired.length; i++) {
    if (partner[i] !== undefined) continue;
    for (const prev of desired[i]!.previous_subjects ?? []) {
      const j = firstUnused(prev);
      if (j >= 0) {
        take(i, j);
        break;
      }
    }
  }
  if (fuzzy) {
    const dl: number[] = [];
    const ll: number[] = [];
    for (let i = 0; i < desired.length; i++) if (partner[i] === undefined) dl.push(i);
    for (let j = 0; j < live.length; j++) if (!used[j]) ll.push(j);
    if (dl.length === 1 && ll.length === 1) {
      take(dl[0]!, ll[0]!);
    } else {
      for (const i of dl) {
        const term = desired[i]!.subject_term;
        const ds = dl.filter((x) => desired[x]!.subject_term === term);
        const ls = ll.filter((j) => live[j]!.subject_term === term);
        if (ds.length === 1 && ls.length === 1 && !used[ls[0]!]) take(i, ls[0]!);
      }
    }
  }
  return { partner, unmatchedLive: live.filter((_, j) => !used[j]) };
}

/**
 * Refs must be unique. Creates are keyed by declared names (alert creates that still collide get a
 * counter); updates and deletes of live resources that share a key (duplicate live alerts) get their
 * id appended.
 */
function uniqueRefs(changes: Change[]): void {
  const seen = new Set<string>();
  for (const c of changes) {
    if (c.action !== 'create') continue;
    // Alert refs join a label and a subject with '/', both free text: monitor "a" alert "b/c" and
    // monitor "a/b" alert "c" share one. Nothing refers to an alert create, so a suffix is safe.
    if (seen.has(c.ref)) {
      let n = 2;
      while (seen.has(`${c.ref}#${n}`)) n++;
      c.ref = `${c.ref}#${n}`;
    }
    seen.add(c.ref);
  }
  for (const c of changes) {
    if (c.action === 'create') continue;
    if (seen.has(c.ref)) c.ref = `${c.ref}#${c.id}`;
    seen.add(c.ref);
  }
}

/**
 * `--target`: changes whose key matches (alerts also by their monitor's label), plus the creates
 * whose ids they need. Ordering-only dependencies (a group update before a monitor delete) do not
 * pull changes in: they are dropped when the other change is not targeted.
 */
function selectTargets(changes: Change[], targets: readonly string[]): Change[] {
  const byRef = new Map(changes.map((c) => [c.ref, c]));
  const keep = new Set<string>();
  const visit = (c: Change): void => {
    if (keep.has(c.ref)) return;
    keep.add(c.ref);
    for (const r of refsInBody(c.call.body)) {
      const dep = byRef.get(r);
      if (dep) visit(dep);
    }
  };
  for (const c of changes) {
    if (matchesAny(targets, c.key) || (c.kind === 'alert' && c.monitor !== undefined && matchesAny(targets, c.monitor))) {
      visit(c);
    }
  }
  return changes
    .filter((c) => keep.has(c.ref))
    .map((c) => ({ ...c, depends_on: c.depends_on.filter((r) => keep.has(r)) }));
}
