/**
 * Pure functions from the service's wire JSON to the canonical shapes of src/model/live.ts and
 * src/api/types.ts. Every quirk the API document or the real service shows is absorbed here and
 * nowhere else: display-form types (`Up/Down Alert`, `DNS Query`), upper-case destination types,
 * numbers sent as strings, `hostname` for `ip_address`, `flag` for `complete`, the three shapes of
 * group `monitors`, '' for "no attachment", missing optional fields.
 *
 * Policy: a missing `id` or an item that is not an object is malformed (nothing downstream can use
 * it). Other missing fields take the canonical "unknown" value (null, '', [], {}), as the model
 * documents. A field that is present with a type that cannot be read (an object where a string
 * belongs, an unknown enum value) is malformed too: guessing would make plan lie. Malformed input
 * throws ApiError kind `malformed` naming the JSON location and, when known, the request.
 */
import { MONITOR_FIELD_TABLE, type FieldSchema } from '../model/fields.js';
import type { Alert, Destination, Group, GroupMember, GroupSummary, LiveMonitorFields, Monitor } from '../model/live.js';
import { ApiError } from './errors.js';
import type { QuirkCounter } from './quirks.js';
import type {
  DataItem,
  FilteredStatusEntry,
  Hop,
  MonitorData,
  PausedAlert,
  ResponseAnalysis,
  StatusEntry,
  StatusSummary,
  TestData,
  Token,
} from './types.js';

/** The request a body came from, for error messages. Empty in unit tests. */
export interface Origin {
  method: string;
  path: string;
  /** Set for writes: a 2xx answer that cannot be read still means the write was probably done. */
  maybeApplied?: boolean;
  /** Where the client counts the quirks absorbed (quirks.ts); none in unit tests. */
  quirks?: QuirkCounter;
}

const NO_ORIGIN: Origin = { method: '', path: '' };

type Obj = Record<string, unknown>;

function fail(origin: Origin, at: string, what: string): never {
  throw new ApiError({
    kind: 'malformed',
    method: origin.method,
    path: origin.path,
    message: `malformed response: ${at} ${what}`,
    maybeApplied: origin.maybeApplied ?? false,
  });
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

export function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function asObject(v: unknown, at: string, origin: Origin = NO_ORIGIN): Obj {
  if (!isObject(v)) fail(origin, at, `is ${describe(v)}, expected an object`);
  return v;
}

/**
 * `one` over a list, with error locations built only when an item fails: the item is then read again
 * with its exact path (`monitor_list[17]`), so the message is the same as if every item had carried
 * one, without building tens of thousands of path strings that are never shown.
 */
export function normalizeEach<T>(
  items: unknown[],
  name: string,
  one: (raw: unknown, at: string, origin: Origin) => T,
  origin: Origin = NO_ORIGIN,
): T[] {
  const out = new Array<T>(items.length);
  const at = `${name}[]`;
  for (let i = 0; i < items.length; i++) {
    try {
      out[i] = one(items[i], at, origin);
    } catch {
      out[i] = one(items[i], `${name}[${i}]`, origin);
    }
  }
  return out;
}

export function asArray(v: unknown, at: string, origin: Origin = NO_ORIGIN): unknown[] {
  if (!Array.isArray(v)) fail(origin, at, `is ${v === undefined ? 'missing' : describe(v)}, expected an array`);
  return v;
}

function idOf(o: Obj, key: string, at: string, origin: Origin): string {
  const v = o[key];
  if (typeof v === 'string' && v !== '') return v;
  // Identifiers are opaque strings; a service that sends them as numbers still means the same id.
  if (typeof v === 'number' && Number.isFinite(v)) {
    origin.quirks?.note('id-as-number', key);
    return String(v);
  }
  fail(origin, `${at}.${key}`, v === undefined || v === null || v === '' ? 'is missing' : `is ${describe(v)}, expected an id`);
}

function strOrNull(o: Obj, key: string, at: string, origin: Origin): string | null {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') {
    origin.quirks?.note('string-as-number', key);
    return String(v);
  }
  fail(origin, `${at}.${key}`, `is ${describe(v)}, expected a string`);
}

function str(o: Obj, key: string, at: string, origin: Origin): string {
  return strOrNull(o, key, at, origin) ?? '';
}

const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;

/** Numbers, also when sent as numeric strings ("5"); '' and null mean unknown. */
export function toNumberOrNull(v: unknown): number | null | undefined {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string') {
    if (v.trim() === '') return null;
    return NUMERIC.test(v) ? Number(v) : undefined;
  }
  return undefined;
}

