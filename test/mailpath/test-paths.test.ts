/**
 * testMailPaths against real servers on 127.0.0.1: an SMTP server (with and without STARTTLS,
 * certificates made for the test, recipients accepted, refused, greylisted) and a DNS server
 * answering A, AAAA, MX and CNAME. Every test also proves that DATA was never sent.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DesiredMonitor, MonitorSpec, Settings } from '../../src/model/desired.js';
import { createMailDns } from '../../src/mailpath/dns.js';
import { MAX_HOSTS_PER_MONITOR, testMailPaths, type MailPathReport } from '../../src/mailpath/test-paths.js';
import { closedPort, MAIL_HOST, makeCertificates, startDns, startSmtp, type TestCertificates, type TestDns, type TestSmtp } from '../helpers/mail-servers.js';

let certs: TestCertificates;
let dns: TestDns;
const servers: TestSmtp[] = [];

beforeAll(async () => {
  certs = await makeCertificates();
  dns = await startDns({
    [MAIL_HOST]: { A: ['127.0.0.1'] },
    'v6only.test.example': { AAAA: ['::1'] },
    'mx.test.example': { MX: [{ exchange: MAIL_HOST, priority: 10 }, { exchange: 'backup.test.example', priority: 20 }] },
    'backup.test.example': { A: ['127.0.0.1'] },
    'nullmx.test.example': { MX: [{ exchange: '', priority: 0 }] },
    'ipmx.test.example': { MX: [{ exchange: '127.0.0.1', priority: 10 }] },
    'cnamemx.test.example': { MX: [{ exchange: 'alias.test.example', priority: 10 }] },
    'alias.test.example': { CNAME: MAIL_HOST },
    'nomx.test.example': { A: ['127.0.0.1'] },
    'noaddress.test.example': { MX: [{ exchange: 'gone.test.example', priority: 10 }] },
    // 12 equal MX hosts (the issue had 200), each resolving to this machine.
    'many.test.example': { MX: Array.from({ length: 12 }, (_, i) => ({ exchange: `mx${i}.many.test.example`, priority: 10 })) },
    ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`mx${i}.many.test.example`, { A: ['127.0.0.1'] }])),
    'metadata.test.example': { A: ['169.254.169.254'] },
    // Issue 45: names whose addresses carry a private one, or are in a range no mail server is on.
    'nat64.test.example': { AAAA: ['64:ff9b::a00:1'] },
    'nat64-local.test.example': { AAAA: ['64:ff9b:1::7f00:1'] },
    'sixtofour.test.example': { AAAA: ['2002:a9fe:a9fe::1'] },
    'teredo.test.example': { AAAA: ['2001:0:4136:e378:8000:63bf:5601:5601'] },
    'bench.test.example': { A: ['198.18.0.1'] },
    'broadcast.test.example': { A: ['255.255.255.255'] },
  });
}, 60_000);
afterAll(async () => {
  await dns?.close();
});
afterEach(async () => {
  for (const s of servers.splice(0)) {
    // The proof this suite exists for: whatever happened, no message was ever sent.
    expect(s.commands.some((c) => /^DATA\b/i.test(c))).toBe(false);
    expect(s.dataCount).toBe(0);
    await s.close();
  }
});

async function smtp(o: Parameters<typeof startSmtp>[0] = {}): Promise<TestSmtp> {
  const s = await startSmtp(o);
  servers.push(s);
  return s;
}

const settings: Settings = { owner: 'monsync', ignore: [], prune: false };

function monitor(label: string, spec: Partial<MonitorSpec>, extra: Partial<DesiredMonitor> = {}): DesiredMonitor {
  return {
    label,
    previous_labels: [],
    spec: { ip_address: MAIL_HOST, test_account: 'probe@test.example', timer: 5, time_zone: 'UTC', ...spec },
    alerts: [],
    source: { file: 'monsync.yaml', line: 3, column: 5 },
    ...extra,
  };
}

function run(
  monitors: DesiredMonitor[],
  o: { settings?: Settings; ca?: boolean; stepMs?: number; allowPrivate?: boolean; signal?: AbortSignal; concurrency?: number } = {},
): Promise<MailPathReport> {
  return testMailPaths({ settings: o.settings ?? settings }, monitors, {
    dns: createMailDns({ MONSYNC_DNS_SERVERS: dns.server }, 2000),
    stepMs: o.stepMs ?? 2000,
    concurrency: o.concurrency ?? 4,
    heloName: 'probe.test.example',
    mailFrom: '',
    ca: o.ca === false ? undefined : [certs.ca],
    now: Date.now(),
    // The servers here are on 127.0.0.1: allowed, as --allow-private does, unless a test says otherwise.
    allowPrivate: o.allowPrivate ?? true,
    ...(o.signal && { signal: o.signal }),
  });
}

/** A server on 127.0.0.1 that accepts connections and never greets; counts them. */
async function silentServer(onConnection: () => void = () => {}): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let n = 0;
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((s) => {
    n++;
    sockets.add(s);
    s.on('error', () => {});
    onConnection();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => n,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const checksOf = (r: MailPathReport, i = 0) => r.monitors[i]!.findings.map((f) => `${f.severity} ${f.check}`);

describe('the mail path of a monitor, step by step', () => {
  it('passes a host that resolves, greets, offers STARTTLS with a valid certificate and accepts the test account, and stops at RCPT', async () => {
    const s = await smtp({ tls: certs.valid });
    const r = await run([monitor('mx-ok', { port: s.port, use_tls: 'on' })]);
    const m = r.monitors[0]!;
    expect(m.outcome).toBe('pass');
    expect(m.findings).toEqual([]);
    expect(m.steps.map((x) => `${x.step} ${x.status}`)).toEqual(['dns pass', 'connect pass', 'greeting pass', 'ehlo pass', 'tls pass', 'mail pass', 'rcpt pass']);
    expect(m.steps.find((x) => x.step === 'dns')!.text).toBe(`${MAIL_HOST} A 127.0.0.1`);
    expect(m.steps.find((x) => x.step === 'ehlo')!.text).toContain('STARTTLS');
    expect(m.steps.find((x) => x.step === 'tls')!.text).toMatch(/^TLSv1\.[23]; certificate CN=mail\.test\.example issued by CN=monsync test CA; .*expires in (89|90) days.*name mail\.test\.example matches; trusted$/);
    expect(s.commands.map((c) => c.split(/[\s:]/)[0])).toEqual(['EHLO', 'STARTTLS', 'EHLO', 'MAIL', 'RCPT', 'RSET', 'QUIT']);
    expect(s.commands).toContain('RCPT TO:<probe@test.example>');
    expect(r.inconclusive).toBe(false);
  });

  it('fails a refused recipient (550) as monitor/recipient-refused', async () => {
    const s = await smtp({ recipients: { 'probe@test.example': 'refuse' } });
    const r = await run([monitor('mx-refused', { port: s.port })]);
    expect(r.monitors[0]!.outcome).toBe('fail');
    expect(checksOf(r)).toEqual(['error monitor/recipient-refused']);
    expect(r.monitors[0]!.findings[0]!.message).toMatch(/refused RCPT TO:<probe@test\.example>: 550 .*user unknown/);
  });

  it('warns of greylisting (451 at RCPT) as monitor/greylisted', async () => {
    const s = await smtp({ recipients: { 'probe@test.example': 'greylist' } });
    const r = await run([monitor('mx-grey', { port: s.port })]);
    expect(r.monitors[0]!.outcome).toBe('warning');
    expect(checksOf(r)).toEqual(['warning monitor/greylisted']);
  });

  it('fails use_tls: on against a server without STARTTLS, and only notes it under auto', async () => {
    const s = await smtp();
    const r = await run([monitor('tls-on', { port: s.port, use_tls: 'on' }), monitor('tls-auto', { port: s.port, use_tls: 'auto' })]);
    expect(checksOf(r, 0)).toEqual(['error monitor/starttls-missing']);
    expect(r.monitors[1]!.outcome).toBe('pass');
    expect(r.monitors[1]!.steps.find((x) => x.step === 'tls')).toMatchObject({ status: 'note', text: expect.stringContaining('does not offer STARTTLS') });
  });

  it('reports an expired certificate, one expiring within 14 days, one for another name, and an untrusted chain', async () => {
    const expired = await smtp({ tls: certs.expired });
    const soon = await smtp({ tls: certs.expiringSoon });
    const wrong = await smtp({ tls: certs.wrongName });
    const r = await run([
      monitor('expired', { port: expired.port }),
      monitor('soon', { port: soon.port }),
      monitor('wrong', { port: wrong.port }),
    ]);
    expect(checksOf(r, 0)).toEqual(['error monitor/certificate-expired']);
    expect(checksOf(r, 1)).toEqual(['warning monitor/certificate-expiring']);
    expect(r.monitors[1]!.findings[0]!.message).toContain('expires in 5 days');
    expect(checksOf(r, 2)).toEqual(['warning monitor/certificate-name-mismatch']);
    // use_tls: auto (the default) uses STARTTLS because it is offered, and says so.
    expect(r.monitors[2]!.steps.find((x) => x.step === 'tls')!.text).toMatch(/^use_tls: auto: offered, so used: TLSv1\.[23]; /);
    const untrusted = await run([monitor('untrusted', { port: soon.port })], { ca: false });
    expect(checksOf(untrusted)).toEqual(['warning monitor/certificate-expiring', 'warning monitor/certificate-untrusted']);
  });

  it('finds a host without an address, a domain without MX, a null MX, an IP-literal MX and a CNAME MX', async () => {
    const s = await smtp();
    const r = await run([
      monitor('no-host', { ip_address: 'nowhere.test.example', port: s.port }),
      monitor('no-mx', { ip_address: 'mx', test_account: 'probe@nomx.test.example', port: s.port }),
      monitor('null-mx', { ip_address: 'mx', test_account: 'probe@nullmx.test.example', port: s.port }),
      monitor('ip-mx', { ip_address: 'mx', test_account: 'probe@ipmx.test.example', port: s.port }),
      monitor('cname-mx', { ip_address: 'mx', test_account: 'probe@cnamemx.test.example', port: s.port }),
      monitor('v6', { ip_address: MAIL_HOST, ipv6: true, port: s.port }),
      monitor('mx-no-address', { ip_address: 'mx', test_account: 'probe@noaddress.test.example', port: s.port }),
    ]);
    expect(r.monitors.map((m) => [m.label, m.outcome, m.findings.map((f) => f.check)])).toEqual([
      ['no-host', 'fail', ['monitor/unresolvable']],
      ['no-mx', 'fail', ['monitor/unresolvable']],
      ['null-mx', 'fail', ['monitor/null-mx']],
      ['ip-mx', 'warning', ['monitor/mx-not-hostname']],
      ['cname-mx', 'warning', ['monitor/mx-not-hostname']],
      ['v6', 'fail', ['monitor/unresolvable']],
      ['mx-no-address', 'fail', ['monitor/unresolvable']],
    ]);
    expect(r.monitors[5]!.findings[0]!.message).toContain('no AAAA address');
    // The alias is followed: the CNAME MX's server was still tested.
    expect(r.monitors[4]!.steps.find((x) => x.step === 'rcpt')?.status).toBe('pass');
    expect(dns.questions).toContain('MX nullmx.test.example');
  });

  it('tests the primary MX for mx, and every MX host in preference order for mx:failover', async () => {
    const s = await smtp();
    const r = await run([
      monitor('primary', { ip_address: 'mx', test_account: 'probe@mx.test.example', port: s.port }),
      monitor('failover', { ip_address: 'mx:failover', test_account: 'probe@mx.test.example', port: s.port }),
    ]);
    expect(r.monitors[0]!.steps.filter((x) => x.step === 'connect').map((x) => x.host)).toEqual([MAIL_HOST]);
    expect(r.monitors[1]!.steps.filter((x) => x.step === 'connect').map((x) => x.host)).toEqual([MAIL_HOST, 'backup.test.example']);
    expect(r.monitors[0]!.steps[0]!.text).toBe('MX mx.test.example: 10 mail.test.example, 20 backup.test.example');
    expect(r.monitors.map((m) => m.outcome)).toEqual(['pass', 'pass']);
  });

  it('fails a closed port as monitor/connection-failed when another server could be reached', async () => {
    const s = await smtp();
    const closed = await closedPort();
    const r = await run([monitor('open', { port: s.port }), monitor('closed', { port: closed })]);
    expect(r.inconclusive).toBe(false);
    expect(checksOf(r, 1)).toEqual(['error monitor/connection-failed']);
  });

  it('reads as inconclusive when no server at all can be reached, and still counts what DNS found', async () => {
    const closed = await closedPort();
    const r = await run([
      monitor('blocked', { port: closed }),
      monitor('no-host', { ip_address: 'nowhere.test.example', port: closed }),
      monitor('no-host-25', { ip_address: 'nowhere.test.example' }),
    ]);
    expect(r.inconclusive).toBe(true);
    expect(r.monitors.map((m) => m.outcome)).toEqual(['inconclusive', 'fail', 'fail']);
    expect(r.monitors[0]!.findings).toEqual([]);
    expect(r.monitors[0]!.steps.find((x) => x.step === 'connect')!.status).toBe('unreachable');
    // Only the ports a connection was tried on: port 25 of the unresolvable one was never tried.
    expect(r.ports).toEqual([closed]);
  });

  it('fails a server that does not greet with 220', async () => {
    const s = await smtp({ refuseGreeting: true });
    const r = await run([monitor('no-greeting', { port: s.port })]);
    expect(checksOf(r)).toEqual(['error monitor/smtp-failed']);
    expect(r.monitors[0]!.findings[0]!.message).toMatch(/greeting: 554/);
  });

  it('runs the live checks at the severities settings.checks gives them, and not on a monitor that disables them', async () => {
    const s = await smtp({ recipients: { 'probe@test.example': 'greylist' } });
    const levels: Settings = { ...settings, checks: { 'monitor/greylisted': 'error' } };
    const r = await run([monitor('a', { port: s.port }), monitor('b', { port: s.port }, { disable_checks: ['monitor/greylisted'] })], { settings: levels });
    expect(checksOf(r, 0)).toEqual(['error monitor/greylisted']);
    expect(r.monitors[1]!.outcome).toBe('pass');
    const off = await run([monitor('a', { port: s.port })], { settings: { ...settings, checks: { 'monitor/greylisted': 'off' } } });
    expect(off.monitors[0]!.outcome).toBe('pass');
  });
});

describe('plan stays read-only towards everything but the API', () => {
  it('runs none of the live checks: a monitor whose host does not resolve plans without a finding of the mail path', async () => {
    const { runChecks, CHECKS } = await import('../../src/checks/index.js');
    const live = new Set<string>(CHECKS.filter((c) => 'live' in c).map((c) => c.name));
    const state = { settings, monitors: [monitor('no-host', { ip_address: 'nowhere.invalid' })], alerts: [], groups: [], files: ['monsync.yaml'] };
    const findings = runChecks(state);
    expect(findings.map((f) => f.check)).toContain('alert/missing');
    expect(findings.filter((f) => live.has(f.check))).toEqual([]);
    expect(dns.questions.filter((q) => q.includes('nowhere.invalid'))).toEqual([]);
  });
});

// Issue 36, item 8: `monsync test` had no overall bound, and connected wherever a configuration pointed.
describe('the bounds of a run', () => {
  it(`tries at most ${MAX_HOSTS_PER_MONITOR} of a monitor's MX hosts, and names the ones it did not try`, async () => {
    const silent = await silentServer();
    try {
      const r = await run([monitor('many', { ip_address: 'mx', test_account: 'probe@many.test.example', port: silent.port })], { stepMs: 300 });
      expect(silent.connections()).toBe(MAX_HOSTS_PER_MONITOR);
      const m = r.monitors[0]!;
      expect(m.steps.filter((x) => x.step === 'connect')).toHaveLength(MAX_HOSTS_PER_MONITOR);
      expect(m.steps.find((x) => x.step === 'mx' && x.status === 'note')?.text).toBe(
        `7 more MX hosts of many.test.example not tried: at most ${MAX_HOSTS_PER_MONITOR} a monitor (mx0.many.test.example, mx1.many.test.example, mx10.many.test.example, mx11.many.test.example, mx2.many.test.example were)`,
      );
    } finally {
      await silent.close();
    }
  });

  it('ends at its deadline: the dialogue in flight is closed, nothing more is tried, and what was not tested is inconclusive, not failed', async () => {
    const controller = new AbortController();
    // The deadline passes while the first server keeps the dialogue waiting for its greeting.
    const silent = await silentServer(() => setImmediate(() => controller.abort("the run's deadline of 1 s passed (--deadline)")));
    try {
      const r = await run(
        [monitor('first', { port: silent.port }), monitor('second', { port: silent.port }), monitor('third', { ip_address: 'mx', test_account: 'probe@many.test.example', port: silent.port })],
        // A step limit far past the test's own: only the deadline can end this run in time.
        { stepMs: 120_000, concurrency: 1, signal: controller.signal },
      );
      expect(silent.connections()).toBe(1);
      expect(r.monitors.map((m) => [m.label, m.outcome, m.findings.length])).toEqual([
        ['first', 'inconclusive', 0],
        ['second', 'inconclusive', 0],
        ['third', 'inconclusive', 0],
      ]);
      expect(r.monitors[0]!.steps.at(-1)).toMatchObject({ step: 'connect', status: 'unreachable', text: `127.0.0.1:${silent.port}: not finished: the run's deadline of 1 s passed (--deadline)` });
      expect(r.monitors[1]!.steps).toEqual([{ step: 'dns', status: 'unreachable', text: "not tested: the run's deadline of 1 s passed (--deadline)" }]);
      // A run the deadline cut is not "this machine cannot reach port 25".
      expect(r.inconclusive).toBe(false);
    } finally {
      await silent.close();
    }
  }, 20_000);

  it('names a loopback, link-local or private server and does not connect to it unless allowed', async () => {
    const s = await smtp();
    const r = await run(
      [
        monitor('loopback', { port: s.port }),
        monitor('metadata', { ip_address: 'metadata.test.example', port: s.port }),
        monitor('private', { ip_address: '10.1.2.3', port: s.port }),
        monitor('mapped', { ip_address: '::ffff:192.168.1.5', port: s.port }),
      ],
      { allowPrivate: false },
    );
    expect(s.commands).toEqual([]);
    expect(r.monitors.map((m) => [m.label, m.outcome, m.findings.length])).toEqual([
      ['loopback', 'inconclusive', 0],
      ['metadata', 'inconclusive', 0],
      ['private', 'inconclusive', 0],
      ['mapped', 'inconclusive', 0],
    ]);
    const said = r.monitors.map((m) => m.steps.find((x) => x.step === 'connect')!.text);
    expect(said[0]).toBe(
      `127.0.0.1:${s.port}: a loopback address (this machine): not connected to (the configuration could point this machine at its own network; --allow-private tests it), and the service, on the internet, cannot reach it either`,
    );
    expect(said[1]).toMatch(/^169\.254\.169\.254:\d+: a link-local address \(the cloud metadata service\): not connected to/);
    expect(said[2]).toMatch(/^10\.1\.2\.3:\d+: a private address: not connected to/);
    expect(said[3]).toMatch(/^\[::ffff:192\.168\.1\.5\]:\d+: a private address: not connected to/);
    const allowed = await run([monitor('loopback', { port: s.port })], { allowPrivate: true });
    expect(allowed.monitors[0]!.outcome).toBe('pass');
  });

  it('judges a name resolving to a NAT64, 6to4 or Teredo form by the IPv4 address inside, and refuses special-purpose ranges, without connecting', async () => {
    const s = await smtp();
    const r = await run(
      [
        monitor('nat64', { ip_address: 'nat64.test.example', ipv6: true, port: s.port }),
        monitor('nat64-local', { ip_address: 'nat64-local.test.example', ipv6: true, port: s.port }),
        monitor('sixtofour', { ip_address: 'sixtofour.test.example', ipv6: true, port: s.port }),
        monitor('teredo', { ip_address: 'teredo.test.example', ipv6: true, port: s.port }),
        monitor('bench', { ip_address: 'bench.test.example', port: s.port }),
        monitor('broadcast', { ip_address: 'broadcast.test.example', port: s.port }),
        monitor('literal', { ip_address: '64:ff9b::7f00:1', ipv6: true, port: s.port }),
      ],
      { allowPrivate: false },
    );
    expect(s.commands).toEqual([]);
    expect(r.monitors.map((m) => m.outcome)).toEqual(Array(7).fill('inconclusive'));
    const said = r.monitors.map((m) => m.steps.find((x) => x.step === 'connect')!.text);
    expect(said[0]).toMatch(/^\[64:ff9b::a00:1\]:\d+: a private address \(10\.0\.0\.1, inside the NAT64 well-known prefix .*\): not connected to/);
    expect(said[1]).toMatch(/^\[64:ff9b:1::7f00:1\]:\d+: a loopback address \(this machine\) \(127\.0\.0\.1, inside the NAT64 local-use prefix/);
    expect(said[2]).toMatch(/: a link-local address \(the cloud metadata service\) \(169\.254\.169\.254, inside the 6to4/);
    expect(said[3]).toMatch(/: a link-local address \(the cloud metadata service\) \(169\.254\.169\.254, inside the TEREDO/);
    expect(said[4]).toMatch(/^198\.18\.0\.1:\d+: a benchmarking address: not connected to/);
    expect(said[5]).toMatch(/^255\.255\.255\.255:\d+: the limited broadcast address: not connected to/);
    expect(said[6]).toMatch(/^\[64:ff9b::7f00:1\]:\d+: a loopback address/);
  });
});
