/**
 * The plan as a person reads it in a terminal, Terraform style: `+` create with the fields the
 * config gives, `~` update with only what changes (`old -> new`, a unified diff for multi-line
 * text, `+`/`-` for members, destinations and meta keys), `-` delete. Pure: returns the text.
 */
import pc from 'picocolors';
import { countFindings, formatFinding } from './findings.js';
import type { Change, Plan } from '../plan/types.js';
import {
  noChangesLine,
  SYMBOL,
  cascadeNames,
  describeChange,
  diffLines,
  escapeControl,
  formatValue,
  isMultiline,
  keyField,
  leftAloneParts,
  mapDiff,
  memberChanges,
  metaKey,
  nearMissQuestion,
  otherTypeAlerts,
  planLine,
  plural,
  pruneWouldDelete,
  quote,
  sourceOf,
  renameHint,
  pairedByNote,
  leavesGroups,
} from './plan-words.js';

export interface PlanTextOptions {
  color: boolean;
}

type Colors = ReturnType<typeof pc.createColors>;

const HEAD = '  ';
const BODY = '      ';
const HUNK = '        ';

export function renderPlanText(plan: Plan, options: PlanTextOptions): string {
  const c = pc.createColors(options.color);
  const out: string[] = [...checksSection(plan, c), ...maintenanceSection(plan, c)];

  if (plan.changes.length > 0) {
    out.push('monsync will perform the following actions:', '');
    for (const change of plan.changes) {
      out.push(...renderChange(change, c), '');
    }
  }

  const parts = leftAloneParts(plan.unmanaged, plan.options.prune);
  if (parts.length > 0) {
    const prunable = pruneWouldDelete(plan.unmanaged, plan.options.prune);
    const hint = prunable ? ` (--prune would delete ${prunable})` : '';
    out.push(`Left alone: ${parts.join(', ')}${hint}.`);
  }
  for (const w of plan.warnings) out.push(`${c.yellow(c.bold('Warning:'))} ${escapeControl(w)}`);
  if (parts.length > 0 || plan.warnings.length > 0) out.push('');

  out.push(plan.changes.length > 0 ? c.bold(planLine(plan.summary)) : c.green(noChangesLine(plan)));
  return `${out.join('\n')}\n`;
}

/** The checks' findings, above the changes: `Checks: 1 warning` and one `file:line:column: ...` line each. */
function checksSection(plan: Plan, c: Colors): string[] {
  const findings = plan.checks ?? [];
  if (findings.length === 0) return [];
  const lines = findings.map((f) => {
    const line = escapeControl(formatFinding(f));
    return `${HEAD}${f.severity === 'error' ? c.red(line) : c.yellow(line)}`;
  });
  return [`${c.bold('Checks:')} ${countFindings(findings)} (\`monsync checks\` explains them)`, ...lines, ''];
}

/** Up to this many labels of a window's monitors are named; the rest are counted. */
const WINDOW_LABELS = 5;

function coveredText(labels: readonly string[]): string {
  if (labels.length === 0) return 'no monitor of the account';
  const named = labels.slice(0, WINDOW_LABELS).map(escapeControl).join(', ');
  return labels.length > WINDOW_LABELS ? `${named} and ${labels.length - WINDOW_LABELS} more` : named;
}

