/**
 * The one account loop of a command (docs/accounts.md): the contexts `openCommand` opened, run one
 * after the other (or a few at once, their outcomes still in declaration order) through
 * `forEachAccount`. One account alone runs bare: its failure is the command's. Several run under
 * one heading each (`accountHeading`); one account's failure is told (`accountErrorText`) and the
 * next still runs. One exit-code fold for every command (`foldExitCodes`).
 */
import { accountErrorText, forEachAccount, nameAccountVariables, type AccountOutcome, type CommandContext, type CommandRun } from './context.js';

export interface AccountsOptions<T> {
  /** Told each account's name as it starts, when several run, to head its part (none: the command heads its own output). */
  heading?: (name: string) => void;
  /** Where an account's failure is told. */
  failure: (text: string) => void;
  /** Accounts run side by side. */
  concurrency?: number;
  /** After this outcome no further account starts (an interruption). */
  stopAfter?: (outcome: AccountOutcome<T>) => boolean;
  /** Told of each outcome in declaration order, before its failure (if any) is told. */
  onOutcome?: (outcome: AccountOutcome<T>) => void;
  /** The exit code of one account's value (default: the value, a number). */
  codeOf?: (value: T) => number;
}

export interface AccountsResult<T> {
  outcomes: AccountOutcome<T>[];
  /** The accounts an interruption left unstarted. */
  notStarted: string[];
  several: boolean;
  code: number;
}

/** `=== account NAME ===`: the heading of each account's part when several run. */
export function accountHeading(name: string): string {
  return `=== account ${name} ===\n`;
}

/** `Account NAME:`: the heading of an account's part of a log (plan's held progress, validate's findings). */
export function accountLogHeading(name: string): string {
  return `Account ${name}:\n`;
}

/** The shell's codes of an interruption (SIGINT 130, SIGTERM 143). */
const INTERRUPTED = new Set([130, 143]);

/**
 * The command's exit code from its accounts': an interruption's code first, else 1 if any failed,
 * else the largest (3: an alert active somewhere; 4: an apply that still differs; 2: changes).
 */
export function foldExitCodes(codes: readonly number[]): number {
  const stopped = codes.find((c) => INTERRUPTED.has(c));
  if (stopped !== undefined) return stopped;
  if (codes.includes(1)) return 1;
  return Math.max(0, ...codes);
}

export async function runAccounts<T>(opened: CommandRun, run: (ctx: CommandContext) => Promise<T>, opts: AccountsOptions<T>): Promise<AccountsResult<T>> {
  const codeOf = opts.codeOf ?? ((v: T) => v as unknown as number);
  const one = async (ctx: CommandContext): Promise<T> => {
    try {
      return await run(ctx);
    } catch (err) {
      throw nameAccountVariables(err, ctx.account);
    }
  };
  const { contexts, several } = opened;
  if (!several) {
    const value = await one(contexts[0]!);
    return { outcomes: [{ context: contexts[0]!, value }], notStarted: [], several, code: codeOf(value) };
  }
  const outcomes = await forEachAccount(
    contexts,
    (ctx) => {
      opts.heading?.(ctx.account!.name);
      return one(ctx);
    },
    {
      ...(opts.concurrency !== undefined && { concurrency: opts.concurrency }),
      ...(opts.stopAfter && { stopAfter: opts.stopAfter }),
      onOutcome: (o) => {
        opts.onOutcome?.(o);
        if ('error' in o) opts.failure(accountErrorText(o.context.account, o.error));
      },
    },
  );
  const notStarted = contexts.slice(outcomes.length).map((c) => c.account!.name);
  return { outcomes, notStarted, several, code: foldExitCodes(outcomes.map((o) => ('error' in o ? 1 : codeOf(o.value)))) };
}
