/**
 * The plans of several declared accounts (docs/accounts.md) as one review: text with a heading per
 * account, one Markdown comment (a summary table, then a section per account) and one JSON
 * document (`format: "monsync-accounts"`, schemas/plan.schema.json). Pure; an account whose plan
 * could not be made is shown with its error, never left out.
 */
import type { Plan } from '../plan/types.js';
import { plural } from '../util/plural.js';
import { escapeControl } from '../util/safe-text.js';
import { planJsonDocument } from './plan-json.js';
import { mdCode, mdText, PLAN_COMMENT_MARKER, renderPlanMarkdown } from './plan-markdown.js';
import { renderPlanText } from './plan-text.js';

export type AccountPlan =
  | { account: string; plan: Plan; /** Its deletes pass the default delete threshold only with --force. */ needsForce: boolean }
  | { account: string; /** Why no plan: message and detail lines, already redacted. */ error: string[] };

const MULTI_FORMAT = 'monsync-accounts';

function changesCell(plan: Plan): string {
  const { create, update, delete: del } = plan.summary;
  if (create + update + del === 0) return 'no changes';
  return [create && `${create} to add`, update && `${update} to change`, del && `${del} to destroy`].filter(Boolean).join(', ');
}

/** Text: a heading per account, then its plan (or its error). */
export function renderAccountsText(results: readonly AccountPlan[], options: { color: boolean }): string {
  return results
    .map((r) => {
      const head = `=== account ${escapeControl(r.account)}${'plan' in r ? ` (${escapeControl(r.plan.target)})` : ''} ===\n`;
      if ('error' in r) return `${head}failed: ${r.error.map(escapeControl).join('\n')}\n`;
      const body = renderPlanText(r.plan, options);
      return `${head}${body.endsWith('\n') ? body : `${body}\n`}`;
    })
    .join('\n');
}

/** JSON: every account's plan (as `plan --json` prints one) or its error, in the order planned. */
export function renderAccountsJson(results: readonly AccountPlan[]): string {
  const doc = {
    format: MULTI_FORMAT,
    format_version: 1,
    accounts: results.map((r) => ('plan' in r ? { account: r.account, needs_force: r.needsForce, plan: planJsonDocument(r.plan) } : { account: r.account, error: r.error })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/**
 * One comment for the pull request: the summary table (changes per account, which need `--force`,
 * which failed), then a section per account; each section gets an equal share of the size limit.
 */
export function renderAccountsMarkdown(results: readonly AccountPlan[], options: { title?: string; commit?: string; maxLength?: number } = {}): string {
  const maxLength = options.maxLength ?? 60_000;
  const title = escapeControl((options.title ?? `monsync plan — ${plural(results.length, 'account')}`).replace(/[\r\n]+/g, ' '));
  const commit = options.commit !== undefined ? ` at ${mdCode(options.commit)}` : '';
  const rows = results.map((r) =>
    'plan' in r
      ? `| ${mdCode(r.account)} | ${mdCode(r.plan.target)} | ${changesCell(r.plan)} | ${r.needsForce ? '⚠️ yes' : 'no'} |`
      : `| ${mdCode(r.account)} | | ❌ no plan: ${mdText(r.error[0] ?? 'failed')} | |`,
  );
  const failed = results.filter((r) => 'error' in r).length;
  const changed = results.filter((r) => 'plan' in r && r.plan.changes.length > 0).length;
  const verdict = [`${plural(changed, 'account')} with changes`, ...(failed > 0 ? [`${plural(failed, 'account')} failed`] : [])].join(', ');
  const head = [PLAN_COMMENT_MARKER, `### ${title}${commit}`, '', `**${verdict}.**`, '', '| Account | Target | Changes | Needs `--force` |', '|---|---|---|---|', ...rows];
  const share = Math.max(2_000, Math.floor((maxLength - head.join('\n').length) / Math.max(1, results.length)) - 100);
  const sections = results.map((r) =>
    'plan' in r
      ? renderPlanMarkdown(r.plan, { section: true, title: `Account \`${r.account}\` against \`${r.plan.target}\``, maxLength: share }).trimEnd()
      : [`#### Account ${mdCode(r.account)}`, '', '❌ **No plan could be made:**', '', '```text', ...r.error.map((l) => escapeControl(l).replace(/```/g, "'''")), '```'].join('\n'),
  );
  return `${[...head, ...sections.flatMap((s) => ['', s])].join('\n')}\n`;
}
