/**
 * `monsync apply`: parses the options, picks the view (text or `--json`), wires the terminal (the
 * question, Ctrl-C and SIGTERM, all through `CommandIo`) and runs `applyFlow`
 * (src/workflow/apply.ts), which does the work and tells the view what happened.
 */
import { UsageError, UserError } from '../util/errors.js';
import type { AccountChoice } from '../workflow/accounts.js';
import { applyFlow, type ApplyQuestion, type ApplyResult } from '../workflow/apply.js';
import { accountErrorText, forEachAccount, openCommand, type CommandContext, type ConnectionOptions } from '../workflow/context.js';
import { parsePositiveInt } from './common.js';
import { exitCodeOf, type CommandIo, type InterruptSignal } from './output.js';

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

export async function runApply(paths: string[], opts: ApplyOptions, io: CommandIo): Promise<number> {
  const parallelism = parsePositiveInt(opts.parallelism, '--parallelism');
  const maxDeletes = opts.maxDeletes === undefined ? undefined : parseNonNegativeInt(opts.maxDeletes, '--max-deletes');
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
  // A saved plan carries its configuration: the accounts are declared in monsync.yaml then.
  const { contexts, several } = await openCommand({ io, paths: opts.plan !== undefined ? [] : paths, connection: opts, choice: opts });
  if (opts.plan !== undefined && contexts.length > 1) throw new UsageError('--plan FILE applies the plan of one account: give one --account NAME');
  if (!several) return applyOne(contexts[0]!, opts, io, parallelism, maxDeletes);
  return applyAccounts(contexts, opts, io, parallelism, maxDeletes);
}

/**
 * Account by account, in declaration order (staging before production when the file lists them so):
 * each planned, checked against its own delete threshold and applied; a failed account is reported
 * and the next one still runs, except after Ctrl-C or SIGTERM. Exit: the interruption's code, else 1
 * if any account failed, else the largest of the others (4: one still differs).
 */
async function applyAccounts(contexts: CommandContext[], opts: ApplyOptions, io: CommandIo, parallelism: number, maxDeletes: number | undefined): Promise<number> {
  const outcomes = await forEachAccount(
    contexts,
    (ctx) => {
      (opts.json ? io.err : io.out)(`=== account ${ctx.account!.name} ===\n`);
      return applyOne(ctx, opts, io, parallelism, maxDeletes);
    },
    {
      onOutcome: (o) => {
        if ('error' in o) io.err(accountErrorText(o.context.account, o.error));
      },
      stopAfter: (o) => 'value' in o && (o.value === 130 || o.value === 143),
    },
  );
  const word = (o: (typeof outcomes)[number]) =>
    'error' in o ? `failed (${o.error[0]})` : o.value === 0 ? 'done' : o.value === 4 ? 'applied, still differs' : `exit ${o.value}`;
  const notStarted = contexts.slice(outcomes.length).map((c) => c.account!.name);
  io.err(`Accounts: ${outcomes.map((o) => `${o.context.account!.name} ${word(o)}`).join('; ')}${notStarted.length > 0 ? `; not started: ${notStarted.join(', ')}` : ''}\n`);
  const codes = outcomes.map((o) => ('error' in o ? o.exitCode : o.value));
  const stopped = codes.find((c) => c === 130 || c === 143);
  if (stopped !== undefined) return stopped;
  if (codes.some((c) => c !== 0 && c !== 4)) return 1;
  return Math.max(0, ...codes);
}

async function applyOne(ctx: CommandContext, opts: ApplyOptions, io: CommandIo, parallelism: number, maxDeletes: number | undefined): Promise<number> {
  const ask = io.ask;
  const { textApplyView, jsonApplyView } = await import('./apply-view.js');
  const view = opts.json ? jsonApplyView(io) : textApplyView(io);
  const controller = new AbortController();
  let stoppedBy: InterruptSignal | null = null;
  let unwatch: (() => void) | undefined;
  // Watched from the first write on: before it, Ctrl-C ends the run at once (nothing was sent) as
  // it always does; from then on it lets the calls in flight finish and prints the summary.
  const watchInterrupts = () => {
    unwatch = io.interrupts?.((signal) => {
      stoppedBy = signal;
      view.interrupted(signal);
      controller.abort();
    });
  };
  try {
    const outcome = await applyFlow(ctx, {
      ...(opts.plan !== undefined ? { savedPlan: opts.plan } : {}),
      prune: opts.prune,
      targets: opts.target,
      strict: opts.strict,
      parallelism,
      maxDeletes,
      force: opts.force,
      signal: controller.signal,
      hooks: {
        ...view,
        applying: (info) => {
          watchInterrupts();
          view.applying(info);
        },
      },
      ...(!opts.autoApprove && ask ? { confirm: async (q: ApplyQuestion) => confirm(q, ask) } : {}),
    });
    switch (outcome.status) {
      case 'no-changes':
        return 0;
      case 'declined':
        view.declined(outcome.interrupted);
        return outcome.interrupted ? 130 : 1;
      case 'applied':
        if (outcome.result.interrupted) return exitCodeOf(stoppedBy ?? 'SIGINT');
        {
          const code = await stillDiffers(outcome.result, outcome.remaining, io);
          // --verify: a monitor that never completes its first round trip fails the run too.
          const unverified = opts.verify ? await (await import('./apply-verify.js')).verifyApplied(outcome.result, outcome.api, io) : 0;
          return code === 0 && unverified > 0 ? 1 : code;
        }
      default:
        return outcome satisfies never;
    }
  } finally {
    unwatch?.();
    view.close();
  }
}

/**
 * Exit 1 when a change failed; APPLY_STILL_DIFFERS (4) when every change ran but a write was not
 * kept or apply's own check still plans changes, said on stderr; 0 otherwise.
 */
async function stillDiffers(result: ApplyResult, remaining: number | null, io: CommandIo): Promise<number> {
  const [{ applyExitCode }, { renderStillDiffers }] = await Promise.all([import('../workflow/apply.js'), import('../render/apply-text.js')]);
  const differs = result.failed > 0 ? null : renderStillDiffers(remaining, result.notKept);
  if (differs !== null) io.err(`${differs}\n`);
  return applyExitCode(result, remaining);
}

/** The question names the account the changes go to. */
async function confirm(q: ApplyQuestion, ask: NonNullable<CommandIo['ask']>): Promise<'yes' | 'no' | 'interrupted'> {
  const { renderApplyQuestion } = await import('../render/apply-text.js');
  return ask(renderApplyQuestion({ changes: q.plan.changes.length, url: q.url, user: q.user }));
}

function parseNonNegativeInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} must be a whole number, got "${value}"`);
  return n;
}