function numOrNull(o: Obj, key: string, at: string, origin: Origin): number | null {
  const v = o[key];
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  const n = toNumberOrNull(v);
  if (n === undefined) fail(origin, `${at}.${key}`, `is ${describe(v)} ${JSON.stringify(v)}, expected a number`);
  if (n !== null) origin.quirks?.note('number-as-string', key);
  return n;
}

function numRequired(o: Obj, key: string, at: string, origin: Origin): number {
  const n = numOrNull(o, key, at, origin);
  if (n === null) fail(origin, `${at}.${key}`, 'is missing');
  return n;
}

/** Booleans, also as 0/1 or "true"/"false"/"0"/"1", which loosely typed services send. */
export function toBooleanOrNull(v: unknown): boolean | null | undefined {
  if (v === undefined || v === null) return null;
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === '1' || v === 'true') return true;
  if (v === 0 || v === '0' || v === 'false') return false;
  return undefined;
}

function boolOrNull(o: Obj, key: string, at: string, origin: Origin): boolean | null {
  const v = o[key];
  if (typeof v === 'boolean') return v;
  const b = toBooleanOrNull(v);
  if (b === undefined) fail(origin, `${at}.${key}`, `is ${describe(v)}, expected a boolean`);
  if (b !== null) origin.quirks?.note('boolean-as-number-or-string', key);
  return b;
}

function bool(o: Obj, key: string, at: string, origin: Origin, fallback: boolean): boolean {
  return boolOrNull(o, key, at, origin) ?? fallback;
}

function strArrayOrNull(o: Obj, key: string, at: string, origin: Origin): string[] | null {
  const v = o[key];
  if (v === undefined || v === null) return null;
  const arr = asArray(v, `${at}.${key}`, origin);
  // The common case, every item a string, keeps the parsed array: nothing else holds it.
  let i = 0;
  while (i < arr.length && typeof arr[i] === 'string') i++;
  if (i === arr.length) return arr as string[];
  return arr.map((item, j) => {
    if (typeof item === 'string') return item;
    if (typeof item === 'number' && Number.isFinite(item)) {
      origin.quirks?.note('id-as-number', key);
      return String(item);
    }
    fail(origin, `${at}.${key}[${j}]`, `is ${describe(item)}, expected a string`);
  });
}

function meta(o: Obj, key: string, at: string, origin: Origin): Record<string, string> {
  const v = o[key];
  if (v === undefined || v === null) return {};
  // An empty JSON array is how some serialisers write an empty map.
  if (Array.isArray(v) && v.length === 0) {
    origin.quirks?.note('meta-as-array', key);
    return {};
  }
  const m = asObject(v, `${at}.${key}`, origin);
  const out: Record<string, string> = {};
  // Most monitors carry no meta: skip building the entries array.
  let empty = true;
  for (const _ in m) {
    empty = false;
    break;
  }
  if (empty) return out;
  for (const [k, val] of Object.entries(m)) {
    if (typeof val === 'string') out[k] = val;
    else if (typeof val === 'number' || typeof val === 'boolean') {
      origin.quirks?.note('string-as-number', `${key}.${k}`);
      out[k] = String(val);
    }
    else fail(origin, `${at}.${key}.${k}`, `is ${describe(val)}, expected a string`);
  }
  return out;
}

function enumOrNull<T extends string>(
  o: Obj,
  key: string,
  allowed: readonly T[],
  at: string,
  origin: Origin,
  emptyIsNull = false,
): T | null {
  const s = strOrNull(o, key, at, origin);
  if (s === null) return null;
  if ((allowed as readonly string[]).includes(s)) return s as T;
  const lower = s.trim().toLowerCase();
  if (lower === '' && emptyIsNull) {
    if (key === 'attachment') origin.quirks?.note('empty-attachment', key);
    return null;
  }
  if ((allowed as readonly string[]).includes(lower)) {
    origin.quirks?.note('enum-case', key);
    return lower as T;
  }
  fail(origin, `${at}.${key}`, `has unknown value ${JSON.stringify(s)} (expected ${allowed.join(', ')})`);
}

/**
 * An account has a handful of distinct type strings and tens of thousands of objects: each distinct
 * string is worked out once. Bounded, so a service sending endless variants cannot grow it.
 */
function memo(f: (s: string) => string): (s: string) => string {
  const seen = new Map<string, string>();
  return (s) => {
    let v = seen.get(s);
    if (v === undefined) {
      v = f(s);
      if (seen.size < 256) seen.set(s, v);
    }
    return v;
  };
}

