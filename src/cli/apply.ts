/**
 * `monsync apply`: every usage error before a request, the view chosen once (text or `--json`,
 * src/cli/apply-view.ts), the terminal wired (the question, Ctrl-C and SIGTERM, all through
 * `CommandIo`), then `applyFlow` (src/workflow/apply.ts) on each account chosen, through the one
 * account loop: the workflow does the work, `--verify` included, and tells the view what happened.
 */
import type { Command } from 'commander';
import { UsageError } from '../util/errors.js';
import type { AccountChoice } from '../workflow/accounts.js';
import type { ApplyOutcome, ApplyQuestion, VerifyOptions } from '../workflow/apply.js';
import type { CommandContext, ConnectionOptions } from '../workflow/context.js';
import { collect, CONFIG_PATHS, CONNECTION_ENV, parseIntIn, parsePositiveInt } from './common.js';
import { command } from './driver.js';
import type { CommandIo, InterruptSignal } from './output.js';

export interface ApplyOptions extends ConnectionOptions, AccountChoice {
  plan?: string;
  autoApprove?: boolean;
  parallelism: string;
  maxDeletes?: string;
  force?: boolean;
  target?: string[];
  prune?: boolean;
  strict?: boolean;
  json?: boolean;
  /** Wait for the first round trip of each created or changed monitor (src/mailpath/verify.ts). */
  verify?: boolean;
}

export function register(program: Command): void {
  command<ApplyOptions>(program, {
    name: 'apply',
    description: 'make the API calls that bring the account in line with the YAML, then plan again',
    args: [['[paths...]', CONFIG_PATHS]],
    options: (cmd) =>
      cmd
        .option('--plan <file>', 'apply a plan saved by `monsync plan --out` (refused if the account changed since)')
        .option('--auto-approve', 'do not ask for confirmation (required when not on a terminal)')
        .option('--parallelism <n>', 'API calls in flight at once', '8')
        .option('--max-deletes <n>', 'refuse plans deleting more than this, per account (default: 10, or 30% of managed resources when larger)')
        .option('--force', 'apply even when the plan deletes more than --max-deletes')
        .option('--target <glob>', 'limit the plan to matching labels / group names (repeatable)', collect)
        .option('--prune', 'also delete unmanaged SMTP monitors and undeclared groups')
        .option('--strict', "fail on the checks' warnings too, not only their errors (for CI)")
        .option('--json', 'one JSON object per line on stdout (the plan, each change, the summary, the check); needs --auto-approve')
        .option('--verify', "then wait for each created or changed monitor's first round trip (up to timer + ttl + 60 s); exit 1 if one never completes"),
    service: true,
    help: {
      about: [
        'Each API call is sent at most 5 times (4 retries, one rule for all calls; a create is sent again only',
        'after reading the account showed it was not made) and gives up after 60 s in all, or --timeout if',
        'longer (MONSYNC_DEADLINE=seconds to change). Ctrl-C or SIGTERM: no new calls start, running ones',
        'finish, the summary is printed; exit 130 (Ctrl-C) or 143 (SIGTERM). Exit 1 when a change failed;',
        'exit 4 when all ran but the account still differs (a write the service did not keep).',
      ],
      examples: [
        'monsync apply monitoring/                          # shows the plan, asks for "yes", applies it',
        'monsync apply monitoring/ --auto-approve           # in CI (no terminal to ask on)',
        'monsync apply --plan plan.json --auto-approve      # exactly a plan saved by plan --out',
        "monsync apply monitoring/ --auto-approve --verify  # then wait for each new monitor's first round trip",
        'monsync apply --all-accounts --auto-approve        # each declared account in turn, staging first',
      ],
      env: [...CONNECTION_ENV, 'MONSYNC_VERIFY_POLL_MS', '${VAR}', 'NO_COLOR'],
    },
    run: ({ args, opts, io }) => runApply(args, opts, io),
  });
}

export const VERIFY_POLL_ENV = 'MONSYNC_VERIFY_POLL_MS';

/** `--verify`'s poll interval (real milliseconds) from the environment, or a usage error. */
async function verifyOptions(io: CommandIo): Promise<VerifyOptions> {
  const { DEFAULT_VERIFY_POLL_MS } = await import('../mailpath/verify.js');
  const raw = io.env[VERIFY_POLL_ENV];
  const pollMs = raw === undefined || raw === '' ? DEFAULT_VERIFY_POLL_MS : Number(raw);
  if (!Number.isFinite(pollMs) || pollMs < 1) throw new UsageError(`${VERIFY_POLL_ENV} must be milliseconds (a number of at least 1), got "${raw}"`);
  return { pollMs };
}

interface Prepared {
  parallelism: number;
  maxDeletes: number | undefined;
  verify: VerifyOptions | undefined;
}

