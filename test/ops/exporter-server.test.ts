/**
 * The exporter's HTTP side as operators of other exporters expect it, on loopback: a landing page,
 * the bearer scheme in any case, gzip, and `--web.config.file` in exporter-toolkit's format (TLS
 * with a certificate made here, a client CA, basic auth with bcrypt hashes) read again for every
 * request and connection.
 */
import { gunzipSync } from 'node:zlib';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ExporterMetrics } from '../../src/ops/exporter/metrics.js';
import { acceptsGzip, startExporterServer, type ExporterServer } from '../../src/ops/exporter/server.js';
import { parseWebConfig, WebConfigSource } from '../../src/ops/exporter/web-config.js';
import { VERSION } from '../../src/version.js';
import { makeExporterCertificates, type ExporterCertificates } from '../helpers/exporter-tls.js';

let dir: string;
let certs: ExporterCertificates;
let server: ExporterServer | undefined;
// Cost 4: the lowest bcrypt allows, so that the tests spend their time on what they test.
const HASH = bcrypt.hashSync('correct horse', 4);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'monsync-exporter-server-'));
  certs = await makeExporterCertificates();
  await writeFile(join(dir, 'server.crt'), certs.server.cert);
  await writeFile(join(dir, 'server.key'), certs.server.key);
  await writeFile(join(dir, 'ca.crt'), certs.ca);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function metrics(): ExporterMetrics {
  const m = new ExporterMetrics({ accounts: false, configuration: false });
  m.readSucceeded({ monitors: [], atSeconds: 1_800_000_000, readSeconds: 0.1 });
  return m;
}

async function get(url: string, headers: Record<string, string> = {}, dispatcher?: Agent) {
  const res = await request(url, { headers, ...(dispatcher ? { dispatcher } : {}) });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body };
}

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