/** `DNS Query` -> `dns-query`, `SMTP` -> `smtp`, `TCP Port` -> `tcp-port`; canonical values pass unchanged. */
export const canonicalMonitorType = memo((s) => s.trim().toLowerCase().replace(/[\s_/]+/g, '-'));

/** `Up/Down Alert` (list display form) -> `up-down`; `up-down` unchanged. */
export const canonicalAlertType = memo((s) =>
  s
    .trim()
    .toLowerCase()
    .replace(/\s+alert$/, '')
    .replace(/[\s_/]+/g, '-'),
);

/** `EMAIL` -> `email`. */
export function canonicalDestinationType(s: string): string {
  return s.trim().toLowerCase();
}

type FieldReader = (o: Obj, key: string, at: string, origin: Origin) => unknown;

/**
 * How a monitor field is read, from its row's schema: an enum of strings tolerates another case
 * (and, where the row admits null, '' for null: "no attachment"), numbers may come as strings.
 */
function readerFor(schema: FieldSchema): FieldReader {
  if (schema.enum !== undefined && schema.enum.some((v) => typeof v === 'string')) {
    const allowed = schema.enum.filter((v): v is string => typeof v === 'string');
    const emptyIsNull = schema.enum.includes(null);
    return (o, key, at, origin) => enumOrNull(o, key, allowed, at, origin, emptyIsNull);
  }
  switch (schema.type) {
    case 'integer':
      return numOrNull;
    case 'boolean':
      return boolOrNull;
    default:
      return strOrNull;
  }
}

/**
 * The SMTP fields of MONITOR_FIELD_TABLE and their readers, in the table's order: two arrays read by
 * index, since most of an account's monitors are read before V8 optimises the loop, and a pair
 * destructured per field through the iterator protocol is what the interpreter is slowest at.
 */
const MONITOR_FIELD_NAMES: readonly (keyof LiveMonitorFields)[] = MONITOR_FIELD_TABLE.map((r) => r.field);
const MONITOR_FIELD_READERS: readonly FieldReader[] = MONITOR_FIELD_TABLE.map((r) => readerFor(r.schema));
/** Where `ip_address` is among them: a monitor without one may name its host as `hostname`. */
const IP_ADDRESS = MONITOR_FIELD_NAMES.indexOf('ip_address');

export function normalizeMonitor(raw: unknown, at = 'monitor', origin: Origin = NO_ORIGIN): Monitor {
  const o = asObject(raw, at, origin);
  const wireType = str(o, 'type', at, origin);
  const type = canonicalMonitorType(wireType);
  if (origin.quirks !== undefined) {
    if (type !== wireType) origin.quirks.note('monitor-type-form', wireType);
    if (o['groups'] === undefined || o['groups'] === null) origin.quirks.note('monitor-without-groups', type);
  }
  // The fields are read before the rest, as they always were: a monitor wrong in several places is
  // reported by the same field first.
  const n = MONITOR_FIELD_NAMES.length;
  const values = new Array<unknown>(n);
  for (let i = 0; i < n; i++) values[i] = (MONITOR_FIELD_READERS[i] as FieldReader)(o, MONITOR_FIELD_NAMES[i] as string, at, origin);
  if (values[IP_ADDRESS] === null) {
    values[IP_ADDRESS] = strOrNull(o, 'hostname', at, origin);
    if (values[IP_ADDRESS] !== null) origin.quirks?.note('hostname-for-ip-address', 'hostname');
  }
  const m: Record<string, unknown> = {
    id: idOf(o, 'id', at, origin),
    label: str(o, 'label', at, origin),
    type,
    description: strOrNull(o, 'description', at, origin),
  };
  // Then the fields in the table's order: the monitor's keys keep the order they had.
  for (let i = 0; i < n; i++) m[MONITOR_FIELD_NAMES[i] as string] = values[i];
  m['use_client_cert'] = boolOrNull(o, 'use_client_cert', at, origin);
  m['timeout'] = numOrNull(o, 'timeout', at, origin);
  m['data_label'] = strOrNull(o, 'data_label', at, origin);
  m['meta'] = meta(o, 'meta', at, origin);
  m['alerts'] = strArrayOrNull(o, 'alerts', at, origin) ?? [];
  // Absent means "not reported" (other monitor types), which is not the same as "in no group".
  m['groups'] = strArrayOrNull(o, 'groups', at, origin);
  return m as unknown as Monitor;
}

