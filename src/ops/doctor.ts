/**
 * `monsync doctor`: checks a set-up before the first plan and says what to do about each problem.
 * Read-only: it lists (destinations, then the whole account), asks for a v2 token and /v2/version,
 * and never writes. Each check is a value (ok / warning / problem, or skipped when an earlier one
 * failed), so the CLI prints them as text or JSON and exits 1 when any is a problem.
 *
 * The client is built the one way every command builds it (src/api/connect.ts, so MONSYNC_DEADLINE
 * and the HTTP trace apply), after this module has judged the URL itself: a URL that would be
 * refused (plain http to another machine, credentials in it) is reported without building a client,
 * so nothing is ever sent to it, nor looked up.
 */
import type { MonitoringClient } from '../api/client.js';
import type { ConnectChoices, ConnectionOptions, Env } from '../api/connect.js';
import { isPlainHttpCode, PLAIN_HTTP_HINT } from '../api/answer.js';
import { ApiError } from '../api/errors.js';
import type { QuirkCount } from '../api/quirks.js';
import { isLoopbackHost, parseBaseUrl } from '../api/url.js';
import type { DesiredState } from '../model/desired.js';
import { DEFAULT_OWNER, OWNER_META_KEY, type LiveState } from '../model/live.js';
import { matchesAny } from '../util/glob.js';
import { plural } from '../util/plural.js';
import { pathText } from '../util/safe-text.js';
import { redact } from '../util/redact.js';

export type CheckStatus = 'ok' | 'warning' | 'problem' | 'skipped';

export interface DoctorCheck {
  /** Stable name for machines: url, reachable, tls, v1, v2, clock, account, ownership, quirks, config, references. */
  id: string;
  status: CheckStatus;
  /** One line: what was found. */
  message: string;
  /** What to do about it (warnings and problems). */
  hint?: string;
  /** Further lines: the items behind the message. */
  details?: string[];
}

export interface AccountSize {
  monitors: number;
  monitors_by_type: Record<string, number>;
  alerts: number;
  groups: number;
  destinations: number;
  unsubscribed_destinations: number;
  /** SMTP monitors carrying this configuration's owner marker, another owner's, or none. */
  owner: string;
  owned: number;
  other_owners: Record<string, number>;
  unmanaged: number;
}

export interface DoctorReport {
  /** The base URL checked, when one was usable. */
  url: string | null;
  checks: DoctorCheck[];
  account: AccountSize | null;
  quirks: QuirkCount[];
  problems: number;
  warnings: number;
}

export interface DoctorInput {
  env: Env;
  /** --url and --timeout, as typed. */
  connection: ConnectionOptions;
  /** Configuration files or directories; none: the configuration checks are not made. */
  paths: string[];
  cwd: string;
  /** Local wall clock, milliseconds. */
  now(): number;
  /** How the client is built; src/api/connect.ts's connect unless a test watches it. */
  connect?: (opts: ConnectionOptions, env: Env, choices: ConnectChoices) => MonitoringClient;
  /** Loads the configuration `paths` name (the command context's one load, src/workflow/context.ts). */
  readConfiguration: () => Promise<{ ok: true; desired: DesiredState; warnings: string[] } | { ok: false; errors: number; lines: string[] }>;
  /** Reads the whole account (the command context's one read); `healed`: what a contradicting first read said. */
  readAccount: (client: MonitoringClient) => Promise<{ live: LiveState; healed: string | null }>;
  /**
   * A declared account's `env_prefix`: `env` holds its variables as MONSYNC_*, and every message
   * names them as the user set them (`check MONSYNC_PROD_USERNAME and MONSYNC_PROD_PASSWORD`).
   */
  variablePrefix?: string;
}

/** Beyond this, the service's clock and this machine's disagree enough to say so. */
export const CLOCK_WARNING_MS = 60_000;
/** A first answer slower than this is worth a warning: every plan makes several requests. */
export const SLOW_ROUND_TRIP_MS = 3_000;

const SANDBOX = 'or, to try monsync without an account, run `monsync emulator` and set MONSYNC_URL=http://127.0.0.1:8181';

