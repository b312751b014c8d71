/**
 * The value comparison and its field table: which monitor and alert fields a plan compares, in
 * display order, and how a live value and a declared one are found equal (documented defaults on
 * both sides, JSON equality, sets for destinations). The fast checks here decide "unchanged"
 * without building the before and after values a change shows; the builders make those values.
 * Pure.
 */
import { MONITOR_SPEC_FIELDS, type DesiredAlert, type DesiredMonitor } from '../../model/desired.js';
import { ALERT_FIELD_DEFAULTS, ALERT_FIELD_NAMES, type AlertField } from '../../model/fields.js';
import { DOCUMENTED_MONITOR_DEFAULTS, OWNER_META_KEY, type Alert, type Monitor } from '../../model/live.js';
import { uniq } from './util.js';

/** The monitor fields plan compares, in display order. */
export const MONITOR_FIELDS = ['label', ...MONITOR_SPEC_FIELDS, 'meta'] as const;
export type MonitorField = (typeof MONITOR_FIELDS)[number];

/** The alert fields plan compares, in display order: the rows of ALERT_FIELD_TABLE (model/fields.ts). */
export const ALERT_FIELDS = ALERT_FIELD_NAMES;

/** The alert fields compared as single values (all but the destinations), with what an omitted one means. */
const ALERT_SCALARS = ALERT_FIELD_NAMES.filter((f): f is Exclude<AlertField, 'alert_destinations'> => f !== 'alert_destinations');
const ALERT_SCALAR_DEFAULTS: readonly unknown[] = ALERT_SCALARS.map((f) => (ALERT_FIELD_DEFAULTS as Record<string, unknown>)[f]);

export type Fields = Record<string, unknown>;

/**
 * Equal as JSON would see it: key order does not matter and an undefined field is no field. Plan
 * values are JSON data (strings, numbers, booleans, null, arrays, plain objects).
 */
export function sameValue(a: unknown, b: unknown): boolean {
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

/** The fields an update compares, all equal: what liveAlertFields and desiredAlertFields would show. */
export function alertUnchanged(a: Alert, da: DesiredAlert, destIds: readonly string[]): boolean {
  return alertFieldsUnchanged(a, da) && sameSet(a.alert_destinations, destIds);
}

/** Two live alerts alike in every field a plan compares (and type): one is a copy of the other. */
export function sameLiveAlert(a: Alert, b: Alert): boolean {
  if (a.type !== b.type) return false;
  for (const f of ALERT_SCALARS) if (a[f] !== b[f]) return false;
  return sameSet(a.alert_destinations, b.alert_destinations);
}

/** alertUnchanged but for the destinations. */
export function alertFieldsUnchanged(a: Alert, da: DesiredAlert): boolean {
  for (let i = 0; i < ALERT_SCALARS.length; i++) {
    const f = ALERT_SCALARS[i]!;
    // `!== undefined`, not `??`: a top-level alert's timeout may be null on purpose (none: the monitor's timer counts).
    const want = da[f] !== undefined ? da[f] : ALERT_SCALAR_DEFAULTS[i];
    if (!eq(a[f], want)) return false;
  }
  return true;
}

/** sameValue, with === first: nearly every field is a string, number or boolean equal to its counterpart. */
export function eq(x: unknown, y: unknown): boolean {
  return x === y || sameValue(x, y);
}

/** The same members, ignoring order and repeats; without allocating for the short lists alerts have. */
export function sameSet(a: readonly string[], b: readonly string[]): boolean {
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
export function monitorUnchanged(m: Monitor, dm: DesiredMonitor, owner: string): boolean {
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
export function wireMonitorValue(field: string, value: unknown): unknown {
  return field === 'attachment' && value === null ? '' : value;
}

/** Live alert values, destinations as their labels (`destLabel`), sorted. */
export function liveAlertFields(a: Alert, destLabel: (id: string) => string): Fields {
  const out: Fields = {};
  for (const f of ALERT_FIELD_NAMES) out[f] = f === 'alert_destinations' ? uniq(a.alert_destinations.map(destLabel)).sort() : a[f];
  return out;
}

/** Desired alert values, with the service's defaults for what the configuration leaves out. */
export function desiredAlertFields(da: DesiredAlert, destIds: readonly string[], destLabel: (id: string) => string): Fields {
  const out: Fields = {};
  for (const f of ALERT_FIELD_NAMES) {
    out[f] = f === 'alert_destinations' ? uniq(destIds.map(destLabel)).sort() : (da[f] !== undefined ? da[f] : (ALERT_FIELD_DEFAULTS as Record<string, unknown>)[f]);
  }
  return out;
}
