/**
 * The account's resources through the API: monitors (4.4), alerts (4.5), groups (4.3) and alert
 * destinations (4.7, read only: the seed makes them). Bodies are validated by ../validate.ts;
 * every change that can move the simulation (a monitor's settings, an alert's rule) first catches
 * it up, so the change applies from the moment of the request.
 */
import { newAlertState } from '../alerting.js';
import { badRequest, notFound } from '../errors.js';
import { changeTimer, timerMinutes } from '../simulation.js';
import { MONITOR_BODY_TABLE, show, validateAlertBody, validateGroupBody, validateMonitorBody, type AlertLookups, type JsonObject } from '../validate.js';
import { simChanged, sync } from './simulation.js';
import { isSmtp, labelOf, renderAlert, renderMonitor, type StoreState } from './state.js';
import { asString, type GroupMembers, type GroupRec, type MonitorRec } from './types.js';

// ---------------------------------------------------------------------------------------------
// Monitors (4.4)

export function listMonitors(st: StoreState): JsonObject[] {
  const out: JsonObject[] = [];
  for (const m of st.monitors.values()) out.push(renderMonitor(m));
  return out;
}

export function createMonitor(st: StoreState, body: unknown): JsonObject {
  sync(st);
  const f = validateMonitorBody(body, 'create');
  const id = st.nextId('monitor', (x) => st.monitors.has(x));
  // The body's fields in the API's field table order (left out: their create default), then the server-set ones.
  const raw: JsonObject = { id };
  for (const row of MONITOR_BODY_TABLE) raw[row.field] = f[row.field] ?? structuredClone(row.createDefault ?? null);
  raw.type = 'smtp';
  Object.assign(raw, { description: null, use_client_cert: false, timeout: 30, data_label: 'seconds' });
  const rec = st.newMonitorRec(raw, true, true);
  st.monitors.set(id, rec);
  st.changed();
  return renderMonitor(rec);
}

/** Only the given fields change; `meta`, when given, replaces the old one whole. */
export function updateMonitor(st: StoreState, id: string, body: unknown): JsonObject {
  const m = st.monitorRec(id);
  if (!isSmtp(m)) {
    throw badRequest(`monitor ${id} is of type ${show(m.raw.type)}: only SMTP monitors can be modified`);
  }
  const f = validateMonitorBody(body, 'update');
  sync(st);
  for (const [k, v] of Object.entries(f)) {
    if (k === 'type' || v === undefined) continue;
    m.raw[k] = v;
  }
  changeTimer(m.segments, st.nowSec(), timerMinutes(m.raw.timer));
  simChanged(st, id, m);
  st.changed();
  return renderMonitor(m);
}

/** Any type: the API document restricts creation and modification to SMTP monitors, not deletion. */
export function deleteMonitor(st: StoreState, id: string): JsonObject {
  const m = st.monitorRec(id);
  const out = renderMonitor(m);
  sync(st);
  removeMonitor(st, id, m);
  st.changed();
  return out;
}

/** The monitor and everything that hangs on it: its alerts with their pauses and states, its memberships. */
function removeMonitor(st: StoreState, id: string, m: MonitorRec): void {
  for (const a of m.alerts) {
    st.alerts.delete(a);
    st.pauses.delete(a);
    st.alertStates.delete(a);
  }
  st.trackers.delete(id);
  for (const g of m.groups) st.groups.get(g)?.monitors.delete(id);
  st.activeMonitors.delete(id);
  st.data.delete(id);
  st.monitors.delete(id);
}

// ---------------------------------------------------------------------------------------------
// Alerts (4.5)

const ALERT_DISPLAY_TYPES: Record<string, string> = { 'up-down': 'Up/Down Alert' };

function alertLookups(st: StoreState): AlertLookups {
  return {
    monitorType: (id) => {
      const m = st.monitors.get(id);
      return m ? asString(m.raw.type) : undefined;
    },
    hasDestination: (id) => st.destinations.has(id),
  };
}

/** The list shows the display form of `type` and a `violations` count (API 2.3). */
export function listAlerts(st: StoreState): JsonObject[] {
  const out: JsonObject[] = [];
  for (const a of st.alerts.values()) {
    const type = asString(a.type);
    out.push({ ...a, type: ALERT_DISPLAY_TYPES[type] ?? type, violations: a.violations ?? '0' });
  }
  return out;
}

