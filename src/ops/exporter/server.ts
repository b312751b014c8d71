/**
 * The HTTP side of `monsync exporter`: `GET /` (a landing page linking the others, with the
 * version), `GET /metrics` (OpenMetrics when the scraper's Accept asks for it, else the Prometheus
 * text format; gzip when its Accept-Encoding allows it), `GET /-/healthy` (the process answers) and
 * `GET /-/ready` (200 once every account has been read once, 503 before). A scrape reads only what
 * the read loop left in the registry: however often it comes, the service sees nothing of it.
 *
 * Access (auth.ts): with `--token-file` and/or the web configuration's `basic_auth_users`, `/` and
 * `/metrics` want one of them (401 with `WWW-Authenticate` naming the schemes otherwise). The
 * probes stay open: they tell nothing about the account, and orchestrators call them without
 * credentials. With the web configuration's `tls_server_config` the server speaks HTTPS only; the
 * certificate, key and client CA are read again for every connection, the users and headers for
 * every request (web-config.ts), so a renewal needs no restart. A web configuration that turns bad
 * while running fails the requests (500) and handshakes it concerns, and is logged once per change.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket, TlsOptions } from 'node:tls';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { UserError } from '../../util/errors.js';
import { VERSION } from '../../version.js';
import { authorization, BasicAuthChecker, tokenMatches } from './auth.js';
import { wantsOpenMetrics, type ExporterMetrics } from './metrics.js';
import type { TlsSettings, WebConfig, WebConfigSource } from './web-config.js';

export interface ExporterServerOptions {
  host: string;
  port: number;
  metrics: ExporterMetrics;
  ready: () => boolean;
  /** The bearer token `/metrics` accepts (a function: the one of now, read again on SIGHUP); null: none. */
  token: string | null | (() => string | null);
  /** `--web.config.file`, read again for every request and connection; absent: none. */
  webConfig?: WebConfigSource | null;
  /** Shown on the landing page (default: this build's). */
  version?: string;
  /** Where a web configuration that turned bad is told (once per change). */
  log?: (line: string) => void;
}

export interface ExporterServer {
  /** `http://HOST:PORT` or `https://...` as bound (the port chosen when 0 was asked for). */
  url: string;
  close(): Promise<void>;
}

/** Loopback addresses: where the exporter may listen without a token being worth asking for. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

const gzipAsync = promisify(gzip);

/** Whether an Accept-Encoding allows gzip (a `q=0` refuses it). */
export function acceptsGzip(header: string | undefined): boolean {
  for (const part of (header ?? '').split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
    return !q || Number(q[1]) > 0;
  }
  return false;
}

/** The TLS options of a web configuration's `tls_server_config`, for a server or its secure context. */
export function tlsOptions(tls: TlsSettings): TlsOptions {
  const asks = tls.clientAuth !== 'NoClientCert';
  return {
    cert: tls.cert,
    key: tls.key,
    ...(tls.clientCa !== null ? { ca: tls.clientCa } : {}),
    minVersion: tls.minVersion,
    maxVersion: tls.maxVersion,
    requestCert: asks,
    // Verified by Node only when a certificate is required and verified; the other policies are checked per request.
    rejectUnauthorized: tls.clientAuth === 'RequireAndVerifyClientCert',
  };
}

/**
 * Node's verdict on a connection without a client certificate (its verify error then). The
 * certificate itself is not read: getPeerCertificate() on one that failed verification leaves an
 * OpenSSL error behind that breaks the connection's next write (Node 22-26, OpenSSL 3). A
 * certificate whose issuer bears the client CA's name without its signature has the same effect
 * on its own (the answer, written after a wait, finds the error): that connection is closed
 * rather than answered, a refusal either way.
 */
const NO_CLIENT_CERT = 'UNABLE_TO_GET_ISSUER_CERT';

/** Whether the connection's client certificate satisfies the policies Node does not enforce itself. */
export function clientCertAllowed(socket: Pick<TLSSocket, 'authorized' | 'authorizationError'>, tls: Pick<TlsSettings, 'clientAuth'>): boolean {
  const given = socket.authorized || (socket.authorizationError as unknown as string | undefined) !== NO_CLIENT_CERT;
  if (tls.clientAuth === 'RequireAnyClientCert') return given;
  if (tls.clientAuth === 'VerifyClientCertIfGiven') return !given || socket.authorized;
  return true;
}

