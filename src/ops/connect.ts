/**
 * Which API `monsync status` speaks. Status must also work for a user who has only a v2 OAuth client,
 * while every other operator command needs v1 (pausing, data and labels are v1 only); the client is
 * built the one way every command builds it (src/api/connect.ts).
 */
import type { MonitoringClient } from '../api/client.js';
import { connect, type ConnectionOptions, type Env } from '../api/connect.js';
import { UserError } from '../util/errors.js';
import { registerSecret } from '../util/redact.js';

function set(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v;
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
 * v1 credentials then being optional (but checked when given); otherwise version 1 with the
 * account's login.
 */
export function connectForStatus(opts: ConnectionOptions, env: Env): StatusConnection {
  const clientId = set(env, 'MONSYNC_CLIENT_ID');
  const clientSecret = set(env, 'MONSYNC_CLIENT_SECRET');
  registerSecret(clientSecret);
  if (clientId === undefined && clientSecret === undefined) {
    return {
      client: connect(opts, env),
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
  return { client: connect(opts, env, { oauthSuffices: true }), api: 'v2', reason: 'using API v2 (OAuth client credentials MONSYNC_CLIENT_ID)' };
}