function set(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v;
}

type Pair = 'both' | 'none' | 'partial';

function pair(env: Env, a: string, b: string): Pair {
  const x = set(env, a) !== undefined;
  const y = set(env, b) !== undefined;
  return x && y ? 'both' : !x && !y ? 'none' : 'partial';
}

function partialMessage(env: Env, a: string, b: string): string {
  return set(env, a) === undefined ? `${b} is set but ${a} is not` : `${a} is set but ${b} is not`;
}

const TLS_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS|HOSTNAME_MISMATCH|ALTNAME/;

function tlsCodeOf(err: ApiError): string | null {
  const m = /\(([A-Z0-9_]+)\)/.exec(err.detail);
  return m && TLS_CODE.test(m[1]!) ? m[1]! : null;
}

/** The reason of a failed call, for a person: the service's own words or the client's. */
function reason(err: unknown): string {
  if (err instanceof ApiError) return redact(err.serviceError ? `${err.detail.split(':')[0]}: ${err.serviceError}` : err.detail);
  return redact(err instanceof Error ? err.message : String(err));
}

const reachedService = (err: unknown): boolean => err instanceof ApiError && err.status !== null;

function duration(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 360) / 10} h`;
}

/** The checks, in the order printed. */
export async function runDoctor(input: DoctorInput): Promise<DoctorReport> {
  const checks: DoctorCheck[] = [];
  const add = (c: DoctorCheck): DoctorCheck => {
    checks.push(c);
    return c;
  };
  const env = input.env;
  const v1 = pair(env, 'MONSYNC_USERNAME', 'MONSYNC_PASSWORD');
  const v2 = pair(env, 'MONSYNC_CLIENT_ID', 'MONSYNC_CLIENT_SECRET');

  // The configuration first: it needs no network, and its owner is what the ownership count uses.
  const config = input.paths.length > 0 ? await checkConfiguration(input) : null;

  const url = checkUrl(input, add);
  const report: DoctorReport = { url, checks, account: null, quirks: [], problems: 0, warnings: 0 };

  let client: MonitoringClient | null = null;
  if (url !== null && (v1 === 'both' || v2 === 'both')) {
    // Pairs given half are reported below; the client gets only the whole ones.
    const clientEnv: Env = { ...env };
    const drop = v1 !== 'both' ? ['MONSYNC_USERNAME', 'MONSYNC_PASSWORD'] : [];
    if (v2 !== 'both') drop.push('MONSYNC_CLIENT_ID', 'MONSYNC_CLIENT_SECRET');
    for (const name of drop) delete clientEnv[name];
    try {
      const connect = input.connect ?? (await import('../api/connect.js')).connect;
      client = connect(input.connection, clientEnv, { oauthSuffices: true });
    } catch (err) {
      add({ id: 'environment', status: 'problem', message: reason(err), hint: 'fix the variable or flag named' });
    }
  }

  let live: LiveState | null = null;
  try {
    if (client !== null) live = await checkService(client, env, v1, v2, url!, config?.state ?? null, add, report, input.readAccount);
    else {
      const why = url === null ? 'needs a usable URL' : 'needs credentials';
      add({ id: 'reachable', status: 'skipped', message: why });
      // What is missing about the credentials is said whatever the URL.
      add(v1 === 'both' ? { id: 'v1', status: 'skipped', message: why } : v1Unusable(env, v1));
      add(v2 === 'both' ? { id: 'v2', status: 'skipped', message: why } : v2Absent(env, v2));
      add({ id: 'clock', status: 'skipped', message: why });
      add({ id: 'account', status: 'skipped', message: why });
    }
  } finally {
    await client?.close();
  }

  if (config) {
    add(config.check);
    if (config.state && live) add(checkReferences(config.state, live));
    else if (config.state) add({ id: 'references', status: 'skipped', message: 'needs the account read' });
  }

  report.problems = checks.filter((c) => c.status === 'problem').length;
  report.warnings = checks.filter((c) => c.status === 'warning').length;
  if (input.variablePrefix !== undefined) report.checks = checks.map((c) => ownVariables(c, input.variablePrefix!));
  return report;
}

/** A check's text with the plain variables named as the account's own. */
function ownVariables(c: DoctorCheck, prefix: string): DoctorCheck {
  const named = (t: string) => t.replace(/\bMONSYNC_(URL|USERNAME|PASSWORD|CLIENT_ID|CLIENT_SECRET)\b/g, `${prefix}$1`);
  return { ...c, message: named(c.message), ...(c.hint !== undefined && { hint: named(c.hint) }), ...(c.details && { details: c.details.map(named) }) };
}

function checkUrl(input: DoctorInput, add: (c: DoctorCheck) => DoctorCheck): string | null {
  const fromFlag = set({ u: input.connection.url }, 'u');
  const raw = fromFlag ?? set(input.env, 'MONSYNC_URL');
  const name = fromFlag !== undefined ? 'the --url value' : 'MONSYNC_URL';
  if (raw === undefined) {
    add({ id: 'url', status: 'problem', message: 'MONSYNC_URL is not set', hint: `set MONSYNC_URL=https://api.knowledgefront.com, ${SANDBOX}` });
    return null;
  }
  try {
    const { baseUrl } = parseBaseUrl(raw, name);
    const u = new URL(baseUrl);
    const how = u.protocol === 'https:' ? 'https' : `plain http to a loopback address (${u.hostname}): fine for \`monsync emulator\`, nothing leaves this machine`;
    add({ id: 'url', status: 'ok', message: `${baseUrl} (${how})` });
    return baseUrl;
  } catch (err) {
    // parseBaseUrl's messages never echo the URL: it may hold credentials.
    const text = err instanceof ApiError ? err.detail : String(err);
    const http = /plain http:\/\//.test(text);
    add({
      id: 'url',
      status: 'problem',
      message: redact(text.replace(/; .*$/, '')),
      hint: http
        ? 'use https:// (the service is https://api.knowledgefront.com); plain http:// is only for loopback addresses such as `monsync emulator`. Nothing was sent.'
        : `fix ${name}; nothing was sent`,
    });
    return null;
  }
}

