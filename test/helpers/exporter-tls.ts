/**
 * Certificates for the exporter's TLS tests, made per run (selfsigned): a test CA, a server
 * certificate for 127.0.0.1 signed by it, and a client certificate signed by it (client CA tests).
 */
import selfsigned from 'selfsigned';

export interface ExporterCertificates {
  ca: string;
  server: { cert: string; key: string };
  client: { cert: string; key: string };
}

const DAY = 86_400_000;

/** `caName`: another name makes a CA that has nothing to do with the default one. */
export async function makeExporterCertificates(caName = 'monsync exporter test CA'): Promise<ExporterCertificates> {
  const now = Date.now();
  const ca = await selfsigned.generate([{ name: 'commonName', value: caName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - DAY),
    notAfterDate: new Date(now + 30 * DAY),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const leaf = async (name: string, usage: 'serverAuth' | 'clientAuth') => {
    const p = await selfsigned.generate([{ name: 'commonName', value: name }], {
      keyType: 'ec',
      algorithm: 'sha256',
      notBeforeDate: new Date(now - DAY),
      notAfterDate: new Date(now + 30 * DAY),
      ca: { key: ca.private, cert: ca.cert },
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'extKeyUsage', [usage]: true },
        ...(usage === 'serverAuth' ? [{ name: 'subjectAltName' as const, altNames: [{ type: 7 as const, ip: '127.0.0.1' }, { type: 2 as const, value: 'localhost' }] }] : []),
      ],
    });
    return { cert: p.cert, key: p.private };
  };
  return { ca: ca.cert, server: await leaf('127.0.0.1', 'serverAuth'), client: await leaf('prometheus', 'clientAuth') };
}
