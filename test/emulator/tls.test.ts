/**
 * The certificates of `emulator --tls` (src/emulator/tls.ts): a CA, and a server certificate it
 * signed for the host and the loopback names, valid now. (The emulator serving them to the CLI is
 * test/e2e/tls.test.ts.)
 */
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeTlsMaterial } from '../../src/emulator/tls.js';

describe('makeTlsMaterial', () => {
  it('makes a CA certificate and a server certificate that chains to it, for the host and the loopback names', async () => {
    const m = await makeTlsMaterial('127.0.0.1');
    const ca = new X509Certificate(m.ca);
    const server = new X509Certificate(m.cert);
    expect(server.checkIssued(ca)).toBe(true);
    expect(server.verify(ca.publicKey)).toBe(true);
    expect(server.ca).toBe(false);
    expect(server.subjectAltName).toBe('IP Address:127.0.0.1, DNS:localhost, IP Address:0:0:0:0:0:0:0:1');
    expect(server.checkHost('localhost')).toBe('localhost');
    expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
  });

  it('names a --host given as a DNS name too, and is valid from a day back for 30 days', async () => {
    const now = Date.UTC(2026, 0, 10);
    const server = new X509Certificate((await makeTlsMaterial('emu.test', now)).cert);
    expect(server.subjectAltName).toBe('DNS:emu.test, DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    expect(Date.parse(server.validFrom)).toBe(now - 86_400_000);
    expect(Date.parse(server.validTo)).toBe(now + 30 * 86_400_000);
  });
});
