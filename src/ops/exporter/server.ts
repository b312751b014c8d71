/**
 * The HTTP side of `monsync exporter`: `GET /metrics` (OpenMetrics when the scraper's Accept asks
 * for it, else the Prometheus text format), `GET /-/healthy` (the process answers) and
 * `GET /-/ready` (200 once every account has been read once, 503 before). A scrape reads only what
 * the read loop left in the registry: however often it comes, the service sees nothing of it.
 *
 * With a token (`--token-file`), `/metrics` wants `Authorization: Bearer <token>` (compared in
 * constant time; 401 with `WWW-Authenticate: Bearer` otherwise). The probes stay open: they tell
 * nothing about the account, and orchestrators call them without credentials.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { wantsOpenMetrics, type ExporterMetrics } from './metrics.js';

export interface ExporterServerOptions {
  host: string;
  port: number;
  metrics: ExporterMetrics;
  ready: () => boolean;
  /** The bearer token `/metrics` requires; null: none. */
  token: string | null;
}

export interface ExporterServer {
  /** `http://HOST:PORT` as bound (the port chosen when 0 was asked for). */
  url: string;
  close(): Promise<void>;
}

/** Loopback addresses: where the exporter may listen without a token being worth asking for. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

export function startExporterServer(opts: ExporterServerOptions): Promise<ExporterServer> {
  const expected = opts.token === null ? null : digest(`Bearer ${opts.token}`);
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    const text = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return text(405, 'only GET and HEAD\n', { allow: 'GET, HEAD' });
    if (path === '/-/healthy') return text(200, 'monsync exporter is healthy.\n');
    if (path === '/-/ready') return opts.ready() ? text(200, 'monsync exporter is ready.\n') : text(503, 'monsync exporter has not read the account yet.\n');
    if (path === '/metrics') {
      // Hashes of equal length, so the comparison takes the same time whatever was sent.
      if (expected !== null && !timingSafeEqual(digest(req.headers.authorization ?? ''), expected)) {
        return text(401, 'a bearer token is required (Authorization: Bearer ...)\n', { 'www-authenticate': 'Bearer realm="monsync exporter"' });
      }
      const { contentType, body } = await opts.metrics.render(wantsOpenMetrics(req.headers.accept));
      res.writeHead(200, { 'content-type': contentType });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    return text(404, 'not found: /metrics, /-/healthy and /-/ready are served\n');
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('the metrics could not be rendered\n');
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      const a = server.address() as AddressInfo;
      const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
      resolve({
        url: `http://${host}:${a.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            // Scrapers keep connections open; SIGTERM must not wait for them.
            server.closeAllConnections();
          }),
      });
    });
  });
}
