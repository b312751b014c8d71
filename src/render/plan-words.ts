/**
 * The words shared by the plan renderers (plan-words: not "format", which names fmt's rewrite alone). Everything here is pure. User text (labels, subjects,
 * bodies) is untrusted: it is quoted or escaped so it cannot move the cursor, recolour a terminal,
 * reorder text with bidi controls, or break out of the Markdown it is placed in.
 */
import { createRequire } from 'node:module';
import type { Change, ChangeAction, NearMiss, Plan, PlanSummary, UncreatableAlert, UnmanagedCounts } from '../plan/types.js';
import { plural } from '../util/plural.js';
import { escapeControl, pathText, quote } from '../util/safe-text.js';

// `diff` is needed only by a plan that changes a multi-line text; loaded then, synchronously, so the
// renderers stay pure functions and every other plan skips its ~15 ms of module loading.
let diffModule: typeof import('diff') | undefined;
const textDiff = (): typeof import('diff') => (diffModule ??= createRequire(import.meta.url)('diff') as typeof import('diff'));

// Terminal-safe text (src/util/safe-text.ts) and plural (src/util/plural.ts) are shared by every
// renderer; the plan renderers get them from here with the rest of their formatting.
export { escapeControl, pathText, quote } from '../util/safe-text.js';
export { plural } from '../util/plural.js';

