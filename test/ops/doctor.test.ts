/**
 * `monsync doctor` against an emulator on 127.0.0.1: a healthy set-up, each way a first contact
 * goes wrong (wrong password, wrong client secret, nothing listening, plain http to another
 * machine, a service clock 10 minutes off) and a configuration checked against the account. Each
 * gives its line and its exit code, and no output ever shows a secret.
 */
import { execFileSync } from 'node:child_process';
import { createServer as createHttpsServer } from 'node:https';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Env } from '../../src/api/connect.js';
import { runDoctorCommand } from '../../src/cli/doctor-run.js';
import { DEFAULT_CREDENTIALS } from '../../src/emulator/index.js';
import { runDoctor } from '../../src/ops/doctor.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { captureIo } from '../helpers/io.js';
import { closedPort } from '../helpers/ports.js';

const ROOT = join(import.meta.dirname, '..', '..');
const { v1, v2 } = DEFAULT_CREDENTIALS;

let emu: TestEmulator;
let dir: string;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'default' });
  dir = await mkdtemp(join(tmpdir(), 'monsync-doctor-'));
});
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await emu.control.reset('default');
});

function env(extra: Env = {}, url = emu.url): Env {
  const e: Env = {
    MONSYNC_URL: url,
    MONSYNC_USERNAME: v1.user,
    MONSYNC_PASSWORD: v1.password,
    MONSYNC_CLIENT_ID: v2.clientId,
    MONSYNC_CLIENT_SECRET: v2.clientSecret,
  };
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete e[k];
    else e[k] = v;
  }
  return e;
}

const SECRETS = [v1.password, v2.clientSecret, 'wrong-password-1', 'wrong-secret-1'];

/** Runs the command in-process: exit code, and stdout with measured times masked. */
async function doctor(e: Env, paths: string[] = [], json = false, cwd = ROOT): Promise<{ code: number; out: string; lines: string[] }> {
  const io = captureIo(e, { cwd, now: () => Date.now() });
  const code = await runDoctorCommand(paths, json ? { json: true } : {}, io);
  const both = io.stdout + io.stderr;
  for (const s of SECRETS) expect(both.includes(s), `output shows ${s}:\n${both}`).toBe(false);
  const out = io.stdout.replace(/answered in \d+ ms/, 'answered in N ms').replaceAll(emu.url, 'URL');
  return { code, out, lines: out.split('\n') };
}

const line = (lines: string[], label: string): string => {
  const found = lines.find((l) => new RegExp(`^  \\S+\\s+${label.replace(/ /g, '\\s')}\\s`).test(l));
  if (!found) throw new Error(`no line for ${label} in:\n${lines.join('\n')}`);
  return found.replace(/\s+/g, ' ').trim();
};

