/**
 * `monsync test` end to end: the built CLI against an SMTP server and a DNS server on 127.0.0.1
 * (test/helpers/mail-servers.ts), and for --changed the emulator. Exit codes (0 pass, 1 a failure,
 * 3 inconclusive), text, JSON and Markdown, and never DATA.
 */
import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { TestEmulator } from '../helpers/emulator.js';
import { closedPort, MAIL_HOST, makeCertificates, startDns, startSmtp, type TestDns, type TestSmtp } from '../helpers/mail-servers.js';
import { e2eSuite, type Workspace } from './support.js';

let emu: TestEmulator;
let ws: Workspace;
e2eSuite((e, w) => {
  emu = e;
  ws = w;
});

let good: TestSmtp;
let refusing: TestSmtp;
let dns: TestDns;
let caFile: string;

beforeAll(async () => {
  const certs = await makeCertificates();
  good = await startSmtp({ tls: certs.valid });
  refusing = await startSmtp({ recipients: { 'nobody@mx.test.example': 'refuse' } });
  dns = await startDns({ [MAIL_HOST]: { A: ['127.0.0.1'] }, 'mx.test.example': { MX: [{ exchange: MAIL_HOST, priority: 10 }] } });
  caFile = await ws.write('ca.pem', certs.ca);
}, 60_000);
afterAll(async () => {
  for (const s of [good, refusing]) {
    expect(s.commands.some((c) => /^DATA\b/i.test(c))).toBe(false);
    expect(s.dataCount).toBe(0);
    await s.close();
  }
  await dns.close();
});

function config(monitors: { label: string; ip_address: string; port: number; test_account: string; use_tls?: string }[]): string {
  return [
    'version: 1',
    'defaults:',
    '  monitor: { time_zone: UTC, timer: 5 }',
    '  alert: { timeout: 15, alert_destinations: [ops-mail] }',
    'monitors:',
    ...monitors.flatMap((m) => [
      `  - label: ${m.label}`,
      `    ip_address: ${JSON.stringify(m.ip_address)}`,
      `    port: ${m.port}`,
      `    test_account: ${m.test_account}`,
      ...(m.use_tls ? [`    use_tls: ${m.use_tls}`] : []),
      '    alerts:',
      `      - { subject_init: "${m.label} DOWN", subject_term: "${m.label} UP" }`,
    ]),
    '',
  ].join('\n');
}

const env = () => ({ MONSYNC_DNS_SERVERS: dns.server, NODE_EXTRA_CA_CERTS: caFile });
// The servers here are on 127.0.0.1, which `test` connects to only when told it may.
const cli = (args: string[], extra: Record<string, string | undefined> = {}) =>
  runCli(args[0] === 'test' ? [...args, '--allow-private'] : args, { url: emu.url, env: { ...env(), ...extra } });