function v1Unusable(env: Env, v1: Pair): DoctorCheck {
  if (v1 === 'partial') {
    return { id: 'v1', status: 'problem', message: `v1 credentials incomplete: ${partialMessage(env, 'MONSYNC_USERNAME', 'MONSYNC_PASSWORD')}`, hint: 'set both' };
  }
  if (v1 === 'none') {
    return {
      id: 'v1',
      status: 'problem',
      message: 'v1 credentials not set',
      hint: 'set MONSYNC_USERNAME and MONSYNC_PASSWORD (the account\'s e-mail login): plan, apply, export, pause, resume, paused and data need them',
    };
  }
  return { id: 'v1', status: 'skipped', message: 'the service was not reached' };
}

function v2Absent(env: Env, v2: Pair): DoctorCheck {
  if (v2 === 'partial') {
    return {
      id: 'v2',
      status: 'problem',
      message: `v2 client credentials incomplete: ${partialMessage(env, 'MONSYNC_CLIENT_ID', 'MONSYNC_CLIENT_SECRET')}`,
      hint: 'set both or neither',
    };
  }
  if (v2 === 'none') {
    return {
      id: 'v2',
      status: 'ok',
      message: 'v2 client credentials not set: only `monsync status` uses them (it uses v1 without them)',
    };
  }
  return { id: 'v2', status: 'skipped', message: 'the service was not reached' };
}

