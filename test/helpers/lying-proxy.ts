/**
 * A small HTTP proxy on 127.0.0.1 (port 0) in front of a test emulator that lies: the answers of
 * chosen paths are rewritten (for example the monitor list answered as `{"monitor_list": []}`, an
 * entry listed twice, a create answered with another id), optionally only the first N times, the
 * way a gateway or cache serving a stale or partial page would. A write's body can be changed on
 * its way in (`rewriteRequest`), as a service that quietly stores something else than it was sent
 * (a dropped field, a time zone alias resolved, a label cut short): the emulator's request log then
 * records what the service was given, not what the client sent. A forwarded request's answer can be
 * replaced by another status (`answer`), on every n-th request only (`every`): the service did the
 * write, the client hears it did not. Everything else goes through untouched.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Lie {
  /** The request path without the query, e.g. `/v1/Config/Monitor/`, or a pattern of paths. */
  path: string | RegExp;
  /** The request method this lie is about. Default: GET. */
  method?: string;
  /** The answer's JSON body in, the body sent to the client out (omitted: the answer is passed on). */
  rewrite?: (body: Record<string, unknown>) => unknown;
  /** The request's JSON body in, the body the service is given out (writes). */
  rewriteRequest?: (body: Record<string, unknown>) => unknown;
  /** Lie only for the first `times` requests of this path; then answer truthfully. Default: always. */
  times?: number;
  /** Lie about every `every`-th request of this lie only (2: the 2nd, 4th, ...). Default 1: each. */
  every?: number;
  /**
   * The request still reaches the service, which acts on it; its answer is dropped and this one
   * sent instead (a gateway answering 429 or 503 for a write it forwarded).
   */
  answer?: { status: number; headers?: Record<string, string>; body: unknown };
  /** With `answer`: run with the service's own answer before the replacement is sent (someone acting in between). */
  beforeAnswer?: (serviceAnswer: Record<string, unknown>) => Promise<void>;
}

export interface LyingProxy {
  url: string;
  /** How many answers of each lied-about path were rewritten so far. */
  lied: Map<string, number>;
  close(): Promise<void>;
}

/** `lies` is looked up at each request: a test may add one to the array once the proxy runs. */
export async function startLyingProxy(target: string, lies: readonly Lie[]): Promise<LyingProxy> {
  const upstream = new URL(target);
  const lied = new Map<string, number>();
  const seen = new Map<Lie, number>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const matches = (l: Lie) => (l.method ?? 'GET') === req.method && (typeof l.path === 'string' ? l.path === path : l.path.test(path));
    const lie = lies.find(matches);
    if (lie !== undefined) seen.set(lie, (seen.get(lie) ?? 0) + 1);
    const turn = lie === undefined || (seen.get(lie)! % (lie.every ?? 1)) === 0;
    // GET lies are counted by path (as before writes could lie); others by method and pattern.
    const key = lie === undefined || (typeof lie.path === 'string' && (lie.method ?? 'GET') === 'GET') ? path : `${lie.method} ${String(lie.path)}`;
    const counted = lie !== undefined && turn && (lie.times === undefined || (lied.get(key) ?? 0) < lie.times);
    if (counted) lied.set(key, (lied.get(key) ?? 0) + 1);
    const replaced = counted ? lie.answer : undefined;
    const active = counted && lie.rewrite !== undefined;
    const rewriteRequest = counted ? lie.rewriteRequest : undefined;
    const headers: IncomingHttpHeaders = { ...req.headers, host: upstream.host };
    const send = (body: Buffer | null) => {
      if (body !== null) headers['content-length'] = String(body.length);
      const up = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
        (answer) => {
          if (replaced !== undefined) {
            // The service's answer is read to its end (the write is done), then replaced.
            const got: Buffer[] = [];
            answer.on('data', (c: Buffer) => got.push(c));
            answer.on('end', async () => {
              if (lie?.beforeAnswer) await lie.beforeAnswer(JSON.parse(Buffer.concat(got).toString('utf8') || '{}') as Record<string, unknown>);
              const out = Buffer.from(JSON.stringify(replaced.body), 'utf8');
              res.writeHead(replaced.status, { ...replaced.headers, 'content-type': 'application/json', 'content-length': String(out.length) });
              res.end(out);
            });
            return;
          }
          if (!active) {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            return;
          }
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const out = Buffer.from(JSON.stringify(lie.rewrite!(JSON.parse(text) as Record<string, unknown>)), 'utf8');
            const { 'content-length': _length, 'transfer-encoding': _encoding, ...rest } = answer.headers;
            res.writeHead(answer.statusCode ?? 200, { ...rest, 'content-length': String(out.length) });
            res.end(out);
          });
        },
      );
      up.on('error', () => res.destroy());
      if (body === null) req.pipe(up);
      else up.end(body);
    };
    if (rewriteRequest === undefined) {
      send(null);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const given = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
      send(Buffer.from(JSON.stringify(rewriteRequest(given)), 'utf8'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    lied,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The monitor list answered empty, as a stale cache page would. */
export const emptyMonitorList = (body: Record<string, unknown>): unknown => ({ ...body, monitor_list: [] });
export const emptyAlertList = (body: Record<string, unknown>): unknown => ({ ...body, alert_list: [] });
export const emptyGroupList = (body: Record<string, unknown>): unknown => ({ ...body, groups: [] });
export const emptyDestinationList = (body: Record<string, unknown>): unknown => ({ ...body, alertdestination_list: [] });

/** A list answer with the entry `pick` chooses listed once more, right after itself. */
export const repeatEntry =
  (key: string, pick: (entry: Record<string, unknown>) => boolean, change: (entry: Record<string, unknown>) => unknown = (e) => e) =>
  (body: Record<string, unknown>): unknown => {
    const list = body[key] as Record<string, unknown>[];
    return { ...body, [key]: list.flatMap((e) => (pick(e) ? [e, change({ ...e })] : [e])) };
  };

/** A list answer with `extra` entries added at its end. */
export const addEntries =
  (key: string, extra: (list: Record<string, unknown>[]) => Record<string, unknown>[]) =>
  (body: Record<string, unknown>): unknown => {
    const list = body[key] as Record<string, unknown>[];
    return { ...body, [key]: [...list, ...extra(list)] };
  };
