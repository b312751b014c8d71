/**
 * Running a one-account command on the accounts chosen (docs/accounts.md) for the commands that
 * work on one account at a time (status, pause, resume, paused, data, drill, doctor, export, test,
 * maintain, report): the accounts are resolved and checked by the command context before any
 * request (src/workflow/context.ts), and each runs through the one per-account loop
 * (`forEachAccount`). Several accounts run one after the other under a heading each; one account's
 * failure is reported and the next still runs. Exit: 1 if any account failed, else the largest code
 * (3: some alert active, somewhere).
 */
import type { AccountChoice } from '../workflow/accounts.js';
import { accountErrorText, forEachAccount, nameAccountVariables, openCommand, type CommandContext, type ConnectionOptions } from '../workflow/context.js';
import type { CommandIo } from './output.js';

/** `declaredIn`: where the accounts are declared when the command's paths are not a configuration (`[]`: monsync.yaml). */
export async function runPerAccount(
  paths: string[],
  opts: AccountChoice & ConnectionOptions,
  io: CommandIo,
  run: (ctx: CommandContext) => Promise<number>,
  declaredIn?: string[],
): Promise<number> {
  const { contexts, several } = await openCommand({ io, paths, connection: opts, choice: opts, ...(declaredIn !== undefined ? { declaredIn } : {}) });
  const one = async (ctx: CommandContext): Promise<number> => {
    try {
      return await run(ctx);
    } catch (err) {
      throw nameAccountVariables(err, ctx.account);
    }
  };
  if (!several) return one(contexts[0]!);
  const outcomes = await forEachAccount(
    contexts,
    (ctx) => {
      io.out(`=== account ${ctx.account!.name} ===\n`);
      return one(ctx);
    },
    {
      onOutcome: (o) => {
        if ('error' in o) io.err(accountErrorText(o.context.account, o.error));
      },
    },
  );
  const codes = outcomes.map((o) => ('error' in o ? 1 : o.value));
  return codes.includes(1) ? 1 : Math.max(0, ...codes);
}
