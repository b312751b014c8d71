/**
 * The command context: the one path every command that reads or writes an account goes through.
 *
 * `openCommand` turns what was typed (paths, `--url`/`--timeout`, `--account`/`--all-accounts`) and
 * the command's `CommandIo` into one `CommandContext` per account the run works on (one without an
 * account when the configuration declares none). Everything is decided before any request: the
 * accounts chosen (src/workflow/accounts.ts), each one's pins, that no declared account reads the
 * plain `MONSYNC_URL` and credentials (an `env_prefix: MONSYNC_`), and that no two accounts of one run
 * resolve to the same service URL and login (one would undo the other's writes: refused, naming both).
 *
 * A context is then the only code that
 * - loads a configuration (`loadConfiguration`: through the io's cwd and env, the account's files,
 *   `vars` and owner; every problem one UserError in one style, saying what was not done),
 * - builds an API client (`connect`: the account's own variables, its pins checked again),
 * - reads the live account (`readAccount`/`startAccountRead`, src/workflow/account.ts: the one caller
 *   of `readLive`, so a healed contradiction is always reported through the progress events),
 * - knows the service's clock (`serviceNow`: the io's local clock plus the offset the client
 *   measured from the service's Date header).
 *
 * `forEachAccount` is the one per-account loop: contexts one after the other (or a few at once), one
 * account's failure (a UserError or an ApiError) caught, redacted and named after its account, and
 * the next still run. Callers decide what the outcomes print and which exit code they make.
 */
import type { MonitoringClient } from '../api/client.js';
import { accountEnv, connect, pinMismatch, type ConnectChoices, type ConnectionOptions, type Env } from '../api/connect.js';
import { sameServiceProblem, type ResolveHost } from '../api/same-service.js';
import type { MonitoringApi } from '../api/types.js';
import { PLAIN_PREFIX, plainPrefixProblem } from '../config/account-prefix.js';
import type { DeclaredAccount } from '../config/accounts.js';
import type { DesiredState } from '../model/desired.js';
import type { LiveState } from '../model/live.js';
import { UserError } from '../util/errors.js';
import { plural } from '../util/plural.js';
import { redact } from '../util/redact.js';
import { awaitRead, groupsNeeded, readAccount, startAccountRead, type AccountRead, type OnProgress } from './account.js';
import { chooseAccounts, type AccountChoice } from './accounts.js';
import type { CommandIo } from './io.js';

export type { CommandIo } from './io.js';
export type { ConnectionOptions, Env } from '../api/connect.js';
/** The client a context's `connect` builds, as runners that hold it (to close it) name it. */
export type CommandClient = MonitoringClient;
export { timeoutSeconds } from '../api/connect.js';
export type { OnProgress } from './account.js';

export interface CommandOptions {
  io: CommandIo;
  /** Configuration paths as typed (`[]`: monsync.yaml); an account replaces them with its own files. */
  paths: string[];
  /** `--url`, `--timeout`. */
  connection?: ConnectionOptions;
  /** `--account NAME` / `--all-accounts`. */
  choice?: AccountChoice;
  /**
   * Where the accounts are declared, when not in `paths` (commands whose PATH is optional read the
   * declaration from monsync.yaml: `[]`).
   */
  declaredIn?: string[];
  /** How account hosts are resolved to tell whether two reach one service (default: the system's). */
  resolve?: ResolveHost;
}

export interface LoadedConfiguration {
  desired: DesiredState;
  /** The loader's warnings, as `file:line:column: warning: ...` lines. */
  warnings: string[];
}

/** A configuration as read: sound, or its problems (`errors` counts those that are not warnings). */
export type ConfigurationRead = ({ ok: true } & LoadedConfiguration) | { ok: false; errors: number; lines: string[] };

export interface LoadConfigurationOptions {
  /** Files instead of the context's (a saved plan's `files`); an account's `vars` and owner still apply. */
  paths?: string[];
  onProgress?: OnProgress;
  /** What a broken configuration means for this command, after the count of problems. */
  consequence?: string;
}

