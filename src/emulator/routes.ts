/**
 * The route table of the service API (sections 4.1 to 4.8): (method, path pattern) -> handler.
 * Handlers see a parsed request and return a status and a JSON body; the HTTP adapter does
 * everything else. v1 bodies get `path` (the request path, echoed) and `error` here, in one place.
 */
import type { EmulatorClock } from './clock.js';
import { StoreError, badRequest, notFound } from './errors.js';
import type { TokenService } from './auth.js';
import { docsFile, docsPage } from './docs.js';
import type { Average, EmulatorStore } from './store/index.js';
import { validatePauseBody } from './validate.js';

export type Api = 'v1' | 'v2' | 'control';

export interface RouteContext {
  method: string;
  /** The request path exactly as sent (no query). */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  authorization: string | undefined;
  store: EmulatorStore;
  clock: EmulatorClock;
  tokens: TokenService;
}

export interface RouteResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Non-JSON answers (the v2 docs page and its files). */
  text?: { contentType: string; content: string | Buffer };
}

export type Handler<C> = (ctx: C) => RouteResult | Promise<RouteResult>;

export type BodyKind = 'json' | 'form' | 'none';

export interface Route<C> {
  method: string;
  pattern: string;
  segments: string[];
  body: BodyKind;
  handler: Handler<C>;
}

/** Matching ignores one trailing slash and empty segments, so `/v1/Status` and `/v1/Status/` agree. */
export function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

export class Router<C> {
  readonly routes: Route<C>[] = [];

  add(method: string, pattern: string, handler: Handler<C>, body: BodyKind = method === 'GET' ? 'none' : 'json'): this {
    this.routes.push({ method, pattern, segments: splitPath(pattern), body, handler });
    return this;
  }

