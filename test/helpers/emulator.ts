/**
 * Starts an emulator on 127.0.0.1 (free port) for a test and wraps its control API. Every
 * call goes over HTTP with node's global fetch, exactly as a client would.
 */
import { Agent, fetch as undiciFetch } from 'undici';
import { DEFAULT_CREDENTIALS, startEmulator, type EmulatorOptions, type EmulatorStore, type Exchange, type SeedName } from '../../src/emulator/index.js';
import { contractProblems } from './contract.js';

export interface TestEmulator {
  url: string;
  port: number;
  store: EmulatorStore;
  /** With `tls`: the PEM of the CA its certificate chains to (the control calls below trust it). */
  ca: string | null;
  /**
   * Stops the emulator, then fails (rejects) when an answer or a refusal of the run disagrees with
   * schemas/openapi.json (helpers/contract.ts), naming each.
   */
  close(): Promise<void>;
  /** The calls so far with their answers, as the contract check sees them. */
  readonly exchanges: readonly Exchange[];
  /** Authorization header value for v1 with the default account. */
  v1Auth: string;
  /** Fetches a v2 bearer token with the default client. */
  token(): Promise<string>;
  control: {
    reset(seed?: SeedName): Promise<unknown>;
    seed(body: unknown): Promise<{ destinations: string[]; monitors: string[]; alerts: string[]; groups: string[] }>;
    state(): Promise<Record<string, unknown>>;
    requests(): Promise<RecordedRequest[]>;
    clearRequests(): Promise<void>;
    faults(body: Record<string, unknown>): Promise<void>;
    clearFaults(): Promise<void>;
    advance(seconds: number): Promise<{ now: number }>;
    clock(): Promise<{ now: number; offset_seconds: number }>;
    setAlertActive(monitor: string, active?: boolean): Promise<void>;
    setData(monitor: string, items: unknown[], analysis?: unknown[]): Promise<void>;
    /** Sets the emulator clock to `unix` seconds (real time keeps running from there). */
    setClock(unix: number): Promise<{ now: number }>;
    outage(monitor: string, seconds: number): Promise<{ monitor: string; until: number }>;
    outbox(since?: number): Promise<OutboxMessage[]>;
    clearOutbox(): Promise<void>;
    simulation(body?: { failure_rate?: number; seed?: string | number }): Promise<{ seed: string; failure_rate: number; last_minute: number }>;
    /** `POST /_emulator/history`: `days` of history for every monitor, outages placed (unix seconds, tests in (start, end] fail). */
    history(body: { days: number; outages?: { monitor: string; start: number; end: number }[] }): Promise<{ days: number; from: number; retention_seconds: number }>;
  };
}

// The emulator's own shape of an outbox entry: this helper is the emulator's test client.
import type { OutboxMessage } from '../../src/emulator/alerting.js';
export type { OutboxMessage };

export interface RecordedRequest {
  seq: number;
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  status: number;
  fault: string | null;
}

