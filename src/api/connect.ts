/**
 * The one way a client is built, for the commands (through the command context's `connect`,
 * src/workflow/context.ts) and the library (src/index.ts): test/arch/claims.test.ts. A command's: URL, credentials and MONSYNC_DEADLINE from the
 * environment (`clientOptionsFromEnv`), `--url` and `--timeout` from the command line. Every
 * problem is a UserError naming the variable or flag, never echoing a credential. The environment is
 * a parameter: the CLI passes process.env, tests their own.
 */
import { UsageError, UserError } from '../util/errors.js';
import { MonitoringClient } from './client.js';
import { clientOptionsFromEnv } from './config.js';
import { ApiError } from './errors.js';
import type { RequestEvent } from './transport.js';

export type Env = Record<string, string | undefined>;

/** The connection flags every command that talks to the service takes, as typed. */
export interface ConnectionOptions {
  url?: string;
  /** Seconds per request. */
  timeout?: string;
}

export interface ConnectChoices {
  /** Requests in flight at once (the client's default when absent). */
  concurrency?: number;
  /** An OAuth client without v1 credentials will do (`monsync status` on API v2). */
  oauthSuffices?: boolean;
  /** Told of every request sent and its answer's status (`monsync exporter` counts them). */
  onRequest?: (e: RequestEvent) => void;
  /** Variables not read (doctor builds its client from the credential pairs given whole). */
  leaveOut?: readonly string[];
  /** A declared account's prefix (`MONSYNC_PROD_`): a refused credential is named by its own variables. */
  variablePrefix?: string;
}

/** What connecting to a declared account needs (src/config/accounts.ts makes it). */
export interface AccountConnection {
  name: string;
  /** `MONSYNC_<NAME>_`: its URL, credentials and client from `<prefix>URL`, `<prefix>USERNAME`... */
  envPrefix: string;
  /** Pins: a different URL or v1 login stops the command before any request. */
  url?: string;
  username?: string;
}

/** The variables an account takes from its own prefix instead of `MONSYNC_`. */
const ACCOUNT_VARIABLES = ['URL', 'USERNAME', 'PASSWORD', 'CLIENT_ID', 'CLIENT_SECRET'] as const;
const PLAIN_VARIABLE = /\bMONSYNC_(URL|USERNAME|PASSWORD|CLIENT_ID|CLIENT_SECRET)\b/g;

/** Whether `text` names a plain variable an account reads under its own prefix (`MONSYNC_URL`...). */
export function namesPlainVariable(text: string): boolean {
  return new RegExp(PLAIN_VARIABLE.source).test(text);
}

/** `text` with the plain variables named as the account's own (`MONSYNC_URL` -> `MONSYNC_PROD_URL`): the one renaming. */
export function ownVariables(text: string, prefix: string): string {
  return text.replace(PLAIN_VARIABLE, `${prefix}$1`);
}

/**
 * The environment as the client reads it, for an account: `MONSYNC_URL` and the credentials come
 * from the account's own variables only (never the plain ones: a forgotten secret must not send
 * staging's configuration to whatever MONSYNC_URL points at).
 */
export function accountEnv(env: Env, account: AccountConnection): Env {
  const out: Env = { ...env };
  for (const v of ACCOUNT_VARIABLES) out[`MONSYNC_${v}`] = env[`${account.envPrefix}${v}`];
  return out;
}

/** Comparable form of a service URL: no trailing slash, lower-case scheme and host. */
export function comparableUrl(u: string): string {
  try {
    const p = new URL(u.trim());
    return `${p.protocol}//${p.host}${p.pathname.replace(/\/+$/, '')}`;
  } catch {
    return u.trim().replace(/\/+$/, '');
  }
}

function sameUrl(a: string, b: string): boolean {
  return comparableUrl(a) === comparableUrl(b);
}

/**
 * The pins of an account against where its variables point, before any request: null when they
 * agree, else the refusal ("account production expects URL as LOGIN; MONSYNC_PRODUCTION_URL points at ...").
 */
export function pinMismatch(account: AccountConnection, env: Env, urlFlag?: string): string | null {
  const urlVar = urlFlag !== undefined ? '--url' : `${account.envPrefix}URL`;
  const url = urlFlag ?? env[`${account.envPrefix}URL`];
  const username = env[`${account.envPrefix}USERNAME`];
  const wrong: string[] = [];
  if (account.url !== undefined && url !== undefined && url.trim() !== '' && !sameUrl(url, account.url)) wrong.push(`${urlVar} points at ${url}`);
  if (account.username !== undefined && username !== undefined && username.trim() !== '' && username !== account.username) {
    wrong.push(`${account.envPrefix}USERNAME is ${username}`);
  }
  if (wrong.length === 0) return null;
  const expects = [account.url, account.username !== undefined ? `as ${account.username}` : undefined].filter(Boolean).join(' ');
  return `account ${account.name} expects ${expects}; ${wrong.join(' and ')}; nothing was sent`;
}

/**
 * The client, from `env` as given (a declared account's context hands its own variables under the
 * plain names: `accountEnv`, worked out once, by the command context).
 */
export function connect(opts: ConnectionOptions, env: Env, choices: ConnectChoices = {}): MonitoringClient {
  try {
    const options = clientOptionsFromEnv(choices.leaveOut ? Object.fromEntries(Object.entries(env).filter(([k]) => !choices.leaveOut!.includes(k))) : env, {
      ...(opts.url !== undefined && { url: opts.url }),
      ...(opts.timeout !== undefined && { timeoutMs: timeoutSeconds(opts.timeout) * 1000 }),
      ...(choices.concurrency !== undefined && { concurrency: choices.concurrency }),
      ...(choices.oauthSuffices && { oauthSuffices: true }),
    });
    // A refused credential is named by the variable it came from: the account's own (issue 45).
    if (choices.variablePrefix !== undefined) options.variablePrefix = choices.variablePrefix;
    return new MonitoringClient(choices.onRequest ? { ...options, onRequest: choices.onRequest } : options);
  } catch (err) {
    // A configuration problem carries no method or path worth showing: the plain message.
    if (err instanceof ApiError && err.kind === 'config') {
      throw new UserError(err.message.replace(/ \(\S+ \S*\)$/, ''));
    }
    throw err;
  }
}

/** The value of --timeout, in seconds; a UsageError unless it is a positive number. */
export function timeoutSeconds(value: string): number {
  return seconds(value, '--timeout');
}

function seconds(value: string, flag: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} must be a positive number of seconds, got "${value}"`);
  return n;
}
