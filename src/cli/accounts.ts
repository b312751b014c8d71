/**
 * Running a command on declared accounts (docs/accounts.md) for the commands that work on one
 * account at a time (status, pause, resume, paused, data, drill, doctor, export, test, maintain,
 * report): the account's pins are checked before any request, and the command runs with the
 * account's own variables as `MONSYNC_URL` and credentials. Several accounts run one after the other under a
 * heading each; one account's failure is reported and the next still runs. Exit: 1 if any account
 * failed, else the largest code (3: some alert active, somewhere).
 */
import { accountEnv, pinMismatch } from '../api/connect.js';
import { redact } from '../util/redact.js';
import { UserError } from '../util/errors.js';
import { chooseAccounts, type AccountChoice, type DeclaredAccount } from '../workflow/accounts.js';
import type { CommandIo } from './output.js';

export async function runPerAccount(
  paths: string[],
  opts: AccountChoice & { url?: string },
  io: CommandIo,
  run: (io: CommandIo, account: DeclaredAccount | undefined) => Promise<number>,
): Promise<number> {
  const accounts = await chooseAccounts(paths, opts, io.cwd);
  if (accounts === null) return run(io, undefined);
  const one = async (account: DeclaredAccount): Promise<number> => {
    const mismatch = pinMismatch(account, io.env, opts.url);
    if (mismatch !== null) throw new UserError(mismatch);
    try {
      return await run({ ...io, env: accountEnv(io.env, account) }, account);
    } catch (err) {
      // The variables the account reads, named as the user must set them.
      if (err instanceof UserError && /\bMONSYNC_(URL|USERNAME|PASSWORD|CLIENT_ID|CLIENT_SECRET)\b/.test(err.message)) {
        throw new UserError(`account ${account.name}: ${err.message.replace(/\bMONSYNC_(URL|USERNAME|PASSWORD|CLIENT_ID|CLIENT_SECRET)\b/g, `${account.envPrefix}$1`)}`, {
          exitCode: err.exitCode,
          details: err.details,
        });
      }
      throw err;
    }
  };
  if (accounts.length === 1 && !opts.allAccounts) return one(accounts[0]!);
  const codes: number[] = [];
  for (const account of accounts) {
    io.out(`=== account ${account.name} ===\n`);
    try {
      codes.push(await one(account));
    } catch (err) {
      if (!(err instanceof UserError) && !(err instanceof Error && err.name === 'ApiError')) throw err;
      const lines = [err.message, ...(err instanceof UserError ? err.details : [])].map(redact);
      io.err(`Error: ${lines[0]!.startsWith(`account ${account.name}`) ? '' : `account ${account.name}: `}${lines.join('\n')}\n`);
      codes.push(1);
    }
  }
  return codes.includes(1) ? 1 : Math.max(0, ...codes);
}