export async function runApply(paths: string[], opts: ApplyOptions, io: CommandIo): Promise<number> {
  const prepared: Prepared = {
    parallelism: parsePositiveInt(opts.parallelism, '--parallelism'),
    maxDeletes: opts.maxDeletes === undefined ? undefined : parseIntIn(opts.maxDeletes, '--max-deletes', 0),
    verify: opts.verify ? await verifyOptions(io) : undefined,
  };
  if (opts.plan) {
    if (paths.length > 0) throw new UsageError('give either configuration paths or --plan FILE, not both');
    // The saved plan fixed its targets and pruning when it was made: silently running all of it would
    // do more than a `--target` on the command line says.
    if ((opts.target?.length ?? 0) > 0 || opts.prune) {
      throw new UsageError('--target and --prune cannot be combined with --plan FILE: the saved plan already fixed them; run plan again with them');
    }
  }
  // Before anything is read: a run that cannot ask must not first spend a minute reading the account.
  if (!opts.autoApprove) {
    if (opts.json) throw new UsageError('--json needs --auto-approve: its output is for machines, and nobody can answer a question in it');
    if (!io.ask) throw new UsageError('not on a terminal, so there is nobody to confirm: run `monsync plan` to review the plan, then apply with --auto-approve');
  }
  const [{ openCommand }, { runAccounts, accountHeading }] = await Promise.all([import('../workflow/context.js'), import('../workflow/run.js')]);
  // A saved plan carries its configuration: the accounts are declared in monsync.yaml then.
  const opened = await openCommand({ io, paths: opts.plan !== undefined ? [] : paths, connection: opts, choice: opts });
  if (opts.plan !== undefined && opened.contexts.length > 1) throw new UsageError('--plan FILE applies the plan of one account: give one --account NAME');
  // Account by account, in declaration order (staging before production when the file lists them so):
  // a failed account is reported and the next one still runs, except after Ctrl-C or SIGTERM.
  const run = await runAccounts(opened, (ctx) => applyOne(ctx, opts, io, prepared), {
    heading: (name) => (opts.json ? io.err : io.out)(accountHeading(name)),
    failure: (text) => io.err(text),
    stopAfter: (o) => 'value' in o && (o.value === 130 || o.value === 143),
  });
  if (run.several) {
    const word = (o: (typeof run.outcomes)[number]) =>
      'error' in o ? `failed (${o.error[0]})` : o.value === 0 ? 'done' : o.value === 4 ? 'applied, still differs' : `exit ${o.value}`;
    const notStarted = run.notStarted.length > 0 ? `; not started: ${run.notStarted.join(', ')}` : '';
    io.err(`Accounts: ${run.outcomes.map((o) => `${o.context.account!.name} ${word(o)}`).join('; ')}${notStarted}\n`);
  }
  return run.code;
}

async function applyOne(ctx: CommandContext, opts: ApplyOptions, io: CommandIo, prepared: Prepared): Promise<number> {
  const ask = io.ask;
  const [{ applyFlow }, { textApplyView, jsonApplyView }, { exitCodeOf }] = await Promise.all([import('../workflow/apply.js'), import('./apply-view.js'), import('./output.js')]);
  const view = opts.json ? jsonApplyView(io) : textApplyView(io);
  const controller = new AbortController();
  let stoppedBy: InterruptSignal | null = null;
  let unwatch: (() => void) | undefined;
  try {
    const outcome = await applyFlow(
      ctx,
      {
        ...(opts.plan !== undefined ? { savedPlan: opts.plan } : {}),
        prune: opts.prune,
        targets: opts.target,
        strict: opts.strict,
        parallelism: prepared.parallelism,
        maxDeletes: prepared.maxDeletes,
        force: opts.force,
        signal: controller.signal,
        ...(prepared.verify && { verify: prepared.verify }),
        ...(!opts.autoApprove && ask ? { confirm: async (q: ApplyQuestion) => confirm(q, ask) } : {}),
      },
      (e) => {
        // Watched from the first write on: before it, Ctrl-C ends the run at once (nothing was sent) as
        // it always does; from then on it lets the calls in flight finish and prints the summary.
        if (e.kind === 'applying') {
          unwatch = io.interrupts?.((signal) => {
            stoppedBy = signal;
            view.interrupted(signal);
            controller.abort();
          });
        }
        view.events(e);
      },
    );
    if (outcome.status === 'declined') view.declined(outcome.interrupted);
    return exitOf(outcome, stoppedBy === null ? null : exitCodeOf(stoppedBy), io);
  } finally {
    unwatch?.();
    view.close();
  }
}

/**
 * 0 with no changes; 1 when declined, a change failed or (--verify) a monitor never completed its
 * first round trip; APPLY_STILL_DIFFERS (4) when every change ran but a write was not kept or
 * apply's own check still plans changes, said on stderr; an interruption's code.
 */
async function exitOf(outcome: ApplyOutcome, interrupted: number | null, io: CommandIo): Promise<number> {
  if (outcome.status === 'no-changes') return 0;
  if (outcome.status === 'declined') return outcome.interrupted ? 130 : 1;
  // Interrupted during the final check too: the changes were made, the run was still cancelled.
  if (outcome.result.interrupted || interrupted !== null) return interrupted ?? 130;
  const [{ applyExitCode }, { renderStillDiffers }] = await Promise.all([import('../workflow/apply.js'), import('../render/apply-text.js')]);
  const differs = outcome.result.failed > 0 ? null : renderStillDiffers(outcome.remaining, outcome.result.notKept);
  if (differs !== null) io.err(`${differs}\n`);
  const code = applyExitCode(outcome.result, outcome.remaining);
  return code === 0 && outcome.unverified > 0 ? 1 : code;
}

/** The question names the account the changes go to. */
async function confirm(q: ApplyQuestion, ask: NonNullable<CommandIo['ask']>): Promise<'yes' | 'no' | 'interrupted'> {
  const { renderApplyQuestion } = await import('../render/apply-text.js');
  return ask(renderApplyQuestion({ changes: q.plan.changes.length, url: q.url, user: q.user }));
}