  /** The route for method and path; or `allowed` methods when only the method is wrong. */
  match(
    method: string,
    path: string,
  ): { route: Route<C>; params: Record<string, string> } | { route: null; allowed: string[] } {
    const parts = splitPath(path);
    const allowed: string[] = [];
    for (const r of this.routes) {
      if (r.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length; i++) {
        const seg = r.segments[i] as string;
        const part = parts[i] as string;
        if (seg.startsWith(':')) {
          try {
            params[seg.slice(1)] = decodeURIComponent(part);
          } catch {
            ok = false;
            break;
          }
        } else if (seg !== part) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      if (r.method === method) return { route: r, params };
      if (!allowed.includes(r.method)) allowed.push(r.method);
    }
    return { route: null, allowed };
  }
}

// ---------------------------------------------------------------------------------------------
// Response helpers

export function v1Ok(ctx: { path: string }, fields: Record<string, unknown>, status = 200): RouteResult {
  return { status, body: { path: ctx.path, error: null, ...fields } };
}

export function v1Error(path: string, status: number, error: string, headers?: Record<string, string>): RouteResult {
  return headers ? { status, body: { path, error }, headers } : { status, body: { path, error } };
}

export function v2Error(status: number, error: string, headers?: Record<string, string>): RouteResult {
  return headers ? { status, body: { error }, headers } : { status, body: { error } };
}

/** Runs a handler, turning StoreError into the API's error answer for the route's version. */
export async function runHandler<C extends { path: string }>(api: Api, handler: Handler<C>, ctx: C): Promise<RouteResult> {
  try {
    return await handler(ctx);
  } catch (err) {
    if (err instanceof StoreError) {
      return api === 'v1' ? v1Error(ctx.path, err.status, err.message) : v2Error(err.status, err.message);
    }
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Query parsing

function intParam(q: URLSearchParams, name: string, def: number): number {
  const v = q.get(name);
  if (v === null || v === '') return def;
  if (!/^-?\d{1,15}$/.test(v.trim())) throw badRequest(`${name}: must be an integer, got ${v}`);
  return Number(v.trim());
}

/** `key:value` or `key:value,key:value`; values may contain further colons. */
export function parseMeta(v: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const part of v.split(',')) {
    const colon = part.indexOf(':');
    if (colon <= 0) throw badRequest(`meta: expected key:value or key:value,key:value, got ${v}`);
    pairs.push([part.slice(0, colon), part.slice(colon + 1)]);
  }
  return pairs;
}

function dataRange(ctx: RouteContext): { begin: number; end: number } {
  const now = ctx.clock.nowSeconds();
  const end = intParam(ctx.query, 'end', now);
  const begin = intParam(ctx.query, 'begin', now - 3600);
  if (begin > end) throw badRequest(`begin: ${begin} is after end ${end}`);
  return { begin, end };
}

function averageParam(q: URLSearchParams): Average {
  const v = q.get('average');
  if (v === null || v === '') return 'raw';
  if (v === 'raw' || v === 'hour' || v === 'day') return v;
  throw badRequest(`average: ${v} is not one of raw, hour, day`);
}

function boolParam(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  const l = v.toLowerCase();
  if (l === 'true' || l === '1') return true;
  if (l === 'false' || l === '0') return false;
  throw badRequest(`${name}: must be true or false, got ${v}`);
}

// ---------------------------------------------------------------------------------------------
// The table

export const API_VERSION = { major: 2, minor: 0, release_date: '2024-03-01' } as const;

export function buildApiRouter(): Router<RouteContext> {
  const r = new Router<RouteContext>();
  const s = (c: RouteContext): EmulatorStore => c.store;
  const id = (c: RouteContext): string => c.params.id as string;

  // 4.1 version 2
  r.add(
    'POST',
    '/v2/token',
    async (c) => {
      const body = (c.body ?? {}) as Record<string, string>;
      const res = await c.tokens.handleTokenRequest(c.authorization, body.grant_type);
      return res.status === 200 ? res : v2Error(res.status, res.body.error, 'headers' in res ? res.headers : undefined);
    },
    'form',
  );
  r.add('GET', '/v2/status', (c) => ({ status: 200, body: s(c).statusV2(boolParam(c.query, 'all') ?? false) }));
  r.add('GET', '/v2/version', () => ({ status: 200, body: { ...API_VERSION } }));
  // Interactive documentation (docs.ts): public, as the real service's Swagger UI is.
  r.add('GET', '/v2/docs', () => ({ status: 200, body: null, text: docsPage() }));
  r.add('GET', '/v2/docs/:file', (c) => {
    const file = docsFile((c.params.file as string).replace(/^.*\//, ''));
    return file ? { status: 200, body: null, text: file } : v2Error(404, `no such documentation file: ${c.path}`);
  });

  // 4.2 status
  r.add('GET', '/v1/Status', (c) => v1Ok(c, s(c).status()));
  r.add('GET', '/v1/Status/Filter', (c) => {
    const t = intParam(c.query, 't', 1800);
    if (t < 0) throw badRequest(`t: must be a non-negative number of seconds, got ${t}`);
    const get = (k: string): string | undefined => c.query.get(k) ?? undefined;
    const prefix = get('prefix');
    const suffix = get('suffix');
    const contains = get('contains');
    const metaRaw = get('meta');
    if (prefix === undefined && suffix === undefined && contains === undefined && metaRaw === undefined) {
      throw badRequest('give at least one of the filters prefix, suffix, contains, meta');
    }
    const meta = metaRaw === undefined ? undefined : parseMeta(metaRaw);
    const q = { t, ...(prefix !== undefined && { prefix }), ...(suffix !== undefined && { suffix }), ...(contains !== undefined && { contains }), ...(meta && { meta }) };
    return v1Ok(c, { t, monitor_list: s(c).filterStatus(q) });
  });

  // 4.3 groups
  r.add('GET', '/v1/Config/Group', (c) => v1Ok(c, { groups: s(c).listGroups() }));
  r.add('GET', '/v1/Config/Group/:id', (c) => v1Ok(c, { group: s(c).getGroup(id(c)) }));
  r.add('POST', '/v1/Config/Group', (c) => v1Ok(c, { group: s(c).createGroup(c.body) }));
  r.add('PUT', '/v1/Config/Group/:id', (c) => v1Ok(c, s(c).updateGroup(id(c), c.body)));
  r.add('DELETE', '/v1/Config/Group/:id', (c) => v1Ok(c, s(c).deleteGroup(id(c))));

  // 4.4 monitors
  r.add('GET', '/v1/Config/Monitor', (c) => v1Ok(c, { monitor_list: s(c).listMonitors() }));
  r.add('GET', '/v1/Config/Monitor/:id', (c) => v1Ok(c, { monitor: s(c).getMonitor(id(c)) }));
  r.add('POST', '/v1/Config/Monitor', (c) => v1Ok(c, { monitor: s(c).createMonitor(c.body) }));
  r.add('PUT', '/v1/Config/Monitor/:id', (c) => v1Ok(c, { monitor: s(c).updateMonitor(id(c), c.body) }));
  r.add('DELETE', '/v1/Config/Monitor/:id', (c) => v1Ok(c, { monitor: s(c).deleteMonitor(id(c)) }));

  // 4.5 alerts; Modify Alert is also written with a doubled prefix in the API document.
  const modifyAlert: Handler<RouteContext> = (c) => v1Ok(c, { alert: s(c).updateAlert(id(c), c.body) });
  r.add('GET', '/v1/Config/Alert', (c) => v1Ok(c, { alert_list: s(c).listAlerts() }));
  r.add('GET', '/v1/Config/Alert/:id', (c) => v1Ok(c, { alert: s(c).getAlert(id(c)) }));
  r.add('POST', '/v1/Config/Alert', (c) => v1Ok(c, { alert: s(c).createAlert(c.body) }));
  r.add('PUT', '/v1/Config/Alert/:id', modifyAlert);
  r.add('PUT', '/v1/v1/Config/Alert/:id', modifyAlert);
  r.add('DELETE', '/v1/Config/Alert/:id', (c) => v1Ok(c, { alert: s(c).deleteAlert(id(c)) }));

  addPausingAndDataRoutes(r, s, id);
  return r;
}

/** 4.6 pausing, 4.7 alert destinations, 4.8 data. */
function addPausingAndDataRoutes(r: Router<RouteContext>, s: (c: RouteContext) => EmulatorStore, id: (c: RouteContext) => string): void {
  // 4.6 pausing; Enable Alerting - Monitor also has the doubled prefix.
  const resumeMonitor: Handler<RouteContext> = (c) => v1Ok(c, { alert_list: s(c).resumeMonitor(id(c)) });
  r.add('GET', '/v1/Pause/Alert', (c) => v1Ok(c, { alert_list: s(c).listPauses() }));
  r.add('POST', '/v1/Pause/Alert', (c) => {
    const seconds = validatePauseBody(c.body);
    return v1Ok(c, { alert_list: s(c).pauseAll(seconds), seconds });
  });
  // An alert id pauses that alert (4.6); a monitor id pauses all its alerts, as the service accepted
  // from older clients and the public Python client still sends (service-notes.md).
  r.add('POST', '/v1/Pause/Alert/:id', (c) => {
    const target = id(c);
    const alert = s(c).hasAlert(target);
    if (!alert && !s(c).hasMonitor(target)) throw notFound(`alert ${target} not found (nor a monitor with that id)`);
    const seconds = validatePauseBody(c.body);
    if (alert) return v1Ok(c, { ...s(c).pauseAlert(target, seconds), seconds });
    return v1Ok(c, { alert_list: s(c).pauseMonitor(target, seconds), seconds });
  });
  r.add('POST', '/v1/Pause/Monitor/:id', (c) => {
    s(c).getMonitor(id(c));
    const seconds = validatePauseBody(c.body);
    return v1Ok(c, { alert_list: s(c).pauseMonitor(id(c), seconds), seconds });
  });
  r.add('DELETE', '/v1/Pause/Alert', (c) => v1Ok(c, { alert_list: s(c).resumeAll() }));
  r.add('DELETE', '/v1/Pause/Alert/:id', resumeMonitor);
  r.add('DELETE', '/v1/v1/Pause/Alert/:id', resumeMonitor);

  // 4.7 alert destinations
  r.add('GET', '/v1/Config/AlertDestination', (c) => v1Ok(c, { alertdestination_list: s(c).listDestinations() }));
  r.add('GET', '/v1/Config/AlertDestination/:id', (c) => v1Ok(c, { alertdestination: s(c).getDestination(id(c)) }));

  // 4.8 data
  r.add('GET', '/v1/Data/Monitor', (c) => {
    const { begin, end } = dataRange(c);
    const average = averageParam(c.query);
    const metaRaw = c.query.get('meta');
    const meta = metaRaw === null || metaRaw === '' ? undefined : parseMeta(metaRaw);
    return v1Ok(c, { begin, end, monitors: s(c).allMonitorData(begin, end, average, meta) });
  });
  r.add('GET', '/v1/Data/Monitor/:id', (c) => {
    s(c).getMonitor(id(c));
    const { begin, end } = dataRange(c);
    const average = averageParam(c.query);
    return v1Ok(c, { begin, end, ...s(c).monitorData(id(c), begin, end, average) });
  });
  r.add('GET', '/v1/Data/Monitor/Response/:id', (c) => {
    s(c).getMonitor(id(c));
    const { begin, end } = dataRange(c);
    return v1Ok(c, { begin, end, analysis: s(c).responseAnalysis(id(c), begin, end) });
  });
}

/** Which credentials a path needs; decided before routing so unknown paths do not leak. */
export function authFor(path: string): 'v1' | 'bearer' | 'none' {
  const parts = splitPath(path);
  if (parts[0] === 'v1') return 'v1';
  if (parts[0] === 'v2') {
    if (parts.length === 2 && parts[1] === 'token') return 'none';
    return parts[1] === 'docs' ? 'none' : 'bearer';
  }
  return 'none';
}

export function apiOf(path: string): Api | null {
  const first = splitPath(path)[0];
  if (first === 'v1') return 'v1';
  if (first === 'v2') return 'v2';
  if (first === '_emulator') return 'control';
  return null;
}