/** Reachability, TLS, credentials, clock, the account and its quirks; the account read, when it was. */
async function checkService(
  client: MonitoringClient,
  env: Env,
  v1: Pair,
  v2: Pair,
  url: string,
  desired: DesiredState | null,
  add: (c: DoctorCheck) => DoctorCheck,
  report: DoctorReport,
  readAccount: DoctorInput['readAccount'],
): Promise<LiveState | null> {
  const https = url.startsWith('https:');
  // The first request: a short v1 list (or the v2 token without v1) tells reachability, TLS, the
  // round trip, the credentials and, from its Date header, the service's clock.
  const started = performance.now();
  let firstError: unknown = null;
  let v1ok = false;
  let token: 'ok' | unknown = null;
  if (v1 === 'both') {
    try {
      await client.listDestinations();
      v1ok = true;
    } catch (err) {
      firstError = err;
    }
  } else {
    try {
      await client.getToken();
      token = 'ok';
    } catch (err) {
      firstError = err;
      token = err;
    }
  }
  const ms = Math.round(performance.now() - started);
  const attempts = client.stats.requests;
  const reached = firstError === null || reachedService(firstError);

  if (!reached) {
    const err = firstError as ApiError;
    const tls = err instanceof ApiError ? tlsCodeOf(err) : null;
    if (tls && isPlainHttpCode(tls)) {
      add({ id: 'reachable', status: 'ok', message: `a server answers at ${new URL(url).host} (in plain HTTP)` });
      add({ id: 'tls', status: 'problem', message: `the server answered in plain HTTP, not TLS: ${tls}`, hint: PLAIN_HTTP_HINT });
    } else if (tls) {
      add({ id: 'reachable', status: 'ok', message: `a server answers at ${new URL(url).host} (the TLS handshake failed)` });
      add({
        id: 'tls',
        status: 'problem',
        message: `TLS certificate not accepted: ${tls}`,
        hint: 'the certificate is expired, self-signed or for another name; a proxy inspecting TLS needs its CA in NODE_EXTRA_CA_CERTS',
      });
    } else {
      add({
        id: 'reachable',
        status: 'problem',
        // The client's reason names the host and port it tried when it could not connect.
        message: / to \S+:\d+:/.test(reason(err)) ? reason(err) : `no answer from ${new URL(url).host}: ${reason(err)}`,
        hint: 'check the URL and that the service (or `monsync emulator`) is running; a proxy or firewall may be in the way',
      });
    }
    add(v1 === 'both' ? { id: 'v1', status: 'skipped', message: 'the service was not reached' } : v1Unusable(env, v1));
    add(v2 === 'both' ? { id: 'v2', status: 'skipped', message: 'the service was not reached' } : v2Absent(env, v2));
    add({ id: 'clock', status: 'skipped', message: 'the service was not reached' });
    add({ id: 'account', status: 'skipped', message: 'the service was not reached' });
    return null;
  }

  const slow = ms > SLOW_ROUND_TRIP_MS;
  add({
    id: 'reachable',
    status: slow ? 'warning' : 'ok',
    message: `answered in ${ms} ms${attempts > 1 ? ` (${attempts} attempts)` : ''} (first request, connection set-up included)`,
    ...(slow && { hint: 'a slow service makes plans of large accounts slow; --timeout and MONSYNC_DEADLINE give calls more time' }),
  });
  if (https) add({ id: 'tls', status: 'ok', message: `certificate valid for ${new URL(url).hostname}` });

  // v1
  if (v1 === 'both') {
    if (v1ok) add({ id: 'v1', status: 'ok', message: `v1 credentials accepted for ${set(env, 'MONSYNC_USERNAME')}` });
    else add(credentialProblem('v1', firstError, 'check MONSYNC_USERNAME and MONSYNC_PASSWORD (the account\'s e-mail login and password)'));
  } else add(v1Unusable(env, v1));

  // v2
  if (v2 === 'both') {
    if (token === null) {
      try {
        await client.getToken();
        token = 'ok';
      } catch (err) {
        token = err;
      }
    }
    if (token === 'ok') {
      let version: string;
      let status: CheckStatus = 'ok';
      try {
        const v = await client.getV2Version();
        version = Object.entries(v)
          .filter(([k]) => k !== 'path' && k !== 'error')
          .map(([k, val]) => `${k} ${typeof val === 'string' ? val : JSON.stringify(val)}`)
          .join(', ');
      } catch (err) {
        status = 'warning';
        version = `unreadable (${reason(err)})`;
      }
      add({
        id: 'v2',
        status,
        message: `v2 client credentials accepted (token for ${set(env, 'MONSYNC_CLIENT_ID')}); /v2/version: ${redact(version)}`,
        ...(status === 'warning' && { hint: '`monsync status` may still work; the trace (MONSYNC_LOG=trace) shows the answer' }),
      });
    } else {
      add(
        credentialProblem('v2', token, 'check MONSYNC_CLIENT_ID and MONSYNC_CLIENT_SECRET (Account > API Access in the web interface; the secret is shown once, so a lost one means a new client)'),
      );
    }
  } else add(v2Absent(env, v2));

  add(checkClock(client));

  if (!v1ok) {
    add({ id: 'account', status: 'skipped', message: 'needs working v1 credentials' });
    return null;
  }
  let live: LiveState | null = null;
  // Quirks of the whole-account read only: the first request read the destinations already.
  const before = client.quirks();
  try {
    const read = await readAccount(client);
    live = read.live;
    report.account = accountSize(read.live, desired?.settings.owner ?? DEFAULT_OWNER);
    const account = add(accountCheck(report.account));
    // A first read that contradicted itself and a second that did not: the plan would have healed it too.
    if (read.healed !== null) Object.assign(account, { status: 'warning', hint: 'read twice: the first read contradicted itself', details: [read.healed] });
    add(ownershipCheck(report.account, desired !== null));
  } catch (err) {
    add({
      id: 'account',
      status: 'problem',
      message: `the account could not be read: ${reason(err)}`,
      hint: 'plan and apply would stop the same way; MONSYNC_LOG=debug shows every request',
    });
  }
  report.quirks = subtract(client.quirks(), before);
  add(quirkCheck(report.quirks));
  return live;
}