export function normalizeAlert(raw: unknown, at = 'alert', origin: Origin = NO_ORIGIN): Alert {
  const o = asObject(raw, at, origin);
  const wireType = str(o, 'type', at, origin);
  const type = canonicalAlertType(wireType);
  if (type !== wireType) origin.quirks?.note('alert-type-form', wireType);
  return {
    id: idOf(o, 'id', at, origin),
    type,
    monitor: str(o, 'monitor', at, origin),
    alert_destinations: strArrayOrNull(o, 'alert_destinations', at, origin) ?? [],
    subject_init: str(o, 'subject_init', at, origin),
    subject_term: str(o, 'subject_term', at, origin),
    message_init: str(o, 'message_init', at, origin),
    message_term: str(o, 'message_term', at, origin),
    down_only: bool(o, 'down_only', at, origin, false),
    repeat: bool(o, 'repeat', at, origin, false),
    timeout: numOrNull(o, 'timeout', at, origin),
    violations: strOrNull(o, 'violations', at, origin),
  };
}

export function normalizeDestination(raw: unknown, at = 'alertdestination', origin: Origin = NO_ORIGIN): Destination {
  const o = asObject(raw, at, origin);
  const wireType = str(o, 'type', at, origin);
  const type = canonicalDestinationType(wireType);
  if (type !== wireType) origin.quirks?.note('destination-type-case', wireType);
  return {
    id: idOf(o, 'id', at, origin),
    label: str(o, 'label', at, origin),
    destination: str(o, 'destination', at, origin),
    type,
    // Only an explicit opt-out makes a destination unsubscribed.
    subscribed: bool(o, 'subscribed', at, origin, true),
  };
}

export function normalizeGroupSummary(raw: unknown, at = 'group', origin: Origin = NO_ORIGIN): GroupSummary {
  const o = asObject(raw, at, origin);
  return { id: idOf(o, 'id', at, origin), name: str(o, 'name', at, origin) };
}

/** Group `monitors` as ids (create response), as `{id, label}` objects (reads), or null (none given). */
export function normalizeGroupMembers(raw: unknown, at = 'group.monitors', origin: Origin = NO_ORIGIN): GroupMember[] {
  if (raw === undefined || raw === null) return [];
  return asArray(raw, at, origin).map((item, i): GroupMember => {
    const here = `${at}[${i}]`;
    if (typeof item === 'string' && item !== '') {
      origin.quirks?.note('group-members-as-ids', 'monitors');
      return { id: item, label: null };
    }
    if (typeof item === 'number' && Number.isFinite(item)) {
      origin.quirks?.note('group-members-as-ids', 'monitors');
      return { id: String(item), label: null };
    }
    const o = asObject(item, here, origin);
    return { id: idOf(o, 'id', here, origin), label: strOrNull(o, 'label', here, origin) };
  });
}

export function normalizeGroup(raw: unknown, at = 'group', origin: Origin = NO_ORIGIN): Group {
  const o = asObject(raw, at, origin);
  return {
    id: idOf(o, 'id', at, origin),
    name: str(o, 'name', at, origin),
    members: normalizeGroupMembers(o['monitors'], `${at}.monitors`, origin),
  };
}

export function normalizeStatusEntry(raw: unknown, at = 'monitor_list[]', origin: Origin = NO_ORIGIN): StatusEntry {
  const o = asObject(raw, at, origin);
  return {
    id: idOf(o, 'id', at, origin),
    label: str(o, 'label', at, origin),
    type: canonicalMonitorType(str(o, 'type', at, origin)),
    alert_active: bool(o, 'alert_active', at, origin, false),
  };
}

/** v1 Status (`monitor_list`) and v2 status (`monitors`) share one canonical summary. */
export function normalizeStatusSummary(
  body: Obj,
  listKey: 'monitor_list' | 'monitors',
  origin: Origin = NO_ORIGIN,
): StatusSummary {
  const monitors = asArray(body[listKey], listKey, origin).map((m, i) =>
    normalizeStatusEntry(m, `${listKey}[${i}]`, origin),
  );
  const global = boolOrNull(body, 'global_alert_active', 'response', origin);
  return {
    // The flag is documented as "any alert active"; derive it if a response left it out.
    global_alert_active: global ?? monitors.some((m) => m.alert_active),
    monitors,
  };
}

/** An empty object or array where an object is expected means "none" (no test yet). */
function emptyish(v: unknown): boolean {
  return (
    v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0)
  );
}

