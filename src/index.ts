/**
 * monsync as a library: `import { ... } from 'monsync'`. This file is the whole public surface; the
 * package's `exports` map allows no deeper import, so what is not exported here may change in any
 * release. docs/library.md states the guarantees:
 *
 * - `loadConfig` never throws for bad input: every problem is a Diagnostic value (file, line,
 *   column, message), all of them at once, as `monsync validate` prints them.
 * - `diff` is pure: no I/O, no clock but the plan's `created_at`; the same configuration and
 *   account give the same plan. A configuration that cannot be planned against the account is a
 *   PlanError listing every problem.
 * - A Plan is plain, versioned data (`format_version`, schemas/plan.schema.json): it can be
 *   stored, compared, reviewed and applied later; renderers only read it.
 * - `executePlan` runs exactly the plan's calls and reports every change as done, failed (with
 *   the reason) or skipped; a failed call never throws. Calls to the service that fail outside it
 *   throw ApiError; secrets never appear in messages.
 *
 * Pure functions are imported at once (they are synchronous); the client's network stack, the
 * apply engine and the emulator load when first used.
 */
import type { MonitoringClient } from './api/client.js';
import { connect as buildClient } from './api/connect.js';
import { ApiError } from './api/errors.js';
import { UserError } from './util/errors.js';
import type { MonitoringApi } from './api/types.js';
import type { ApplyEvent, ApplyResult } from './apply/execute.js';
import type { DesiredState } from './model/desired.js';
import type { LiveState } from './model/live.js';
import type { Plan } from './plan/types.js';

export { formatDiagnostics, loadConfig } from './config/index.js';
export type { ConfigInput, ConfigSource, Diagnostic, LoadOptions, LoadResult, Severity } from './config/index.js';
export { diff, PlanError, type DiffOptions } from './plan/diff.js';
export { AccountContradictionError } from './plan/consistency.js';
export { PLAN_FORMAT_VERSION } from './plan/types.js';
export type { Change, ChangeAction, ChangeKind, Plan, PlanSummary } from './plan/types.js';
export { renderPlanText, type PlanTextOptions } from './render/plan-text.js';
export { renderPlanJson } from './render/plan-json.js';
export { ApiError, type ApiErrorKind } from './api/errors.js';
export { UserError } from './util/errors.js';
export { VERSION } from './version.js';
export type { DesiredAlert, DesiredGroup, DesiredMonitor, DesiredState } from './model/desired.js';
export type { Alert, Destination, Group, LiveState, Monitor } from './model/live.js';
export type { MonitoringApi } from './api/types.js';
export type { MonitoringClient } from './api/client.js';
export type { ApplyEvent, ApplyResult, ChangeResult, ChangeStatus } from './apply/execute.js';

export interface ConnectOptions {
  /** Base URL of the service, e.g. `https://api.knowledgefront.com`; default MONSYNC_URL. Plain `http://` only to a loopback address. */
  url?: string;
  /** API version 1 login (the account's e-mail address) and password; default MONSYNC_USERNAME and MONSYNC_PASSWORD. */
  username?: string;
  password?: string;
  /** API version 2 OAuth client; default MONSYNC_CLIENT_ID and MONSYNC_CLIENT_SECRET. */
  clientId?: string;
  clientSecret?: string;
  /** Where the defaults above (and MONSYNC_DEADLINE, MONSYNC_LOG) are read; default process.env. */
  env?: Record<string, string | undefined>;
  /** Seconds one attempt of a call may take; default 30. */
  timeoutSeconds?: number;
  /** Requests in flight at once; default 16. */
  concurrency?: number;
}

/**
 * A client of the service, built as the commands build theirs. A missing or inconsistent setting
 * throws an ApiError of kind `config` naming it (never its value). `close()` it when done.
 */
