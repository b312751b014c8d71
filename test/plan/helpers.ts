/**
 * Builders for live and desired states, and a small in-memory service that executes a plan's calls
 * the way the API documents them (with the quirks src/api normalises: omitted fields come back null).
 */
import { MONITOR_FIELD_DEFAULTS, OPTIONAL_MONITOR_FIELDS, type OptionalMonitorField } from '../../src/model/fields.js';
import type { Alert, Destination, Group, LiveState, Monitor } from '../../src/model/live.js';
import type { DesiredAlert, DesiredGroup, DesiredMonitor, DesiredState, MonitorSpec } from '../../src/model/desired.js';
import type { Plan } from '../../src/plan/types.js';

export const OWNER = 'mail-team';
const src = { file: 'monitoring/main.yaml', line: 1, column: 1 };

export function liveMonitor(p: Partial<Monitor> & { id: string; label: string }): Monitor {
  return {
    // The optional SMTP fields at their documented defaults: a new row of the table needs no change here.
    ...MONITOR_FIELD_DEFAULTS,
    type: 'smtp',
    description: null,
    ip_address: 'mx.example.com',
    use_client_cert: false,
    test_account: 'probe@example.com',
    timer: 5,
    timeout: 60,
    time_zone: 'Europe/Berlin',
    data_label: 'seconds',
    meta: { 'managed-by': OWNER },
    alerts: [],
    groups: [],
    ...p,
  };
}

export function liveAlert(p: Partial<Alert> & { id: string; monitor: string; subject_init: string }): Alert {
  return {
    type: 'up-down',
    alert_destinations: [],
    subject_term: `${p.subject_init} (reset)`,
    message_init: '',
    message_term: '',
    down_only: false,
    repeat: false,
    timeout: 15,
    violations: '0',
    ...p,
  };
}

export function dest(id: string, label: string, p: Partial<Destination> = {}): Destination {
  return { id, label, destination: `${label}@example.com`, type: 'email', subscribed: true, ...p };
}

export function liveGroup(id: string, name: string, members: Monitor[] | string[]): Group {
  return {
    id,
    name,
    members: members.map((m) => (typeof m === 'string' ? { id: m, label: null } : { id: m.id, label: m.label })),
  };
}

/** Live state with alerts and groups reflected in monitors' `alerts` / `groups`, as the service reports them. */
export function liveState(p: Partial<LiveState>): LiveState {
  const monitors = (p.monitors ?? []).map((m) => ({ ...m }));
  const alerts = p.alerts ?? [];
  const groups = p.groups ?? [];
  for (const m of monitors) {
    m.alerts = alerts.filter((a) => a.monitor === m.id).map((a) => a.id);
    if (m.groups !== null) m.groups = groups.filter((g) => g.members.some((x) => x.id === m.id)).map((g) => g.id);
  }
  return { monitors, alerts, groups, destinations: p.destinations ?? [] };
}

export function spec(p: Partial<MonitorSpec> = {}): MonitorSpec {
  return { ip_address: 'mx.example.com', test_account: 'probe@example.com', timer: 5, time_zone: 'Europe/Berlin', ...p };
}

export function dMonitor(
  label: string,
  p: Partial<MonitorSpec> = {},
  extra: { previous_labels?: string[]; alerts?: Omit<DesiredAlert, 'monitor' | 'source'>[] } = {},
): DesiredMonitor {
  return {
    label,
    previous_labels: extra.previous_labels ?? [],
    spec: spec(p),
    alerts: (extra.alerts ?? []).map((a) => ({ ...a, monitor: label, source: src })),
    source: src,
  };
}

export function dAlert(
  subject_init: string,
  p: Partial<Omit<DesiredAlert, 'subject_init'>> = {},
): Omit<DesiredAlert, 'monitor' | 'source'> & { monitor?: string; source: typeof src } {
  return {
    subject_term: `${subject_init} (reset)`,
    timeout: 15,
    alert_destinations: [],
    ...p,
    subject_init,
    source: src,
  };
}

