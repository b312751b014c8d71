/**
 * Clients for the operator commands. `connect()` in src/cli/common.ts reads process.env and needs
 * v1 credentials; status must also work for a user who has only a v2 OAuth client, and the tests
 * run these commands in-process with their own environment, so both take the environment given.
 */
import { MonitoringClient, type MonitoringClientOptions } from '../api/client.js';
import { clientOptionsFromEnv } from '../api/config.js';
import { ApiError } from '../api/errors.js';
import { parseBaseUrl } from '../api/url.js';
import { parseSeconds, type ConnectionOptions } from '../cli/common.js';
import { UserError } from '../util/errors.js';
import { registerSecret } from '../util/redact.js';

export type Env = Record<string, string | undefined>;

function set(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v;
}

/** ApiError('config') carries no method or path; shown as the plain message. */
function asUserError(err: unknown): never {
  if (err instanceof ApiError && err.kind === 'config') throw new UserError(err.message.replace(/ \(\S+ \S*\)$/, ''));
  throw err;
}

function overrides(opts: ConnectionOptions): { url?: string; timeoutMs?: number } {
  return {
    ...(opts.url !== undefined && { url: opts.url }),
    ...(opts.timeout !== undefined && { timeoutMs: parseSeconds(opts.timeout, '--timeout') * 1000 }),
  };
}

/** A v1 client, as every command but status needs (pausing, data and labels are v1 only). */
export function connectV1(opts: ConnectionOptions, env: Env): MonitoringClient {
  try {
    return new MonitoringClient(clientOptionsFromEnv(env, overrides(opts)));
  } catch (err) {
    asUserError(err);
  }
}

export type StatusApi = 'v1' | 'v2';

export interface StatusConnection {
  client: MonitoringClient;
  api: StatusApi;
  /** Why this version: for the dim line status prints on stderr. */
  reason: string;
}

/**
 * Version 2 when an OAuth client is configured (MONSYNC_CLIENT_ID and MONSYNC_CLIENT_SECRET),
 * v1 credentials then being optional; otherwise version 1 with the account's login.
 */
export function connectForStatus(opts: ConnectionOptions, env: Env): StatusConnection {
  const clientId = set(env, 'MONSYNC_CLIENT_ID');
  const clientSecret = set(env, 'MONSYNC_CLIENT_SECRET');
  registerSecret(clientSecret);
  if (clientId === undefined && clientSecret === undefined) {
    return {
      client: connectV1(opts, env),
      api: 'v1',
      reason: 'using API v1 (HTTP Basic): MONSYNC_CLIENT_ID / MONSYNC_CLIENT_SECRET are not set',
    };
  }
  if (clientId === undefined || clientSecret === undefined) {
    throw new UserError(
      clientId === undefined
        ? 'MONSYNC_CLIENT_SECRET is set but MONSYNC_CLIENT_ID is not: set both or neither'
        : 'MONSYNC_CLIENT_ID is set but MONSYNC_CLIENT_SECRET is not: set both or neither',
    );
  }
  const reason = 'using API v2 (OAuth client credentials MONSYNC_CLIENT_ID)';
  // With v1 credentials too, the shared reader checks everything exactly as other commands do.
  if (set(env, 'MONSYNC_USERNAME') !== undefined || set(env, 'MONSYNC_PASSWORD') !== undefined) {
    return { client: connectV1(opts, env), api: 'v2', reason };
  }
  try {
    const o = overrides(opts);
    const rawUrl = o.url !== undefined && o.url.trim() !== '' ? o.url : set(env, 'MONSYNC_URL');
    if (rawUrl === undefined) {
      throw new UserError('no service URL: set MONSYNC_URL (e.g. https://api.knowledgefront.com) or give --url');
    }
    const { baseUrl } = parseBaseUrl(rawUrl, o.url !== undefined ? 'the --url value' : 'MONSYNC_URL');
    const options: MonitoringClientOptions = { baseUrl, clientId, clientSecret };
    if (o.timeoutMs !== undefined) options.timeoutMs = o.timeoutMs;
    return { client: new MonitoringClient(options), api: 'v2', reason };
  } catch (err) {
    asUserError(err);
  }
}
