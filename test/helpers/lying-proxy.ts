/**
 * A small HTTP proxy on 127.0.0.1 (port 0) in front of a test emulator that lies: the answers of
 * chosen GET paths are rewritten (for example the monitor list answered as `{"monitor_list": []}`),
 * optionally only the first N times, the way a gateway or cache serving a stale or partial page
 * would. Everything else, and every write, goes through untouched, so the emulator's request log
 * still records exactly what the client sent.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Lie {
  /** The request path without the query, e.g. `/v1/Config/Monitor/`. */
  path: string;
  /** The answer's JSON body in, the body sent to the client out. */
  rewrite: (body: Record<string, unknown>) => unknown;
  /** Lie only for the first `times` answers of this path; then answer truthfully. Default: always. */
  times?: number;
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
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const lie = req.method === 'GET' ? lies.find((l) => l.path === path) : undefined;
    const active = lie !== undefined && (lie.times === undefined || (lied.get(path) ?? 0) < lie.times);
    if (active) lied.set(path, (lied.get(path) ?? 0) + 1);
    const headers: IncomingHttpHeaders = { ...req.headers, host: upstream.host };
    const up = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        if (!active) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const out = Buffer.from(JSON.stringify(lie.rewrite(JSON.parse(text) as Record<string, unknown>)), 'utf8');
          const { 'content-length': _length, 'transfer-encoding': _encoding, ...rest } = answer.headers;
          res.writeHead(answer.statusCode ?? 200, { ...rest, 'content-length': String(out.length) });
          res.end(out);
        });
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
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