export interface CommandContext {
  /** The command's io; for an account, `env` holds its own variables as `MONSYNC_URL` and credentials. */
  readonly io: CommandIo;
  /** The declared account this context works on (docs/accounts.md). */
  readonly account?: DeclaredAccount;
  /** The configuration files: the account's, or the paths typed. */
  readonly paths: string[];
  readonly connection: ConnectionOptions;
  /** The API client for this account (its pins checked again); the caller closes it. */
  connect(choices?: Omit<ConnectChoices, 'account'>): Promise<MonitoringClient>;
  /** The configuration, or a UserError listing every problem (file, line, field). */
  loadConfiguration(opts?: LoadConfigurationOptions): Promise<LoadedConfiguration>;
  /** The same load, its problems as a value (doctor reports them among its checks). */
  readConfiguration(opts?: Pick<LoadConfigurationOptions, 'paths'>): Promise<ConfigurationRead>;
  /**
   * The live account, reported to `onProgress` (a healed contradiction included). Single-group reads
   * are limited to the groups `scope` declares (a desired state) or names (a set); null reads all.
   */
  readAccount(api: MonitoringApi, scope: DesiredState | ReadonlySet<string> | null, onProgress?: OnProgress, signal?: AbortSignal): Promise<LiveState>;
  /**
   * The read started now (its answers awaited later with `awaitRead`); `needed` may settle later.
   */
  startAccountRead(api: MonitoringApi, needed: PromiseLike<ReadonlySet<string> | undefined> | ReadonlySet<string> | undefined): Promise<AccountRead>;
  /** The service's time now, in milliseconds. */
  serviceNow(api: MonitoringApi): number;
  /** The same context writing through another io (a held log while accounts run side by side). */
  withIo(io: CommandIo): CommandContext;
}

/** The contexts of one run; `several`: more than one account was asked for (`--all-accounts` or several `--account`). */
export interface CommandRun {
  contexts: CommandContext[];
  several: boolean;
}

/** The accounts chosen, resolved and checked, before any request. */
export async function openCommand(opts: CommandOptions): Promise<CommandRun> {
  const connection = opts.connection ?? {};
  const accounts = await chooseAccounts(opts.declaredIn ?? opts.paths, opts.choice ?? {}, opts.io.cwd);
  if (accounts === null) return { contexts: [makeContext(opts.io, opts.io.env, opts.paths, connection, undefined)], several: false };
  for (const account of accounts) {
    if (account.envPrefix === PLAIN_PREFIX) throw new UserError(`account ${account.name}: ${plainPrefixProblem(account.name)}; nothing was sent`);
    const mismatch = pinMismatch(account, opts.io.env, connection.url);
    if (mismatch !== null) throw new UserError(mismatch);
  }
  const contexts = accounts.map((a) => makeContext({ ...opts.io, env: accountEnv(opts.io.env, a) }, opts.io.env, a.paths, connection, a));
  await refuseSharedLogins(contexts, opts.resolve);
  return { contexts, several: accounts.length > 1 || opts.choice?.allAccounts === true };
}

/** Two accounts of one run on one service login would plan against each other's writes (api/same-service.ts). */
async function refuseSharedLogins(contexts: readonly CommandContext[], resolve?: ResolveHost): Promise<void> {
  const given = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v);
  // Without a URL and a login, connecting fails on its own, naming what is missing.
  const known = contexts.flatMap((ctx) => {
    const url = given(ctx.connection.url) ?? given(ctx.io.env.MONSYNC_URL);
    const login = given(ctx.io.env.MONSYNC_USERNAME) ?? given(ctx.io.env.MONSYNC_CLIENT_ID);
    return url === undefined || login === undefined ? [] : [{ name: ctx.account!.name, url, login, prefix: ctx.account!.envPrefix }];
  });
  const problem = await sameServiceProblem(known, resolve);
  if (problem !== null) throw new UserError(`${problem.message}: point ${known[problem.second]!.prefix}URL or its credentials at its own account`);
}

/**
 * The context of one account already chosen (or none): what a runner called without the account
 * loop uses (tests in-process, a command that takes no `--account`).
 */
export function commandContext(io: CommandIo, paths: string[], connection: ConnectionOptions = {}, account?: DeclaredAccount): CommandContext {
  return makeContext(account ? { ...io, env: accountEnv(io.env, account) } : io, io.env, account ? account.paths : paths, connection, account);
}

