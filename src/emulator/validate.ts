/**
 * Request-body validation for the writable resources (API 4.3 to 4.6). Every message names the
 * field and the offending value, and all problems of a body are reported together, so a client
 * developer sees in one round trip what the real service would reject one field at a time.
 */
import { isIP } from 'node:net';
import { badRequest } from './errors.js';

export const TIMERS = [3, 5, 10, 15, 20, 30] as const;
export const TTLS = [0, 30, 60, 180, 300, 600, 1800] as const;
export const USE_TLS = ['off', 'on', 'auto'] as const;
export const ATTACHMENTS = ['docx', 'pdf'] as const;
export const MESSAGE_FORMATS = ['text/plain', 'text/html'] as const;

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Strings are shown bare (as in `time_zone: unknown zone Europe/Berln`), everything else as JSON. */
export function show(v: unknown): string {
  if (typeof v === 'string') return v === '' ? '""' : v;
  if (v === undefined) return 'undefined';
  try {
    const s = JSON.stringify(v);
    return s.length > 80 ? `${s.slice(0, 77)}...` : s;
  } catch {
    return String(v);
  }
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

// ---------------------------------------------------------------------------------------------
// Value checks

let supportedZones: Set<string> | undefined;
const zoneCache = new Map<string, boolean>();
// Olson names: capitalised Region/City segments, plus UTC, GMT and Etc/GMT+N style names.
const OLSON_SHAPE = /^[A-Z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

export function isKnownTimeZone(tz: string): boolean {
  const cached = zoneCache.get(tz);
  if (cached !== undefined) return cached;
  supportedZones ??= new Set(Intl.supportedValuesOf('timeZone'));
  let ok = supportedZones.has(tz);
  if (!ok && OLSON_SHAPE.test(tz)) {
    // Aliases (UTC, Etc/*, US/Eastern) are valid Olson names missing from the canonical list.
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      ok = true;
    } catch {
      ok = false;
    }
  }
  if (zoneCache.size < 10_000) zoneCache.set(tz, ok);
  return ok;
}

const HOST_LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;

export function isHostname(s: string): boolean {
  if (s.length === 0 || s.length > 253) return false;
  const name = s.endsWith('.') ? s.slice(0, -1) : s;
  const labels = name.split('.');
  if (!labels.every((l) => HOST_LABEL.test(l))) return false;
  // A numeric last label is a malformed IP address (1.2.3.999), not a host name.
  return !/^\d+$/.test(labels[labels.length - 1] ?? '');
}

export function isDeliveryTarget(s: string): boolean {
  return s === 'mx' || s === 'mx:failover' || isIP(s) !== 0 || isHostname(s);
}

const EMAIL_LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

export function isEmail(s: string): boolean {
  const at = s.lastIndexOf('@');
  if (at <= 0 || at > 64) return false;
  const local = s.slice(0, at);
  const domain = s.slice(at + 1);
  return EMAIL_LOCAL.test(local) && domain.includes('.') && isHostname(domain) && !domain.endsWith('.');
}

// ---------------------------------------------------------------------------------------------
// Field collectors: each pushes a message and returns undefined when the value is bad.

class Problems {
  readonly list: string[] = [];
  add(msg: string): undefined {
    this.list.push(msg);
    return undefined;
  }
  throwIfAny(): void {
    if (this.list.length > 0) throw badRequest(this.list.join('; '));
  }
}

function oneOf<T extends string | number>(p: Problems, field: string, v: unknown, allowed: readonly T[]): T | undefined {
  if (typeof allowed[0] === 'number' && typeof v !== 'number') {
    return p.add(`${field}: must be an integer, got ${typeName(v)} ${show(v)}`);
  }
  if (typeof allowed[0] === 'string' && typeof v !== 'string') {
    return p.add(`${field}: must be a string, got ${typeName(v)} ${show(v)}`);
  }
  if (!(allowed as readonly unknown[]).includes(v)) {
    return p.add(`${field}: ${show(v)} is not one of ${allowed.join(', ')}`);
  }
  return v as T;
}

function str(p: Problems, field: string, v: unknown, opts: { nonEmpty?: boolean } = {}): string | undefined {
  if (typeof v !== 'string') return p.add(`${field}: must be a string, got ${typeName(v)} ${show(v)}`);
  if (opts.nonEmpty && v.trim() === '') return p.add(`${field}: must not be empty`);
  return v;
}

function bool(p: Problems, field: string, v: unknown): boolean | undefined {
  if (typeof v !== 'boolean') return p.add(`${field}: must be a boolean (true or false), got ${typeName(v)} ${show(v)}`);
  return v;
}

function int(p: Problems, field: string, v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    return p.add(`${field}: must be an integer, got ${typeName(v)} ${show(v)}`);
  }
  if (v < min || v > max) {
    return p.add(
      max === Number.MAX_SAFE_INTEGER
        ? `${field}: ${v} must be at least ${min}`
        : `${field}: ${v} is outside ${min}..${max}`,
    );
  }
  return v;
}