const BARE_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** A plan value in the compact, HCL-like notation of the text plan: `"x"`, `5`, `["a", "b"]`, `{ k: "v" }`. */
export function formatValue(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(formatValue).join(', ')}]`;
  if (typeof value === 'object') {
    if (isIdRef(value)) return `(id of ${quote(value.$ref)})`;
    const keys = Object.keys(value).sort();
    if (keys.length === 0) return '{}';
    const parts = keys.map((k) => `${BARE_KEY.test(k) ? k : quote(k)}: ${formatValue((value as Record<string, unknown>)[k])}`);
    return `{ ${parts.join(', ')} }`;
  }
  return String(value);
}

function isIdRef(v: object): v is { $ref: string } {
  return typeof (v as { $ref?: unknown }).$ref === 'string' && Object.keys(v).length === 1;
}

export function isMultiline(value: unknown): value is string {
  return typeof value === 'string' && value.includes('\n');
}

/**
 * Unified diff hunks (`@@ -a,b +c,d @@` plus ` `, `-`, `+` lines) between two texts, lines escaped.
 * Both texts are given a final newline so "no newline at end of file" never shows up as a change.
 */
export function diffLines(before: string, after: string, context = 3): string[] {
  const nl = (s: string): string => (s.endsWith('\n') ? s : `${s}\n`);
  const patch = textDiff().structuredPatch('before', 'after', nl(before), nl(after), '', '', { context });
  const out: string[] = [];
  for (const h of patch.hunks) {
    out.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    for (const line of h.lines) {
      if (line.startsWith('\\')) continue;
      out.push(escapeControl(line));
    }
  }
  return out;
}

export function planLine(s: PlanSummary): string {
  return `Plan: ${s.create} to add, ${s.update} to change, ${s.delete} to destroy.`;
}

export const NO_CHANGES = 'No changes. The account matches the configuration.';

/** A plan without changes: with --target, only the targeted resources are known to need none. */
export function noChangesLine(plan: Pick<Plan, 'options'>): string {
  return plan.options.targets.length > 0 ? 'No changes to the targeted resources.' : NO_CHANGES;
}

/**
 * The parts of the "Left alone" sentence, or [] when nothing was left alone. What --prune keeps is
 * said when pruning (without it, the hint says what --prune would delete instead).
 */
export function leftAloneParts(u: UnmanagedCounts, prune = false): string[] {
  const parts: string[] = [];
  // README's terms: unmanaged monitors carry no owner's marker, foreign ones another owner's.
  const foreign = u.foreign_monitors ?? 0;
  const unmanaged = u.monitors - foreign;
  if (unmanaged > 0) {
    const referenced = prune ? (u.referenced_monitors ?? 0) : 0;
    const named = 'named by a declared group or alert, so not pruned';
    const detail = referenced === 0 ? '' : referenced === unmanaged ? ` (${named})` : ` (${referenced} of them ${named})`;
    parts.push(`${plural(unmanaged, 'unmanaged monitor')}${detail}`);
  }
  if (foreign > 0) parts.push(`${plural(foreign, 'foreign monitor')} (managed by another owner)`);
  if (u.other_type_monitors > 0) parts.push(`${plural(u.other_type_monitors, 'monitor')} of other types`);
  if (u.alerts > 0) parts.push(`${plural(u.alerts, 'undeclared alert')} on them`);
  const kept = u.other_type_alerts ?? 0;
  if (kept > 0) parts.push(`${kept === 1 ? '1 alert of another type' : `${kept} alerts of other types`} on managed monitors`);
  if (u.groups > 0) {
    const others = prune ? (u.other_owner_groups ?? 0) : 0;
    const detail = others === 0 ? '' : others === u.groups ? ' (listing monitors of another owner, so not pruned)' : ` (${others} of them listing monitors of another owner, so not pruned)`;
    parts.push(`${plural(u.groups, 'undeclared group')}${detail}`);
  }
  if (u.ignored > 0) parts.push(`${u.ignored} ignored by settings.ignore`);
  return parts;
}

/**
 * What `--prune` would delete of what is now left alone, as words (`1 unmanaged monitor and 2
 * undeclared groups`), or '' when nothing (or when pruning already): never another owner's monitors,
 * nor the ones a declared group or alert names, nor groups listing another owner's monitors.
 */
export function pruneWouldDelete(u: UnmanagedCounts, prune: boolean): string {
  if (prune) return '';
  const monitors = u.monitors - (u.foreign_monitors ?? 0) - (u.referenced_monitors ?? 0);
  const groups = u.groups - (u.other_owner_groups ?? 0);
  const parts = [monitors > 0 ? plural(monitors, 'unmanaged monitor') : '', groups > 0 ? plural(groups, 'undeclared group') : ''].filter(Boolean);
  return parts.join(' and ');
}

export const SYMBOL: Record<ChangeAction, string> = { create: '+', update: '~', delete: '-' };

/**
 * The alerts of other types a monitor delete takes with it, as words: `a threshold alert "slow"`,
 * `2 alerts of other types (threshold "a", ping "b")`; subjects quoted with `q`, types made safe with `t`.
 */
export function otherTypeAlerts(lost: readonly UncreatableAlert[], q: (s: string) => string = quote, t: (s: string) => string = escapeControl): string {
  if (lost.length === 1) return `a ${t(lost[0]!.type)} alert ${q(lost[0]!.subject_init)}`;
  return `${lost.length} alerts of other types (${lost.map((a) => `${t(a.type)} ${q(a.subject_init)}`).join(', ')})`;
}

/** `did you mean to adopt "legacy-mx" (id 10005, differs only in case)?`, user text quoted with `q`. */
export function nearMissQuestion(n: NearMiss, q: (s: string) => string = quote, id: (s: string) => string = escapeControl): string {
  return `did you mean to adopt ${q(n.label)} (id ${id(n.id)}, differs only in ${n.differs})?`;
}

/**
 * A create and a delete of this plan that differ only in label or name (`note.looks_like_rename_of`
 * / `_to`): on the create, what to declare so the resource keeps its id and history.
 */
export function renameHint(c: Change, q: (s: string) => string = quote): string {
  const previous = c.kind === 'group' ? 'previous_names' : 'previous_labels';
  if (c.note?.looks_like_rename_of !== undefined) {
    return `looks like a rename of ${q(c.note.looks_like_rename_of)}: add ${previous} to keep its id and history`;
  }
  if (c.note?.looks_like_rename_to !== undefined) return `looks like a rename to ${q(c.note.looks_like_rename_to)}`;
  return '';
}

/** How an alert whose subject changed was paired without previous_subjects (`note.paired_by`), or ''. */
export function pairedByNote(c: Change): string {
  if (c.note?.paired_by === 'alone') return 'paired as the only alert left on its monitor';
  if (c.note?.paired_by === 'subject_term') return 'paired by its subject_term';
  return '';
}

/** The groups a deleted monitor leaves (`note.member_of`): `group "a"`, `groups "a" and "b"`. */
export function leavesGroups(c: Change, q: (s: string) => string = quote, sep = ' and '): string {
  const groups = c.note?.member_of ?? [];
  if (groups.length === 0) return '';
  return `${groups.length === 1 ? 'group' : 'groups'} ${cascadeNames(groups, q, sep, 5)}`;
}

/** The field that names a resource: shown in its header, not again among its fields. */
export function keyField(c: Change): string {
  return c.kind === 'monitor' ? 'label' : c.kind === 'alert' ? 'subject_init' : 'name';
}

/** The alert subject of an alert change (after the change, or before a delete). */
export function alertSubject(c: Change): string {
  const v = (c.after ?? c.before ?? {}).subject_init;
  return typeof v === 'string' ? v : c.key;
}

/** `monitor "mx"`, `alert "mx" / "mx is DOWN"`, `group "prod"`, with user text quoted. */
export function describeChange(c: Change): string {
  if (c.kind === 'alert') return `alert ${quote(c.monitor ?? '')} / ${quote(alertSubject(c))}`;
  return `${c.kind} ${quote(c.key)}`;
}

/** Where the YAML asks for a change, as `file:line` (an editor and GitHub jump there), or '' (deletes: nothing declares them). */
export function sourceOf(c: Change): string {
  return c.source ? `${pathText(c.source.file)}:${c.source.line}` : '';
}

/** Set difference of two arrays of labels, for `+ "a", - "b"` lines. */
export function setDiff(before: unknown, after: unknown): { added: string[]; removed: string[] } {
  const b = Array.isArray(before) ? before.map(String) : [];
  const a = Array.isArray(after) ? after.map(String) : [];
  // Sets, not includes(): group member lists run to thousands of labels.
  const inB = new Set(b);
  const inA = new Set(a);
  return { added: a.filter((x) => !inB.has(x)), removed: b.filter((x) => !inA.has(x)) };
}

/** Key-level difference of two string maps (meta). */
export function mapDiff(
  before: unknown,
  after: unknown,
): { added: [string, unknown][]; changed: [string, unknown, unknown][]; removed: [string, unknown][] } {
  const b = (before && typeof before === 'object' ? before : {}) as Record<string, unknown>;
  const a = (after && typeof after === 'object' ? after : {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].sort();
  const out = { added: [] as [string, unknown][], changed: [] as [string, unknown, unknown][], removed: [] as [string, unknown][] };
  for (const k of keys) {
    if (!(k in b)) out.added.push([k, a[k]]);
    else if (!(k in a)) out.removed.push([k, b[k]]);
    else if (b[k] !== a[k]) out.changed.push([k, b[k], a[k]]);
  }
  return out;
}

export function metaKey(k: string): string {
  return BARE_KEY.test(k) ? k : quote(k);
}

/**
 * The alerts a monitor delete takes with it, named: `"a"`, `"a" and "b"`, `"a", "b", "c" and 4 more`
 * (each quoted with `q`), or '' when the plan does not name them.
 */
export function cascadeNames(subjects: readonly string[] | undefined, q: (s: string) => string = quote, sep = ' and ', max = 3): string {
  if (!subjects || subjects.length === 0) return '';
  const shown = subjects.slice(0, max).map(q);
  if (subjects.length > max) return `${shown.join(', ')}${sep}${subjects.length - max} more`;
  return shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(', ')}${sep}${shown[shown.length - 1]}`;
}

/** Short UTC time for people: `2026-11-22 10:41 UTC`. */
export function shortTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return escapeControl(iso);
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * Members a group update adds and removes. The plan's notes count by id, so a member this plan
 * renames is neither; only a plan without notes (hand-made) falls back to comparing labels. One
 * note without the other means nothing on that side.
 */
export function memberChanges(change: Change): { added: string[]; removed: string[] } {
  const note = change.note;
  if (note?.members_added !== undefined || note?.members_removed !== undefined) {
    return { added: note.members_added ?? [], removed: note.members_removed ?? [] };
  }
  return setDiff(change.before?.['monitors'], change.after?.['monitors']);
}
