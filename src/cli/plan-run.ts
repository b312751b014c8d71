/** `monsync plan`: the plan on stdout as text, JSON or Markdown, optionally saved for `apply --plan`. */
import type { ConnectionOptions } from '../api/connect.js';
import type { AccountPlan } from '../render/plan-accounts.js';
import { UsageError, UserError } from '../util/errors.js';
import { chooseAccounts, type AccountChoice, type DeclaredAccount } from '../workflow/accounts.js';
import { planFlow } from '../workflow/plan.js';
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
  const accounts = await chooseAccounts(paths, opts, io.cwd);
  if (accounts !== null && (accounts.length > 1 || opts.allAccounts)) return planAccounts(paths, accounts, opts, format, commit, io);
  const account = accounts?.[0];
  const { plan, desired } = await planFlow(async () => (await import('../api/connect.js')).connect(opts, io.env, account ? { account } : {}), {
    ...(account ? { account } : {}),
    paths,
    prune: opts.prune,
    targets: opts.target,
    strict: opts.strict,
    onProgress: printProgress(io),
    // Only a plan that is kept needs it: saved, or printed as JSON or Markdown (which carry it).
    fingerprint: format !== 'text' || opts.out !== undefined,
  });

  if (opts.out) {
    const { writeSavedPlan, SavedPlanError } = await import('../apply/saved-plan.js');
    try {
      await writeSavedPlan(opts.out, plan, desired);
    } catch (err) {
      if (err instanceof SavedPlanError) throw new UserError(err.message);
      throw err;
    }
    io.err(`Saved the plan to ${opts.out}: \`monsync apply --plan ${opts.out}\` applies exactly this.\n`);
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
async function planAccounts(paths: string[], accounts: DeclaredAccount[], opts: PlanOptions, format: string, commit: string | undefined, io: CommandIo): Promise<number> {
  if (opts.out) throw new UsageError('--out saves the plan of one account: give one --account NAME');
  const [{ connect }, { checkDeletes }, { managedCount }, { redact }, { createParseCache }] = await Promise.all([
    import('../api/connect.js'),
    import('../apply/safety.js'),
    import('../workflow/apply.js'),
    import('../util/redact.js'),
    import('../config/index.js'),
  ]);
  // One for all the accounts: the files they share are read and parsed once.
  const parseCache = createParseCache();
  // Accounts are read a few at a time (a hundred customers must not take a hundred reads in a row);
  // each one's progress is held and printed whole, in declaration order, so logs never interleave.
  const planOne = async (account: DeclaredAccount): Promise<{ result: AccountPlan; log: string }> => {
    let log = `Account ${account.name}:\n`;
    const held: CommandIo = { ...io, err: (text: string) => void (log += text), errTerminal: false };
    try {
      const { plan, live } = await planFlow(async () => connect(opts, io.env, { account }), {
        account,
        paths,
        prune: opts.prune,
        targets: opts.target,
        strict: opts.strict,
        onProgress: printProgress(held),
        fingerprint: format !== 'text',
        parseCache,
      });
      const needsForce = !checkDeletes(plan, managedCount(live, plan.options.owner), {}).ok;
      return { result: { account: account.name, plan, needsForce }, log };
    } catch (err) {
      if (!(err instanceof UserError) && !(err instanceof Error && err.name === 'ApiError')) throw err;
      const lines = [err.message, ...(err instanceof UserError ? err.details : [])].map(redact);
      log += `Error: ${lines[0]!.startsWith(`account ${account.name}`) ? '' : `account ${account.name}: `}${lines.join('\n')}\n`;
      return { result: { account: account.name, error: lines }, log };
    }
  };
  const running: Promise<{ result: AccountPlan; log: string }>[] = [];
  let next = 0;
  const startNext = () => {
    if (next >= accounts.length) return;
    const planning = planOne(accounts[next++]!);
    // Awaited in order below; a bug's rejection must not be reported as unhandled before its turn.
    planning.catch(() => undefined);
    running.push(planning);
  };
  for (let i = 0; i < ACCOUNTS_AT_ONCE; i++) startNext();
  const results: AccountPlan[] = [];
  for (let i = 0; i < accounts.length; i++) {
    const { result, log } = await running[i]!;
    startNext();
    io.err(log);
    results.push(result);
  }
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