function credentialProblem(which: 'v1' | 'v2', err: unknown, hint: string): DoctorCheck {
  const refused = err instanceof ApiError && (err.kind === 'auth' || err.status === 401 || err.status === 403);
  const label = which === 'v1' ? 'v1 credentials' : 'v2 client credentials';
  return refused
    ? { id: which, status: 'problem', message: `${label} refused: ${reason(err)}`, hint }
    : { id: which, status: 'problem', message: `${label} could not be checked: ${reason(err)}`, hint: 'MONSYNC_LOG=debug shows the requests and answers' };
}

function checkClock(client: MonitoringClient): DoctorCheck {
  if (!client.serviceClockKnown()) {
    return {
      id: 'clock',
      status: 'warning',
      message: 'the service sent no readable Date header: its clock is unknown',
      hint: 'pause ends and data windows are then computed with this machine\'s clock',
    };
  }
  const offset = client.serviceClockOffsetMs();
  if (offset === 0) return { id: 'clock', status: 'ok', message: 'the service\'s clock agrees with this machine\'s (within 2 s)' };
  const how = `${duration(offset)} ${offset > 0 ? 'ahead of' : 'behind'} this machine's`;
  if (Math.abs(offset) < CLOCK_WARNING_MS) return { id: 'clock', status: 'ok', message: `the service's clock is ${how}` };
  return {
    id: 'clock',
    status: 'warning',
    message: `the service's clock is ${how}`,
    hint:
      'monsync shows pause ends and reads data windows on the service\'s clock, so they stay right; times you compare by hand will not. If this machine is the one that is wrong, fix its clock (NTP)',
  };
}

export function accountSize(live: LiveState, owner: string): AccountSize {
  const byType: Record<string, number> = {};
  for (const m of live.monitors) byType[m.type] = (byType[m.type] ?? 0) + 1;
  const otherOwners: Record<string, number> = {};
  let owned = 0;
  let unmanaged = 0;
  for (const m of live.monitors) {
    if (m.type !== 'smtp') continue;
    const marker = m.meta[OWNER_META_KEY];
    if (marker === undefined) unmanaged++;
    else if (marker === owner) owned++;
    else otherOwners[marker] = (otherOwners[marker] ?? 0) + 1;
  }
  const sorted = (r: Record<string, number>) => Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    monitors: live.monitors.length,
    monitors_by_type: sorted(byType),
    alerts: live.alerts.length,
    groups: live.groups.length,
    destinations: live.destinations.length,
    unsubscribed_destinations: live.destinations.filter((d) => !d.subscribed).length,
    owner,
    owned,
    other_owners: sorted(otherOwners),
    unmanaged,
  };
}