export const basicAuth = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export async function startTestEmulator(
  opts: Omit<EmulatorOptions, 'host' | 'port' | 'onExchange'> & { port?: number } = {},
): Promise<TestEmulator> {
  const exchanges: Exchange[] = [];
  // Ids of the objects seeded raw through control.seed since the last reset (helpers/contract.ts).
  const seeded = new Set<string>();
  // Problems found at a reset, reported at close.
  const pending: string[] = [];
  const emu = await startEmulator({ ...opts, host: '127.0.0.1', port: opts.port ?? 0, onExchange: (x) => exchanges.push(x) });
  const url = emu.url;
  // Over HTTPS the control calls trust the emulator's own CA, and nothing else changes.
  const agent = emu.ca === null ? null : new Agent({ connect: { ca: emu.ca } });
  const fetch = (agent === null ? globalThis.fetch : (u: string, init?: RequestInit) => undiciFetch(u, { ...(init as object), dispatcher: agent })) as typeof globalThis.fetch;

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${url}/_emulator/${path}`, {
      method,
      ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as T & { error?: string };
    if (!res.ok) throw new Error(`emulator control ${method} ${path}: ${res.status} ${json.error ?? ''}`);
    return json;
  }

  return {
    url,
    port: emu.port,
    store: emu.store,
    ca: emu.ca,
    exchanges,
    async close() {
      await emu.close();
      await agent?.close();
      const problems = [...pending.splice(0), ...contractProblems(exchanges, { seeded })];
      // Reported once: a second close (afterAll after a test's own) has nothing new to say.
      exchanges.length = 0;
      if (problems.length > 0) {
        throw new Error(`the emulator answered outside schemas/openapi.json (/v2/docs):\n${problems.slice(0, 20).join('\n')}${problems.length > 20 ? `\n... and ${problems.length - 20} more` : ''}`);
      }
    },
    v1Auth: basicAuth(DEFAULT_CREDENTIALS.v1.user, DEFAULT_CREDENTIALS.v1.password),
    async token() {
      const res = await fetch(`${url}/v2/token`, {
        method: 'POST',
        headers: {
          authorization: basicAuth(DEFAULT_CREDENTIALS.v2.clientId, DEFAULT_CREDENTIALS.v2.clientSecret),
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      });
      const json = (await res.json()) as { access_token?: string; error?: string };
      if (!res.ok || !json.access_token) throw new Error(`token request failed: ${res.status} ${json.error ?? ''}`);
      return json.access_token;
    },
    control: {
      reset: async (seed?: SeedName) => {
        // Answers before the reset were checked against the ids seeded then; the counters start again.
        const before = contractProblems(exchanges.splice(0), { seeded });
        pending.push(...before);
        seeded.clear();
        return call('POST', 'reset', seed ? { seed } : {});
      },
      seed: async (body) => {
        const ids = await call<{ destinations: string[]; monitors: string[]; alerts: string[]; groups: string[] }>('POST', 'seed', body);
        for (const id of [...ids.destinations, ...ids.monitors, ...ids.alerts, ...ids.groups]) seeded.add(id);
        return ids;
      },
      state: () => call('GET', 'state'),
      requests: async () => (await call<{ requests: RecordedRequest[] }>('GET', 'requests')).requests,
      clearRequests: async () => {
        await call('DELETE', 'requests');
      },
      faults: async (body) => {
        await call('POST', 'faults', body);
      },
      clearFaults: async () => {
        await call('DELETE', 'faults');
      },
      advance: (seconds) => call('POST', 'clock', { advance_seconds: seconds }),
      clock: () => call('GET', 'clock'),
      setAlertActive: async (monitor, active = true) => {
        await call('POST', 'alert-active', { monitor, active });
      },
      setData: async (monitor, items, analysis) => {
        await call('POST', 'data', { monitor, items, ...(analysis !== undefined && { analysis }) });
      },
      setClock: (unix) => call('POST', 'clock', { set: unix }),
      outage: (monitor, seconds) => call('POST', 'outage', { monitor, seconds }),
      outbox: async (since) =>
        (await call<{ messages: OutboxMessage[] }>('GET', since === undefined ? 'outbox' : `outbox?since=${since}`)).messages,
      clearOutbox: async () => {
        await call('DELETE', 'outbox');
      },
      simulation: (body) => (body === undefined ? call('GET', 'simulation') : call('POST', 'simulation', body)),
      history: (body) => call('POST', 'history', body),
    },
  };
}

export interface JsonResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  json: T;
}

/**
 * One raw API call. `auth` defaults to the v1 Basic account; pass a header value, or null for none.
 * A body that is a string is sent verbatim (for malformed-JSON tests).
 */
export async function apiCall<T = Record<string, any>>(
  emu: Pick<TestEmulator, 'url' | 'v1Auth'>,
  method: string,
  path: string,
  opts: { body?: unknown; auth?: string | null; headers?: Record<string, string> } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  const auth = opts.auth === undefined ? emu.v1Auth : opts.auth;
  if (auth !== null) headers.authorization = auth;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${emu.url}${path}`, { method, headers, ...(body !== undefined && { body }) });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, headers: res.headers, json: json as T };
}