describe('the exporter server, as operators of other exporters expect it', () => {
  it('serves a landing page at / that links /metrics and names the version', async () => {
    server = await startExporterServer({ host: '127.0.0.1', port: 0, metrics: metrics(), token: null, ready: () => true });
    const page = await get(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body.toString()).toMatch(/<a href="metrics">/);
    expect(page.body.toString()).toContain(VERSION);
  });

  it('accepts the bearer scheme in any case: bearer, BEARER and Bearer', async () => {
    server = await startExporterServer({ host: '127.0.0.1', port: 0, metrics: metrics(), token: 'tok-123', ready: () => true });
    for (const scheme of ['bearer', 'BEARER', 'Bearer', 'bEaReR']) {
      expect((await get(`${server.url}/metrics`, { authorization: `${scheme} tok-123` })).status, scheme).toBe(200);
    }
    expect((await get(`${server.url}/metrics`, { authorization: 'Basic tok-123' })).status).toBe(401);
    expect((await get(`${server.url}/`)).status).toBe(401);
  });

  it('sends /metrics gzipped when the scraper accepts gzip, and plain when it does not', async () => {
    server = await startExporterServer({ host: '127.0.0.1', port: 0, metrics: metrics(), token: null, ready: () => true });
    const zipped = await get(`${server.url}/metrics`, { 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.body).toString()).toMatch(/^monsync_up 1$/m);
    const plain = await get(`${server.url}/metrics`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toMatch(/^monsync_up 1$/m);
    expect([acceptsGzip('gzip, deflate'), acceptsGzip('deflate, gzip;q=0'), acceptsGzip('identity'), acceptsGzip('*')]).toEqual([true, false, false, true]);
  });

  it('serves /metrics over TLS with the certificate and key of the web configuration', async () => {
    const file = join(dir, 'web-tls.yml');
    await writeFile(file, 'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n');
    server = await startExporterServer({ host: '127.0.0.1', port: 0, metrics: metrics(), token: null, ready: () => true, webConfig: new WebConfigSource(file) });
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const agent = new Agent({ connect: { ca: certs.ca } });
    try {
      const res = await get(`${server.url}/metrics`, {}, agent);
      expect(res.status).toBe(200);
      expect(res.body.toString()).toMatch(/^monsync_up 1$/m);
    } finally {
      await agent.close();
    }
    // Plain HTTP gets nothing from a TLS listener.
    await expect(request(server.url.replace('https:', 'http:') + '/metrics').then((r) => r.body.text())).rejects.toThrow();
  });

  it('wants a user of basic_auth_users: the right password passes, a wrong one or none gets 401 with WWW-Authenticate: Basic', async () => {
    const file = join(dir, 'web-basic.yml');
    await writeFile(file, `basic_auth_users:\n  prometheus: "${HASH}"\n`);
    server = await startExporterServer({ host: '127.0.0.1', port: 0, metrics: metrics(), token: null, ready: () => true, webConfig: new WebConfigSource(file) });
    expect((await get(`${server.url}/metrics`, basic('prometheus', 'correct horse'))).status).toBe(200);
    for (const headers of [{}, basic('prometheus', 'wrong horse'), basic('nobody', 'correct horse')]) {
      const refused = await get(`${server.url}/metrics`, headers);
      expect(refused.status).toBe(401);
      expect(refused.headers['www-authenticate']).toMatch(/^Basic realm=/);
    }
    // The probes stay open for orchestrators.
    expect((await get(`${server.url}/-/healthy`)).status).toBe(200);
  });

  it('reads the web configuration again for every request: a password changed takes effect at once', async () => {
    const file = join(dir, 'web-reload.yml');
    await writeFile(file, `basic_auth_users:\n  prometheus: "${HASH}"\n`);
    server = await startExporterServer({ host: '127.0.0.1', port: 0, metrics: metrics(), token: null, ready: () => true, webConfig: new WebConfigSource(file) });
    expect((await get(`${server.url}/metrics`, basic('prometheus', 'correct horse'))).status).toBe(200);
    await writeFile(file, `basic_auth_users:\n  prometheus: "${bcrypt.hashSync('battery staple', 4)}"\n`);
    expect((await get(`${server.url}/metrics`, basic('prometheus', 'correct horse'))).status).toBe(401);
    expect((await get(`${server.url}/metrics`, basic('prometheus', 'battery staple'))).status).toBe(200);
    await writeFile(file, '');
    expect((await get(`${server.url}/metrics`)).status).toBe(200);
  });

  it('reads the certificate again for every connection: a renewed one is served without a restart', async () => {
    const file = join(dir, 'web-renew.yml');
    await writeFile(join(dir, 'renew.crt'), certs.server.cert);
    await writeFile(join(dir, 'renew.key'), certs.server.key);
    await writeFile(file, 'tls_server_config:\n  cert_file: renew.crt\n  key_file: renew.key\n');
    server = await startExporterServer({ host: '127.0.0.1', port: 0, metrics: metrics(), token: null, ready: () => true, webConfig: new WebConfigSource(file) });
    const other = await makeExporterCertificates();
    await writeFile(join(dir, 'renew.crt'), other.server.cert);
    await writeFile(join(dir, 'renew.key'), other.server.key);
    const trustsNew = new Agent({ connect: { ca: other.ca } });
    const trustsOld = new Agent({ connect: { ca: certs.ca } });
    try {
      expect((await get(`${server.url}/metrics`, {}, trustsNew)).status).toBe(200);
      await expect(get(`${server.url}/metrics`, {}, trustsOld)).rejects.toThrow();
    } finally {
      await Promise.all([trustsNew.close(), trustsOld.close()]);
    }
  });

  it('with client_ca_file and RequireAndVerifyClientCert, serves only clients with a certificate the CA signed', async () => {
    const file = join(dir, 'web-mtls.yml');
    await writeFile(file, 'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  client_ca_file: ca.crt\n  client_auth_type: RequireAndVerifyClientCert\n');
    server = await startExporterServer({ host: '127.0.0.1', port: 0, metrics: metrics(), token: null, ready: () => true, webConfig: new WebConfigSource(file) });
    const withCert = new Agent({ connect: { ca: certs.ca, cert: certs.client.cert, key: certs.client.key } });
    const without = new Agent({ connect: { ca: certs.ca } });
    try {
      expect((await get(`${server.url}/metrics`, {}, withCert)).status).toBe(200);
      await expect(get(`${server.url}/metrics`, {}, without)).rejects.toThrow();
    } finally {
      await Promise.all([withCert.close(), without.close()]);
    }
  });

  it('refuses a bad web configuration at start, naming the file, line, column and field, and never the hash', async () => {
    const cases: [string, RegExp][] = [
      ['tls_server_config:\n  cert_file: server.crt\n', /web\.yml:2:3: tls_server_config: key_file is required/],
      ['tls_server_config:\n  cert_file: server.crt\n  key_file: missing.key\n', /web\.yml:3:13: tls_server_config\.key_file: cannot read .*missing\.key: ENOENT/],
      ['tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  client_auth_type: Sometimes\n', /web\.yml:4:21: tls_server_config\.client_auth_type: must be one of NoClientCert, /],
      ['tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  client_ca_file: ca.crt\n', /tls_server_config\.client_ca_file: a client CA is given but client_auth_type/],
      ['tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  min_version: TLS14\n', /web\.yml:4:16: tls_server_config\.min_version: must be one of TLS10, TLS11, TLS12, TLS13/],
      ['basic_auth_users:\n  prometheus: plain-password\n', /web\.yml:2:15: basic_auth_users\.prometheus: must be a bcrypt hash/],
      ['basic_auth_user:\n  prometheus: x\n', /web\.yml:1:1: basic_auth_user: unknown field/],
      ['tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  cipher_suites: [TLS_AES_128_GCM_SHA256]\n', /web\.yml:4:3: tls_server_config\.cipher_suites: not supported by monsync exporter/],
      ['basic_auth_users: [a, b\n', /web\.yml:\d+:\d+: not valid YAML/],
    ];
    for (const [text, message] of cases) {
      const file = join(dir, 'web.yml');
      await writeFile(file, text);
      expect(() => parseWebConfig(file, text), text).toThrow(message);
      await expect(startExporterServer({ host: '127.0.0.1', port: 0, metrics: metrics(), token: null, ready: () => true, webConfig: new WebConfigSource(file) })).rejects.toThrow(message);
      expect(() => parseWebConfig(file, text)).not.toThrow(/plain-password/);
    }
  });

  it('answers 500 while the web configuration is bad, tells the log once, and serves again once it is fixed', async () => {
    const file = join(dir, 'web-turns-bad.yml');
    await writeFile(file, `basic_auth_users:\n  prometheus: "${HASH}"\n`);
    const log: string[] = [];
    server = await startExporterServer({ host: '127.0.0.1', port: 0, metrics: metrics(), token: null, ready: () => true, webConfig: new WebConfigSource(file), log: (l) => log.push(l) });
    await writeFile(file, 'basic_auth_users:\n  prometheus: plain-password\n');
    for (let i = 0; i < 3; i++) expect((await get(`${server.url}/metrics`, basic('prometheus', 'correct horse'))).status).toBe(500);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/web-turns-bad\.yml:2:15: basic_auth_users\.prometheus: must be a bcrypt hash.*; answering 500 until it is fixed/);
    expect(log[0]).not.toContain('plain-password');
    await writeFile(file, `basic_auth_users:\n  prometheus: "${HASH}"\n`);
    expect((await get(`${server.url}/metrics`, basic('prometheus', 'correct horse'))).status).toBe(200);
    expect(log[1]).toMatch(/web-turns-bad\.yml reads again/);
  });

  it('refuses new TLS connections while the certificate cannot be read, and serves again once it can', async () => {
    const file = join(dir, 'web-tls-bad.yml');
    await writeFile(join(dir, 'gone.crt'), certs.server.cert);
    await writeFile(file, 'tls_server_config:\n  cert_file: gone.crt\n  key_file: server.key\n');
    const log: string[] = [];
    server = await startExporterServer({ host: '127.0.0.1', port: 0, metrics: metrics(), token: null, ready: () => true, webConfig: new WebConfigSource(file), log: (l) => log.push(l) });
    await rm(join(dir, 'gone.crt'));
    const agent = () => new Agent({ connect: { ca: certs.ca } });
    const first = agent();
    await expect(get(`${server.url}/metrics`, {}, first)).rejects.toThrow();
    await first.close();
    expect(log.join('\n')).toMatch(/tls_server_config\.cert_file: cannot read .*gone\.crt: ENOENT/);
    await writeFile(join(dir, 'gone.crt'), certs.server.cert);
    const second = agent();
    expect((await get(`${server.url}/metrics`, {}, second)).status).toBe(200);
    await second.close();
  });

  it('with RequireAnyClientCert or VerifyClientCertIfGiven, refuses (403) a client without a certificate or with one the CA did not sign, as the policy says', async () => {
    const stranger = await makeExporterCertificates('another CA');
    const cases = [
      { policy: 'RequireAnyClientCert', none: 403, signed: 200, unsigned: 200 },
      { policy: 'VerifyClientCertIfGiven', none: 200, signed: 200, unsigned: 403 },
    ];
    for (const c of cases) {
      const file = join(dir, `web-${c.policy}.yml`);
      await writeFile(file, `tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  client_ca_file: ca.crt\n  client_auth_type: ${c.policy}\n`);
      server = await startExporterServer({ host: '127.0.0.1', port: 0, metrics: metrics(), token: null, ready: () => true, webConfig: new WebConfigSource(file) });
      const agents = {
        none: new Agent({ connect: { ca: certs.ca } }),
        signed: new Agent({ connect: { ca: certs.ca, cert: certs.client.cert, key: certs.client.key } }),
        unsigned: new Agent({ connect: { ca: certs.ca, cert: stranger.client.cert, key: stranger.client.key } }),
      };
      try {
        for (const who of ['none', 'signed', 'unsigned'] as const) {
          const status = await get(`${server.url}/metrics`, {}, agents[who]).then((r) => r.status, (e: Error) => e.message);
          expect(status, `${c.policy}, ${who}`).toBe(c[who]);
        }
      } finally {
        await Promise.all(Object.values(agents).map((a) => a.close()));
        await server.close();
        server = undefined;
      }
    }
  });
});
