/**
 * The one way a command builds its API client: URL, credentials and MONSYNC_DEADLINE from the
 * environment (`clientOptionsFromEnv`), `--url` and `--timeout` from the command line. Every
 * problem is a UserError naming the variable or flag, never echoing a credential. The environment is
 * a parameter: the CLI passes process.env, tests their own.
 */
import { UsageError, UserError } from '../util/errors.js';
import { MonitoringClient } from './client.js';
import { clientOptionsFromEnv } from './config.js';
import { ApiError } from './errors.js';

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
}

export function connect(opts: ConnectionOptions, env: Env, choices: ConnectChoices = {}): MonitoringClient {
  try {
    return new MonitoringClient(
      clientOptionsFromEnv(env, {
        ...(opts.url !== undefined && { url: opts.url }),
        ...(opts.timeout !== undefined && { timeoutMs: timeoutSeconds(opts.timeout) * 1000 }),
        ...(choices.concurrency !== undefined && { concurrency: choices.concurrency }),
        ...(choices.oauthSuffices && { oauthSuffices: true }),
      }),
    );
  } catch (err) {
    // A configuration problem carries no method or path worth showing: the plain message.
    if (err instanceof ApiError && err.kind === 'config') throw new UserError(err.message.replace(/ \(\S+ \S*\)$/, ''));
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