describe('monsync doctor', () => {
  it('reports a healthy set-up line by line and exits 0, reading and never writing', async () => {
    await emu.control.clearRequests();
    const { code, out } = await doctor(env());
    expect(code).toBe(0);
    expect(out).toBe(
      [
        '  ok       URL            URL (plain http to a loopback address (127.0.0.1): fine for `monsync emulator`, nothing leaves this machine)',
        '  ok       reachable      answered in N ms (first request, connection set-up included)',
        '  ok       API v1         v1 credentials accepted for demo@example.com',
        '  ok       API v2         v2 client credentials accepted (token for demo-client); /v2/version: major 2, minor 0, release_date 2024-03-01',
        "  ok       clock          the service's clock agrees with this machine's (within 2 s)",
        '  ok       account        4 monitors (1 dns-query, 1 http, 1 ping, 1 smtp), 0 alerts, 0 groups, 4 destinations (1 unsubscribed)',
        '  ok       ownership      SMTP monitors: 0 owned by "monsync" (the default owner; give config paths to use yours), none by other owners, 1 unmanaged (never changed unless the configuration names them)',
        '  ok       wire quirks    normalisation absorbed 5 wire quirks (read as documented; listed so an unexpected shape is visible)',
        '                          · destination type in another case: "EMAIL" x1',
        '                          · "" for no attachment: "attachment" x1',
        '                          · `hostname` instead of `ip_address`: "hostname" x1',
        '                          · monitor type in another form: "DNS Query" x1, "HTTP" x1, "Ping" x1',
        '                          · number sent as a string: "timer" x1',
        '',
        'No problems: monsync is ready to plan.',
        '',
      ].join('\n'),
    );
    const requests = await emu.control.requests();
    expect(requests.filter((r) => r.method !== 'GET' && r.path !== '/v2/token')).toEqual([]);
  });

  it('says the v1 credentials were refused (and what to check) when the password is wrong: exit 1', async () => {
    const { code, lines } = await doctor(env({ MONSYNC_PASSWORD: 'wrong-password-1' }));
    expect(code).toBe(1);
    expect(line(lines, 'API v1')).toBe('problem API v1 v1 credentials refused: not authorised (HTTP 401): invalid credentials');
    expect(lines[lines.indexOf(lines.find((l) => l.includes('API v1'))!) + 1]).toMatch(/-> check MONSYNC_USERNAME and MONSYNC_PASSWORD/);
    expect(line(lines, 'reachable')).toMatch(/^ok reachable answered/);
    expect(line(lines, 'API v2')).toMatch(/^ok API v2 v2 client credentials accepted/);
    expect(line(lines, 'account')).toBe('skipped account needs working v1 credentials');
    expect(lines.at(-2)).toBe('1 problem: fix it before the first plan.');
  });

  it('names a declared account\'s own variables in what to check, not MONSYNC_USERNAME and MONSYNC_PASSWORD (issue 45)', async () => {
    const { runDoctor } = await import('../../src/ops/doctor.js');
    const report = await runDoctor({
      env: env({ MONSYNC_PASSWORD: 'wrong-password-45' }),
      connection: {},
      paths: [],
      cwd: ROOT,
      now: () => Date.now(),
      readConfiguration: async () => ({ ok: false, errors: 0, lines: [] }),
      readAccount: async () => {
        throw new Error('not read: v1 is refused');
      },
      variablePrefix: 'MONSYNC_PROD_',
    });
    const v1check = report.checks.find((c) => c.id === 'v1')!;
    expect(v1check.hint).toMatch(/^check MONSYNC_PROD_USERNAME and MONSYNC_PROD_PASSWORD/);
    expect(JSON.stringify(report.checks)).not.toMatch(/\bMONSYNC_(USERNAME|PASSWORD)\b/);
  });

  it('says the v2 client credentials were refused when the client secret is wrong, v1 still fine: exit 1', async () => {
    const { code, lines } = await doctor(env({ MONSYNC_CLIENT_SECRET: 'wrong-secret-1' }));
    expect(code).toBe(1);
    expect(line(lines, 'API v2')).toBe('problem API v2 v2 client credentials refused: token request refused (HTTP 401): invalid_client: unknown client id or wrong secret');
    expect(lines.join('\n')).toMatch(/-> check MONSYNC_CLIENT_ID and MONSYNC_CLIENT_SECRET \(Account > API Access/);
    expect(line(lines, 'API v1')).toMatch(/^ok API v1/);
    expect(line(lines, 'account')).toMatch(/^ok account 4 monitors/);
  });

  it('says nothing answers at a closed port, and checks nothing that needs an answer: exit 1', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}`;
    const { code, lines } = await doctor(env({}, url));
    expect(code).toBe(1);
    expect(line(lines, 'reachable')).toBe(`problem reachable could not connect to 127.0.0.1:${port}: connection refused (ECONNREFUSED) (5 attempts)`);
    for (const label of ['API v1', 'API v2', 'clock', 'account']) expect(line(lines, label)).toBe(`skipped ${label} the service was not reached`);
  });

  it('refuses plain http to another machine before building a client: no request, no lookup, exit 1', async () => {
    await emu.control.clearRequests();
    // The IPv4-mapped form of 127.0.0.1 is not a loopback name to monsync: were it contacted, the emulator would log it.
    const url = `http://[::ffff:127.0.0.1]:${emu.port}`;
    let built = 0;
    const report = await runDoctor({
      env: env({}, url),
      connection: {},
      paths: [],
      cwd: ROOT,
      now: () => Date.now(),
      connect: () => {
        built++;
        throw new Error('no client may be built for this URL');
      },
      readConfiguration: () => Promise.reject(new Error('no configuration was given')),
      readAccount: () => Promise.reject(new Error('no client may be built for this URL')),
    });
    expect(built).toBe(0);
    expect(report.checks.map((c) => `${c.status} ${c.id}`)).toEqual(['problem url', 'skipped reachable', 'skipped v1', 'skipped v2', 'skipped clock', 'skipped account']);
    expect(report.checks[0]!.message).toBe('MONSYNC_URL uses plain http:// to [::ffff:7f00:1]');
    expect(report.checks[0]!.hint).toMatch(/^use https:\/\/ .*Nothing was sent\.$/);
    expect(await emu.control.requests()).toEqual([]);

    const { code, lines } = await doctor(env({}, 'http://monitoring.example.com'));
    expect(code).toBe(1);
    expect(line(lines, 'URL')).toBe('problem URL MONSYNC_URL uses plain http:// to monitoring.example.com');
  });

  it('says the TLS certificate was not accepted when the service presents a self-signed one: exit 1', async (ctx) => {
    const cert = await selfSignedCertificate();
    if (cert === null) return ctx.skip('openssl is not available to make a certificate');
    const server = createHttpsServer(cert, (_req, res) => res.end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const { code, lines } = await doctor(env({}, `https://127.0.0.1:${port}`));
      expect(code).toBe(1);
      expect(line(lines, 'URL')).toBe(`ok URL https://127.0.0.1:${port} (https)`);
      expect(line(lines, 'TLS')).toBe('problem TLS TLS certificate not accepted: DEPTH_ZERO_SELF_SIGNED_CERT');
      expect(lines.join('\n')).toMatch(/-> the certificate is expired, self-signed or for another name; .*NODE_EXTRA_CA_CERTS/);
      expect(line(lines, 'API v1')).toBe('skipped API v1 the service was not reached');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('says the server answered plain HTTP, not that a certificate was refused, for an https:// URL to a plain-HTTP server', async () => {
    const url = emu.url.replace(/^http:/, 'https:');
    const { code, lines } = await doctor(env({}, url));
    expect(code).toBe(1);
    expect(line(lines, 'TLS')).toBe('problem TLS the server answered in plain HTTP, not TLS: ERR_SSL_WRONG_VERSION_NUMBER');
    expect(lines.join('\n')).toMatch(/-> if it serves plain HTTP, write the URL with http:\/\//);
    expect(lines.join('\n')).not.toMatch(/certificate/);
  });

  it('warns that the service clock is 10 minutes ahead, and still exits 0: monsync reads times on the service clock', async () => {
    await emu.control.advance(600);
    const { code, lines } = await doctor(env());
    expect(code).toBe(0);
    expect(line(lines, 'clock')).toBe("warning clock the service's clock is 10 min ahead of this machine's");
    expect(lines.join('\n')).toMatch(/-> monsync shows pause ends and reads data windows on the service's clock/);
    expect(lines.at(-2)).toBe('No problems; 1 warning.');
  });

  it('says which credentials are missing and what needs them', async () => {
    const { code, lines } = await doctor(env({ MONSYNC_USERNAME: undefined, MONSYNC_PASSWORD: undefined, MONSYNC_CLIENT_ID: undefined, MONSYNC_CLIENT_SECRET: undefined }));
    expect(code).toBe(1);
    expect(line(lines, 'API v1')).toBe('problem API v1 v1 credentials not set');
    expect(line(lines, 'API v2')).toBe('ok API v2 v2 client credentials not set: only `monsync status` uses them (it uses v1 without them)');
    const half = await doctor(env({ MONSYNC_CLIENT_SECRET: undefined }));
    expect(half.code).toBe(1);
    expect(line(half.lines, 'API v2')).toBe('problem API v2 v2 client credentials incomplete: MONSYNC_CLIENT_ID is set but MONSYNC_CLIENT_SECRET is not');
    expect(line(half.lines, 'account')).toMatch(/^ok account/);
  });

  it('checks a configuration: valid, its owner counted, every destination and unmanaged monitor it names found', async () => {
    const { code, lines } = await doctor(env(), ['examples/realistic']);
    expect(code).toBe(0);
    expect(line(lines, 'configuration')).toBe('ok configuration valid: 4 files, 8 monitors, 10 alerts, 4 groups (owner "mail-team")');
    expect(line(lines, 'ownership')).toMatch(/^ok ownership SMTP monitors: 0 owned by this configuration's owner "mail-team"/);
    expect(line(lines, 'references')).toBe('ok references every name the configuration uses exists: 3 destinations and 3 monitors managed elsewhere');
  });

  it('names, at their file and line, the destinations and unmanaged monitors the account lacks: exit 1', async () => {
    const file = join(dir, 'monsync.yaml');
    await writeFile(
      file,
      [
        'version: 1',
        'monitors:',
        '  - label: mx-1',
        '    ip_address: mx',
        '    test_account: probe@example.com',
        '    timer: 5',
        '    time_zone: UTC',
        '    alerts:',
        '      - { subject_init: down, subject_term: up, timeout: 10, alert_destinations: [ops-mail, pager-duty, legacy-mail] }',
        'alerts:',
        '  - { monitor: www-https, subject_init: www down, subject_term: www up, timeout: 5, alert_destinations: [ops-mail] }',
        'groups:',
        '  - { name: all, monitors: [mx-1, gw-ping, dns-aaaa] }',
        '',
      ].join('\n'),
    );
    const { code, lines, out } = await doctor(env(), ['monsync.yaml'], false, dir);
    expect(code).toBe(1);
    expect(line(lines, 'references')).toBe('problem references 3 names the configuration uses do not resolve in the account');
    const details = out.split('\n').filter((l) => l.includes('·')).map((l) => l.replace(/^\s+· /, ''));
    expect(details).toEqual(
      expect.arrayContaining([
        'monsync.yaml:9:9: destination "pager-duty" is not in the account',
        'monsync.yaml:9:9: destination "legacy-mail" is unsubscribed: it receives nothing',
        'monsync.yaml:11:5: monitor "www-https" is not in the account (nor declared under monitors:)',
        'monsync.yaml:13:5: monitor "dns-aaaa" is not in the account (nor declared under monitors:)',
      ]),
    );
  });

  it('prints a JSON object for machines', async () => {
    const { code, out } = await doctor(env({ MONSYNC_CLIENT_SECRET: 'wrong-secret-1' }), [], true);
    expect(code).toBe(1);
    const j = JSON.parse(out) as { ok: boolean; problems: number; checks: { id: string; status: string }[]; account: { monitors_by_type: Record<string, number> } };
    expect(j.ok).toBe(false);
    expect(j.problems).toBe(1);
    expect(j.checks.map((c) => `${c.id}:${c.status}`)).toEqual(['url:ok', 'reachable:ok', 'v1:ok', 'v2:problem', 'clock:ok', 'account:ok', 'ownership:ok', 'quirks:ok']);
    expect(j.account.monitors_by_type).toEqual({ 'dns-query': 1, http: 1, ping: 1, smtp: 1 });
  });
});

/** A fresh self-signed certificate for 127.0.0.1 (nothing committed), or null without openssl. */
async function selfSignedCertificate(): Promise<{ key: string; cert: string } | null> {
  const key = join(dir, 'tls-key.pem');
  const cert = join(dir, 'tls-cert.pem');
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  return { key: await readFile(key, 'utf8'), cert: await readFile(cert, 'utf8') };
}

