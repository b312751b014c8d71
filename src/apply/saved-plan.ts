/**
 * Plans saved by `monsync plan --out` and applied by `monsync apply --plan`: the Plan as JSON, with
 * the desired state it was planned from (`desired`). Reading never throws for a bad file; it says
 * what is wrong with it. A saved plan is applied only as it was made: the account must still look
 * exactly as it did (the fingerprint), and planning the file's own desired state again against the
 * account read now must give exactly the file's plan (`proveSavedPlan`): an edited id, key, body,
 * action or count of changes is refused before anything is sent. A digest alone would not do:
 * whoever can edit the file can compute it again; deriving the changes again cannot be forged.
 */
import { createHash } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { holdsSecret } from '../util/redact.js';
import { isDeepStrictEqual } from 'node:util';
import type { DesiredState } from '../model/desired.js';
import { PLAN_FORMAT_VERSION, type Change, type Plan } from '../plan/types.js';
import { changeFromWire, wireChange } from '../plan/wire.js';

/** `desired` is null for a file saved before plans carried it: it can be shown, never applied. */
export type SavedPlanRead = { ok: true; plan: Plan; desired: DesiredState | null } | { ok: false; error: string };

/** What apply says of a saved plan without its desired state (saved by an older monsync). */
export const NO_DESIRED_STATE =
  'was saved without the configuration it was planned from (by an older monsync), so it cannot be checked before it is applied; run plan --out again';

/** A plan that could not be written; the message names the file and the reason. */
export class SavedPlanError extends Error {
  override readonly name = 'SavedPlanError';
}

export const FINGERPRINT_CHANGED = 'the account changed since this plan was made; run plan again';

export function checkFingerprint(plan: Plan, currentFingerprint: string): { ok: true } | { ok: false; message: string } {
  return plan.fingerprint === currentFingerprint ? { ok: true } : { ok: false, message: FINGERPRINT_CHANGED };
}

/**
 * The file's text: the plan (format 1 as saved: a change's effects inside its note, src/plan/wire.ts),
 * then the desired state it was made from (what apply plans again).
 */
export function serializePlan(plan: Plan, desired?: DesiredState): string {
  const wire = { ...plan, changes: plan.changes.map(wireChange) };
  const body = desired === undefined ? wire : { ...wire, desired };
  return `${JSON.stringify({ ...body, sha256: digestOf(body) }, null, 2)}\n`;
}

/**
 * The file's own digest (`sha256`, over the rest of it as serialized): not a signature, anyone can
 * write one, but a file that still matches it was not edited by hand or damaged on the way, so a
 * refusal can blame the account rather than the file.
 */
function digestOf(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

/** The plans read from files whose digest holds (proveSavedPlan words its refusal by it). */
const INTACT = new WeakSet<Plan>();

export async function writeSavedPlan(file: string, plan: Plan, desired: DesiredState): Promise<void> {
  // Made without the fingerprint (only to be shown): apply could never check it against the account.
  if (plan.fingerprint === '') throw new SavedPlanError(`cannot save the plan to ${file}: it was made without the account's fingerprint`);
  // A credential's value the configuration rebuilt (util/redact.ts) is not written to disk; masked, the
  // plan would apply `***` instead: it is not saved at all.
  const text = serializePlan(plan, desired);
  if (holdsSecret(text)) {
    throw new SavedPlanError(`not saving the plan to ${file}: it holds the value of a credential variable (shown as ***), which would be written to disk and sent to the service; take it out of the configuration`);
  }
  // Write then rename, so an interrupted write never leaves half a plan under the real name.
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, text, 'utf8');
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
  const { sha256, ...body } = data;
  const { desired, ...plan } = body;
  const problem = planProblem(plan) ?? (desired === undefined ? null : desiredProblem(desired));
  if (problem) return { ok: false, error: `${file} is not a valid saved plan: ${problem}` };
  const read = plan as unknown as Plan;
  const out: Plan = { ...read, changes: (read.changes as Change[]).map(changeFromWire) };
  if (typeof sha256 === 'string' && sha256 === digestOf(body)) INTACT.add(out);
  return { ok: true, plan: out, desired: desired === undefined ? null : (desired as DesiredState) };
}