function unknownFields(p: Problems, body: JsonObject, allowed: readonly string[], what: string): void {
  const extra = Object.keys(body).filter((k) => !allowed.includes(k));
  if (extra.length > 0) {
    p.add(`unknown field${extra.length > 1 ? 's' : ''} ${extra.join(', ')} in ${what} (allowed: ${allowed.join(', ')})`);
  }
}

function requireObject(body: unknown, what: string): JsonObject {
  if (!isObject(body)) {
    throw badRequest(`${what}: request body must be a JSON object, got ${body === undefined ? 'no body' : typeName(body)}`);
  }
  return body;
}

// ---------------------------------------------------------------------------------------------
// Monitors (4.4)

/**
 * The emulator's own table of the SMTP monitor body (API 4.4), one row per field: whether a create
 * must give it, what the stored monitor holds when a create leaves it out, and how a value is
 * checked (a message pushed and undefined returned when it is bad). Kept apart from monsync's tables
 * on purpose; test/model/monitor-fields.test.ts holds the two together.
 */
interface MonitorBodyRow {
  readonly field: string;
  readonly required: boolean;
  /** Stored when a create leaves the field out (required fields have none). */
  readonly createDefault?: Json;
  readonly check: (p: Problems, field: string, v: unknown) => Json | undefined;
}

const meta = (p: Problems, _field: string, v: unknown): Json | undefined => {
  if (!isObject(v)) return p.add(`meta: must be an object of string values, got ${typeName(v)} ${show(v)}`);
  const bad = Object.entries(v).filter(([, val]) => typeof val !== 'string');
  for (const [k, val] of bad) p.add(`meta.${k}: must be a string, got ${typeName(val)} ${show(val)}`);
  if (Object.keys(v).some((k) => k === '')) p.add('meta: keys must not be empty');
  return bad.length > 0 ? undefined : { ...v };
};

export const MONITOR_BODY_TABLE: readonly MonitorBodyRow[] = [
  {
    field: 'type',
    required: true,
    check: (p, _f, v) => (v === 'smtp' ? v : p.add(`type: ${show(v)} is not one of smtp (only SMTP monitors can be created or modified)`)),
  },
  { field: 'label', required: true, check: (p, f, v) => str(p, f, v, { nonEmpty: true }) },
  { field: 'timer', required: true, check: (p, f, v) => oneOf(p, f, v, TIMERS) },
  {
    field: 'time_zone',
    required: true,
    check: (p, f, v) => {
      const s = str(p, f, v, { nonEmpty: true });
      if (s === undefined) return undefined;
      return isKnownTimeZone(s) ? s : p.add(`time_zone: unknown zone ${s}`);
    },
  },
  {
    field: 'ip_address',
    required: true,
    check: (p, f, v) => {
      const s = str(p, f, v, { nonEmpty: true });
      if (s === undefined) return undefined;
      return isDeliveryTarget(s) ? s : p.add(`ip_address: ${s} is not a host name, an IP address, mx or mx:failover`);
    },
  },
  {
    field: 'test_account',
    required: true,
    check: (p, f, v) => {
      const s = str(p, f, v, { nonEmpty: true });
      if (s === undefined) return undefined;
      return isEmail(s) ? s : p.add(`test_account: ${s} is not a valid e-mail address`);
    },
  },
  { field: 'use_tls', required: false, createDefault: 'auto', check: (p, f, v) => oneOf(p, f, v, USE_TLS) },
  // None is '' on the wire; null is read as none too.
  { field: 'attachment', required: false, createDefault: '', check: (p, f, v) => (v === null || v === '' ? '' : oneOf(p, f, v, ATTACHMENTS)) },
  { field: 'custom_subject', required: false, createDefault: '', check: (p, f, v) => (v === null ? '' : str(p, f, v)) },
  { field: 'custom_body', required: false, createDefault: '', check: (p, f, v) => (v === null ? '' : str(p, f, v)) },
  { field: 'ttl', required: false, createDefault: 0, check: (p, f, v) => oneOf(p, f, v, TTLS) },
  { field: 'ipv6', required: false, createDefault: false, check: (p, f, v) => bool(p, f, v) },
  { field: 'message_format', required: false, createDefault: 'text/plain', check: (p, f, v) => oneOf(p, f, v, MESSAGE_FORMATS) },
  { field: 'port', required: false, createDefault: 25, check: (p, f, v) => int(p, f, v, 1, 65535) },
  { field: 'meta', required: false, createDefault: {}, check: meta },
];

