/** `monsync plan`: the plan on stdout as text, JSON or Markdown, optionally saved for `apply --plan`. */
import type { AccountPlan } from '../render/plan-accounts.js';
import { UsageError, UserError } from '../util/errors.js';
import type { AccountChoice } from '../workflow/accounts.js';
import { accountErrorText, forEachAccount, openCommand, type CommandContext, type ConnectionOptions } from '../workflow/context.js';
import { planFlow, savePlan } from '../workflow/plan.js';
import type { CommandIo } from './output.js';
import { findCommit } from './commit.js';
import { printProgress } from './progress.js';

export interface PlanOptions extends ConnectionOptions, AccountChoice {
  json?: boolean;
  format?: string;
  out?: string;
  detailedExitcode?: boolean;
  target?: string[];
  prune?: boolean;
  strict?: boolean;
  commit?: string;
}

export async function runPlan(paths: string[], opts: PlanOptions, io: CommandIo): Promise<number> {
  const format = opts.json ? 'json' : (opts.format ?? 'text');
  if (!['text', 'json', 'markdown'].includes(format)) {
    throw new UsageError(`--format must be text, json or markdown, got "${format}"`);
  }
  // Looked up before the account is read: a bad --commit is a usage error before any connection.
  const commit = format === 'markdown' ? await findCommit(opts.commit, io.env, io.cwd) : undefined;
  const { contexts, several } = await openCommand({ io, paths, connection: opts, choice: opts });
  if (several) return planAccounts(paths, contexts, opts, format, commit, io);
  const ctx = contexts[0]!;
  const account = ctx.account;
  const { plan, desired } = await planFlow(ctx, {
    prune: opts.prune,
    targets: opts.target,
    strict: opts.strict,
    onProgress: printProgress(io),
    // Only a plan that is kept needs it: saved, or printed as JSON or Markdown (which carry it).
    fingerprint: format !== 'text' || opts.out !== undefined,
  });

  if (opts.out) {
    await savePlan(opts.out, plan, desired);
    io.err(`Saved the plan to ${opts.out}: \`monsync apply --plan ${opts.out}${account ? ` --account ${account.name}` : ''}\` applies exactly this.\n`);
  }

  let text: string;
  if (format === 'json') {
    const { renderPlanJson } = await import('../render/plan-json.js');
    text = renderPlanJson(plan);
  } else if (format === 'markdown') {
    const { renderPlanMarkdown } = await import('../render/plan-markdown.js');
    const where = paths.length ? paths.join(' ') : 'monsync.yaml';
    const of = account ? ` (account \`${account.name}\`)` : '';
    text = renderPlanMarkdown(plan, { title: `monsync plan — \`${where}\`${of} against \`${plan.target}\``, commit });
  } else {
    const { renderPlanText } = await import('../render/plan-text.js');
    text = renderPlanText(plan, { color: io.color });
  }
  io.out(text.endsWith('\n') ? text : `${text}\n`);

  if (opts.detailedExitcode && plan.changes.length > 0) return 2;
  return 0;
}

/** Accounts planned at once by `plan --all-accounts`: each holds its own connections (16 requests at most). */
const ACCOUNTS_AT_ONCE = 4;

/**
 * Several accounts, one review: each planned in declaration order, one account's failure reported
 * in its place without stopping the others'; exit 1 if any failed, else (with --detailed-exitcode)
 * 2 if any has changes.
 */
async function planAccounts(paths: string[], contexts: CommandContext[], opts: PlanOptions, format: string, commit: string | undefined, io: CommandIo): Promise<number> {
  if (opts.out) throw new UsageError('--out saves the plan of one account: give one --account NAME');
  const { needsForce } = await import('../workflow/apply.js');
  // Accounts are read a few at a time (a hundred customers must not take a hundred reads in a row);
  // each one's progress is held and printed whole, in declaration order, so logs never interleave.
  const logs = new Map<CommandContext, string>();
  const outcomes = await forEachAccount(
    contexts,
    async (ctx) => {
      logs.set(ctx, `Account ${ctx.account!.name}:\n`);
      const held: CommandIo = { ...io, err: (text: string) => void logs.set(ctx, logs.get(ctx)! + text), errTerminal: false };
      const { plan, live } = await planFlow(ctx.withIo(held), {
        prune: opts.prune,
        targets: opts.target,
        strict: opts.strict,
        onProgress: printProgress(held),
        fingerprint: format !== 'text',
      });
      return { plan, needsForce: await needsForce(plan, live) };
    },
    {
      concurrency: ACCOUNTS_AT_ONCE,
      onOutcome: (o) => io.err(`${logs.get(o.context) ?? ''}${'error' in o ? accountErrorText(o.context.account, o.error) : ''}`),
    },
  );
  const results: AccountPlan[] = outcomes.map((o) => ('error' in o ? { account: o.context.account!.name, error: o.error } : { account: o.context.account!.name, ...o.value }));
  const render = await import('../render/plan-accounts.js');
  const text =
    format === 'json'
      ? render.renderAccountsJson(results)
      : format === 'markdown'
        ? render.renderAccountsMarkdown(results, { title: `monsync plan — \`${paths.length ? paths.join(' ') : 'monsync.yaml'}\`, ${results.length} accounts`, commit })
        : render.renderAccountsText(results, { color: io.color });
  io.out(text);
  if (results.some((r) => 'error' in r)) return 1;
  if (opts.detailedExitcode && results.some((r) => 'plan' in r && r.plan.changes.length > 0)) return 2;
  return 0;
}