export function topAlert(monitor: string, subject_init: string, p: Partial<DesiredAlert> = {}): DesiredAlert {
  return { ...dAlert(subject_init, p), monitor, source: src };
}

export function dGroup(name: string, monitors: string[], previous_names: string[] = []): DesiredGroup {
  return { name, monitors, previous_names, source: src };
}

export function desiredState(p: Partial<Omit<DesiredState, 'settings'>> & { settings?: Partial<DesiredState['settings']> } = {}): DesiredState {
  return {
    settings: { owner: OWNER, ignore: [], prune: false, ...p.settings },
    monitors: p.monitors ?? [],
    alerts: p.alerts ?? [],
    groups: p.groups ?? [],
    files: p.files ?? ['monitoring/main.yaml'],
  };
}

export const NOW = new Date('2026-11-22T10:41:00Z');
export const TARGET = 'https://api.example.com';

export interface SimulateOptions {
  /** Fields a create leaves out come back null (a quirk src/api passes on) instead of their default. */
  nullDefaults?: boolean;
}

/**
 * Runs the plan's calls against a copy of `live`, in plan order, the way the API documents them.
 * Throws if a change needs an id that no earlier change produced, or a path names an unknown id.
 */
export function simulateApply(live: LiveState, plan: Plan, opts: SimulateOptions = {}): LiveState {
  const s: LiveState = structuredClone(live);
  const created = new Map<string, string>();
  const done = new Set<string>();
  let next = 900000;
  const resolve = (v: unknown): string => {
    if (typeof v === 'string') return v;
    const ref = (v as { $ref: string }).$ref;
    const id = created.get(ref);
    if (id === undefined) throw new Error(`id of ${ref} needed before it was created`);
    return id;
  };
  const idOf = (path: string): string => decodeURIComponent(path.split('/').filter(Boolean).pop()!);
  const monitorOf = (id: string): Monitor => {
    const m = s.monitors.find((x) => x.id === id);
    if (!m) throw new Error(`unknown monitor ${id}`);
    return m;
  };
  const syncGroups = (): void => {
    for (const m of s.monitors) {
      if (m.groups !== null) m.groups = s.groups.filter((g) => g.members.some((x) => x.id === m.id)).map((g) => g.id);
      m.alerts = s.alerts.filter((a) => a.monitor === m.id).map((a) => a.id);
    }
  };
  const monitorFromBody = (m: Monitor, b: Record<string, unknown>): void => {
    for (const [k, v] of Object.entries(b)) {
      if (k === 'type') continue;
      if (k === 'attachment') {
        // The API documents '' (or omitting it) as "no attachment"; null is not a documented value.
        if (v === null) throw new Error('attachment: null sent; the API clears it with ""');
        m.attachment = v === '' ? null : (v as Monitor['attachment']);
      }
      else if (k === 'meta') m.meta = { ...(v as Record<string, string>) };
      else (m as unknown as Record<string, unknown>)[k] = v;
    }
  };

  for (const c of plan.changes) {
    for (const d of c.depends_on) if (!done.has(d)) throw new Error(`${c.ref} runs before its dependency ${d}`);
    const b = (c.call.body ?? {}) as Record<string, unknown>;
    const key = `${c.call.method} ${c.call.path.replace(/\/[^/]+\/$/, '/:id/')}`;
    if (c.call.method === 'POST' && c.call.path === '/v1/Config/Monitor/') {
      const id = String(next++);
      const n = opts.nullDefaults;
      const m: Monitor = {
        id,
        label: '',
        type: 'smtp',
        description: null,
        // The optional SMTP fields as the service may answer them: null, or their documented defaults.
        ...(n ? (Object.fromEntries(OPTIONAL_MONITOR_FIELDS.map((f) => [f, null])) as Record<OptionalMonitorField, null>) : MONITOR_FIELD_DEFAULTS),
        ip_address: null,
        use_client_cert: false,
        test_account: null,
        timer: null,
        timeout: 60,
        time_zone: null,
        data_label: 'seconds',
        meta: {},
        alerts: [],
        groups: [],
      };
      monitorFromBody(m, b);
      s.monitors.push(m);
      created.set(c.ref, id);
    } else if (c.call.method === 'POST' && c.call.path === '/v1/Config/Alert/') {
      const id = String(next++);
      s.alerts.push({
        id,
        type: 'up-down',
        monitor: monitorOf(resolve(b.monitor)).id,
        alert_destinations: [...(b.alert_destinations as string[])],
        subject_init: b.subject_init as string,
        subject_term: b.subject_term as string,
        message_init: (b.message_init as string | undefined) ?? '',
        message_term: (b.message_term as string | undefined) ?? '',
        down_only: (b.down_only as boolean | undefined) ?? false,
        repeat: (b.repeat as boolean | undefined) ?? false,
        timeout: b.timeout as number,
        violations: '0',
      });
      created.set(c.ref, id);
    } else if (c.call.method === 'POST' && c.call.path === '/v1/Config/Group/') {
      const id = String(next++);
      const members = ((b.monitors as unknown[] | undefined) ?? []).map((x) => monitorOf(resolve(x)));
      s.groups.push({ id, name: b.name as string, members: members.map((m) => ({ id: m.id, label: m.label })) });
      created.set(c.ref, id);
    } else if (key === 'PUT /v1/Config/Monitor/:id/') {
      monitorFromBody(monitorOf(idOf(c.call.path)), b);
    } else if (key === 'PUT /v1/Config/Alert/:id/') {
      const a = s.alerts.find((x) => x.id === idOf(c.call.path));
      if (!a) throw new Error(`unknown alert ${c.call.path}`);
      Object.assign(a, {
        monitor: resolve(b.monitor),
        alert_destinations: [...(b.alert_destinations as string[])],
        subject_init: b.subject_init,
        subject_term: b.subject_term,
        message_init: b.message_init,
        message_term: b.message_term,
        down_only: b.down_only,
        repeat: b.repeat,
        timeout: b.timeout,
      });
    } else if (key === 'PUT /v1/Config/Group/:id/') {
      const g = s.groups.find((x) => x.id === idOf(c.call.path));
      if (!g) throw new Error(`unknown group ${c.call.path}`);
      const given = ((b.monitors as unknown[] | undefined) ?? []).map((x) => monitorOf(resolve(x)));
      const ids = b.replace ? given.map((m) => m.id) : [...new Set([...g.members.map((x) => x.id), ...given.map((m) => m.id)])];
      g.name = b.name as string;
      g.members = ids.map((id) => ({ id, label: s.monitors.find((m) => m.id === id)?.label ?? null }));
    } else if (key === 'DELETE /v1/Config/Monitor/:id/') {
      const id = idOf(c.call.path);
      monitorOf(id);
      s.monitors = s.monitors.filter((m) => m.id !== id);
      s.alerts = s.alerts.filter((a) => a.monitor !== id);
      for (const g of s.groups) g.members = g.members.filter((x) => x.id !== id);
    } else if (key === 'DELETE /v1/Config/Alert/:id/') {
      const id = idOf(c.call.path);
      if (!s.alerts.some((a) => a.id === id)) throw new Error(`unknown alert ${id}`);
      s.alerts = s.alerts.filter((a) => a.id !== id);
    } else if (key === 'DELETE /v1/Config/Group/:id/') {
      const id = idOf(c.call.path);
      if (!s.groups.some((g) => g.id === id)) throw new Error(`unknown group ${id}`);
      s.groups = s.groups.filter((g) => g.id !== id);
    } else {
      throw new Error(`unexpected call ${c.call.method} ${c.call.path}`);
    }
    done.add(c.ref);
    syncGroups();
  }
  // Member labels follow renames, as a fresh read would report them.
  for (const g of s.groups) g.members = g.members.map((x) => ({ id: x.id, label: s.monitors.find((m) => m.id === x.id)?.label ?? x.label }));
  return s;
}