export function connect(options: ConnectOptions = {}): MonitoringClient {
  const env = { ...(options.env ?? process.env) };
  const given: [string, string | undefined][] = [
    ['MONSYNC_USERNAME', options.username],
    ['MONSYNC_PASSWORD', options.password],
    ['MONSYNC_CLIENT_ID', options.clientId],
    ['MONSYNC_CLIENT_SECRET', options.clientSecret],
  ];
  for (const [name, value] of given) if (value !== undefined) env[name] = value;
  // The commands' one builder (src/api/connect.ts, as the command context calls it); its problems
  // are the library's documented ApiError of kind `config`.
  try {
    return buildClient(
      { ...(options.url !== undefined && { url: options.url }), ...(options.timeoutSeconds !== undefined && { timeout: String(options.timeoutSeconds) }) },
      env,
      options.concurrency !== undefined ? { concurrency: options.concurrency } : {},
    );
  } catch (err) {
    if (err instanceof UserError) throw new ApiError({ kind: 'config', method: '', path: '', message: err.message });
    throw err;
  }
}

/**
 * The account as `plan` reads it: every list, cross-checked (a read that contradicts itself is
 * made once more, then refused with an AccountContradictionError: an account that could not be
 * read never looks empty). With the desired state, group memberships are read only for the groups
 * it declares.
 */
export async function readAccount(client: MonitoringApi, desired?: DesiredState): Promise<LiveState> {
  const { readAccount: read } = await import('./workflow/account.js');
  return read(client, desired ?? null);
}

export interface ExecuteOptions {
  /** Calls in flight at once; default 8, as `apply`. */
  parallelism?: number;
  /** Once aborted, no new call starts and none is retried; the calls in flight finish. */
  signal?: AbortSignal;
  /** Each change as it starts and finishes (exactly one `finished` per change). */
  onEvent?: (event: ApplyEvent) => void;
  /**
   * The account the plan was made from: a create answered with an id it already held then fails
   * (docs/guarantees.md). Every answer's own fields are checked either way.
   */
  live?: LiveState;
}

/**
 * Runs the plan's calls in dependency order, independent ones concurrently. Runs exactly the plan:
 * the command's safeguards (confirmation, `--max-deletes`, `--force` for alerts the API cannot
 * create again, the fingerprint check of a saved plan) are the caller's to keep.
 */
export async function executePlan(plan: Plan, client: MonitoringApi, options: ExecuteOptions = {}): Promise<ApplyResult> {
  const { executePlan: execute, heldIds } = await import('./apply/execute.js');
  return execute(plan, client, {
    ...(options.live && { held: heldIds(options.live) }),
    parallelism: options.parallelism ?? 8,
    // How a create whose answer was lost is recognised when read back: the plan's owner marker.
    owner: plan.options.owner,
    ...(options.signal && { signal: options.signal }),
    ...(options.onEvent && { onEvent: options.onEvent }),
  });
}

export interface EmulatorOptions {
  /** Default 0: any free port. It listens on 127.0.0.1 only. */
  port?: number;
  /** The account it starts with: `default` (a few destinations and monitors a new user would recognise) or `empty`. */
  seed?: 'default' | 'empty';
  /** Keep the state in this file (atomic writes); a restart keeps everything. */
  statePath?: string;
  /** Seed of the simulated test results, and the share of tests failing at random (0..1, default 0.01). */
  simSeed?: string | number;
  failureRate?: number;
}

export interface Emulator {
  /** Base URL, for `connect({ url })`. */
  url: string;
  port: number;
  /** Its logins: API version 1 (`username`, `password`) and version 2 (`clientId`, `clientSecret`). */
  credentials: { username: string; password: string; clientId: string; clientSecret: string };
  close(): Promise<void>;
}

/**
 * The bundled emulator of the service (what `monsync emulator` runs), in this process: every
 * endpoint with the service's validation and quirks, and its control API under `/_emulator/`.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const { DEFAULT_CREDENTIALS, startEmulator: start } = await import('./emulator/index.js');
  const running = await start({ ...options, host: '127.0.0.1' });
  const { v1, v2 } = DEFAULT_CREDENTIALS;
  return {
    url: running.url,
    port: running.port,
    credentials: { username: v1.user, password: v1.password, clientId: v2.clientId, clientSecret: v2.clientSecret },
    close: () => running.close(),
  };
}