export type ProvedPlan = { ok: true; plan: Plan } | { ok: false; message: string };

/**
 * `derive` plans the file's desired state again against the account read now, from the saved plan's
 * own inputs (the one assembly, src/workflow/assemble.ts: options, time, checks, maintenance
 * windows); the result must be the saved plan, every field of every change included. What the plan
 * does not cover is not compared: the counts of objects it leaves alone (`unmanaged`: ignored ones,
 * other types), which may grow between plan and apply as they are outside the fingerprint too
 * (docs/semantics.md). The plan returned is the one derived here. Call it after the fingerprint
 * check, so an account that changed is reported as such.
 */
export function proveSavedPlan(saved: Plan, derive: () => Plan, file = 'the plan file'): ProvedPlan {
  // A file whose digest holds was not edited: what differs comes from the account, in what its
  // fingerprint does not cover (a group's members, say); a file without one, or not matching it, is blamed.
  const refused = (why: string): ProvedPlan => ({
    ok: false,
    message: INTACT.has(saved)
      ? `${file} no longer matches this account (${why}): the file is intact (its sha256 holds), so the account changed since the plan was made, in what its fingerprint does not cover; nothing was sent: run plan again`
      : `${file} is not what monsync plans for the configuration saved in it against this account (${why}); it was edited or damaged, so nothing was sent: run plan again`,
  });
  let again: Plan;
  try {
    again = derive();
  } catch (err) {
    // A desired state monsync could not have saved (the planner stops on it, or trips over it).
    return refused(`planning it again fails: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
  const covered = { ...again, unmanaged: saved.unmanaged };
  // Compared as the file holds it (JSON drops what is undefined): first as text, since the file was
  // written by the same serializer in the same key order and comparing the text is cheaper than
  // parsing it back and walking both; then as data (keys only reordered are no difference).
  const text = JSON.stringify(covered);
  if (text === JSON.stringify(saved)) return { ok: true, plan: again };
  const derived = JSON.parse(text) as Plan;
  if (isDeepStrictEqual(derived, saved)) return { ok: true, plan: again };
  return refused(firstDifference(saved, derived));
}

/** Where the file first departs from the derived plan, for the refusal (values of changes shown as JSON, cut short). */
function firstDifference(saved: Plan, derived: Plan): string {
  const show = (v: unknown) => {
    const t = v === undefined ? 'nothing' : JSON.stringify(v);
    return t.length > 80 ? `${t.slice(0, 77)}...` : t;
  };
  const sc = saved.changes;
  const dc = derived.changes;
  const n = Math.min(sc.length, dc.length);
  for (let i = 0; i < n; i++) {
    const a = sc[i] as unknown as Record<string, unknown>;
    const b = dc[i] as unknown as Record<string, unknown>;
    if (isDeepStrictEqual(a, b)) continue;
    for (const k of [...new Set([...Object.keys(b), ...Object.keys(a)])]) {
      if (!isDeepStrictEqual(a[k], b[k])) return `changes[${i}].${k} is ${show(a[k])}, planning again gives ${show(b[k])}`;
    }
  }
  if (sc.length !== dc.length) return `it holds ${sc.length} changes, planning again gives ${dc.length}`;
  const sp = saved as unknown as Record<string, unknown>;
  const dp = derived as unknown as Record<string, unknown>;
  const key = [...new Set([...Object.keys(dp), ...Object.keys(sp)])].find((k) => !isDeepStrictEqual(sp[k], dp[k]));
  if (key === 'maintenance') return maintenanceDifference(saved.maintenance ?? [], derived.maintenance ?? [], show);
  return `${key ?? 'the plan'} differs from what planning again gives`;
}

/** The first window whose cover differs: `maintenance window "nightly" covers ["mx-a","mx-c"] now, the file says ["mx-a"]`. */
function maintenanceDifference(saved: NonNullable<Plan['maintenance']>, derived: NonNullable<Plan['maintenance']>, show: (v: unknown) => string): string {
  for (let i = 0; i < Math.max(saved.length, derived.length); i++) {
    const [a, b] = [saved[i], derived[i]];
    if (isDeepStrictEqual(a, b)) continue;
    if (a === undefined || b === undefined || a.window !== b.window || a.start !== b.start) break;
    const field = !isDeepStrictEqual(a.monitors, b.monitors) ? 'covers' : 'leaves unmatched';
    const [was, now] = field === 'covers' ? [a.monitors, b.monitors] : [a.unmatched, b.unmatched];
    return `maintenance window ${JSON.stringify(b.window)} ${field} ${show(now)} now, the file says ${show(was)}`;
  }
  return 'maintenance differs from what planning again gives';
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
  if (p.account !== undefined && !isString(p.account)) return 'account must be a string';
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

const isInt = (v: unknown): boolean => Number.isInteger(v);
const sourceOk = (v: unknown): boolean => isObject(v) && isString(v.file) && isInt(v.line) && isInt(v.column);

function alertProblem(a: unknown, at: string): string | null {
  if (!isObject(a) || !isString(a.monitor) || !isString(a.subject_init) || !isString(a.subject_term) || typeof a.timeout !== 'number') {
    return `${at} must be an alert (monitor, subject_init, subject_term, timeout)`;
  }
  if (!isStringArray(a.alert_destinations)) return `${at}.alert_destinations must be a list of strings`;
  if (a.previous_subjects !== undefined && !isStringArray(a.previous_subjects)) return `${at}.previous_subjects must be a list of strings`;
  if (a.disable_checks !== undefined && !isStringArray(a.disable_checks)) return `${at}.disable_checks must be a list of strings`;
  if (!sourceOk(a.source)) return `${at}.source must be a file, line and column`;
  return null;
}

/**
 * The first way `d` falls short of a DesiredState, or null: the shapes the planner walks, so that
 * planning it again never trips over a type (the values themselves are compared by planning again).
 */
function desiredProblem(d: unknown): string | null {
  if (!isObject(d)) return 'desired must be an object';
  const s = d.settings;
  if (!isObject(s) || !isString(s.owner) || s.owner === '' || !isStringArray(s.ignore) || typeof s.prune !== 'boolean') {
    return 'desired.settings must hold owner, ignore and prune';
  }
  if (s.checks !== undefined && (!isObject(s.checks) || !Object.values(s.checks).every((l) => ['error', 'warning', 'off'].includes(l as string)))) {
    return 'desired.settings.checks must map check names to error, warning or off';
  }
  if (!isStringArray(d.files)) return 'desired.files must be a list of strings';
  if (!Array.isArray(d.monitors) || !Array.isArray(d.alerts) || !Array.isArray(d.groups)) return 'desired must hold monitors, alerts and groups lists';
  for (const [i, m] of d.monitors.entries()) {
    const at = `desired.monitors[${i}]`;
    if (!isObject(m) || !isString(m.label) || !isStringArray(m.previous_labels) || !isObject(m.spec) || !Array.isArray(m.alerts) || !sourceOk(m.source)) {
      return `${at} must be a monitor (label, previous_labels, spec, alerts, source)`;
    }
    if (m.spec.meta !== undefined && (!isObject(m.spec.meta) || !Object.values(m.spec.meta).every(isString))) return `${at}.spec.meta must map names to strings`;
    if (m.disable_checks !== undefined && !isStringArray(m.disable_checks)) return `${at}.disable_checks must be a list of strings`;
    for (const [j, a] of m.alerts.entries()) {
      const problem = alertProblem(a, `${at}.alerts[${j}]`);
      if (problem) return problem;
    }
  }
  for (const [i, a] of d.alerts.entries()) {
    const problem = alertProblem(a, `desired.alerts[${i}]`);
    if (problem) return problem;
  }
  for (const [i, g] of d.groups.entries()) {
    const at = `desired.groups[${i}]`;
    if (!isObject(g) || !isString(g.name) || !isStringArray(g.previous_names) || !(g.monitors === null || isStringArray(g.monitors)) || !sourceOk(g.source)) {
      return `${at} must be a group (name, previous_names, monitors, source)`;
    }
    if (g.disable_checks !== undefined && !isStringArray(g.disable_checks)) return `${at}.disable_checks must be a list of strings`;
  }
  return null;
}
