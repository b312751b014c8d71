/**
 * `monsync apply`: parses the options, picks the view (text or `--json`), wires the terminal (the
 * question, Ctrl-C and SIGTERM, all through `CommandIo`) and runs `applyFlow`
 * (src/workflow/apply.ts), which does the work and tells the view what happened.
 */
import type { ConnectionOptions } from '../api/connect.js';
import type { ApplyResult } from '../apply/execute.js';
import { UsageError, UserError } from '../util/errors.js';
import { chooseAccounts, type AccountChoice, type DeclaredAccount } from '../workflow/accounts.js';
import { applyFlow, type ApplyQuestion } from '../workflow/apply.js';
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
  const accounts = await chooseAccounts(opts.plan !== undefined ? [] : paths, opts, io.cwd);
  if (accounts === null) return applyOne(paths, opts, io, parallelism, maxDeletes, undefined);
  if (opts.plan !== undefined && accounts.length > 1) throw new UsageError('--plan FILE applies the plan of one account: give one --account NAME');
  if (accounts.length === 1 && !opts.allAccounts) return applyOne(paths, opts, io, parallelism, maxDeletes, accounts[0]);
  return applyAccounts(paths, accounts, opts, io, parallelism, maxDeletes);
}

/**
 * Account by account, in declaration order (staging before production when the file lists them so):
 * each planned, checked against its own delete threshold and applied; a failed account is reported
 * and the next one still runs, except after Ctrl-C or SIGTERM. Exit: the interruption's code, else 1
 * if any account failed, else the largest of the others (4: one still differs).
 */
async function applyAccounts(paths: string[], accounts: DeclaredAccount[], opts: ApplyOptions, io: CommandIo, parallelism: number, maxDeletes: number | undefined): Promise<number> {
  const { redact } = await import('../util/redact.js');
  const outcomes: { account: string; code: number; error?: string }[] = [];
  for (const account of accounts) {
    (opts.json ? io.err : io.out)(`=== account ${account.name} ===\n`);
    try {
      const code = await applyOne(paths, opts, io, parallelism, maxDeletes, account);
      outcomes.push({ account: account.name, code });
      if (code === 130 || code === 143) break;
    } catch (err) {
      if (!(err instanceof UserError) && !(err instanceof Error && err.name === 'ApiError')) throw err;
      const lines = [err.message, ...(err instanceof UserError ? err.details : [])].map(redact);
      io.err(`Error: ${lines[0]!.startsWith(`account ${account.name}`) ? '' : `account ${account.name}: `}${lines.join('\n')}\n`);
      outcomes.push({ account: account.name, code: err instanceof UserError ? err.exitCode : 1, error: lines[0]! });
    }
  }
  const word = (o: (typeof outcomes)[number]) => (o.error !== undefined ? `failed (${o.error})` : o.code === 0 ? 'done' : o.code === 4 ? 'applied, still differs' : `exit ${o.code}`);
  io.err(`Accounts: ${outcomes.map((o) => `${o.account} ${word(o)}`).join('; ')}${outcomes.length < accounts.length ? `; not started: ${accounts.slice(outcomes.length).map((a) => a.name).join(', ')}` : ''}\n`);
  const codes = outcomes.map((o) => o.code);
  const stopped = codes.find((c) => c === 130 || c === 143);
  if (stopped !== undefined) return stopped;
  if (codes.some((c) => c !== 0 && c !== 4)) return 1;
  return Math.max(0, ...codes);
}

async function applyOne(paths: string[], opts: ApplyOptions, io: CommandIo, parallelism: number, maxDeletes: number | undefined, account: DeclaredAccount | undefined): Promise<number> {
  const ask = io.ask;
  const { textApplyView, jsonApplyView } = await import('./apply-view.js');
  const view = opts.json ? jsonApplyView(io) : textApplyView(io);
  // The client's own cap must not hold apply below --parallelism (its default is 16).
  const concurrency = Math.max(16, parallelism);
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
    const outcome = await applyFlow(async () => (await import('../api/connect.js')).connect(opts, io.env, { concurrency, ...(account ? { account } : {}) }), {
      ...(account ? { account } : {}),
      paths,
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
        // Interrupted during the final check too: the changes were made, the run was still cancelled.
        if (outcome.result.interrupted || stoppedBy !== null) return exitCodeOf(stoppedBy ?? 'SIGINT');
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
  const [{ applyExitCode }, { renderStillDiffers }] = await Promise.all([import('../apply/execute.js'), import('../render/apply-text.js')]);
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

