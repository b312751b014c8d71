/**
 * Builds plans shaped like the ones `diff` makes (calls with {$ref} for ids of resources the same
 * plan creates), so the engine's tests read as what they exercise.
 */
import type { Change, IdOrRef, Plan } from '../../src/plan/types.js';

export const OWNER = 'monsync';

export function ref(r: string): { $ref: string } {
  return { $ref: r };
}

export function createMonitor(label: string, opts: { depends_on?: string[]; meta?: Record<string, string> } = {}): Change {
  const body = {
    type: 'smtp',
    label,
    timer: 5,
    time_zone: 'Europe/Berlin',
    ip_address: `${label}.example.com`,
    test_account: 'probe@example.com',
    meta: { 'managed-by': OWNER, ...(opts.meta ?? {}) },
  };
  return {
    ref: `monitor:${label}`,
    action: 'create',
    kind: 'monitor',
    key: label,
    id: null,
    before: null,
    after: null,
    changed: Object.keys(body),
    depends_on: opts.depends_on ?? [],
    call: { method: 'POST', path: '/v1/Config/Monitor/', body },
  };
}

/** An alert on a monitor: `monitor` is a live id, or a ref to the plan's create of it. */
export function createAlert(monitorLabel: string, subject: string, monitor: IdOrRef, depends_on?: string[]): Change {
  return {
    ref: `alert:${monitorLabel}/${subject}`,
    action: 'create',
    kind: 'alert',
    key: `${monitorLabel} / ${subject}`,
    monitor: monitorLabel,
    id: null,
    before: null,
    after: null,
    changed: [],
    depends_on: depends_on ?? (typeof monitor === 'string' ? [] : [monitor.$ref]),
    call: {
      method: 'POST',
      path: '/v1/Config/Alert/',
      body: { type: 'up-down', monitor, subject_init: subject, subject_term: `${subject} (up)`, timeout: 10, message_init: '', message_term: '' },
    },
  };
}

export function createGroup(name: string, members: IdOrRef[], depends_on?: string[]): Change {
  return {
    ref: `group:${name}`,
    action: 'create',
    kind: 'group',
    key: name,
    id: null,
    before: null,
    after: null,
    changed: ['monitors'],
    depends_on: depends_on ?? members.filter((m) => typeof m !== 'string').map((m) => (m as { $ref: string }).$ref),
    call: { method: 'POST', path: '/v1/Config/Group/', body: { name, monitors: members } },
  };
}

export function updateMonitor(label: string, id: string, fields: Record<string, unknown>, depends_on: string[] = []): Change {
  return {
    ref: `monitor:${label}`,
    action: 'update',
    kind: 'monitor',
    key: label,
    id,
    before: {},
    after: fields,
    changed: Object.keys(fields),
    depends_on,
    call: { method: 'PUT', path: `/v1/Config/Monitor/${id}/`, body: fields },
  };
}

export function updateAlert(monitorLabel: string, subject: string, id: string, monitor: IdOrRef, timeout: number): Change {
  return {
    ref: `alert:${monitorLabel}/${subject}`,
    action: 'update',
    kind: 'alert',
    key: `${monitorLabel} / ${subject}`,
    monitor: monitorLabel,
    id,
    before: { timeout: 10 },
    after: { timeout },
    changed: ['timeout'],
    depends_on: typeof monitor === 'string' ? [] : [monitor.$ref],
    call: {
      method: 'PUT',
      path: `/v1/Config/Alert/${id}/`,
      body: { type: 'up-down', monitor, subject_init: subject, subject_term: `${subject} (up)`, timeout, message_init: '', message_term: '' },
    },
  };
}

export function updateGroup(name: string, id: string, members: IdOrRef[], depends_on?: string[]): Change {
  return {
    ref: `group:${name}`,
    action: 'update',
    kind: 'group',
    key: name,
    id,
    before: {},
    after: {},
    changed: ['monitors'],
    depends_on: depends_on ?? members.filter((m) => typeof m !== 'string').map((m) => (m as { $ref: string }).$ref),
    call: { method: 'PUT', path: `/v1/Config/Group/${id}/`, body: { name, monitors: members, replace: true } },
  };
}

export function deleteChange(kind: 'monitor' | 'alert' | 'group', key: string, id: string, depends_on: string[] = []): Change {
  const path = { monitor: 'Monitor', alert: 'Alert', group: 'Group' }[kind];
  return {
    ref: `${kind}:${key}:delete`,
    action: 'delete',
    kind,
    key,
    id,
    before: null,
    after: null,
    changed: [],
    depends_on,
    call: { method: 'DELETE', path: `/v1/Config/${path}/${id}/` },
  };
}

export function makePlan(changes: Change[], extra: Partial<Plan> = {}): Plan {
  const count = (a: string) => changes.filter((c) => c.action === a).length;
  return {
    format_version: 1,
    created_at: '2026-11-22T10:00:00Z',
    target: 'http://127.0.0.1:0',
    files: ['monsync.yaml'],
    options: { prune: false, targets: [], owner: OWNER },
    changes,
    summary: { create: count('create'), update: count('update'), delete: count('delete') },
    unmanaged: { monitors: 0, alerts: 0, groups: 0, other_type_monitors: 0, ignored: 0 },
    fingerprint: 'sha256:abc',
    warnings: [],
    ...extra,
  };
}
