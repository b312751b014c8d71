/**
 * The single HTTP adapter: turns node:http requests into route calls and route results into
 * JSON answers. Body parsing, authentication, fault injection and request recording happen here
 * and nowhere else. It must never crash: anything unexpected becomes a 500 with an error body.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkV1, type Credentials, type TokenService } from './auth.js';
import type { EmulatorClock } from './clock.js';
import type { ControlContext } from './control.js';
import { repeatDataItems, type FaultInjector } from './faults.js';
import type { Exchange, RecordedRequest, RequestLog } from './request-log.js';
import {
  apiOf,
  authFor,
  runHandler,
  v1Error,
  v2Error,
  type Api,
  type BodyKind,
  type RouteContext,
  type RouteResult,
  type Router,
} from './routes.js';
import type { EmulatorStore, SeedBody, SeedName } from './store/index.js';

export interface Runtime {
  store: EmulatorStore;
  clock: EmulatorClock;
  tokens: TokenService;
  faults: FaultInjector;
  log: RequestLog;
  credentials: Credentials;
  apiRouter: Router<RouteContext>;
  controlRouter: Router<ControlContext>;
  defaultSeed: () => SeedName;
  initialAccount: SeedBody | null;
  /** EmulatorOptions.onExchange. */
  onExchange?: ((exchange: Exchange) => void) | undefined;
}

// Large enough for a seed of tens of thousands of objects through the control API.
const MAX_BODY_BYTES = 64 * 1024 * 1024;

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new BodyTooLarge());
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

type Parsed = { ok: true; value: unknown } | { ok: false; status: number; error: string };

