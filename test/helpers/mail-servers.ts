/**
 * Real servers on 127.0.0.1 for `monsync test`'s tests: an SMTP server (smtp-server) that logs every
 * command it receives, with or without STARTTLS, accepting, refusing or greylisting recipients; a
 * DNS server (dns2, UDP and TCP) answering A, AAAA, MX and CNAME from a table; certificates made for
 * the test by a test CA (selfsigned): valid, expired, for another name.
 */
import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer } from 'node:net';
import dns2 from 'dns2';
import selfsigned from 'selfsigned';
import { SMTPServer } from 'smtp-server';

export interface TestCertificates {
  /** The test CA's certificate (PEM): trusted by passing it as `ca`. */
  ca: string;
  valid: KeyPair;
  expired: KeyPair;
  expiringSoon: KeyPair;
  wrongName: KeyPair;
}

interface KeyPair {
  key: string;
  cert: string;
}

const DAY = 86_400_000;

/** Host name the certificates are for (and the DNS table names). */
export const MAIL_HOST = 'mail.test.example';

export async function makeCertificates(): Promise<TestCertificates> {
  const now = Date.now();
  const ca = await selfsigned.generate([{ name: 'commonName', value: 'monsync test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 30 * DAY),
    notAfterDate: new Date(now + 3650 * DAY),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const leaf = async (name: string, from: number, to: number): Promise<KeyPair> => {
    const p = await selfsigned.generate([{ name: 'commonName', value: name }], {
      keyType: 'ec',
      algorithm: 'sha256',
      notBeforeDate: new Date(from),
      notAfterDate: new Date(to),
      ca: { key: ca.private, cert: ca.cert },
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames: [{ type: 2, value: name }] },
      ],
    });
    return { key: p.private, cert: p.cert };
  };
  return {
    ca: ca.cert,
    valid: await leaf(MAIL_HOST, now - DAY, now + 90 * DAY),
    expired: await leaf(MAIL_HOST, now - 100 * DAY, now - 10 * DAY),
    expiringSoon: await leaf(MAIL_HOST, now - 80 * DAY, now + 5 * DAY + DAY / 2),
    wrongName: await leaf('other.test.example', now - DAY, now + 90 * DAY),
  };
}

export type RecipientRule = 'accept' | 'refuse' | 'greylist';

export interface SmtpOptions {
  /** Offer STARTTLS with this certificate; no STARTTLS without one. */
  tls?: KeyPair;
  /** What RCPT TO gets, by address; `accept` for any other. */
  recipients?: Record<string, RecipientRule>;
  /** A greeting other than 220 (the server refuses every session). */
  refuseGreeting?: boolean;
}

export interface TestSmtp {
  port: number;
  /** Every command line the server received, across sessions, in order. */
  commands: string[];
  /** How many times a message body was received (DATA): must stay 0. */
  dataCount: number;
  close(): Promise<void>;
}

export async function startSmtp(o: SmtpOptions = {}): Promise<TestSmtp> {
  const commands: string[] = [];
  const state = { dataCount: 0 };
  const debug = (_meta: unknown, ...args: unknown[]) => {
    if (args[0] === 'C:' && typeof args[1] === 'string') commands.push(args[1]);
  };
  const quiet = () => undefined;
  const server = new SMTPServer({
    secure: false,
    name: MAIL_HOST,
    banner: 'test ESMTP',
    authOptional: true,
    // No reverse lookup of 127.0.0.1 before the greeting: tests stay on loopback and fast.
    disableReverseLookup: true,
    disabledCommands: o.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(o.tls ? { key: o.tls.key, cert: o.tls.cert } : {}),
    logger: { trace: quiet, debug, info: quiet, warn: quiet, error: quiet, fatal: quiet } as never,
    onConnect(_session, cb) {
      if (o.refuseGreeting) return cb(Object.assign(new Error('no service here'), { responseCode: 554 }));
      cb();
    },
    onRcptTo(address, _session, cb) {
      const rule = o.recipients?.[address.address] ?? 'accept';
      if (rule === 'refuse') return cb(Object.assign(new Error(`5.1.1 <${address.address}>: user unknown`), { responseCode: 550 }));
      if (rule === 'greylist') return cb(Object.assign(new Error('4.7.1 greylisted, try again later'), { responseCode: 451 }));
      cb();
    },
    onData(stream, _session, cb) {
      state.dataCount++;
      stream.resume();
      stream.on('end', () => cb());
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = ((server as unknown as { server: { address(): AddressInfo } }).server.address()).port;
  return {
    port,
    commands,
    get dataCount() {
      return state.dataCount;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export { closedPort } from './ports.js';

export interface DnsRecords {
  A?: string[];
  AAAA?: string[];
  MX?: { exchange: string; priority: number }[];
  CNAME?: string;
}

export interface TestDns {
  port: number;
  /** `127.0.0.1:port`, for MONSYNC_DNS_SERVERS. */
  server: string;
  /** Questions received, as `TYPE name`. */
  questions: string[];
  close(): Promise<void>;
}

/** Names not in the table answer NXDOMAIN; a name without records of the asked type answers with none (NODATA). */
export async function startDns(table: Record<string, DnsRecords>): Promise<TestDns> {
  const { Packet } = dns2;
  const questions: string[] = [];
  const typeName = (t: number) => Object.entries(Packet.TYPE).find(([, v]) => v === t)?.[0] ?? String(t);
  const server = dns2.createServer({
    udp: true,
    tcp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const q = request.questions[0]!;
      const name = q.name.toLowerCase().replace(/\.$/, '');
      questions.push(`${typeName(q.type)} ${name}`);
      const rec = table[name];
      if (!rec) {
        response.header.rcode = 3;
        return send(response);
      }
      const base = { name: q.name, class: Packet.CLASS.IN, ttl: 60 };
      if (rec.CNAME && q.type !== Packet.TYPE.CNAME) {
        // An alias: the CNAME, then what its target has of the asked type.
        response.answers.push({ ...base, type: Packet.TYPE.CNAME, domain: rec.CNAME } as never);
        const target = table[rec.CNAME];
        if (target) addRecords(response, q.type, { ...base, name: rec.CNAME }, target);
      } else if (rec.CNAME) {
        response.answers.push({ ...base, type: Packet.TYPE.CNAME, domain: rec.CNAME } as never);
      } else addRecords(response, q.type, base, rec);
      send(response);
    },
  });
  server.on('requestError', () => undefined);
  const listening = new Promise<void>((resolve) => server.on('listening', () => resolve()));
  // UDP and TCP on one port: the TCP server takes port 0, UDP follows it.
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  server.listen({ udp: { port, address: '127.0.0.1' }, tcp: { port, address: '127.0.0.1' } } as never);
  await listening;
  let closing: Promise<void> | undefined;
  // Once: dns2 throws when closed twice.
  const close = () => (closing ??= Promise.resolve(server.close() as unknown as Promise<void>));
  return { port, server: `127.0.0.1:${port}`, questions, close };
}

function addRecords(response: { answers: unknown[] }, type: number, base: Record<string, unknown>, rec: DnsRecords): void {
  const { Packet } = dns2;
  if (type === Packet.TYPE.A) for (const address of rec.A ?? []) response.answers.push({ ...base, type, address });
  if (type === Packet.TYPE.AAAA) for (const address of rec.AAAA ?? []) response.answers.push({ ...base, type, address });
  if (type === Packet.TYPE.MX) for (const mx of rec.MX ?? []) response.answers.push({ ...base, type, exchange: mx.exchange, priority: mx.priority });
}
