/**
 * Stage 3: `${VAR}` and `${VAR:-default}` in string values, from the environment. `$${` is a
 * literal `${`. Runs on the YAML document (not on plain data) so an unset variable is reported
 * where it was written, and each anchored value is interpolated once however often it is aliased.
 * It reads values as YAML decoded them, not as they were written: `"\u0024{A}"` is `${A}` here,
 * and the fast path (fast/parse.ts, forFullPath) leaves every such value to this stage.
 *
 * `:-` follows the shell: the default applies when the variable is unset or empty. A plain
 * (unquoted) scalar that is exactly one reference takes the type its value would have in YAML
 * when it is an integer or true/false, so `port: ${SMTP_PORT:-25}` is a number; quote it to keep
 * a string.
 *
 * A variable whose name or value looks like a secret (`secretLooking`, `secretValue`) is read, but reported as a guarded
 * reference: the loader refuses it unless `settings.allowed_secret_variables` (possibly in another
 * file, so only the loader, over all files, can tell) names it.
 */
import type { Scalar } from 'yaml';
import { diag, type Diagnostic } from './diagnostics.js';
import type { ParsedFile } from './parse.js';

export type Env = Record<string, string | undefined>;

const TOKEN = /\$\$\{|\$\{([^}]*)\}?/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

interface Problem {
  /** The reference as written, to find it in the source text. */
  token: string;
  message: string;
}

/** Variables that hold monsync's own credentials: never config values (plans are shown in PRs). */
const CREDENTIAL_VARIABLES = ['MONSYNC_PASSWORD', 'MONSYNC_CLIENT_SECRET'] as const;
/** An account's credentials under the default prefix (`MONSYNC_<NAME>_`, v1 and v2): src/api/connect.ts reads them. */
const ACCOUNT_CREDENTIAL = /^MONSYNC_[A-Z0-9_]+_(PASSWORD|CLIENT_SECRET)$/;

/**
 * The names of every credential monsync reads in `env`: its own, each account's under the default
 * prefix, and `extra` (the declared accounts' `env_prefix` ones, config/accounts.ts). Their values
 * are never copied into the configuration, whatever variable carries them.
 */
export function credentialVariables(env: Env, extra: readonly string[] = []): ReadonlySet<string> {
  const names = new Set<string>([...CREDENTIAL_VARIABLES, ...extra]);
  for (const name of Object.keys(env)) if (ACCOUNT_CREDENTIAL.test(name)) names.add(name);
  return names;
}

/**
 * Parts of a name that mark it as a secret, case-insensitively and anywhere in the name (`*TOKEN*`):
 * a CI job's environment is full of them (GITHUB_TOKEN, CI_JOB_TOKEN, CI_JOB_JWT, NPM_TOKEN,
 * AWS_SECRET_ACCESS_KEY, CI_REGISTRY_PASSWORD, SLACK_WEBHOOK_URL: a webhook's URL is its key).
 * Broad on purpose: a name caught wrongly is listed in settings.allowed_secret_variables; a secret
 * missed would be in every plan and PR comment.
 */
export const SECRET_NAME_PARTS = ['TOKEN', 'SECRET', 'PASSWORD', 'PASSWD', 'PASSPHRASE', 'KEY', 'CREDENTIAL', 'PRIVATE', 'JWT', 'WEBHOOK'] as const;
/**
 * Endings that mark a name as a secret: a token (GH_PAT), a Sentry DSN (SENTRY_DSN), an auth string
 * (NPM_AUTH), a password file or value (PGPASS, SSHPASS).
 */
export const SECRET_NAME_ENDINGS = ['_PAT', '_DSN', '_AUTH', 'PASS'] as const;
/** CI systems' own variables that carry credentials without saying so in their names. */
const CI_SECRET_PREFIXES = ['ACTIONS_'];
const CI_SECRET_NAMES = new Set(['CI_REPOSITORY_URL']);

/** Why `name` looks like a secret (`its name contains TOKEN`), or null. */
export function secretLooking(name: string): string | null {
  const upper = name.toUpperCase();
  const part = SECRET_NAME_PARTS.find((p) => upper.includes(p));
  if (part) return `its name contains ${part}`;
  const ending = SECRET_NAME_ENDINGS.find((e) => upper.endsWith(e));
  if (ending) return `its name ends in ${ending}`;
  if (CI_SECRET_PREFIXES.some((p) => upper.startsWith(p)) || CI_SECRET_NAMES.has(upper)) return 'it is a CI system\'s own variable, which may carry credentials';
  return null;
}

/** A URL with a password in it (`postgres://app:pw@db/x`, `http://user:pass@proxy:3128`), whatever its variable is called. */
const URL_WITH_PASSWORD = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#@\s]*:[^/?#@\s]+@/;

/** Why the value `value` looks like a secret, or null: names miss DATABASE_URL and HTTPS_PROXY, values do not. */
export function secretValue(value: string): string | null {
  return URL_WITH_PASSWORD.test(value.trim()) ? 'its value is a URL with a password' : null;
}