function parseBody(kind: BodyKind, raw: Buffer, contentType: string | undefined): Parsed {
  if (kind === 'none' || raw.length === 0) return { ok: true, value: undefined };
  const text = raw.toString('utf8');
  const ct = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (kind === 'form') {
    if (ct !== '' && ct !== 'application/x-www-form-urlencoded') {
      return { ok: false, status: 400, error: `invalid_request: body must be form-encoded (application/x-www-form-urlencoded), got ${ct}` };
    }
    return { ok: true, value: Object.fromEntries(new URLSearchParams(text)) };
  }
  if (ct !== '' && ct !== 'application/json' && !ct.endsWith('+json')) {
    return { ok: false, status: 415, error: `request body must be JSON sent with Content-Type: application/json, got ${ct}` };
  }
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, status: 400, error: `malformed JSON body: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function send(res: ServerResponse, result: RouteResult): void {
  if (res.destroyed || res.headersSent) return;
  const headers: Record<string, string | number> = { 'Cache-Control': 'no-store', ...(result.headers ?? {}) };
  let payload: Buffer;
  if (result.text) {
    headers['Content-Type'] = result.text.contentType;
    const c = result.text.content;
    payload = typeof c === 'string' ? Buffer.from(c, 'utf8') : c;
  } else {
    headers['Content-Type'] = 'application/json; charset=utf-8';
    payload = Buffer.from(JSON.stringify(result.body), 'utf8');
  }
  headers['Content-Length'] = payload.length;
  res.writeHead(result.status, headers);
  res.end(payload);
}

function errorFor(api: Api | null, path: string, status: number, error: string, headers?: Record<string, string>): RouteResult {
  return api === 'v1' ? v1Error(path, status, error, headers) : v2Error(status, error, headers);
}

function internalError(api: Api | null, path: string, err: unknown): RouteResult {
  const message = err instanceof Error ? err.message : String(err);
  return errorFor(api, path, 500, `internal error in the emulator: ${message}`);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function createRequestHandler(rt: Runtime): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    // The emulator's own time, as a real server's Date header gives its own: a client showing clock
    // times (when a pause ends) then agrees with an emulator whose clock was moved.
    res.setHeader('Date', new Date(rt.clock.nowMs()).toUTCString());
    res.on('error', () => {
      // The client went away; nothing to answer.
    });
    handle(rt, req, res).catch((err: unknown) => {
      try {
        send(res, internalError(null, req.url ?? '/', err));
      } catch {
        res.destroy();
      }
    });
  };
}

async function handle(rt: Runtime, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const rawUrl = req.url ?? '/';
  const q = rawUrl.indexOf('?');
  const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1));
  const api = apiOf(path);

  let raw: Buffer;
  try {
    raw = await readBody(req);
  } catch (err) {
    const tooLarge = err instanceof BodyTooLarge;
    send(res, errorFor(api, path, tooLarge ? 413 : 400, tooLarge ? 'request body too large' : 'could not read the request body'));
    if (tooLarge) res.once('finish', () => req.socket.destroy());
    return;
  }

  if (api === null) {
    send(res, v2Error(404, `no such endpoint: ${method} ${path} (the API is under /v1/ and /v2/, controls under /_emulator/)`));
    return;
  }
  if (api === 'control') {
    send(res, await handleControl(rt, method, path, query, raw, req.headers['content-type']));
    return;
  }

  const entry: RecordedRequest = {
    seq: rt.log.nextSeq(),
    method,
    path,
    query: Object.fromEntries(query),
    body: undefined,
    status: 0,
    fault: null,
  };
  const faultLabels: string[] = [];
  let result: RouteResult;
  let drop = false;
  try {
    const decision = rt.faults.decide(method, path);
    if (decision && decision.latencyMs > 0) {
      faultLabels.push('latency');
      await sleep(decision.latencyMs);
    }
    if (decision?.reject) {
      faultLabels.push(decision.reject.label);
      entry.body = bodyForLog(raw);
      result = errorFor(api, path, decision.reject.status, decision.reject.error, decision.reject.headers);
    } else {
      drop = decision?.drop ?? false;
      result = await handleApi(rt, api, method, path, query, raw, req, entry);
      if (decision && decision.repeatData > 1 && result.status === 200 && path.startsWith('/v1/Data/Monitor')) {
        faultLabels.push('repeat_data');
        result = { ...result, body: repeatDataItems(result.body, decision.repeatData) };
      }
    }
  } catch (err) {
    result = internalError(api, path, err);
  }
  if (drop) faultLabels.push('drop');
  entry.status = result.status;
  entry.fault = faultLabels.length ? faultLabels.join('+') : null;
  rt.log.add(entry);
  rt.onExchange?.({
    ...entry,
    contentType: req.headers['content-type'] ?? null,
    answer: drop || result.text !== undefined ? undefined : result.body,
  });
  if (drop) {
    // The request was processed in full; the answer is lost on the way back.
    req.socket.destroy();
    return;
  }
  send(res, result);
}

function bodyForLog(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function handleApi(
  rt: Runtime,
  api: Api,
  method: string,
  path: string,
  query: URLSearchParams,
  raw: Buffer,
  req: IncomingMessage,
  entry: RecordedRequest,
): Promise<RouteResult> {
  const authorization = req.headers.authorization;
  entry.body = bodyForLog(raw);
  const auth = authFor(path);
  if (auth === 'v1') {
    const problem = checkV1(authorization, rt.credentials);
    if (problem) return v1Error(path, 401, problem, { 'WWW-Authenticate': 'Basic realm="monitoring"' });
  } else if (auth === 'bearer') {
    const problem = await rt.tokens.checkBearer(authorization);
    if (problem) return v2Error(401, problem, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
  }

  const m = rt.apiRouter.match(method, path);
  if (!m.route) {
    if (m.allowed.length > 0) {
      return errorFor(api, path, 405, `method ${method} not allowed on ${path} (allowed: ${m.allowed.join(', ')})`, {
        Allow: m.allowed.join(', '),
      });
    }
    return errorFor(api, path, 404, `no such endpoint: ${method} ${path}`);
  }
  const parsed = parseBody(m.route.body, raw, req.headers['content-type']);
  if (!parsed.ok) return errorFor(api, path, parsed.status, parsed.error);
  if (m.route.body === 'form') entry.body = parsed.value;
  const ctx: RouteContext = {
    method,
    path,
    params: m.params,
    query,
    body: parsed.value,
    authorization,
    store: rt.store,
    clock: rt.clock,
    tokens: rt.tokens,
  };
  try {
    // Every request sees the simulation caught up to now first, whatever it reads or changes, so
    // no answer depends on which request happened to come first after the clock moved.
    rt.store.sync();
    return await runHandler(api, m.route.handler, ctx);
  } catch (err) {
    return internalError(api, path, err);
  }
}

async function handleControl(
  rt: Runtime,
  method: string,
  path: string,
  query: URLSearchParams,
  raw: Buffer,
  contentType: string | undefined,
): Promise<RouteResult> {
  const m = rt.controlRouter.match(method, path);
  if (!m.route) {
    if (m.allowed.length > 0) {
      return v2Error(405, `method ${method} not allowed on ${path} (allowed: ${m.allowed.join(', ')})`, { Allow: m.allowed.join(', ') });
    }
    return v2Error(404, `no such control endpoint: ${method} ${path}`);
  }
  const parsed = parseBody(m.route.body, raw, contentType);
  if (!parsed.ok) return v2Error(parsed.status, parsed.error);
  const ctx: ControlContext = {
    path,
    params: m.params,
    query,
    body: parsed.value,
    store: rt.store,
    clock: rt.clock,
    faults: rt.faults,
    log: rt.log,
    defaultSeed: rt.defaultSeed(),
    initialAccount: rt.initialAccount,
  };
  try {
    rt.store.sync();
    return await runHandler('control', m.route.handler, ctx);
  } catch (err) {
    return internalError('control', path, err);
  }
}
