/**
 * Seeding through the control API (POST /_emulator/seed): raw objects added as given, quirks
 * included (any monitor type, `timer: "5"`, `hostname`, `type: "EMAIL"`), all or nothing: the
 * whole body is checked before anything is added. Missing ids are assigned from the counters.
 */
import { newAlertState } from '../alerting.js';
import { badRequest, conflict } from '../errors.js';
import { isObject, show, type JsonObject } from '../validate.js';
import { sync } from './simulation.js';
import type { StoreState } from './state.js';
import { idOf, type Kind, type SeedBody, type SeedResult } from './types.js';

const KEYS = ['destinations', 'monitors', 'alerts', 'groups'] as const;

/** A checked seed body: its objects, and the explicit ids each kind claims. */
interface SeedParts {
  objects: Record<(typeof KEYS)[number], JsonObject[]>;
  claimed: Record<Kind, Set<string>>;
}

export function seed(st: StoreState, body: unknown): SeedResult {
  const parts = checkSeed(st, body);
  sync(st);
  const result = addSeed(st, parts);
  st.changed();
  return result;
}

function checkSeed(st: StoreState, body: unknown): SeedParts {
  if (!isObject(body)) throw badRequest('seed: body must be a JSON object {destinations?, monitors?, alerts?, groups?}');
  const list = (k: keyof SeedBody): JsonObject[] => {
    const v = body[k];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) throw badRequest(`seed: ${k} must be an array`);
    return v.map((o, i) => {
      if (!isObject(o)) throw badRequest(`seed: ${k}[${i}] must be an object`);
      return o;
    });
  };
  const objects = { destinations: list('destinations'), monitors: list('monitors'), alerts: list('alerts'), groups: list('groups') };
  const extra = Object.keys(body).filter((k) => !(KEYS as readonly string[]).includes(k));
  if (extra.length) throw badRequest(`seed: unknown key ${extra.join(', ')}`);

  const explicit = (k: string, objs: JsonObject[], exists: (id: string) => boolean): Set<string> => {
    const ids = new Set<string>();
    objs.forEach((o, i) => {
      if (o.id === undefined || o.id === null) return;
      const id = idOf(o.id);
      if (id === undefined) throw badRequest(`seed: ${k}[${i}].id must be a non-empty string or a number`);
      if (exists(id) || ids.has(id)) throw conflict(`seed: ${k}[${i}].id ${id} already exists`);
      ids.add(id);
    });
    return ids;
  };
  const claimed: Record<Kind, Set<string>> = {
    destination: explicit('destinations', objects.destinations, (id) => st.destinations.has(id)),
    monitor: explicit('monitors', objects.monitors, (id) => st.monitors.has(id)),
    alert: explicit('alerts', objects.alerts, (id) => st.alerts.has(id)),
    group: explicit('groups', objects.groups, (id) => st.groups.has(id)),
  };
  const monitorKnown = (id: string): boolean => st.monitors.has(id) || claimed.monitor.has(id);
  objects.monitors.forEach((o, i) => {
    for (const f of ['label', 'type'] as const) {
      if (typeof o[f] !== 'string') throw badRequest(`seed: monitors[${i}].${f} must be a string`);
    }
  });
  objects.alerts.forEach((o, i) => {
    const mid = idOf(o.monitor);
    if (mid === undefined || !monitorKnown(mid)) {
      throw badRequest(`seed: alerts[${i}].monitor ${show(o.monitor)} is not a known monitor id`);
    }
  });
  objects.groups.forEach((o, i) => {
    if (typeof o.name !== 'string') throw badRequest(`seed: groups[${i}].name must be a string`);
    if (o.monitors === undefined || o.monitors === null) return;
    if (!Array.isArray(o.monitors)) throw badRequest(`seed: groups[${i}].monitors must be an array of monitor ids`);
    for (const m of o.monitors) {
      const mid = idOf(m);
      if (mid === undefined || !monitorKnown(mid)) throw badRequest(`seed: groups[${i}].monitors: ${show(m)} is not a known monitor id`);
    }
  });
  return { objects, claimed };
}

function addSeed(st: StoreState, { objects, claimed }: SeedParts): SeedResult {
  const result: SeedResult = { destinations: [], monitors: [], alerts: [], groups: [] };
  const assign = (kind: Kind, o: JsonObject, exists: (id: string) => boolean): string => {
    const given = idOf(o.id);
    if (given !== undefined) {
      st.noteId(kind, given);
      return given;
    }
    return st.nextId(kind, (x) => exists(x) || claimed[kind].has(x));
  };
  for (const o of objects.destinations) {
    const id = assign('destination', o, (x) => st.destinations.has(x));
    const { id: _given, ...rest } = o;
    st.destinations.set(id, { id, ...rest });
    result.destinations.push(id);
  }
  for (const o of objects.monitors) {
    const id = assign('monitor', o, (x) => st.monitors.has(x));
    const { id: _given, alerts: a, groups: g, ...rest } = o;
    st.monitors.set(id, st.newMonitorRec({ id, ...rest }, a !== undefined, g !== undefined));
    result.monitors.push(id);
  }
  for (const o of objects.alerts) {
    const id = assign('alert', o, (x) => st.alerts.has(x));
    const monitor = idOf(o.monitor) as string;
    const { id: _given, ...rest } = o;
    st.alerts.set(id, { id, ...rest, monitor });
    st.alertStates.set(id, newAlertState(st.nowSec()));
    st.monitorRec(monitor).alerts.add(id);
    result.alerts.push(id);
  }
  for (const o of objects.groups) {
    const id = assign('group', o, (x) => st.groups.has(x));
    const members = Array.isArray(o.monitors) ? o.monitors.map((m) => idOf(m) as string) : [];
    st.groups.set(id, { id, name: o.name as string, monitors: new Set(members) });
    for (const m of members) st.monitorRec(m).groups.add(id);
    result.groups.push(id);
  }
  return result;
}
