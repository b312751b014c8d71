/**
 * The plan as a GitHub (or GitLab) pull-request comment: a hidden marker so CI can find and update
 * its own comment, a summary line, a table of changes, one collapsible section per change, and a
 * fingerprint footer. Pure: returns the text.
 *
 * Every piece of user text (labels, subjects, bodies, warnings) is escaped for where it lands: in
 * table cells and summaries it goes inside <code> with every character Markdown, HTML or GitHub
 * (mentions, issue links, emoji, math) might act on written as an entity; in code blocks the fence
 * is longer than any backtick run in the content, so nothing can close it early.
 */
import { countFindings } from './findings.js';
import { DOCUMENTED_MONITOR_DEFAULTS, OWNER_META_KEY } from '../model/live.js';
import type { Change, Plan } from '../plan/types.js';
import {
  noChangesLine,
  alertSubject,
  diffLines,
  escapeControl,
  pathText,
  formatValue,
  isMultiline,
  keyField,
  leftAloneParts,
  mapDiff,
  memberChanges,
  metaKey,
  nearMissQuestion,
  otherTypeAlerts,
  cascadeNames,
  planLine,
  plural,
  pruneWouldDelete,
  shortTime,
  sourceOf,
  renameHint,
  pairedByNote,
  leavesGroups,
} from './plan-words.js';

export const PLAN_COMMENT_MARKER = '<!-- monsync-plan -->';

export interface PlanMarkdownOptions {
  /**
   * Heading text. Trusted inline Markdown from the caller (it may use backticks); line breaks are
   * flattened. Default: `monsync plan — <files> against <target>`, escaped.
   */
  title?: string;
  /** Upper bound on the comment's length; GitHub refuses comments over 65536 characters. */
  maxLength?: number;
  /**
   * The (short) commit the plan was made from, named in the heading so a comment left from an
   * older push is recognisable as stale.
   */
  commit?: string;
  /** A section of a larger comment (plan-accounts.ts): no comment marker, a level-4 heading. */
  section?: boolean;
}

const ICON = { create: '➕', update: '✏️', delete: '🗑️' } as const;
const CELL_VALUE_MAX = 40;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * Text that renders literally inside inline HTML: HTML specials as entities; the punctuation that
 * Markdown (emphasis, code, links, tables, escapes, headings) or GitHub (mentions, math) acts on as
 * numeric entities; line breaks as a visible ↵; control characters as visible escapes.
 */
