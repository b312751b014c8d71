/**
 * The accounts a repository declares (`settings.accounts` of the file given as PATH, default
 * `monsync.yaml`; docs/accounts.md). Read before the configuration proper, because the account
 * chosen decides which files, variables and owner the load uses. Never throws for bad input: a
 * declaration this reader cannot make sense of is left to the loader, whose schema check reports it
 * with its position (the declaring file is always part of each account's load).
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { defaultEnvPrefix } from './account-prefix.js';
import type { Locator } from './locate.js';
import { DEFAULT_CONFIG_FILE } from './read.js';

export interface DeclaredAccount {
  name: string;
  /** Paths to load, relative to the working directory (as diagnostics name them): the declaring file first, then the account's own. */
  paths: string[];
  owner?: string;
  /** Pins: what the account's URL and v1 login must be. */
  url?: string;
  username?: string;
  /** `${VAR}` values for this account's files, over the environment. */
  vars: Record<string, string>;
  /** Where its credentials come from: `MONSYNC_<NAME>_` unless `env_prefix` says otherwise. */
  envPrefix: string;
}

export interface DeclaredAccounts {
  /** The declaring file, absolute. */
  file: string;
  /** In declaration order: the order `--all-accounts` applies them in. */
  accounts: DeclaredAccount[];
  /** What the schema refuses in `settings.accounts`, as `file:line:column: message` lines (validate's). */
  problems: string[];
}

export { defaultEnvPrefix } from './account-prefix.js';

/**
 * The accounts declared by the configuration `paths` name (one file, or none: `monsync.yaml` in
 * `cwd`), or null when it declares none (a configuration without accounts works as before).
 */
export async function readDeclaredAccounts(paths: readonly string[], cwd: string): Promise<DeclaredAccounts | null> {
  if (paths.length > 1) return null;
  const file = resolve(cwd, paths[0] ?? DEFAULT_CONFIG_FILE);
  let text: string;
  try {
    if (!(await stat(file)).isFile()) return null;
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  // Most configurations declare none: a large one is not parsed twice to find out.
  if (!/(^|[\s{,"])accounts"?\s*:/m.test(text)) return null;
  // Loaded here, not at the top: every command that talks to the service reads this file's
  // declarations, and a YAML parser is about 40 ms of a start-up that most of them never need.
  const { LineCounter, parseDocument } = await import('yaml');
  let data: unknown;
  const lines = new LineCounter();
  const doc = parseDocument(text, { uniqueKeys: false, lineCounter: lines });
  try {
    data = doc.toJS({ maxAliasCount: 1000 });
  } catch {
    return null;
  }
  const accounts = get(get(data, 'settings'), 'accounts');
  if (!isRecord(accounts) || Object.keys(accounts).length === 0) return null;
  const dir = dirname(file);
  const out: DeclaredAccount[] = [];
  for (const [name, raw] of Object.entries(accounts)) {
    const own = Array.isArray(get(raw, 'paths')) ? (get(raw, 'paths') as unknown[]).filter((p): p is string => typeof p === 'string') : [];
    const vars = get(raw, 'vars');
    const str = (k: string) => (typeof get(raw, k) === 'string' ? (get(raw, k) as string) : undefined);
    const owner = str('owner');
    const url = str('url');
    const username = str('username');
    out.push({
      name,
      paths: [file, ...own.map((p) => (isAbsolute(p) ? p : resolve(dir, p)))].map((p) => relative(cwd, p) || '.'),
      ...(owner !== undefined && { owner }),
      ...(url !== undefined && { url }),
      ...(username !== undefined && { username }),
      vars: isRecord(vars) ? Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, String(v)])) : {},
      envPrefix: str('env_prefix') ?? defaultEnvPrefix(name),
    });
  }
  const display = relative(cwd, file) || file;
  const { Locator } = await import('./locate.js');
  return { file, accounts: out, problems: await declarationProblems(accounts, new Locator(display, doc, lines)) };
}

/**
 * The schema's verdict on `settings.accounts` alone, at the declaring file's positions: the same
 * validator and messages as the loader's (schema.ts), on a document holding only the declaration
 * (the rest of the file is the loader's business, after the account is chosen).
 */
async function declarationProblems(accounts: Record<string, unknown>, locator: Locator): Promise<string[]> {
  const [{ validateFile }, { formatDiagnosticLines }] = await Promise.all([import('./schema.js'), import('./diagnostics.js')]);
  return formatDiagnosticLines(validateFile({ version: 1, settings: { accounts } }, locator));
}

/**
 * The secret credential variables of every declared account (`<prefix>PASSWORD`, v1, and
 * `<prefix>CLIENT_SECRET`, v2; src/api/connect.ts reads them): whichever account a run loads, no
 * account's credential may reach its configuration (interpolate.ts, credentialVariables).
 */
export function accountCredentialVariables(declared: DeclaredAccounts | null): string[] {
  return (declared?.accounts ?? []).flatMap((a) => [`${a.envPrefix}PASSWORD`, `${a.envPrefix}CLIENT_SECRET`]);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function get(v: unknown, key: string): unknown {
  return isRecord(v) ? v[key] : undefined;
}