function accountCheck(a: AccountSize): DoctorCheck {
  const types = Object.entries(a.monitors_by_type).map(([t, n]) => `${n} ${t}`);
  const unsub = a.unsubscribed_destinations > 0 ? ` (${a.unsubscribed_destinations} unsubscribed)` : '';
  return {
    id: 'account',
    status: 'ok',
    message:
      `${plural(a.monitors, 'monitor')}${types.length > 0 ? ` (${types.join(', ')})` : ''}, ${plural(a.alerts, 'alert')}, ` +
      `${plural(a.groups, 'group')}, ${plural(a.destinations, 'destination')}${unsub}`,
  };
}

function ownershipCheck(a: AccountSize, fromConfig: boolean): DoctorCheck {
  const others = Object.entries(a.other_owners).map(([o, n]) => `${n} by ${JSON.stringify(o)}`);
  const whose = fromConfig ? `this configuration's owner ${JSON.stringify(a.owner)}` : `${JSON.stringify(a.owner)} (the default owner; give config paths to use yours)`;
  return {
    id: 'ownership',
    status: 'ok',
    message:
      `SMTP monitors: ${a.owned} owned by ${whose}, ${others.length > 0 ? `${others.join(', ')}` : 'none by other owners'}, ` +
      `${a.unmanaged} unmanaged (never changed unless the configuration names them)`,
  };
}

const QUIRK_TEXT: Record<string, string> = {
  'monitor-type-form': 'monitor type in another form',
  'alert-type-form': 'alert type in its display form',
  'destination-type-case': 'destination type in another case',
  'enum-case': 'value in another case',
  'number-as-string': 'number sent as a string',
  'boolean-as-number-or-string': 'boolean sent as a number or string',
  'string-as-number': 'text sent as a number',
  'id-as-number': 'id sent as a number',
  'hostname-for-ip-address': '`hostname` instead of `ip_address`',
  'flag-for-complete': '`flag` instead of `complete`',
  'empty-attachment': '"" for no attachment',
  'meta-as-array': '[] for an empty meta',
  'monitor-without-groups': 'monitor without a `groups` field (membership read group by group)',
  'group-members-as-ids': 'group members as bare ids',
};

function subtract(after: readonly QuirkCount[], before: readonly QuirkCount[]): QuirkCount[] {
  const earlier = new Map(before.map((q) => [`${q.quirk}\u0000${q.detail}`, q.count]));
  return after
    .map((q) => ({ ...q, count: q.count - (earlier.get(`${q.quirk}\u0000${q.detail}`) ?? 0) }))
    .filter((q) => q.count > 0);
}

function quirkCheck(quirks: readonly QuirkCount[]): DoctorCheck {
  if (quirks.length === 0) return { id: 'quirks', status: 'ok', message: 'every answer had the documented shape' };
  const byQuirk = new Map<string, string[]>();
  for (const q of quirks) {
    const list = byQuirk.get(q.quirk) ?? [];
    list.push(`${q.detail === '' ? '' : `${JSON.stringify(q.detail)} `}x${q.count}`);
    byQuirk.set(q.quirk, list);
  }
  return {
    id: 'quirks',
    status: 'ok',
    message: `normalisation absorbed ${plural(byQuirk.size, 'wire quirk')} (read as documented; listed so an unexpected shape is visible)`,
    details: [...byQuirk].map(([q, items]) => `${QUIRK_TEXT[q] ?? q}: ${items.join(', ')}`),
  };
}