export function createAlert(st: StoreState, body: unknown): JsonObject {
  const f = validateAlertBody(body, 'create', alertLookups(st));
  sync(st);
  const id = st.nextId('alert', (x) => st.alerts.has(x));
  const a: JsonObject = { id, ...f };
  st.alerts.set(id, a);
  st.alertStates.set(id, newAlertState(st.nowSec()));
  st.monitorRec(f.monitor).alerts.add(id);
  st.changed();
  return renderAlert(a);
}

/** A PUT is a whole alert: optional fields it omits go back to their defaults, as on create. */
export function updateAlert(st: StoreState, id: string, body: unknown): JsonObject {
  const a = st.alertRec(id);
  const f = validateAlertBody(body, 'update', alertLookups(st));
  sync(st);
  const before = asString(a.monitor);
  if (before !== f.monitor) {
    st.monitors.get(before)?.alerts.delete(id);
    st.monitorRec(f.monitor).alerts.add(id);
  }
  Object.assign(a, f);
  st.changed();
  return renderAlert(a);
}

export function deleteAlert(st: StoreState, id: string): JsonObject {
  const a = st.alertRec(id);
  const out = renderAlert(a);
  sync(st);
  st.monitors.get(asString(a.monitor))?.alerts.delete(id);
  st.alerts.delete(id);
  st.pauses.delete(id);
  st.alertStates.delete(id);
  st.changed();
  return out;
}

// ---------------------------------------------------------------------------------------------
// Groups (4.3)

export function listGroups(st: StoreState): { id: string; name: string }[] {
  const out: { id: string; name: string }[] = [];
  for (const g of st.groups.values()) out.push({ id: g.id, name: g.name });
  return out;
}

export function groupMembers(st: StoreState, g: GroupRec): GroupMembers {
  const monitors: { id: string; label: string }[] = [];
  for (const id of g.monitors) {
    const m = st.monitors.get(id);
    if (m) monitors.push({ id, label: labelOf(m) });
  }
  return { id: g.id, name: g.name, monitors };
}

/** The create response lists member ids, or null when none were given (API 2.5). */
export function createGroup(st: StoreState, body: unknown): { id: string; name: string; monitors: string[] | null } {
  const f = validateGroupBody(body, 'create', (x) => st.monitors.has(x));
  const id = st.nextId('group', (x) => st.groups.has(x));
  const g: GroupRec = { id, name: f.name, monitors: new Set(f.monitors ?? []) };
  st.groups.set(id, g);
  for (const m of g.monitors) st.monitorRec(m).groups.add(id);
  st.changed();
  return { id, name: g.name, monitors: f.monitors ? [...g.monitors] : null };
}

/** `replace` true: the given monitors become the members; false (default): they are added. */
export function updateGroup(st: StoreState, id: string, body: unknown): { replace: boolean; group: GroupMembers } {
  const g = st.groupRec(id);
  const f = validateGroupBody(body, 'update', (x) => st.monitors.has(x));
  g.name = f.name;
  const replace = f.replace ?? false;
  if (replace) {
    for (const m of g.monitors) st.monitors.get(m)?.groups.delete(id);
    g.monitors = new Set(f.monitors ?? []);
  } else {
    for (const m of f.monitors ?? []) g.monitors.add(m);
  }
  for (const m of g.monitors) st.monitorRec(m).groups.add(id);
  st.changed();
  return { replace, group: groupMembers(st, g) };
}

export function deleteGroup(st: StoreState, id: string): { name: string; id: string } {
  const g = st.groupRec(id);
  for (const m of g.monitors) st.monitors.get(m)?.groups.delete(id);
  st.groups.delete(id);
  st.changed();
  return { name: g.name, id };
}

// ---------------------------------------------------------------------------------------------
// Destinations (4.7)

export function listDestinations(st: StoreState): JsonObject[] {
  return [...st.destinations.values()].map((d) => ({ ...d }));
}

export function getDestination(st: StoreState, id: string): JsonObject {
  const d = st.destinations.get(id);
  if (!d) throw notFound(`alert destination ${id} not found`);
  return { ...d };
}
