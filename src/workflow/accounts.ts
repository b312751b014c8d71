/**
 * Which declared accounts a command works on (docs/accounts.md): `--account NAME` (repeatable) or
 * `--all-accounts`, in declaration order (staging before production, as the file lists them).
 * A configuration that declares accounts is never run against a silent default: without a choice
 * it is refused (a UsageError, exit 2) with the names; a configuration without accounts runs as
 * before and refuses the flags.
 */
import { readDeclaredAccounts, type DeclaredAccount } from '../config/accounts.js';
import { UsageError, UserError } from '../util/errors.js';
import { closest } from '../util/suggest.js';

export type { DeclaredAccount } from '../config/accounts.js';

export interface AccountChoice {
  account?: string[];
  allAccounts?: boolean;
}

/** The accounts chosen, in declaration order; null when the configuration declares none. */
export async function chooseAccounts(paths: readonly string[], choice: AccountChoice, cwd: string): Promise<DeclaredAccount[] | null> {
  const named = choice.account ?? [];
  if (named.length > 0 && choice.allAccounts) throw new UsageError('give --account NAME or --all-accounts, not both');
  const declared = await readDeclaredAccounts(paths, cwd);
  if (declared === null) {
    if (named.length > 0 || choice.allAccounts) {
      throw new UsageError(`${named.length > 0 ? '--account' : '--all-accounts'} needs a configuration that declares settings.accounts (docs/accounts.md); ${paths.length > 0 ? paths.join(' ') : 'monsync.yaml'} declares none`);
    }
    return null;
  }
  if (declared.problems.length > 0) throw new UserError(`settings.accounts has ${declared.problems.length === 1 ? 'a problem' : `${declared.problems.length} problems`}; nothing was sent`, { details: declared.problems });
  const names = declared.accounts.map((a) => a.name);
  if (choice.allAccounts) return declared.accounts;
  if (named.length === 0) {
    throw new UsageError(`the configuration declares accounts (${names.join(', ')}): choose with --account NAME (repeatable) or --all-accounts`);
  }
  for (const n of named) {
    if (!names.includes(n)) {
      const near = closest(n, names);
      throw new UsageError(`no account named "${n}"${near ? ` (did you mean "${near}"?)` : ''}; the configuration declares ${names.join(', ')}`);
    }
  }
  return declared.accounts.filter((a) => named.includes(a.name));
}