export const MONITOR_CREATE_FIELDS: readonly string[] = MONITOR_BODY_TABLE.map((r) => r.field);
const MONITOR_REQUIRED: readonly string[] = MONITOR_BODY_TABLE.filter((r) => r.required).map((r) => r.field);

/** Validated values of the given fields only; `attachment` none is ''. */
export type MonitorFields = Partial<Record<string, Json>>;

/** Validates the given fields of a monitor body; `create` also demands the required ones. */
export function validateMonitorBody(body: unknown, mode: 'create' | 'update'): MonitorFields {
  const obj = requireObject(body, mode === 'create' ? 'create monitor' : 'modify monitor');
  const p = new Problems();
  unknownFields(p, obj, MONITOR_CREATE_FIELDS, 'monitor body');
  if (mode === 'create') {
    for (const f of MONITOR_REQUIRED) {
      if (obj[f] === undefined || obj[f] === null) p.add(`${f}: required`);
    }
  }
  const out: MonitorFields = {};
  for (const { field: f, required, check } of MONITOR_BODY_TABLE) {
    const v = obj[f];
    if (v === undefined) continue;
    if (v === null && required) {
      if (mode === 'update') p.add(`${f}: must not be null`);
      continue;
    }
    const checked = check(p, f, v);
    if (checked !== undefined) out[f] = checked;
  }
  p.throwIfAny();
  return out;
}

// ---------------------------------------------------------------------------------------------
// Alerts (4.5)

export const ALERT_FIELDS = [
  'type',
  'monitor',
  'subject_init',
  'subject_term',
  'timeout',
  'alert_destinations',
  'message_init',
  'message_term',
  'down_only',
  'repeat',
] as const;

export interface AlertLookups {
  /** The monitor's stored type, or undefined when there is no such monitor. */
  monitorType(id: string): string | undefined;
  hasDestination(id: string): boolean;
}

export interface AlertFields {
  type: 'up-down';
  monitor: string;
  alert_destinations: string[];
  subject_init: string;
  subject_term: string;
  message_init: string;
  message_term: string;
  down_only: boolean;
  repeat: boolean;
  timeout: number | null;
}

