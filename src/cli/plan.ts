/**
 * `monsync plan`: `planFlow` (src/workflow/plan.ts) on each account chosen, the plan on stdout as
 * text, JSON or Markdown, optionally saved for `apply --plan`. Several accounts make one review
 * (src/render/plan-accounts.ts), planned a few at a time, each one's progress held and printed whole.
 */
import type { Command } from 'commander';
import type { PlanFormat } from '../render/plan-format.js';
import { UsageError } from '../util/errors.js';
import type { AccountChoice } from '../workflow/accounts.js';
import type { CommandContext, CommandRun, ConnectionOptions } from '../workflow/context.js';
import { collect, CONFIG_PATHS, CONNECTION_ENV } from './common.js';
import { command } from './driver.js';
import type { CommandIo } from './output.js';

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

export function register(program: Command): void {
  command<PlanOptions>(program, {
    name: 'plan',
    description: 'show the API calls that would bring the account in line with the YAML (changes nothing)',
    args: [['[paths...]', CONFIG_PATHS]],
    options: (cmd) =>
      cmd
        .option('--json', 'print the plan as JSON (same as --format json)')
        .option('--format <format>', 'text, json or markdown', 'text')
        .option('--out <file>', 'also save the plan for `monsync apply --plan FILE`')
        .option('--detailed-exitcode', 'exit 0 when there are no changes, 2 when there are, 1 on error')
        .option('--target <glob>', 'limit the plan to matching labels / group names (repeatable)', collect)
        .option('--prune', 'also delete unmanaged SMTP monitors and undeclared groups')
        .option('--strict', "fail on the checks' warnings too, not only their errors (for CI)")
        .option('--commit <sha>', 'the commit the Markdown comment names (default: MONSYNC_COMMIT, CI_COMMIT_SHA, GITHUB_SHA or git rev-parse HEAD)'),
    service: true,
    help: {
      about: ['A call to the service gives up after 60 s in all, retries included, or --timeout if longer (MONSYNC_DEADLINE=seconds).'],
      examples: [
        'monsync plan monitoring/                                       # what apply would do; sends nothing',
        'monsync plan monitoring/ --format markdown --detailed-exitcode  # in CI: a PR comment; exit 2 with changes',
        "monsync plan monitoring/ --target 'mx-eu-*' --out plan.json    # part of it, saved for apply --plan",
        'monsync plan --all-accounts --format markdown                  # every declared account, one comment',
      ],
      env: [...CONNECTION_ENV, '${VAR}', 'NO_COLOR', 'MONSYNC_COMMIT'],
    },
    run: ({ args, opts, io }) => runPlan(args, opts, io),
  });
}

/** The format asked for, or a usage error. */
export function planFormat(opts: { json?: boolean; format?: string }): PlanFormat {
  const format = opts.json ? 'json' : (opts.format ?? 'text');
  if (!['text', 'json', 'markdown'].includes(format)) throw new UsageError(`--format must be text, json or markdown, got "${format}"`);
  return format as PlanFormat;
}

export async function runPlan(paths: string[], opts: PlanOptions, io: CommandIo): Promise<number> {
  const format = planFormat(opts);
  const [{ findCommit }, { openCommand }] = await Promise.all([import('../workflow/commit.js'), import('../workflow/context.js')]);
  // Looked up before the account is read: a bad --commit is a usage error before any connection.
  const commit = format === 'markdown' ? await findCommit(opts.commit, io.env, io.cwd) : undefined;
  const opened = await openCommand({ io, paths, connection: opts, choice: opts });
  const where = paths.length ? paths.join(' ') : 'monsync.yaml';
  if (opened.several) return planAccounts(opened, opts, format, { where, commit }, io);
  const ctx = opened.contexts[0]!;
  const account = ctx.account;
  const [{ planFlow, savePlan }, { renderPlanAs }, { printProgress }] = await Promise.all([import('../workflow/plan.js'), import('../render/plan-format.js'), import('./progress.js')]);
  // Only a plan that is kept needs its fingerprint: saved, or printed as JSON or Markdown (which carry it).
  const { plan, desired } = await planFlow(ctx, { prune: opts.prune, targets: opts.target, strict: opts.strict, fingerprint: format !== 'text' || opts.out !== undefined }, printProgress(io));
  if (opts.out) {
    await savePlan(opts.out, plan, desired);
    io.err(`Saved the plan to ${opts.out}: \`monsync apply --plan ${opts.out}${account ? ` --account ${account.name}` : ''}\` applies exactly this.\n`);
  }
  const of = account ? ` (account \`${account.name}\`)` : '';
  io.out(renderPlanAs(plan, format, { color: io.color, title: `monsync plan — \`${where}\`${of} against \`${plan.target}\``, commit }));
  return opts.detailedExitcode && plan.changes.length > 0 ? 2 : 0;
}

/** Accounts planned at once by `plan --all-accounts`: each holds its own connections (16 requests at most). */
const ACCOUNTS_AT_ONCE = 4;

/**
 * Several accounts, one review: each planned in declaration order, one account's failure reported
 * in its place without stopping the others'; exit 1 if any failed, else (with --detailed-exitcode)
 * 2 if any has changes.
 */
async function planAccounts(opened: CommandRun, opts: PlanOptions, format: PlanFormat, title: { where: string; commit: string | undefined }, io: CommandIo): Promise<number> {
  if (opts.out) throw new UsageError('--out saves the plan of one account: give one --account NAME');
  const [{ needsForce }, { planFlow }, { runAccounts, accountLogHeading }, render, { printProgress }] = await Promise.all([
    import('../workflow/apply.js'),
    import('../workflow/plan.js'),
    import('../workflow/run.js'),
    import('../render/plan-accounts.js'),
    import('./progress.js'),
  ]);
  // Accounts are read a few at a time (a hundred customers must not take a hundred reads in a row);
  // each one's progress is held and printed whole, in declaration order, so logs never interleave.
  const logs = new Map<CommandContext, string>();
  const { outcomes, code } = await runAccounts(
    opened,
    async (ctx) => {
      logs.set(ctx, accountLogHeading(ctx.account!.name));
      const held: CommandIo = { ...io, err: (text: string) => void logs.set(ctx, logs.get(ctx)! + text), errTerminal: false };
      const { plan, live } = await planFlow(ctx.withIo(held), { prune: opts.prune, targets: opts.target, strict: opts.strict, fingerprint: format !== 'text' }, printProgress(held));
      return { plan, needsForce: await needsForce(plan, live) };
    },
    {
      concurrency: ACCOUNTS_AT_ONCE,
      onOutcome: (o) => io.err(logs.get(o.context) ?? ''),
      failure: (text) => io.err(text),
      codeOf: (v) => (opts.detailedExitcode && v.plan.changes.length > 0 ? 2 : 0),
    },
  );
  const results = outcomes.map((o) => ('error' in o ? { account: o.context.account!.name, error: o.error } : { account: o.context.account!.name, ...o.value }));
  io.out(
    format === 'json'
      ? render.renderAccountsJson(results)
      : format === 'markdown'
        ? render.renderAccountsMarkdown(results, { title: `monsync plan — \`${title.where}\`, ${results.length} accounts`, commit: title.commit })
        : render.renderAccountsText(results, { color: io.color }),
  );
  return code;
}
