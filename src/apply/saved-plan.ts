/**
 * Plans saved by `monsync plan --out` and applied by `monsync apply --plan`: the Plan as JSON.
 * Reading never throws for a bad file; it says what is wrong with it. A saved plan is applied
 * only if the account still looks exactly as it did when the plan was made.
 */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { PLAN_FORMAT_VERSION, type Plan } from '../plan/types.js';

export type SavedPlanRead = { ok: true; plan: Plan } | { ok: false; error: string };

/** A plan that could not be written; the message names the file and the reason. */
export class SavedPlanError extends Error {
  override readonly name = 'SavedPlanError';
}

export const FINGERPRINT_CHANGED = 'the account changed since this plan was made; run plan again';

export function checkFingerprint(plan: Plan, currentFingerprint: string): { ok: true } | { ok: false; message: string } {
  return plan.fingerprint === currentFingerprint ? { ok: true } : { ok: false, message: FINGERPRINT_CHANGED };
}

export function serializePlan(plan: Plan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}

export async function writeSavedPlan(file: string, plan: Plan): Promise<void> {
  // Made without the fingerprint (only to be shown): apply could never check it against the account.
  if (plan.fingerprint === '') throw new SavedPlanError(`cannot save the plan to ${file}: it was made without the account's fingerprint`);
  // Write then rename, so an interrupted write never leaves half a plan under the real name.
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, serializePlan(plan), 'utf8');
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => {});
    throw new SavedPlanError(`cannot write the plan to ${file}: ${fsReason(err)}`);
  }
}

export async function readSavedPlan(file: string): Promise<SavedPlanRead> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    return { ok: false, error: `cannot read the plan file ${file}: ${fsReason(err)}` };
  }
  return parseSavedPlan(text, file);
}

/** Pure: the text of a plan file to a Plan, or what is wrong with it. */
export function parseSavedPlan(text: string, file = 'the plan file'): SavedPlanRead {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `${file} is not a saved plan: it is not valid JSON (${(err as Error).message})` };
  }
  if (!isObject(data) || !('format_version' in data)) {
    return { ok: false, error: `${file} is not a saved plan (no format_version); save one with \`monsync plan --out FILE\`` };
  }
  if (data.format_version !== PLAN_FORMAT_VERSION) {
    return {
      ok: false,
      error: `${file} is a plan of format version ${JSON.stringify(data.format_version)}; this monsync applies version ${PLAN_FORMAT_VERSION}. Run plan again with this version.`,
    };
  }
  const problem = planProblem(data);
  if (problem) return { ok: false, error: `${file} is not a valid saved plan: ${problem}` };
  return { ok: true, plan: data as unknown as Plan };
}

function fsReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    case 'ENOTDIR':
      return 'a part of the path is not a directory';
    default:
      return err instanceof Error ? err.message : String(err);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

/** The first way `p` falls short of a Plan, as `where: what`, or null. Checks what apply and the renderers rely on. */
function planProblem(p: Record<string, unknown>): string | null {
  if (!isString(p.created_at)) return 'created_at must be a string';
  if (!isString(p.target)) return 'target must be a string';
  if (!isStringArray(p.files)) return 'files must be a list of strings';
  const o = p.options;
  if (!isObject(o) || typeof o.prune !== 'boolean' || !isStringArray(o.targets) || !isString(o.owner) || o.owner === '') {
    return 'options must hold prune (boolean), targets (strings) and owner (string)';
  }
  if (!isString(p.fingerprint) || p.fingerprint === '') return 'fingerprint must be a non-empty string';
  if (!isStringArray(p.warnings)) return 'warnings must be a list of strings';
  const s = p.summary;
  if (!isObject(s) || !['create', 'update', 'delete'].every((k) => typeof s[k] === 'number')) {
    return 'summary must hold create, update and delete counts';
  }
  const u = p.unmanaged;
  if (!isObject(u) || !['monitors', 'alerts', 'groups', 'other_type_monitors', 'ignored'].every((k) => typeof u[k] === 'number')) {
    return 'unmanaged must hold counts of monitors, alerts, groups, other_type_monitors and ignored';
  }
  if (p.checks !== undefined) {
    if (!Array.isArray(p.checks)) return 'checks must be a list';
    for (const [i, f] of p.checks.entries()) {
      const ok =
        isObject(f) && isString(f.check) && ['error', 'warning'].includes(f.severity as string) && isString(f.message) && isString(f.file) &&
        Number.isInteger(f.line) && Number.isInteger(f.column) && ['monitor', 'alert', 'group'].includes(f.kind as string) && isString(f.key);
      if (!ok) return `checks[${i}] must be a finding (check, severity, message, file, line, column, kind, key)`;
    }
  }
  if (p.maintenance !== undefined) {
    if (!Array.isArray(p.maintenance)) return 'maintenance must be a list';
    for (const [i, m] of p.maintenance.entries()) {
      const strings = (v: unknown) => Array.isArray(v) && v.every(isString);
      const ok = isObject(m) && isString(m.window) && isString(m.start) && isString(m.end) && strings(m.monitors) && strings(m.unmatched);
      if (!ok) return `maintenance[${i}] must be a window (window, start, end, monitors, unmatched)`;
    }
  }
  if (!Array.isArray(p.changes)) return 'changes must be a list';
  const refs = new Set<string>();
  for (const [i, c] of p.changes.entries()) {
    const at = `changes[${i}]`;
    if (!isObject(c)) return `${at} must be an object`;
    if (!isString(c.ref) || c.ref === '') return `${at}.ref must be a non-empty string`;
    if (refs.has(c.ref)) return `${at}.ref ${JSON.stringify(c.ref)} appears twice`;
    refs.add(c.ref);
    if (!['create', 'update', 'delete'].includes(c.action as string)) return `${at}.action must be create, update or delete`;
    if (!['monitor', 'alert', 'group'].includes(c.kind as string)) return `${at}.kind must be monitor, alert or group`;
    if (!isString(c.key)) return `${at}.key must be a string`;
    if (c.monitor !== undefined && !isString(c.monitor)) return `${at}.monitor must be a string`;
    if (c.action === 'create' ? c.id !== null : !isString(c.id) || c.id === '') {
      return `${at}.id must be ${c.action === 'create' ? 'null for a create' : 'the live id'}`;
    }
    if (c.before !== null && !isObject(c.before)) return `${at}.before must be an object or null`;
    if (c.after !== null && !isObject(c.after)) return `${at}.after must be an object or null`;
    if (!isStringArray(c.changed)) return `${at}.changed must be a list of strings`;
    if (!isStringArray(c.depends_on)) return `${at}.depends_on must be a list of refs`;
    const call = c.call;
    const method = { create: 'POST', update: 'PUT', delete: 'DELETE' }[c.action as 'create'];
    if (!isObject(call) || call.method !== method || !isString(call.path)) {
      return `${at}.call must be a ${method} with a path`;
    }
    if (call.body !== undefined && !isObject(call.body)) return `${at}.call.body must be an object`;
    if (c.action !== 'delete' && call.body === undefined) return `${at}.call.body is missing`;
    if (c.note !== undefined && !isObject(c.note)) return `${at}.note must be an object`;
  }
  for (const [i, c] of (p.changes as Array<{ depends_on: string[] }>).entries()) {
    const missing = c.depends_on.find((r) => !refs.has(r));
    if (missing !== undefined) return `changes[${i}].depends_on names ${JSON.stringify(missing)}, which is not in the plan`;
  }
  return null;
}