/** `2026-12-01 02:00 UTC`: a window's times in the plan, to the minute. */
function minute(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** The maintenance windows of the next 7 days, above the changes: what `maintain` will pause. */
function maintenanceSection(plan: Plan, c: Colors): string[] {
  const windows = plan.maintenance ?? [];
  if (plan.maintenance === undefined) return [];
  if (windows.length === 0) return [`${c.bold('Maintenance windows:')} none open in the next 7 days.`, ''];
  const lines = windows.map((w) => {
    const unmatched = w.unmatched.length > 0 ? c.yellow(` (${w.unmatched.map(escapeControl).join(', ')}: no match in the account)`) : '';
    return `${HEAD}${c.bold(escapeControl(w.window))}  ${minute(w.start)} to ${minute(w.end)}: pauses ${coveredText(w.monitors)}${unmatched}`;
  });
  return [`${c.bold('Maintenance windows')} in the next 7 days (\`monsync maintain\` pauses their alerts):`, ...lines, ''];
}

function paint(c: Colors, action: Change['action'], s: string): string {
  return action === 'create' ? c.green(s) : action === 'update' ? c.yellow(s) : c.red(s);
}

function header(change: Change, c: Colors): string {
  const notes: string[] = [];
  if (change.id !== null) notes.push(`id ${escapeControl(change.id)}`);
  if (change.note?.adopt) notes.push('adopting');
  if (change.note?.pruned) notes.push('unmanaged, pruned');
  if (change.note?.duplicate_of !== undefined) notes.push(`duplicate of id ${escapeControl(change.note.duplicate_of)}`);
  if (change.note?.renamed_from !== undefined) notes.push(`renamed from ${quote(change.note.renamed_from)}`);
  if (change.note?.subject_changed_from !== undefined) notes.push(`subject was ${quote(change.note.subject_changed_from)}`);
  const paired = pairedByNote(change);
  if (paired) notes.push(paired);
  // The id is dim (a reviewer may skip it); what the change means for the resource is not.
  const suffix =
    notes.length === 0
      ? ''
      : change.id !== null
        ? `   ${c.dim(`(${notes[0]}`)}${notes.length > 1 ? `, ${notes.slice(1).join(', ')}` : ''}${c.dim(')')}`
        : `   (${notes.join(', ')})`;
  const where = sourceOf(change);
  return `${HEAD}${paint(c, change.action, SYMBOL[change.action])} ${describeChange(change)}${suffix}${where ? `   ${c.dim(`# ${escapeControl(where)}`)}` : ''}`;
}

function renderChange(change: Change, c: Colors): string[] {
  const lines = [header(change, c)];
  if (change.note?.near_miss !== undefined) lines.push(`${BODY}${c.yellow(nearMissQuestion(change.note.near_miss))}`);
  const rename = renameHint(change);
  if (rename) lines.push(`${BODY}${c.yellow(rename)}`);
  if (change.action === 'create') lines.push(...createBody(change, c));
  else if (change.action === 'update') lines.push(...updateBody(change, c));
  else if (change.kind === 'monitor') {
    // The service keeps no results of a deleted monitor: its uptime and test history cannot come back.
    lines.push(`${BODY}and its test history`);
    if ((change.effects?.cascade_alerts ?? 0) > 0) {
      const lost = change.effects!.other_type_alerts ?? [];
      const also = lost.length > 0 ? c.yellow(`, ${lost.length === 1 ? 'one of them' : 'among them'} ${otherTypeAlerts(lost)} the API cannot create again`) : '';
      const names = cascadeNames(change.note?.cascade_subjects);
      lines.push(`${BODY}and its ${plural(change.effects!.cascade_alerts!, 'alert')}${names ? ` ${names}` : ''}${also}`);
    }
  }
  if (change.action === 'delete') {
    const groups = leavesGroups(change);
    if (groups) lines.push(`${BODY}and leaves ${groups}`);
  }
  return lines;
}

/** Aligned `name: value` rows; multi-line values become indented blocks after their row. */
function fieldRows(rows: [string, string | string[]][]): string[] {
  const width = Math.max(0, ...rows.filter(([, v]) => typeof v === 'string').map(([k]) => k.length + 1));
  const out: string[] = [];
  for (const [k, v] of rows) {
    if (typeof v === 'string') out.push(`${BODY}${`${k}:`.padEnd(width)} ${v}`);
    else out.push(`${BODY}${k}:`, ...v.map((l) => `${HUNK}${l}`));
  }
  return out;
}

function createBody(change: Change, c: Colors): string[] {
  const after = change.after ?? {};
  const rows: [string, string | string[]][] = [];
  for (const f of change.changed) {
    if (f === keyField(change)) continue;
    const v = after[f];
    if (isMultiline(v)) rows.push([f, v.split('\n').map((l) => c.green(escapeControl(l)))]);
    else rows.push([f, formatValue(v)]);
  }
  return fieldRows(rows);
}

function updateBody(change: Change, c: Colors): string[] {
  const before = change.before ?? {};
  const after = change.after ?? {};
  const rows: [string, string | string[]][] = [];
  for (const f of change.changed) {
    const b = before[f];
    const a = after[f];
    if (change.kind === 'group' && f === 'monitors') {
      // What changes, then the list it becomes: a reviewer checks who is in the group, as for destinations.
      const { added, removed } = memberChanges(change);
      rows.push([f, `${plusMinus(added.map(quote), removed.map(quote), c)} -> ${formatValue(a)}`]);
    } else if (f === 'alert_destinations') {
      // The list it becomes, not only what changes in it: a reviewer checks who will be told.
      rows.push([f, `${formatValue(b)} -> ${formatValue(a)}`]);
    } else if (f === 'meta') {
      const d = mapDiff(b, a);
      const parts = [
        ...d.added.map(([k, v]) => `${c.green('+')} ${metaKey(k)}: ${formatValue(v)}`),
        ...d.changed.map(([k, x, y]) => `${c.yellow('~')} ${metaKey(k)}: ${formatValue(x)} -> ${formatValue(y)}`),
        ...d.removed.map(([k, v]) => `${c.red('-')} ${metaKey(k)}: ${formatValue(v)}`),
      ];
      rows.push([f, parts.join(', ')]);
    } else if (isMultiline(b) || isMultiline(a)) {
      rows.push([f, diffLines(String(b ?? ''), String(a ?? '')).map((l) => colorDiffLine(l, c))]);
    } else {
      rows.push([f, `${formatValue(b)} -> ${formatValue(a)}`]);
    }
  }
  return fieldRows(rows);
}

function plusMinus(added: string[], removed: string[], c: Colors): string {
  return [...added.map((x) => `${c.green('+')} ${x}`), ...removed.map((x) => `${c.red('-')} ${x}`)].join(', ');
}

function colorDiffLine(line: string, c: Colors): string {
  if (line.startsWith('@@')) return c.cyan(line);
  if (line.startsWith('+')) return c.green(line);
  if (line.startsWith('-')) return c.red(line);
  return line;
}
