/**
 * The plan as stable JSON, the machine contract of `monsync plan --json` (schemas/plan.schema.json).
 * Keys come in a fixed order at the top and in each change, and sorted inside field maps and
 * request bodies, so equal plans give byte-equal text and diffs of saved plans stay small.
 */
import type { Change, Plan } from '../plan/types.js';
import { wireChange } from '../plan/wire.js';

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeys(v);
    }
    return out;
  }
  return value;
}

function change(planned: Change): Record<string, unknown> {
  // Format 1: the effects inside `note` (src/plan/wire.ts).
  const c = wireChange(planned);
  return {
    action: c.action,
    kind: c.kind,
    key: c.key,
    id: c.id,
    before: sortKeys(c.before),
    after: sortKeys(c.after),
    changed: c.changed,
    ref: c.ref,
    ...(c.monitor !== undefined ? { monitor: c.monitor } : {}),
    depends_on: c.depends_on,
    call: {
      method: c.call.method,
      path: c.call.path,
      ...(c.call.body !== undefined ? { body: sortKeys(c.call.body) } : {}),
    },
    ...(c.note !== undefined ? { note: sortKeys(c.note) } : {}),
    ...(c.source !== undefined ? { source: { file: c.source.file, line: c.source.line, column: c.source.column } } : {}),
  };
}

/** A finding of the checks, its keys in a fixed order. */
function finding(f: NonNullable<Plan['checks']>[number]): Record<string, unknown> {
  return { check: f.check, severity: f.severity, message: f.message, file: f.file, line: f.line, column: f.column, kind: f.kind, key: f.key };
}

export function renderPlanJson(plan: Plan): string {
  return `${JSON.stringify(planJsonDocument(plan), null, 2)}\n`;
}

/** The plan as the JSON document `renderPlanJson` prints (keys in its fixed order). */
export function planJsonDocument(plan: Plan): Record<string, unknown> {
  const u = plan.unmanaged;
  const doc = {
    format_version: plan.format_version,
    changes: plan.changes.map(change),
    summary: { create: plan.summary.create, update: plan.summary.update, delete: plan.summary.delete },
    unmanaged: {
      monitors: u.monitors,
      ...(u.foreign_monitors !== undefined ? { foreign_monitors: u.foreign_monitors } : {}),
      ...(u.referenced_monitors !== undefined ? { referenced_monitors: u.referenced_monitors } : {}),
      alerts: u.alerts,
      ...(u.other_type_alerts !== undefined ? { other_type_alerts: u.other_type_alerts } : {}),
      groups: u.groups,
      ...(u.other_owner_groups !== undefined ? { other_owner_groups: u.other_owner_groups } : {}),
      other_type_monitors: u.other_type_monitors,
      ignored: u.ignored,
    },
    fingerprint: plan.fingerprint,
    created_at: plan.created_at,
    target: plan.target,
    ...(plan.account !== undefined ? { account: plan.account } : {}),
    files: plan.files,
    options: {
      prune: plan.options.prune,
      targets: plan.options.targets,
      owner: plan.options.owner,
      ...(plan.options.ignore !== undefined ? { ignore: plan.options.ignore } : {}),
    },
    warnings: plan.warnings,
    // Last, and only when the checks ran: plans without them keep their bytes.
    ...(plan.checks !== undefined ? { checks: plan.checks.map(finding) } : {}),
    ...(plan.maintenance !== undefined
      ? { maintenance: plan.maintenance.map((m) => ({ window: m.window, start: m.start, end: m.end, monitors: m.monitors, unmatched: m.unmatched })) }
      : {}),
  };
  return doc;
}