/** A reference to a secret-looking variable: refused unless the settings allow the name. */
export interface GuardedReference {
  name: string;
  /** The refusal, at the reference. */
  diagnostic: Diagnostic;
}

function guardMessage(name: string, why: string): string {
  return `\${${name}} looks like a secret (${why}): monsync does not copy it into the configuration, where plans, PR comments and the service would show it; if it is not a secret, list ${name} in settings.allowed_secret_variables`;
}

function isCredentialValue(value: string, env: Env, credentials: ReadonlySet<string>): boolean {
  for (const name of credentials) {
    const secret = env[name];
    // Short values would match ordinary words; they are not credentials worth the name anyway.
    if (secret && secret.length >= 4 && value.includes(secret)) return true;
  }
  return false;
}

/** Interpolates one string; `problems` is non-empty when it could not be. */
export function interpolateString(
  value: string,
  env: Env,
  credentials: ReadonlySet<string> = credentialVariables(env),
): { value: string; problems: Problem[]; guarded: Problem[]; whole: boolean } {
  const problems: Problem[] = [];
  const guarded: Problem[] = [];
  let count = 0;
  let onlyToken = false;
  const out = value.replace(TOKEN, (match, body: string | undefined, offset: number) => {
    if (match === '$${') return '${';
    count++;
    onlyToken = match.length === value.length && offset === 0;
    if (!match.endsWith('}')) {
      problems.push({ token: match, message: `unterminated variable reference ${JSON.stringify(match)}: write \${NAME} or \${NAME:-default}` });
      return match;
    }
    const sep = body!.indexOf(':-');
    const name = sep >= 0 ? body!.slice(0, sep) : body!;
    const fallback = sep >= 0 ? body!.slice(sep + 2) : undefined;
    if (!NAME.test(name)) {
      problems.push({
        token: match,
        message: `invalid variable reference ${JSON.stringify(match)}: a name is letters, digits and _ (not starting with a digit); write $\${ for a literal \${`,
      });
      return match;
    }
    if (credentials.has(name)) {
      problems.push({
        token: match,
        message: `\${${name}} is a credential: monsync never puts credentials into monitor or alert fields, where plans, PR comments and the service would show them`,
      });
      return match;
    }
    const set = env[name];
    const why = secretLooking(name) ?? (set === undefined ? null : secretValue(set));
    if (why !== null) guarded.push({ token: match, message: guardMessage(name, why) });
    if (set !== undefined && set !== '' && isCredentialValue(set, env, credentials)) {
      problems.push({
        token: match,
        message: `environment variable ${name} holds the same value as a monsync credential; it is not put into the configuration, where plans and PR comments would show it`,
      });
      return match;
    }
    if (set !== undefined && set !== '') return set;
    if (fallback !== undefined) return fallback;
    if (set === '') return '';
    problems.push({ token: match, message: `environment variable ${name} is not set (use \${${name}:-default} to give a default)` });
    return match;
  });
  return { value: out, problems, guarded, whole: count === 1 && onlyToken };
}

/**
 * Interpolates every string value in place. Returns the problems and the start offsets of the
 * values left uninterpolated, so later stages can stay quiet about them.
 */
export function interpolateDocument(
  parsed: ParsedFile,
  env: Env,
  credentials: ReadonlySet<string> = credentialVariables(env),
): { diagnostics: Diagnostic[]; failed: Set<number>; guarded: GuardedReference[] } {
  const diagnostics: Diagnostic[] = [];
  const guarded: GuardedReference[] = [];
  const failed = new Set<number>();
  const text = parsed.source.text;
  for (const node of parsed.templated) {
    const value = node.value as string;
    const result = interpolateString(value, env, credentials);
    const [start, end] = [node.range?.[0] ?? 0, node.range?.[1] ?? text.length];
    /** Each problem at its token as written; quoted scalars with escapes may not contain it verbatim. */
    const locate = (list: Problem[]) => {
      let searchFrom = start;
      return list.map((p) => {
        const found = text.indexOf(p.token, searchFrom);
        const offset = found >= 0 && found < end ? found : start;
        if (found >= 0 && found < end) searchFrom = found + p.token.length;
        return diag(parsed.source.display, parsed.locator.at(offset), p.message);
      });
    };
    const refused = locate(result.guarded);
    result.guarded.forEach((p, i) => guarded.push({ name: /^\$\{([A-Za-z0-9_]+)/.exec(p.token)![1]!, diagnostic: refused[i]! }));
    if (result.problems.length > 0) {
      failed.add(start);
      diagnostics.push(...locate(result.problems));
      continue;
    }
    // `Scalar.PLAIN` is this string; naming the class would load the YAML parser for every configuration,
    // though most are read by the fast path (config/fast) without it.
    node.value = result.whole && node.type === ('PLAIN' satisfies Scalar.Type) ? retype(result.value) : result.value;
  }
  return { diagnostics, failed, guarded };
}

function retype(value: string): string | number | boolean {
  if (/^[-+]?(0|[1-9][0-9]*)$/.test(value)) return Number(value);
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}