export function mdText(text: string): string {
  return escapeControl(text)
    .replace(/\r\n|\r|\n/g, '↵')
    .replace(/[&<>]/g, (ch) => ENTITIES[ch]!)
    .replace(/[|`*_~[\]\\#@$:]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** User text as inline code: literal, and outside the reach of mention, link and emoji filters. */
export function mdCode(text: string): string {
  return `<code>${mdText(text)}</code>`;
}

/** A fenced code block no content can break out of. */
export function codeBlock(info: string, lines: string[]): string {
  const body = lines.map(escapeControl).join('\n');
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${body}\n${fence}`;
}

function truncate(s: string, max = CELL_VALUE_MAX): string {
  const chars = [...s];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : s;
}

/** A value for a table cell: short, one line, as code. */
function cellValue(v: unknown): string {
  return mdCode(truncate(formatValue(v)));
}

function keyCell(c: Change): string {
  if (c.kind === 'alert') return `${mdCode(c.monitor ?? '')} / ${mdCode(alertSubject(c))}`;
  return mdCode(c.key);
}

function changeCell(c: Change): string {
  const rename = renameHint(c, mdCode);
  if (c.action === 'create') {
    const parts = ['create'];
    // A new group's row names its members: who joins is what a reviewer checks.
    if (c.kind === 'group') {
      const members = Array.isArray(c.after?.['monitors']) ? (c.after['monitors'] as unknown[]).map(String) : [];
      parts[0] = members.length > 0 ? `create with ${cascadeNames(members, mdCode, ', ', 10)}` : 'create (no members)';
    }
    if (c.note?.near_miss !== undefined) parts.push(nearMissQuestion(c.note.near_miss, mdCode, mdText));
    if (rename) parts.push(`⚠️ ${rename}`);
    return parts.join('; ');
  }
  if (c.action === 'delete') {
    const n = c.effects?.cascade_alerts ?? 0;
    const lost = c.effects?.other_type_alerts ?? [];
    const why = c.note?.pruned
      ? ' unmanaged (<code>--prune</code>)'
      : c.note?.duplicate_of !== undefined
        ? ` duplicate of id ${mdCode(c.note.duplicate_of)}`
        : '';
    const among = lost.length > 0 ? `, ${lost.length === 1 ? 'one of them' : 'among them'} ${otherTypeAlerts(lost, mdCode, mdText)} the API cannot create again` : '';
    const names = cascadeNames(c.note?.cascade_subjects, mdCode, ', ');
    // The service keeps no results of a deleted monitor: its uptime and test history cannot come back.
    const history = c.kind === 'monitor' ? ' with its test history' : '';
    const gone = [n > 0 ? `and ${plural(n, 'alert')}${names ? `: ${names}` : ''}${among}` : '', leavesGroups(c, mdCode, ', ') ? `leaves ${leavesGroups(c, mdCode, ', ')}` : '']
      .filter(Boolean)
      .join('; ');
    return `delete${why}${history}${gone ? ` (${gone})` : ''}${rename ? `; ${rename}` : ''}`;
  }
  const parts: string[] = [];
  if (c.note?.adopt) parts.push('adopt');
  if (c.note?.renamed_from !== undefined) parts.push(`renamed from ${mdCode(c.note.renamed_from)}`);
  if (c.note?.subject_changed_from !== undefined) parts.push(`subject was ${mdCode(c.note.subject_changed_from)}`);
  if (pairedByNote(c)) parts.push(`⚠️ ${pairedByNote(c)}`);
  const before = c.before ?? {};
  const after = c.after ?? {};
  for (const f of c.changed) {
    if (f === keyField(c) && (c.note?.renamed_from !== undefined || c.note?.subject_changed_from !== undefined)) continue;
    if (c.kind === 'group' && f === 'monitors') {
      // What changes, then the list it becomes: a reviewer checks who is in the group, as for destinations.
      const { added, removed } = memberChanges(c);
      parts.push(`${[...added.map((l) => `+ ${mdCode(l)}`), ...removed.map((l) => `− ${mdCode(l)}`)].join(', ')} → ${mdCode(listText(after[f]))}`);
    } else if (f === 'alert_destinations') {
      // The list it becomes, not only what changes in it: a reviewer checks who will be told.
      parts.push(`${f} ${mdCode(listText(before[f]))} → ${mdCode(listText(after[f]))}`);
    } else if (f === 'meta') {
      // What changed, key by key (the ownership marker an adoption adds is said by "adopt").
      const d = mapDiff(before[f], after[f]);
      const skip = (k: string) => c.note?.adopt === true && k === OWNER_META_KEY;
      const keys = [
        ...d.changed.filter(([k]) => !skip(k)).map(([k, b, a]) => `${mdText(metaKey(k))} ${cellValue(b)} → ${cellValue(a)}`),
        ...d.added.filter(([k]) => !skip(k)).map(([k, a]) => `+ ${mdText(metaKey(k))} ${cellValue(a)}`),
        ...d.removed.filter(([k]) => !skip(k)).map(([k]) => `− ${mdText(metaKey(k))}`),
      ];
      if (keys.length > 0) parts.push(`meta ${keys.join(', ')}`);
    } else if (isMultiline(before[f]) || isMultiline(after[f])) {
      const lines = (v: unknown) => plural(typeof v === 'string' && v !== '' ? v.split('\n').length : 0, 'line');
      parts.push(`${f} ${lines(before[f])} → ${lines(after[f])}`);
    } else {
      parts.push(`${f} ${cellValue(before[f])} → ${cellValue(after[f])}`);
    }
  }
  return parts.join(', ');
}

/** A list of labels as YAML writes it in flow style: `[ops-mail, oncall-sms]`. */
function listText(v: unknown): string {
  return Array.isArray(v) ? `[${v.map((x) => (typeof x === 'string' ? x : formatValue(x))).join(', ')}]` : formatValue(v);
}

/** The YAML that asks for the change, under its key: `monitoring/eu.yaml:23`. */
function whereCell(c: Change): string {
  const where = sourceOf(c);
  return where ? `<br><sub>${mdText(where)}</sub>` : '';
}

function summaryLine(c: Change): string {
  const what = c.kind === 'alert' ? `alert ${keyCell(c)}` : `${c.kind} ${mdCode(c.key)}`;
  const id = c.id !== null ? ` (id ${mdCode(c.id)})` : '';
  const where = sourceOf(c);
  return `${ICON[c.action]} ${what}${id}${where ? ` · ${mdText(where)}` : ''}`;
}

/** YAML-ish `field: value` lines; multi-line text as a block scalar. */
function yamlLines(fields: Record<string, unknown>, names: string[]): string[] {
  const out: string[] = [];
  for (const f of names) {
    const v = fields[f];
    if (isMultiline(v)) out.push(`${f}: |`, ...v.split('\n').map((l) => `  ${l}`));
    else out.push(`${f}: ${formatValue(v)}`);
  }
  return out;
}

function details(c: Change): string {
  let block: string;
  let extra = '';
  if (c.action === 'create') {
    block = codeBlock('yaml', yamlLines(c.after ?? {}, c.changed.filter((f) => f !== keyField(c))));
    if (c.note?.near_miss !== undefined) extra = `\n${capitalise(nearMissQuestion(c.note.near_miss, mdCode, mdText))}\n`;
    const rename = renameHint(c, mdCode);
    if (rename) extra += `${extra ? '' : '\n'}⚠️ ${capitalise(rename)}.\n`;
  } else if (c.action === 'delete') {
    const before = c.before ?? {};
    // What is lost, not what every monitor has: fields at the service's documented default are left out.
    const own = Object.keys(before).filter((f) => !(c.kind === 'monitor' && isDocumentedDefault(f, before[f])));
    block = codeBlock('yaml', yamlLines(before, own));
    const n = c.effects?.cascade_alerts ?? 0;
    const lost = c.effects?.other_type_alerts ?? [];
    if (n > 0) {
      const among =
        lost.length > 0 ? ` ${lost.length === 1 ? 'One of them is' : 'Among them are'} ${otherTypeAlerts(lost, mdCode, mdText)}, which the API cannot create again: apply refuses this without <code>--force</code>.` : '';
      const names = cascadeNames(c.note?.cascade_subjects, mdCode, ', ', 20);
      extra = `\nThe service deletes its ${plural(n, 'alert')} with it${names ? `: ${names}` : ''}.${among}\n`;
    }
    if (c.kind === 'monitor') extra += `${extra ? '' : '\n'}Its test history goes with it: the service keeps no results of a deleted monitor.\n`;
    const groups = leavesGroups(c, mdCode, ', ');
    if (groups) extra += `${extra ? '' : '\n'}It leaves ${groups}.\n`;
    const rename = renameHint(c, mdCode);
    if (rename) extra += `${extra ? '' : '\n'}${capitalise(rename)}.\n`;
  } else {
    block = codeBlock('diff', updateDiff(c));
  }
  return `<details><summary>${summaryLine(c)}</summary>\n\n${block}\n${extra}</details>`;
}

/** A monitor field at the value the API documents for an omitted one (`port: 25`, `attachment: null`). */
function isDocumentedDefault(field: string, value: unknown): boolean {
  if (!(field in DOCUMENTED_MONITOR_DEFAULTS)) return false;
  const d = (DOCUMENTED_MONITOR_DEFAULTS as Record<string, unknown>)[field];
  if (d !== null && typeof d === 'object') return value !== null && typeof value === 'object' && Object.keys(value).length === 0;
  return value === d;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function updateDiff(c: Change): string[] {
  const before = c.before ?? {};
  const after = c.after ?? {};
  const out: string[] = [];
  for (const f of c.changed) {
    const b = before[f];
    const a = after[f];
    if (c.kind === 'group' && f === 'monitors') {
      // Group members as the plan's notes give them (by id): a member renamed by this plan stays a member.
      const { added, removed } = memberChanges(c);
      out.push(` ${f}:`, ...added.map((x) => `+  ${formatValue(x)}`), ...removed.map((x) => `-  ${formatValue(x)}`), ` # it becomes ${formatValue(a)}`);
    } else if (f === 'meta') {
      const d = mapDiff(b, a);
      out.push(
        ' meta:',
        ...d.added.map(([k, v]) => `+  ${metaKey(k)}: ${formatValue(v)}`),
        ...d.changed.flatMap(([k, x, y]) => [`-  ${metaKey(k)}: ${formatValue(x)}`, `+  ${metaKey(k)}: ${formatValue(y)}`]),
        ...d.removed.map(([k, v]) => `-  ${metaKey(k)}: ${formatValue(v)}`),
      );
    } else if (isMultiline(b) || isMultiline(a)) {
      // Hunk headers carry the field name as their section heading, as `git diff` does for functions.
      out.push(...diffLines(String(b ?? ''), String(a ?? '')).map((l) => (l.startsWith('@@') ? `${l} ${f}` : l)));
    } else {
      out.push(`-${f}: ${formatValue(b)}`, `+${f}: ${formatValue(a)}`);
    }
  }
  return out;
}

/** Findings listed in a comment; the rest are counted (the job log has every one). */
const MAX_FINDINGS = 20;

/** The maintenance windows of the next 7 days, as a table a reviewer reads: what `maintain` will pause. */
function maintenanceSection(plan: Plan): string[] {
  if (plan.maintenance === undefined) return [];
  if (plan.maintenance.length === 0) return ['', '**Maintenance windows:** none open in the next 7 days.'];
  const labels = (list: readonly string[]) =>
    list.length === 0 ? '_none in the account_' : list.slice(0, 5).map(mdCode).join(', ') + (list.length > 5 ? ` and ${list.length - 5} more` : '');
  const rows = plan.maintenance.map(
    (w) => `| ${mdText(w.window)} | ${w.start.slice(0, 16).replace('T', ' ')} UTC | ${w.end.slice(0, 16).replace('T', ' ')} UTC | ${labels(w.monitors)}${w.unmatched.length > 0 ? ` (no match: ${w.unmatched.map(mdCode).join(', ')})` : ''} |`,
  );
  return ['', '**Maintenance windows in the next 7 days** (<code>monsync maintain</code> pauses their alerts):', '', '| Window | From | To | Monitors |', '|---|---|---|---|', ...rows];
}

/** A short "Checks" section for above the changes: the count, then one line per finding. */
function checksSection(plan: Plan): string[] {
  const findings = plan.checks ?? [];
  if (findings.length === 0) return [];
  const lines = findings
    .slice(0, MAX_FINDINGS)
    .map((f) => `- ${f.severity === 'error' ? '❌' : '⚠️'} ${mdCode(f.check)} ${mdCode(`${pathText(f.file)}:${f.line}:${f.column}`)}: ${mdText(f.message)}`);
  if (findings.length > MAX_FINDINGS) lines.push(`- … and ${plural(findings.length - MAX_FINDINGS, 'more finding')}, in the job log.`);
  return ['', `**Checks:** ${countFindings(findings)} (<code>monsync checks</code> explains them)`, '', ...lines];
}

export function renderPlanMarkdown(plan: Plan, options: PlanMarkdownOptions = {}): string {
  const maxLength = options.maxLength ?? 60_000;
  const title =
    options.title !== undefined
      ? escapeControl(options.title.replace(/[\r\n]+/g, ' '))
      : `monsync plan — ${plan.files.length > 0 ? plan.files.map(mdCode).join(', ') : 'configuration'} against ${mdCode(plan.target)}`;

  const commit = options.commit !== undefined ? ` at ${mdCode(options.commit)}` : '';
  const head: string[] = options.section ? [`#### ${title}${commit}`, ''] : [PLAN_COMMENT_MARKER, `### ${title}${commit}`, ''];
  const parts = leftAloneParts(plan.unmanaged, plan.options.prune);
  const prunable = pruneWouldDelete(plan.unmanaged, plan.options.prune);
  const leftAlone =
    parts.length > 0
      ? ` Left alone: ${parts.join(', ')}${prunable ? ` (<code>--prune</code> would delete ${prunable})` : ''}.`
      : '';
  head.push(plan.changes.length > 0 ? `**${planLine(plan.summary)}**${leftAlone}` : `**${noChangesLine(plan)}**${leftAlone}`);
  if (plan.warnings.length > 0) {
    // Warnings quote user text inside sentences: a code block keeps all of it literal.
    head.push('', `⚠️ ${plural(plan.warnings.length, 'warning')}:`, '', codeBlock('text', plan.warnings));
  }
  head.push(...checksSection(plan), ...maintenanceSection(plan));

  // Deletes come first and are never left out (every one of them needs a reader's eyes, and some
  // apply's --force); the rest follow in the order apply runs them and give way row by row.
  const ordered = [...plan.changes.filter(mustShow), ...plan.changes.filter((c) => !mustShow(c))];
  const kept = ordered.filter(mustShow).length;
  const rows = ordered.map((c) => `| ${ICON[c.action]} | ${c.kind} | ${keyCell(c)}${whereCell(c)} | ${changeCell(c)} |`);
  const sections = ordered.map(details);

  const footerBits = [`Fingerprint <code>${mdText(plan.fingerprint.slice(0, 12))}…</code>`, `plan made ${shortTime(plan.created_at)}`];
  if (plan.options.targets.length > 0) footerBits.push(`targets ${plan.options.targets.map(mdCode).join(', ')}`);
  if (plan.options.prune) footerBits.push('with <code>--prune</code>');
  const footer = `<sub>${footerBits.join(' · ')}</sub>`;

  const tableHead = ['', '| | Kind | Key | Change |', '|---|---|---|---|'];
  const moreRows = (n: number) => `| | | | … and ${plural(n, 'more change')} (the job log has them all) |`;
  const moreDetails = (n: number) =>
    `_Details of ${plural(n, 'more change')} left out to keep this comment within GitHub's size limit; the full plan is in the job log._`;
  const assemble = (nRows: number, nSections: number): string => {
    const out = [...head];
    if (plan.changes.length > 0) {
      out.push(...tableHead, ...rows.slice(0, nRows));
      if (nRows < rows.length) out.push(moreRows(rows.length - nRows));
      for (const s of sections.slice(0, nSections)) out.push('', s);
      if (nSections < sections.length) out.push('', moreDetails(sections.length - nSections));
    }
    out.push('', footer);
    return `${out.join('\n')}\n`;
  };

  // Drop details from the end first, then table rows (never a delete's), until the comment fits.
  // Lengths are added up rather than the comment assembled again per try: thousands of changes.
  const text = assemble(rows.length, sections.length);
  if (text.length <= maxLength) return text;
  const tableOnly = assemble(rows.length, 0);
  if (tableOnly.length <= maxLength) {
    let budget = maxLength - tableOnly.length;
    let n = 0;
    while (n < sections.length && budget - (sections[n]!.length + 2) >= 0) budget -= sections[n++]!.length + 2;
    return assemble(rows.length, n);
  }
  // Without details: the deletes, then the rows that fit, one by one.
  let room = maxLength - assemble(kept, 0).length;
  let r = kept;
  while (r < rows.length && room - (rows[r]!.length + 1) >= 0) room -= rows[r++]!.length + 1;
  return assemble(r, 0);
}

/** A change the comment always lists: a delete (a reader must see each; apply may need --force). */
function mustShow(c: Change): boolean {
  return c.action === 'delete';
}