function landingPage(version: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><title>monsync exporter</title></head>',
    '<body>',
    '<h1>monsync exporter</h1>',
    `<p>The mail-monitoring account as Prometheus metrics. Version ${version}.</p>`,
    '<ul>',
    '<li><a href="metrics">Metrics</a></li>',
    '<li><a href="-/healthy">Health</a> and <a href="-/ready">readiness</a></li>',
    '</ul>',
    '<p>What each metric means: docs/exporter.md in the monsync package.</p>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The request's access: granted, or the 401's challenge. */
async function access(req: IncomingMessage, token: string | null, web: WebConfig | null, basic: BasicAuthChecker): Promise<{ ok: true } | { ok: false; challenge: string[] }> {
  const users = web?.users ?? null;
  if (token === null && users === null) return { ok: true };
  const given = authorization(req.headers.authorization);
  if (given?.scheme === 'bearer' && token !== null && tokenMatches(given.credentials, token)) return { ok: true };
  if (given?.scheme === 'basic' && users !== null && (await basic.check(given.credentials, users))) return { ok: true };
  const challenge = [...(users !== null ? ['Basic realm="monsync exporter", charset="UTF-8"'] : []), ...(token !== null ? ['Bearer realm="monsync exporter"'] : [])];
  return { ok: false, challenge };
}

/**
 * The HTTPS server of a web configuration with `tls_server_config`: before Node wraps each new
 * connection in TLS, the certificate, key and client policy of the file now (as exporter-toolkit
 * reads them per connection); a file that cannot be read refuses the connection and is told.
 */
function tlsServer(tls: TlsSettings, source: WebConfigSource, onRequest: (req: IncomingMessage, res: ServerResponse) => void, tell: (problem: string) => void): HttpsServer {
  const https = createHttpsServer(tlsOptions(tls), onRequest);
  https.prependListener('connection', (socket: Socket) => {
    try {
      const now = source.loadSync().tls;
      if (now === null) throw new UserError(`--web.config.file ${source.file}: tls_server_config was removed; the exporter serves HTTPS until it restarts`);
      const options = tlsOptions(now);
      https.setSecureContext(options);
      // Read by Node for each new connection: the client policy of the file now.
      Object.assign(https, { requestCert: options.requestCert, rejectUnauthorized: options.rejectUnauthorized });
    } catch (err) {
      tell(err instanceof Error ? err.message : String(err));
      socket.destroy();
    }
  });
  return https;
}

export async function startExporterServer(opts: ExporterServerOptions): Promise<ExporterServer> {
  const basic = new BasicAuthChecker();
  const tokenOf = opts.token;
  const token = typeof tokenOf === 'function' ? tokenOf : () => tokenOf;
  const log = opts.log ?? (() => undefined);
  const version = opts.version ?? VERSION;
  let told: string | null = null;
  const tell = (problem: string | null) => {
    if (problem !== told && problem !== null) log(`${problem}; answering 500 until it is fixed`);
    else if (problem === null && told !== null) log(`--web.config.file ${opts.webConfig!.file} reads again`);
    told = problem;
  };
  // Read once at start: a bad file stops the start (the caller turns it into an exit).
  const initial = opts.webConfig?.loadSync() ?? null;
  let gzipped: { body: string; gz: Buffer } | null = null;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    let web: WebConfig | null = null;
    if (opts.webConfig) {
      try {
        web = await opts.webConfig.load();
        tell(null);
      } catch (err) {
        if (!(err instanceof UserError)) throw err;
        tell(err.message);
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('the web configuration has a problem (see the exporter\'s log)\n');
        return;
      }
    }
    const headers = web?.headers ?? {};
    const text = (status: number, body: string, extra: Record<string, string | string[]> = {}) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers, ...extra });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (web?.tls && !clientCertAllowed(req.socket as TLSSocket, web.tls)) return text(403, `a client certificate is required (${web.tls.clientAuth})\n`);
    if (req.method !== 'GET' && req.method !== 'HEAD') return text(405, 'only GET and HEAD\n', { allow: 'GET, HEAD' });
    if (path === '/-/healthy') return text(200, 'monsync exporter is healthy.\n');
    if (path === '/-/ready') return opts.ready() ? text(200, 'monsync exporter is ready.\n') : text(503, 'monsync exporter has not read the account yet.\n');
    if (path !== '/' && path !== '/metrics') return text(404, 'not found: /, /metrics, /-/healthy and /-/ready are served\n');
    const granted = await access(req, token(), web, basic);
    if (!granted.ok) return text(401, 'credentials are required (Authorization: Basic or Bearer)\n', { 'www-authenticate': granted.challenge });
    if (path === '/') return text(200, landingPage(version), { 'content-type': 'text/html; charset=utf-8' });
    const { contentType, body } = await opts.metrics.render(wantsOpenMetrics(req.headers.accept));
    const common = { 'content-type': contentType, vary: 'Accept, Accept-Encoding', ...headers };
    if (!acceptsGzip(req.headers['accept-encoding'])) {
      res.writeHead(200, common);
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    // One compression per rendering: scrapes between two reads send the same bytes.
    if (gzipped?.body !== body) gzipped = { body, gz: await gzipAsync(body) };
    res.writeHead(200, { ...common, 'content-encoding': 'gzip', 'content-length': String(gzipped.gz.length) });
    res.end(req.method === 'HEAD' ? undefined : gzipped.gz);
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('the metrics could not be rendered\n');
    });
  };

  const server: Server | HttpsServer = initial?.tls ? tlsServer(initial.tls, opts.webConfig!, onRequest, tell) : createServer(onRequest);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      const a = server.address() as AddressInfo;
      const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
      resolve({
        url: `${initial?.tls ? 'https' : 'http'}://${host}:${a.port}`,
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
