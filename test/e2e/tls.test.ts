/**
 * The emulator over HTTPS (`startEmulator({ tls: true })`, as `monsync emulator --tls`): a CA made
 * at start signs its certificate. The built CLI trusts it through NODE_EXTRA_CA_CERTS, which Node
 * reads when the process starts (so it serves the CLI as it is; nothing of monsync's own is
 * needed): plan, apply and doctor's TLS line work end to end. Without the CA the handshake fails
 * with a message saying what to do, and is not retried: nothing reaches the service.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, buildCli, cliEnv, expectCleanOutput, runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { Workspace, configYaml } from './support.js';

let emu: TestEmulator;
let ws: Workspace;
let caFile: string;
const handshakeFailures: string[] = [];

beforeAll(async () => {
  await buildCli();
  ws = await Workspace.create();
  emu = await startTestEmulator({ seed: 'default', tls: true, onTlsError: (err) => handshakeFailures.push(err.message) });
  caFile = ws.path('ca.pem');
  if (emu.ca === null) throw new Error('the emulator started with tls reported no CA');
  await writeFile(caFile, emu.ca, 'utf8');
  await ws.write('tls/monsync.yaml', configYaml({ monitors: [{ label: 'tls-1', alerts: [{ subject_init: 'tls-1 down' }] }] }));
}, 300_000);
afterAll(async () => {
  await emu?.close();
  await ws?.remove();
});
beforeEach(() => {
  handshakeFailures.length = 0;
});

/** The emulator's request log (the test helper's control calls trust its CA). */
const requestsSeen = () => emu.control.requests();

const trusting = { NODE_EXTRA_CA_CERTS: '' };

describe('the emulator over HTTPS', () => {
  beforeAll(() => {
    trusting.NODE_EXTRA_CA_CERTS = caFile;
  });

  it('serves https:// with a certificate for 127.0.0.1 signed by the CA it made', async () => {
    expect(emu.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const { X509Certificate } = await import('node:crypto');
    const ca = new X509Certificate(await readFile(caFile));
    expect(ca.ca).toBe(true);
    expect(ca.subject).toContain('CN=monsync emulator CA');
  });

  it('with its CA in NODE_EXTRA_CA_CERTS: apply, then plan shows no changes, and doctor says the certificate is valid', async () => {
    const dir = ws.path('tls');
    const applied = await runCli(['apply', '--auto-approve'], { url: emu.url, cwd: dir, env: trusting });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Apply complete: 2 added');
    expect(applied.stderr).toContain(`Reading account ${emu.url} (demo@example.com) ...\n`);
    const plan = await runCli(['plan', '--detailed-exitcode'], { url: emu.url, cwd: dir, env: trusting });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    const doctor = await runCli(['doctor'], { url: emu.url, cwd: dir, env: trusting });
    expect(doctor.stdout).toMatch(/^\s*ok\s+TLS\s+certificate valid for 127\.0\.0\.1$/m);
    expect(handshakeFailures).toEqual([]);
  }, 60_000);

  it('without it: plan fails at once naming the certificate problem and what to do, sends nothing, retries no handshake', async () => {
    const before = (await requestsSeen()).length;
    const t0 = performance.now();
    const r = await runCli(['plan'], { url: emu.url, cwd: ws.path('tls'), env: { NODE_EXTRA_CA_CERTS: undefined } });
    const ms = performance.now() - t0;
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`Error: TLS handshake with 127\\.0\\.0\\.1:${emu.port} failed: the certificate is not signed by a CA this machine trusts \\(SELF_SIGNED_CERT_IN_CHAIN\\); .*NODE_EXTRA_CA_CERTS`),
    );
    expect(r.stderr).toContain(`Reading account ${emu.url} (demo@example.com) ...\nError: TLS handshake`);
    expectCleanOutput(r);
    // The CLI's requests never got past the handshake.
    expect((await requestsSeen()).length).toBe(before);
    // One handshake per list read at most (the four lists are read side by side): a retry would add more.
    expect(handshakeFailures.length).toBeGreaterThanOrEqual(1);
    expect(handshakeFailures.length).toBeLessThanOrEqual(4);
    // "At once" is time-based: the handshakes are counted above, the clock catches a run that waits
    // out its timeouts (30 s a call) instead of failing. Wide, for a machine whose two cores are busy.
    expect(ms).toBeLessThan(25_000);
  }, 60_000);

  it('without it: doctor reports the TLS line as failed after one handshake', async () => {
    const r = await runCli(['doctor'], { url: emu.url, cwd: ws.path('tls'), env: { NODE_EXTRA_CA_CERTS: undefined } });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/TLS\s+TLS certificate not accepted: SELF_SIGNED_CERT_IN_CHAIN/);
    expect(handshakeFailures).toHaveLength(1);
  }, 60_000);
});

describe('monsync emulator --tls', () => {
  it('prints an https URL and where its CA file is; that file makes the CLI trust it', async () => {
    const ca = ws.path('cli-ca.pem');
    const child = spawn(process.execPath, [BIN, 'emulator', '--tls', '--port', '0', '--tls-ca-file', ca], { cwd: ws.path('.'), env: cliEnv('unused') });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no listening line: ${stdout} ${stderr}`)), 20_000);
        child.stdout.on('data', () => {
          const m = /^listening on (https:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout);
          if (m) {
            clearTimeout(t);
            resolve(m[1]!);
          }
        });
      });
      await new Promise((r) => setTimeout(r, 100));
      expect(stderr).toContain(`export NODE_EXTRA_CA_CERTS=${ca}`);
      const trusted = await runCli(['doctor'], { url, env: { NODE_EXTRA_CA_CERTS: ca } });
      expect(trusted.stdout).toMatch(/ok\s+TLS\s+certificate valid for 127\.0\.0\.1/);
      const untrusted = await runCli(['doctor'], { url, env: { NODE_EXTRA_CA_CERTS: undefined } });
      expect(untrusted.code).toBe(1);
      await new Promise((r) => setTimeout(r, 200));
      expect(stderr).toMatch(new RegExp(`a client's TLS handshake failed \\(.*\\); does it trust the CA in ${ca.replace(/[.]/g, '\\.')}\\?`));
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('close', r));
    }
  }, 60_000);
});