describe('monsync test', () => {
  it('passes monitors whose whole path works, exit 0, and prints the return leg and the sending addresses', async () => {
    const file = await ws.write('ok/monsync.yaml', config([{ label: 'mx-eu-1', ip_address: MAIL_HOST, port: good.port, test_account: 'probe@test.example', use_tls: 'on' }]));
    const r = await cli(['test', file]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^✓ pass +mx-eu-1 {2}mail\.test\.example:\d+ -> <probe@test\.example>$/m);
    expect(r.stdout).toMatch(/^ {4}✓ tls +TLSv1\.[23]; certificate CN=mail\.test\.example issued by CN=monsync test CA; .*trusted \(\d+ ms\)$/m);
    expect(r.stdout).toMatch(/^1 monitor tested in \d+\.\d s: 1 passed, 0 failed$/m);
    expect(r.stdout).toContain('Not tested from here: the return leg');
    expect(r.stdout).toContain('71.5.105.197, 69.164.206.119, 2604:180:1:2da::bce8, 2600:3c00::f03c:91ff:fe26:654e');
  });

  it('exits 1 when a monitor fails, with the finding at its place in the YAML; JSON and Markdown say the same', async () => {
    const file = await ws.write(
      'bad/monsync.yaml',
      config([
        { label: 'mx-eu-1', ip_address: MAIL_HOST, port: good.port, test_account: 'probe@test.example' },
        { label: 'mx-eu-2', ip_address: 'mx', port: refusing.port, test_account: 'nobody@mx.test.example' },
      ]),
    );
    const text = await cli(['test', file]);
    expect(text.code, text.stdout + text.stderr).toBe(1);
    expect(text.stdout).toMatch(/^ {4}.*monsync\.yaml:12:5: error monitor\/recipient-refused: mail\.test\.example \(127\.0\.0\.1\):\d+ refused RCPT TO:<nobody@mx\.test\.example>: 550 /m);
    const json = await cli(['test', file, '--json']);
    expect(json.code).toBe(1);
    const body = JSON.parse(json.stdout);
    expect(body).toMatchObject({ format_version: 1, outcome: 'fail', inconclusive: null, counts: { pass: 1, fail: 1, warning: 0, inconclusive: 0 } });
    expect(body.monitors.map((m: { label: string; outcome: string }) => [m.label, m.outcome])).toEqual([['mx-eu-1', 'pass'], ['mx-eu-2', 'fail']]);
    expect(body.service_sending_addresses.ipv4).toEqual(['71.5.105.197', '69.164.206.119']);
    const md = await cli(['test', file, '--format', 'markdown']);
    expect(md.code).toBe(1);
    expect(md.stdout).toContain('| ❌ | <code>mx-eu-2</code> |');
    expect(md.stdout).toContain('<details><summary>Steps</summary>');
  });

  it('reads as inconclusive (exit 3) when no mail server can be reached from here, and says so', async () => {
    const port = await closedPort();
    const file = await ws.write('blocked/monsync.yaml', config([{ label: 'mx-eu-1', ip_address: MAIL_HOST, port, test_account: 'probe@test.example' }]));
    const r = await cli(['test', file]);
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.stdout).toContain(`inconclusive: this machine cannot reach port ${port} (commonly blocked on CI runners); run \`monsync test\` where mail can be sent`);
    expect(r.stdout).toMatch(/^\? inconclusive +mx-eu-1/m);
  });

  it('--changed tests only the monitors the plan would create or change, and needs credentials', async () => {
    const file = await ws.write(
      'changed/monsync.yaml',
      config([
        { label: 'mx-new', ip_address: MAIL_HOST, port: good.port, test_account: 'probe@test.example' },
        { label: 'mx-new-2', ip_address: MAIL_HOST, port: good.port, test_account: 'probe@test.example' },
      ]),
    );
    const applied = await cli(['apply', file, '--auto-approve', '--target', 'mx-new']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const r = await cli(['test', file, '--changed', '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).monitors.map((m: { label: string }) => m.label)).toEqual(['mx-new-2']);
    const anonymous = await cli(['test', file, '--changed'], { MONSYNC_USERNAME: undefined, MONSYNC_PASSWORD: undefined });
    expect(anonymous.code).not.toBe(0);
    expect(anonymous.stderr).toMatch(/^Error: .*credentials/im);
  });

  it('refuses a malformed MONSYNC_DNS_SERVERS as a usage error', async () => {
    const file = await ws.write('dns/monsync.yaml', config([{ label: 'mx-eu-1', ip_address: MAIL_HOST, port: good.port, test_account: 'probe@test.example' }]));
    const r = await cli(['test', file], { MONSYNC_DNS_SERVERS: 'dns.example.com' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('MONSYNC_DNS_SERVERS: "dns.example.com" is not an IP address');
  });

  // Issue 36, item 8: a pull request could point the runner anywhere, and a run had no overall bound.
  it('without --allow-private, names a server on this machine or the metadata address and connects to neither: exit 3', async () => {
    const file = await ws.write(
      'private/monsync.yaml',
      config([
        { label: 'mx-here', ip_address: MAIL_HOST, port: good.port, test_account: 'probe@test.example' },
        { label: 'mx-meta', ip_address: '169.254.169.254', port: 25, test_account: 'probe@test.example' },
      ]),
    );
    const before = good.commands.length;
    const r = await runCli(['test', file], { url: emu.url, env: env() });
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(good.commands.length).toBe(before);
    expect(r.stdout).toMatch(/^\? inconclusive +mx-here/m);
    expect(r.stdout).toContain(`127.0.0.1:${good.port}: a loopback address (this machine): not connected to`);
    expect(r.stdout).toContain('169.254.169.254:25: a link-local address (the cloud metadata service): not connected to');
  });

  it('--deadline ends the run, whatever the servers do: what was not tested is inconclusive (exit 3)', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((s) => void sockets.push(s.on('error', () => {})));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const file = await ws.write('deadline/monsync.yaml', config([{ label: 'mx-silent', ip_address: MAIL_HOST, port, test_account: 'probe@test.example' }]));
      // Each step may wait 600 s; the run may take 1 s.
      const r = await cli(['test', file, '--step-timeout', '600', '--deadline', '1']);
      expect(r.code, r.stdout + r.stderr).toBe(3);
      expect(r.stdout).toMatch(/^\? inconclusive +mx-silent/m);
      expect(r.stdout).toContain(`127.0.0.1:${port}: not finished: the run's deadline of 1 s passed (--deadline)`);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
