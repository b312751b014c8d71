/**
 * The certificates of `monsync emulator --tls`: a certificate authority made at start and a server
 * certificate it signs for the names the emulator answers on (the --host value, localhost,
 * 127.0.0.1, ::1). A client trusts the emulator by trusting the CA (NODE_EXTRA_CA_CERTS for Node),
 * exactly as a company proxy's CA is trusted; nothing is installed anywhere.
 *
 * Node's crypto makes the keys but cannot issue an X.509 certificate (it only parses them), and
 * openssl is not on every machine: node-forge (no dependencies of its own) builds and signs them.
 * It is loaded only when TLS is asked for.
 */
import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { isIP } from 'node:net';

export interface TlsMaterial {
  /** PEM: the server's private key. */
  key: string;
  /** PEM: the server's certificate, then the CA's (the chain it presents). */
  cert: string;
  /** PEM: the CA certificate a client must trust. */
  ca: string;
}

const DAY_MS = 86_400_000;

/**
 * A certificate serial number as node-forge takes it (hex): 16 random bytes, the first in 0x40-0x7f, so that
 * it is positive, never zero, 126 random bits, and its DER encoding is minimal whatever the bytes. It was `0`
 * and 15 random bytes: forge encodes an odd-length hex string with a zero byte for the lone digit and strips
 * only one leading zero, so a first random byte of 0x00 followed by one under 0x80 (1 certificate in 512, 1
 * start in 256) made an INTEGER with two leading zero octets, which OpenSSL refuses ("illegal padding"): the
 * emulator served, and the test made, a certificate no client could parse.
 */
export function serialNumber(random: Buffer): string {
  if (random.length !== 16) throw new Error(`a serial number takes 16 random bytes, not ${random.length}`);
  const bytes = Buffer.from(random);
  bytes[0] = (bytes[0]! & 0x3f) | 0x40;
  return bytes.toString('hex');
}

/**
 * A fresh CA and a server certificate for `host` (and the loopback names), valid from a day ago for 30 days.
 * `random` gives the serial numbers' bytes (tests give chosen ones).
 */
export async function makeTlsMaterial(host: string, now = Date.now(), random: (size: number) => Buffer = randomBytes): Promise<TlsMaterial> {
  const forge = (await import('node-forge')).default;
  const { pki, md } = forge;
  // RSA, as node-forge signs with nothing else; made off the main thread, both at once (most of the start's time).
  const pair = async () => {
    const { privateKey, publicKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
    return {
      privateKey: pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()),
      publicKey: pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
    };
  };
  const [caKeys, serverKeys] = await Promise.all([pair(), pair()]);
  const base = (publicKey: (typeof caKeys)['publicKey'], commonName: string) => {
    const cert = pki.createCertificate();
    cert.publicKey = publicKey;
    // Positive and unique per start, as RFC 5280 asks.
    cert.serialNumber = serialNumber(random(16));
    // A day back: a client whose clock is a little behind still accepts it.
    cert.validity.notBefore = new Date(now - DAY_MS);
    cert.validity.notAfter = new Date(now + 30 * DAY_MS);
    cert.setSubject([
      { name: 'commonName', value: commonName },
      { name: 'organizationName', value: 'monsync emulator' },
    ]);
    return cert;
  };

  const ca = base(caKeys.publicKey, 'monsync emulator CA');
  ca.setIssuer(ca.subject.attributes);
  ca.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  ca.sign(caKeys.privateKey, md.sha256.create());

  const server = base(serverKeys.publicKey, host);
  server.setIssuer(ca.subject.attributes);
  const names = [...new Set([host, 'localhost', '127.0.0.1', '::1'])].filter((n) => n !== '' && n !== '0.0.0.0' && n !== '::');
  server.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    // Type 7 is an IP address, 2 a DNS name.
    { name: 'subjectAltName', altNames: names.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })) },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: ca.generateSubjectKeyIdentifier().getBytes() },
  ]);
  server.sign(caKeys.privateKey, md.sha256.create());

  const caPem = pki.certificateToPem(ca);
  return { key: pki.privateKeyToPem(serverKeys.privateKey), cert: pki.certificateToPem(server) + caPem, ca: caPem };
}