export function normalizeTestData(raw: unknown, at = 'last_test', origin: Origin = NO_ORIGIN): TestData | null {
  if (emptyish(raw)) return null;
  const o = asObject(raw, at, origin);
  let complete = boolOrNull(o, 'complete', at, origin);
  if (complete === null) {
    complete = boolOrNull(o, 'flag', at, origin);
    if (complete !== null) origin.quirks?.note('flag-for-complete', 'flag');
  }
  return {
    duration: numOrNull(o, 'duration', at, origin),
    error: strOrNull(o, 'error', at, origin),
    complete: complete ?? false,
    time_init: strOrNull(o, 'time_init', at, origin),
    time_term: strOrNull(o, 'time_term', at, origin),
    utc_mktime: numOrNull(o, 'utc_mktime', at, origin),
    utc_time_init: strOrNull(o, 'utc_time_init', at, origin),
    utc_time_term: strOrNull(o, 'utc_time_term', at, origin),
  };
}

export function normalizeFilteredStatusEntry(
  raw: unknown,
  at = 'monitor_list[]',
  origin: Origin = NO_ORIGIN,
): FilteredStatusEntry {
  const o = asObject(raw, at, origin);
  let lastAlert: FilteredStatusEntry['last_alert'] = null;
  if (!emptyish(o['last_alert'])) {
    const la = asObject(o['last_alert'], `${at}.last_alert`, origin);
    lastAlert = {
      alert: str(la, 'alert', `${at}.last_alert`, origin),
      monitor: str(la, 'monitor', `${at}.last_alert`, origin),
      time: str(la, 'time', `${at}.last_alert`, origin),
    };
  }
  return {
    monitor: idOf(o, 'monitor', at, origin),
    label: str(o, 'label', at, origin),
    alert_active: bool(o, 'alert_active', at, origin, false),
    alert_count: numOrNull(o, 'alert_count', at, origin) ?? 0,
    fail_count: numOrNull(o, 'fail_count', at, origin) ?? 0,
    test_count: numOrNull(o, 'test_count', at, origin) ?? 0,
    last_alert: lastAlert,
    last_failed: normalizeTestData(o['last_failed'], `${at}.last_failed`, origin),
    last_test: normalizeTestData(o['last_test'], `${at}.last_test`, origin),
  };
}

/** The canonical data item's keys, in its order. */
const DATA_ITEM_KEYS = ['value', 'failed', 'error', 'samples', 'alert_matches', 'time', 'utc_time', 'utc_mktime'] as const;

/**
 * Whether a parsed item is already a canonical DataItem: exactly its keys, in its order, each of its
 * type. Such an item is kept as parsed (nothing else holds it): a month of a monitor's data is 8,640
 * items, and a copy of each doubled what a report leaves to the garbage collector.
 */
function isCanonicalDataItem(o: Obj): boolean {
  let i = 0;
  for (const k in o) if (k !== DATA_ITEM_KEYS[i++]) return false;
  if (i !== DATA_ITEM_KEYS.length) return false;
  const { value, error, samples, alert_matches: matches, utc_mktime: t } = o;
  if (!(value === null || (typeof value === 'number' && Number.isFinite(value)))) return false;
  if (!(samples === null || (typeof samples === 'number' && Number.isFinite(samples)))) return false;
  if (!(error === null || typeof error === 'string') || typeof o['failed'] !== 'boolean') return false;
  if (typeof o['time'] !== 'string' || typeof o['utc_time'] !== 'string' || !(typeof t === 'number' && Number.isFinite(t))) return false;
  if (!Array.isArray(matches)) return false;
  for (const m of matches) if (typeof m !== 'string') return false;
  return true;
}

export function normalizeDataItem(raw: unknown, at = 'data[]', origin: Origin = NO_ORIGIN): DataItem {
  const o = asObject(raw, at, origin);
  if (isCanonicalDataItem(o)) return o as unknown as DataItem;
  const time = strOrNull(o, 'time', at, origin);
  const utcTime = strOrNull(o, 'utc_time', at, origin);
  if (time === null) fail(origin, `${at}.time`, 'is missing');
  if (utcTime === null) fail(origin, `${at}.utc_time`, 'is missing');
  return {
    value: dataNumber(o['value'], true),
    failed: bool(o, 'failed', at, origin, false),
    error: strOrNull(o, 'error', at, origin),
    samples: dataNumber(o['samples'], true),
    alert_matches: strArrayOrNull(o, 'alert_matches', at, origin) ?? [],
    time,
    utc_time: utcTime,
    utc_mktime: dataNumber(o['utc_mktime'], false) ?? Number.NaN,
  };
}

