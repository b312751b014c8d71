/**
 * Client options from the environment. Every credential is registered with redact() the moment
 * it is read, and no message here ever echoes a URL or credential value: only variable names.
 *
 * MONSYNC_DEADLINE (seconds): how long one API call may take in all, its retries and waits
 * included (src/api/retry.ts, rule 7); default 60, or the per-attempt timeout when that is longer.
 * MONSYNC_LOG (debug, trace, off) and MONSYNC_LOG_FILE: the HTTP trace (src/api/trace.ts).
 */
import { registerSecret } from '../util/redact.js';
import type { MonitoringClientOptions } from './client.js';
import { ApiError } from './errors.js';
import { httpLogFromEnv } from './trace.js';
import { parseBaseUrl } from './url.js';

export interface ClientOverrides {
  /** Takes precedence over MONSYNC_URL (e.g. a --url option). */
  url?: string;
  timeoutMs?: number;
  concurrency?: number;
  /** Takes precedence over MONSYNC_DEADLINE. */
  deadlineMs?: number;
  /**
   * An OAuth client (MONSYNC_CLIENT_ID and MONSYNC_CLIENT_SECRET) is enough without v1 credentials:
   * for the v2 calls of `monsync status`. v1 credentials that are given are still checked.
   */
  oauthSuffices?: boolean;
}

const SANDBOX_HINT = 'for a local sandbox, run `monsync emulator` and set MONSYNC_URL=http://127.0.0.1:8181';

function configError(message: string): ApiError {
  return new ApiError({ kind: 'config', method: '', path: '', message });
}

function deadlineFromEnv(raw: string | undefined): number | undefined {
  const v = nonEmpty(raw);
  if (v === undefined) return undefined;
  const seconds = Number(v);
  if (!(Number.isFinite(seconds) && seconds > 0)) throw configError(`MONSYNC_DEADLINE must be a positive number of seconds, got ${JSON.stringify(v)}`);
  return seconds * 1000;
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v;
}

export function clientOptionsFromEnv(
  env: Record<string, string | undefined> = process.env,
  overrides: ClientOverrides = {},
): MonitoringClientOptions {
  const username = nonEmpty(env['MONSYNC_USERNAME']);
  const password = nonEmpty(env['MONSYNC_PASSWORD']);
  const clientId = nonEmpty(env['MONSYNC_CLIENT_ID']);
  const clientSecret = nonEmpty(env['MONSYNC_CLIENT_SECRET']);
  registerSecret(password);
  registerSecret(clientSecret);

  const fromOverride = nonEmpty(overrides.url);
  const rawUrl = fromOverride ?? nonEmpty(env['MONSYNC_URL']);
  if (rawUrl === undefined) {
    throw configError(`no service URL: set MONSYNC_URL (e.g. https://api.knowledgefront.com); ${SANDBOX_HINT}`);
  }
  // A password typed into the URL is a secret too, even though the URL is refused.
  try {
    const u = new URL(rawUrl);
    if (u.password) registerSecret(decodeURIComponent(u.password));
  } catch {
    // parseBaseUrl reports unparsable URLs.
  }
  const { baseUrl } = parseBaseUrl(rawUrl, fromOverride !== undefined ? 'the --url value' : 'MONSYNC_URL');

  const oauthOnly = overrides.oauthSuffices === true && clientId !== undefined && clientSecret !== undefined;
  if (username === undefined && password === undefined) {
    if (!oauthOnly) throw configError(`no v1 credentials: set MONSYNC_USERNAME and MONSYNC_PASSWORD; ${SANDBOX_HINT}`);
  } else if (username === undefined) throw configError(`MONSYNC_PASSWORD is set but MONSYNC_USERNAME is not: set MONSYNC_USERNAME`);
  else if (password === undefined) throw configError(`MONSYNC_USERNAME is set but MONSYNC_PASSWORD is not: set MONSYNC_PASSWORD`);
  if ((clientId === undefined) !== (clientSecret === undefined)) {
    throw configError(
      clientId === undefined
        ? 'MONSYNC_CLIENT_SECRET is set but MONSYNC_CLIENT_ID is not: set both or neither'
        : 'MONSYNC_CLIENT_ID is set but MONSYNC_CLIENT_SECRET is not: set both or neither',
    );
  }

  const opts: MonitoringClientOptions = username !== undefined && password !== undefined ? { baseUrl, username, password } : { baseUrl };
  if (clientId !== undefined && clientSecret !== undefined) {
    opts.clientId = clientId;
    opts.clientSecret = clientSecret;
  }
  if (overrides.timeoutMs !== undefined) {
    if (!(Number.isFinite(overrides.timeoutMs) && overrides.timeoutMs > 0)) throw configError('timeout must be a positive number of milliseconds');
    opts.timeoutMs = overrides.timeoutMs;
  }
  const deadlineMs = overrides.deadlineMs ?? deadlineFromEnv(env['MONSYNC_DEADLINE']);
  if (deadlineMs !== undefined) {
    if (!(Number.isFinite(deadlineMs) && deadlineMs > 0)) throw configError('deadline must be a positive number of milliseconds');
    opts.deadlineMs = deadlineMs;
  }
  const log = httpLogFromEnv(env);
  if (log !== undefined && 'error' in log) throw configError(log.error);
  if (log !== undefined) opts.log = log;
  if (overrides.concurrency !== undefined) {
    if (!(Number.isInteger(overrides.concurrency) && overrides.concurrency >= 1)) throw configError('concurrency must be a positive integer');
    opts.concurrency = overrides.concurrency;
  }
  return opts;
}