async function checkConfiguration(input: DoctorInput): Promise<{ check: DoctorCheck; state: DesiredState | null }> {
  const result = await input.readConfiguration();
  const where = input.paths.join(' ');
  if (!result.ok) {
    const lines = result.lines;
    return {
      check: {
        id: 'config',
        status: 'problem',
        message: `the configuration has ${plural(result.errors, 'problem')}`,
        hint: `fix them (\`monsync validate ${where}\` lists them all)`,
        details: lines.length > 10 ? [...lines.slice(0, 10), `... and ${lines.length - 10} more`] : lines,
      },
      state: null,
    };
  }
  const s = result.desired;
  const alerts = s.alerts.length + s.monitors.reduce((n, m) => n + m.alerts.length, 0);
  const warnings = result.warnings;
  return {
    check: {
      id: 'config',
      status: warnings.length > 0 ? 'warning' : 'ok',
      message: `valid: ${plural(s.files.length, 'file')}, ${plural(s.monitors.length, 'monitor')}, ${plural(alerts, 'alert')}, ${plural(s.groups.length, 'group')} (owner ${JSON.stringify(s.settings.owner)})`,
      ...(warnings.length > 0 && { hint: 'see the warnings', details: warnings }),
    },
    state: s,
  };
}

const at = (src: { file: string; line: number; column: number }): string => `${pathText(src.file)}:${src.line}:${src.column}`;

/** Every destination and every monitor not declared here that the configuration names, against the account. */
export function checkReferences(desired: DesiredState, live: LiveState): DoctorCheck {
  const problems: string[] = [];
  const warnings: string[] = [];
  const ignore = desired.settings.ignore;

  const destinations = new Map<string, { subscribed: boolean }[]>();
  for (const d of live.destinations) destinations.set(d.label, [...(destinations.get(d.label) ?? []), d]);
  const named = new Map<string, string>();
  const alerts = [...desired.monitors.flatMap((m) => m.alerts), ...desired.alerts];
  for (const a of alerts) for (const d of a.alert_destinations) if (!named.has(d)) named.set(d, at(a.source));
  for (const [label, where] of named) {
    const found = destinations.get(label) ?? [];
    if (found.length === 0) problems.push(`${where}: destination ${JSON.stringify(label)} is not in the account`);
    else if (found.length > 1) problems.push(`${where}: ${found.length} destinations are labelled ${JSON.stringify(label)}: the plan cannot tell which`);
    else if (!found[0]!.subscribed) warnings.push(`${where}: destination ${JSON.stringify(label)} is unsubscribed: it receives nothing`);
  }

  const declared = new Set(desired.monitors.flatMap((m) => [m.label, ...m.previous_labels]));
  const monitors = new Map<string, number>();
  for (const m of live.monitors) monitors.set(m.label, (monitors.get(m.label) ?? 0) + 1);
  const refs = new Map<string, string>();
  for (const a of desired.alerts) if (!refs.has(a.monitor)) refs.set(a.monitor, at(a.source));
  for (const g of desired.groups) for (const m of g.monitors ?? []) if (!declared.has(m) && !refs.has(m)) refs.set(m, at(g.source));
  for (const [label, where] of refs) {
    const n = monitors.get(label) ?? 0;
    if (matchesAny(ignore, label)) problems.push(`${where}: monitor ${JSON.stringify(label)} is named but settings.ignore hides it`);
    else if (n === 0) problems.push(`${where}: monitor ${JSON.stringify(label)} is not in the account (nor declared under monitors:)`);
    else if (n > 1) problems.push(`${where}: ${n} monitors are labelled ${JSON.stringify(label)}: the plan cannot tell which`);
  }

  const counted = `${plural(named.size, 'destination')} and ${plural(refs.size, 'monitor')} managed elsewhere`;
  if (problems.length > 0) {
    return {
      id: 'references',
      status: 'problem',
      message: `${plural(problems.length, 'name')} the configuration uses ${problems.length === 1 ? 'does' : 'do'} not resolve in the account`,
      hint: 'fix the labels, or create what is missing in the web interface; plan would stop on them',
      details: [...problems, ...warnings],
    };
  }
  if (warnings.length > 0) {
    return { id: 'references', status: 'warning', message: `every name resolves (${counted}), with ${plural(warnings.length, 'warning')}`, details: warnings };
  }
  return { id: 'references', status: 'ok', message: `every name the configuration uses exists: ${counted}` };
}