/**
 * A data item's number as sent: a JSON number, or null where the field may be absent (`value` of a
 * test in flight, `samples` of a raw test). Anything else (a string, "NaN", null where a number is
 * due) is NaN: outside the documented domain, so the data rules (data-rules.ts) leave the item out
 * and count it, rather than the whole answer being refused or a numeric string taken on trust.
 */
function dataNumber(v: unknown, nullable: boolean): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  return nullable && (v === null || v === undefined) ? null : Number.NaN;
}

export function normalizeMonitorData(body: Obj, origin: Origin = NO_ORIGIN): MonitorData {
  return {
    begin: numRequired(body, 'begin', 'response', origin),
    end: numRequired(body, 'end', 'response', origin),
    monitor: idOf(body, 'monitor', 'response', origin),
    monitor_label: str(body, 'monitor_label', 'response', origin),
    // A month of a monitor's tests is 8,640 items: no path string per item unless one fails.
    data: normalizeEach(asArray(body['data'] ?? [], 'data', origin), 'data', normalizeDataItem, origin),
  };
}

export function normalizeHop(raw: unknown, at = 'analysis[][]', origin: Origin = NO_ORIGIN): Hop {
  const o = asObject(raw, at, origin);
  return {
    source: str(o, 'source', at, origin),
    destination: str(o, 'destination', at, origin),
    time: numRequired(o, 'time', at, origin),
    duration: numRequired(o, 'duration', at, origin),
  };
}

export function normalizeResponseAnalysis(body: Obj, origin: Origin = NO_ORIGIN): ResponseAnalysis {
  return {
    begin: numRequired(body, 'begin', 'response', origin),
    end: numRequired(body, 'end', 'response', origin),
    analysis: asArray(body['analysis'] ?? [], 'analysis', origin).map((msg, i) =>
      asArray(msg, `analysis[${i}]`, origin).map((hop, j) => normalizeHop(hop, `analysis[${i}][${j}]`, origin)),
    ),
  };
}

export function normalizePausedAlert(raw: unknown, at = 'alert_list[]', origin: Origin = NO_ORIGIN): PausedAlert {
  const o = asObject(raw, at, origin);
  return {
    id: idOf(o, 'id', at, origin),
    monitor: str(o, 'monitor', at, origin),
    seconds: numOrNull(o, 'seconds', at, origin) ?? 0,
  };
}

/** A list of ids (`alert_list` of the pause endpoints). */
export function normalizeIdList(raw: unknown, at = 'alert_list', origin: Origin = NO_ORIGIN): string[] {
  if (raw === undefined || raw === null) return [];
  return asArray(raw, at, origin).map((item, i) => {
    if (typeof item === 'string' && item !== '') return item;
    if (typeof item === 'number' && Number.isFinite(item)) return String(item);
    // Tolerate `{id, ...}` entries: the ids are what callers need.
    if (isObject(item)) return idOf(item, 'id', `${at}[${i}]`, origin);
    fail(origin, `${at}[${i}]`, `is ${describe(item)}, expected an id`);
  });
}

export function normalizeToken(raw: unknown, origin: Origin = NO_ORIGIN): Token {
  const o = asObject(raw, 'response', origin);
  const token = o['access_token'];
  // Never echo the value: it is a credential.
  if (typeof token !== 'string' || token === '') fail(origin, 'response.access_token', 'is missing');
  const expires = numOrNull(o, 'expires_in', 'response', origin);
  if (expires === null || expires <= 0) fail(origin, 'response.expires_in', 'is missing');
  return {
    access_token: token,
    token_type: strOrNull(o, 'token_type', 'response', origin) ?? 'Bearer',
    expires_in: expires,
  };
}

/** Reads a number field that echoes a request value (`t`, `seconds`), falling back to what was sent. */
export function echoedNumber(body: Obj, key: string, sent: number | undefined, origin: Origin = NO_ORIGIN): number {
  const n = numOrNull(body, key, 'response', origin);
  if (n !== null) return n;
  if (sent !== undefined) return sent;
  fail(origin, `response.${key}`, 'is missing');
}

export function requiredId(body: Obj, key: string, at = 'response', origin: Origin = NO_ORIGIN): string {
  return idOf(body, key, at, origin);
}

export function optionalString(body: Obj, key: string, at = 'response', origin: Origin = NO_ORIGIN): string {
  return str(body, key, at, origin);
}