function makeContext(io: CommandIo, configEnv: Env, paths: string[], connection: ConnectionOptions, account: DeclaredAccount | undefined): CommandContext {
  const ctx: CommandContext = {
    io,
    ...(account ? { account } : {}),
    paths,
    connection,
    async connect(choices = {}) {
      return connect(connection, configEnv, { ...choices, ...(account ? { account } : {}) });
    },
    async readConfiguration(opts = {}) {
      // Read afresh at every load: a long-running command (the exporter) sees each edit at its next read.
      const { loadConfig, formatDiagnosticLines } = await import('../config/index.js');
      const result = await loadConfig(opts.paths ?? paths, {
        cwd: io.cwd,
        env: account ? { ...configEnv, ...account.vars } : configEnv,
        now: io.now(),
      });
      if ('diagnostics' in result) {
        return { ok: false, errors: result.diagnostics.filter((d) => d.severity !== 'warning').length, lines: formatDiagnosticLines(result.diagnostics, io.cwd) };
      }
      const s = result.state;
      if (account?.owner !== undefined) s.settings = { ...s.settings, owner: account.owner };
      return { ok: true, desired: s, warnings: formatDiagnosticLines(result.warnings, io.cwd) };
    },
    async loadConfiguration(opts = {}) {
      const read = await ctx.readConfiguration(opts.paths !== undefined ? { paths: opts.paths } : {});
      if (!read.ok) {
        throw new UserError(`the configuration has ${plural(read.errors, 'problem')}; ${opts.consequence ?? 'no change was sent to the service'}`, { details: read.lines });
      }
      const s = read.desired;
      opts.onProgress?.({
        kind: 'configuration',
        files: s.files.length,
        monitors: s.monitors.length,
        alerts: s.alerts.length + s.monitors.reduce((n, m) => n + m.alerts.length, 0),
        groups: s.groups.length,
      });
      return { desired: s, warnings: read.warnings };
    },
    readAccount: async (api, scope, onProgress, signal) =>
      scope instanceof Set
        ? (await awaitRead(api, startAccountRead(api, scope, { ...(signal && { signal }) }), onProgress)).report(onProgress)
        : readAccount(api, scope as DesiredState | null, onProgress, signal),
    startAccountRead: (api, needed) => startAccountRead(api, needed),
    // The offset is the service's Date header against the transport's clock, Date.now, which is the
    // io's clock in a process (processIo); a test's io stands in a fixed local clock for both.
    serviceNow: (api) => io.now() + (api.serviceClockOffsetMs?.() ?? 0),
    withIo: (other) => makeContext({ ...other, env: io.env }, configEnv, paths, connection, account),
  };
  return ctx;
}

export { awaitRead, groupsNeeded };

/** One account's run: its value, or its failure as lines (message and details, redacted; accountErrorText prints them). */
export type AccountOutcome<T> = { context: CommandContext; value: T } | { context: CommandContext; error: string[]; exitCode: number };

export interface EachAccountOptions<T> {
  /** Accounts run side by side (their outcomes still come in declaration order); default 1. */
  concurrency?: number;
  /** Told of each outcome in declaration order, as soon as it and every one before it are in. */
  onOutcome?: (outcome: AccountOutcome<T>) => void;
  /** After this outcome no further account starts (an interruption). */
  stopAfter?: (outcome: AccountOutcome<T>) => boolean;
}

/**
 * The one per-account loop. A failure the user can act on (UserError, ApiError) becomes that
 * account's outcome and the others still run; anything else is a bug and propagates.
 */
export async function forEachAccount<T>(contexts: readonly CommandContext[], run: (ctx: CommandContext) => Promise<T>, opts: EachAccountOptions<T> = {}): Promise<AccountOutcome<T>[]> {
  const one = async (context: CommandContext): Promise<AccountOutcome<T>> => {
    try {
      return { context, value: await run(context) };
    } catch (err) {
      if (!(err instanceof UserError) && !(err instanceof Error && err.name === 'ApiError')) throw err;
      return { context, error: [err.message, ...(err instanceof UserError ? err.details : [])].map(redact), exitCode: err instanceof UserError ? err.exitCode : 1 };
    }
  };
  const running: Promise<AccountOutcome<T>>[] = [];
  let next = 0;
  let stopped = false;
  const startNext = () => {
    if (stopped || next >= contexts.length) return;
    const p = one(contexts[next++]!);
    // Awaited in order below; a bug's rejection must not be reported as unhandled before its turn.
    p.catch(() => undefined);
    running.push(p);
  };
  for (let i = 0; i < Math.max(1, opts.concurrency ?? 1); i++) startNext();
  const outcomes: AccountOutcome<T>[] = [];
  for (let i = 0; i < running.length; i++) {
    const outcome = await running[i]!;
    outcomes.push(outcome);
    opts.onOutcome?.(outcome);
    if (opts.stopAfter?.(outcome)) stopped = true;
    startNext();
  }
  return outcomes;
}

/**
 * A failure of a run on one account, as the user must read it: the variables named with the
 * account's own prefix (it reads `MONSYNC_PROD_URL`, not `MONSYNC_URL`) and the account named.
 * Unchanged when it names none of them.
 */
export function nameAccountVariables(err: unknown, account: DeclaredAccount | undefined): unknown {
  if (account === undefined || !(err instanceof UserError) || !ACCOUNT_VARIABLE.test(err.message)) return err;
  return new UserError(`account ${account.name}: ${err.message.replace(new RegExp(ACCOUNT_VARIABLE.source, 'g'), `${account.envPrefix}$1`)}`, {
    exitCode: err.exitCode,
    details: err.details,
  });
}

const ACCOUNT_VARIABLE = /\bMONSYNC_(URL|USERNAME|PASSWORD|CLIENT_ID|CLIENT_SECRET)\b/;

/** One account's failure as printed (`Error: account NAME: ...`), from its outcome's lines. */
export function accountErrorText(account: DeclaredAccount | undefined, lines: readonly string[]): string {
  const named = account === undefined || lines[0]!.startsWith(`account ${account.name}`) ? '' : `account ${account.name}: `;
  return `Error: ${named}${lines.join('\n')}\n`;
}