export function validateAlertBody(body: unknown, mode: 'create' | 'update', lookups: AlertLookups): AlertFields {
  const obj = requireObject(body, mode === 'create' ? 'create alert' : 'modify alert');
  const p = new Problems();
  unknownFields(p, obj, ALERT_FIELDS, 'alert body');

  if (obj.type === undefined) p.add('type: required');
  else if (obj.type !== 'up-down') p.add(`type: ${show(obj.type)} is not one of up-down (only up-down alerts can be created)`);

  let monitor: string | undefined;
  let monitorType: string | undefined;
  if (obj.monitor === undefined || obj.monitor === null) p.add('monitor: required');
  else if (typeof obj.monitor !== 'string') p.add(`monitor: must be a monitor id string, got ${typeName(obj.monitor)} ${show(obj.monitor)}`);
  else {
    monitorType = lookups.monitorType(obj.monitor);
    if (monitorType === undefined) p.add(`monitor: unknown monitor id ${obj.monitor}`);
    else monitor = obj.monitor;
  }

  const subject = (f: 'subject_init' | 'subject_term'): string | undefined =>
    obj[f] === undefined || obj[f] === null ? p.add(`${f}: required`) : str(p, f, obj[f], { nonEmpty: true });
  const subject_init = subject('subject_init');
  const subject_term = subject('subject_term');

  let timeout: number | null = null;
  const smtp = monitorType !== undefined && monitorType.toLowerCase() === 'smtp';
  if (obj.timeout === undefined || obj.timeout === null) {
    if (smtp) p.add('timeout: required for alerts on SMTP monitors (minutes, an integer > 0)');
  } else {
    timeout = int(p, 'timeout', obj.timeout, 1) ?? null;
  }

  let alert_destinations: string[] = [];
  if (obj.alert_destinations !== undefined && obj.alert_destinations !== null) {
    const d = obj.alert_destinations;
    if (!Array.isArray(d)) p.add(`alert_destinations: must be an array of destination ids, got ${typeName(d)} ${show(d)}`);
    else {
      const seen = new Set<string>();
      for (const id of d) {
        if (typeof id !== 'string') p.add(`alert_destinations: ids must be strings, got ${typeName(id)} ${show(id)}`);
        else if (!lookups.hasDestination(id)) p.add(`alert_destinations: unknown destination id ${id}`);
        else if (seen.has(id)) p.add(`alert_destinations: destination id ${id} given twice`);
        else seen.add(id);
      }
      alert_destinations = [...seen];
    }
  }

  const message = (f: 'message_init' | 'message_term'): string =>
    obj[f] === undefined || obj[f] === null ? '' : (str(p, f, obj[f]) ?? '');
  const message_init = message('message_init');
  const message_term = message('message_term');
  const flag = (f: 'down_only' | 'repeat'): boolean =>
    obj[f] === undefined || obj[f] === null ? false : (bool(p, f, obj[f]) ?? false);
  const down_only = flag('down_only');
  const repeat = flag('repeat');

  p.throwIfAny();
  return {
    type: 'up-down',
    monitor: monitor as string,
    alert_destinations,
    subject_init: subject_init as string,
    subject_term: subject_term as string,
    message_init,
    message_term,
    down_only,
    repeat,
    timeout,
  };
}

// ---------------------------------------------------------------------------------------------
// Groups (4.3) and pauses (4.6)

export interface GroupFields {
  name: string;
  monitors: string[] | undefined;
  replace: boolean | undefined;
}

export function validateGroupBody(body: unknown, mode: 'create' | 'update', hasMonitor: (id: string) => boolean): GroupFields {
  const obj = requireObject(body, mode === 'create' ? 'create group' : 'modify group');
  const p = new Problems();
  unknownFields(p, obj, mode === 'create' ? ['name', 'monitors'] : ['name', 'monitors', 'replace'], 'group body');
  const name = obj.name === undefined || obj.name === null ? p.add('name: required') : str(p, 'name', obj.name, { nonEmpty: true });
  let monitors: string[] | undefined;
  if (obj.monitors !== undefined && obj.monitors !== null) {
    if (!Array.isArray(obj.monitors)) p.add(`monitors: must be an array of monitor ids, got ${typeName(obj.monitors)} ${show(obj.monitors)}`);
    else {
      const seen = new Set<string>();
      for (const id of obj.monitors) {
        if (typeof id !== 'string') p.add(`monitors: ids must be strings, got ${typeName(id)} ${show(id)}`);
        else if (!hasMonitor(id)) p.add(`monitors: unknown monitor id ${id}`);
        else seen.add(id);
      }
      monitors = [...seen];
    }
  }
  let replace: boolean | undefined;
  if (mode === 'update' && obj.replace !== undefined && obj.replace !== null) replace = bool(p, 'replace', obj.replace);
  p.throwIfAny();
  return { name: name as string, monitors, replace };
}

export function validatePauseBody(body: unknown): number {
  const obj = requireObject(body, 'pause');
  const p = new Problems();
  let seconds: number | undefined;
  if (obj.seconds === undefined || obj.seconds === null) p.add('seconds: required (a positive integer)');
  else seconds = int(p, 'seconds', obj.seconds, 1);
  p.throwIfAny();
  return seconds as number;
}
