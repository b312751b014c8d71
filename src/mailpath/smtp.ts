/**
 * One SMTP dialogue as the service would begin it, stopped before anything is sent: connect, the
 * greeting, EHLO, STARTTLS when it would be used, EHLO again, MAIL FROM, RCPT TO, then RSET and QUIT.
 * Never DATA: the command list is fixed in this file, and `commands` records every line sent.
 *
 * Written on node:net and node:tls rather than nodemailer's SMTPConnection: its public API has no
 * way to stop after RCPT (`send()` goes on to DATA once a recipient is accepted), it does not expose
 * the greeting's time or the EHLO capabilities, and it hides the certificate behind its own checks.
 * The dialogue needed here is six commands and a reply parser (CONTRIBUTING.md, "Mail path").
 *
 * Every step has its own time limit (`stepMs`); failures are values, never thrown.
 */
import { connect as netConnect, type Socket } from 'node:net';
import { checkServerIdentity, connect as tlsConnect, rootCertificates, type PeerCertificate, type TLSSocket } from 'node:tls';

export type UseTlsMode = 'on' | 'off' | 'auto';

export interface SmtpProbeOptions {
  /** The name the service connects to: SNI and the certificate's name match (an IP literal for an IP target). */
  host: string;
  /** The address connected to. */
  address: string;
  port: number;
  useTls: UseTlsMode;
  testAccount: string;
  /** Reverse path of MAIL FROM; '' is the null sender `<>`. */
  mailFrom: string;
  heloName: string;
  stepMs: number;
  /** Extra trusted CA certificates (PEM), besides Node's own (NODE_EXTRA_CA_CERTS included). */
  ca?: string[];
  /** Unix milliseconds now, for days to expiry. */
  now: number;
  /**
   * The run's deadline: aborted, the connection is closed at once and the dialogue ends with the
   * signal's reason (a string) as the step's.
   */
  signal?: AbortSignal;
}

export interface Reply {
  code: number;
  /** The reply's lines without their codes, joined by ' / '. */
  text: string;
  ms: number;
}

export interface CertificateInfo {
  subject: string;
  issuer: string;
  /** Subjects from the server's certificate up to the last one it sent (or its root). */
  chain: string[];
  validTo: string;
  daysLeft: number;
  /** Trusted by this machine's CAs; the reason when not. */
  trusted: boolean;
  trustError: string | null;
  nameMatches: boolean;
  nameError: string | null;
}

export interface TlsOutcome {
  ok: boolean;
  protocol: string | null;
  ms: number;
  certificate: CertificateInfo | null;
  error: string | null;
}

export interface SmtpProbeResult {
  connected: boolean;
  connectMs: number | null;
  /** errno code of a failed connection (ECONNREFUSED, ETIMEDOUT, EHOSTUNREACH ...) or TIMEOUT. */
  connectError: { code: string; message: string } | null;
  greeting: Reply | null;
  ehlo: Reply | null;
  capabilities: string[];
  starttlsOffered: boolean;
  /** Whether STARTTLS was (or, for `auto`, would be) used. */
  tlsUsed: boolean;
  tls: TlsOutcome | null;
  mail: Reply | null;
  rcpt: Reply | null;
  /** A step that ended the dialogue early, and why (a reply, a time limit, a closed connection). */
  stoppedAt: { step: string; reason: string } | null;
  /** Every command line sent, in order: RSET and QUIT end it, DATA never appears. */
  commands: string[];
}

class DialogueError extends Error {}

/** Reads SMTP replies (RFC 5321 4.2: `250-...` continues, `250 ...` ends) off a socket that may be swapped for TLS. */
class Dialogue {
  private buffer = '';
  private lines: string[] = [];
  private waiter: (() => void) | null = null;
  private closed: string | null = null;
  readonly commands: string[] = [];

  constructor(
    private socket: Socket | TLSSocket,
    private readonly stepMs: number,
  ) {
    this.attach(socket);
  }

  private readonly onData = (chunk: Buffer) => {
    this.buffer += chunk.toString('latin1');
    let i: number;
    while ((i = this.buffer.indexOf('\n')) >= 0) {
      this.lines.push(this.buffer.slice(0, i).replace(/\r$/, ''));
      this.buffer = this.buffer.slice(i + 1);
    }
    this.wake();
  };
  private readonly onEnd = () => {
    this.closed ??= 'the server closed the connection';
    this.wake();
  };
  private readonly onError = (err: Error) => {
    this.closed ??= `connection error: ${(err as NodeJS.ErrnoException).code ?? err.message}`;
    this.wake();
  };

  private wake() {
    const w = this.waiter;
    this.waiter = null;
    w?.();
  }

  private attach(s: Socket | TLSSocket) {
    s.on('data', this.onData);
    s.on('end', this.onEnd);
    s.on('close', this.onEnd);
    s.on('error', this.onError);
  }

  detach(): Socket | TLSSocket {
    this.socket.off('data', this.onData);
    this.socket.off('end', this.onEnd);
    this.socket.off('close', this.onEnd);
    this.socket.off('error', this.onError);
    return this.socket;
  }

  swap(s: TLSSocket) {
    this.socket = s;
    this.buffer = '';
    this.lines = [];
    this.attach(s);
  }

  /** The next complete reply, within the step's time limit. */
  async reply(): Promise<Reply> {
    const started = performance.now();
    const deadline = started + this.stepMs;
    const parts: string[] = [];
    for (;;) {
      const line = this.lines.shift();
      if (line !== undefined) {
        const m = /^(\d{3})([ -]?)(.*)$/.exec(line);
        if (!m) throw new DialogueError(`not an SMTP reply: ${line.slice(0, 80)}`);
        parts.push(m[3]!.trim());
        if (m[2] !== '-') return { code: Number(m[1]), text: parts.filter(Boolean).join(' / '), ms: performance.now() - started };
        continue;
      }
      if (this.closed) throw new DialogueError(this.closed);
      const left = deadline - performance.now();
      if (left <= 0) throw new DialogueError(`no reply within ${Math.round(this.stepMs / 1000)} s`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
  }

  async command(line: string): Promise<Reply> {
    this.commands.push(line);
    if (this.closed) throw new DialogueError(this.closed);
    this.socket.write(`${line}\r\n`);
    return this.reply();
  }

  /** A last command whose answer does not matter (RSET, QUIT). */
  async polite(line: string): Promise<void> {
    if (this.closed) return;
    try {
      await this.command(line);
    } catch {
      // The probe's result is already known; a server that hangs up on QUIT changes nothing.
    }
  }

  close() {
    this.socket.destroy();
  }

  /** Ends the dialogue now: the step waiting fails with `reason`. */
  abort(reason: string) {
    this.closed = reason;
    this.wake();
    this.socket.destroy();
  }
}

/** The reason an aborted probe gives: the signal's own when it is text. */
function stopReason(signal: AbortSignal): string {
  return typeof signal.reason === 'string' ? signal.reason : 'stopped';
}

function connectTcp(address: string, port: number, ms: number, signal?: AbortSignal): Promise<{ socket: Socket } | { code: string; message: string }> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve({ code: 'STOPPED', message: stopReason(signal) });
      return;
    }
    const socket = netConnect({ host: address, port });
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      socket.destroy();
      resolve({ code: 'STOPPED', message: stopReason(signal!) });
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => {
      done();
      socket.destroy();
      resolve({ code: 'TIMEOUT', message: `no connection within ${Math.round(ms / 1000)} s` });
    }, ms);
    socket.once('connect', () => {
      done();
      socket.removeAllListeners('error');
      resolve({ socket });
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      done();
      resolve({ code: err.code ?? 'ERROR', message: err.code ? describeConnectError(err.code) : err.message });
    });
  });
}

function describeConnectError(code: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused (nothing listens on the port)';
    case 'EHOSTUNREACH':
      return 'host unreachable';
    case 'ENETUNREACH':
      return 'network unreachable';
    case 'ECONNRESET':
      return 'connection reset';
    default:
      return `connection failed (${code})`;
  }
}

function nameOf(x: Record<string, unknown> | undefined): string {
  if (!x) return '';
  const cn = x.CN;
  if (typeof cn === 'string') return `CN=${cn}`;
  if (Array.isArray(cn)) return `CN=${cn.join(',')}`;
  const o = x.O;
  return typeof o === 'string' ? `O=${o}` : '';
}

function certificateInfo(socket: TLSSocket, host: string, now: number): CertificateInfo | null {
  const cert = socket.getPeerCertificate(true) as PeerCertificate & { issuerCertificate?: PeerCertificate };
  if (!cert || Object.keys(cert).length === 0) return null;
  const chain: string[] = [];
  let c: (PeerCertificate & { issuerCertificate?: PeerCertificate }) | undefined = cert;
  const seen = new Set<string>();
  while (c && !seen.has(c.fingerprint256)) {
    seen.add(c.fingerprint256);
    chain.push(nameOf(c.subject as unknown as Record<string, unknown>));
    c = c.issuerCertificate;
  }
  const identity = checkServerIdentity(host, cert);
  const validTo = new Date(cert.valid_to).toISOString();
  return {
    subject: nameOf(cert.subject as unknown as Record<string, unknown>),
    issuer: nameOf(cert.issuer as unknown as Record<string, unknown>),
    chain,
    validTo,
    daysLeft: Math.floor((Date.parse(cert.valid_to) - now) / 86_400_000),
    trusted: socket.authorized,
    trustError: socket.authorized ? null : String(socket.authorizationError ?? 'not trusted'),
    nameMatches: identity === undefined,
    nameError: identity ? identity.message : null,
  };
}

/** STARTTLS's handshake over the open connection; the certificate is looked at, never a reason to hang up. */
function startTls(plain: Socket, o: SmtpProbeOptions): Promise<{ socket: TLSSocket | null; outcome: TlsOutcome }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = tlsConnect({
      socket: plain,
      // SNI takes names only.
      servername: /^[\d.]+$|:/.test(o.host) ? undefined : o.host,
      rejectUnauthorized: false,
      ca: o.ca && o.ca.length > 0 ? [...rootCertificates, ...o.ca] : undefined,
    });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ socket: null, outcome: { ok: false, protocol: null, ms: performance.now() - started, certificate: null, error: `no TLS handshake within ${Math.round(o.stepMs / 1000)} s` } });
    }, o.stepMs);
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve({
        socket,
        outcome: { ok: true, protocol: socket.getProtocol(), ms: performance.now() - started, certificate: certificateInfo(socket, o.host, o.now), error: null },
      });
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      resolve({ socket: null, outcome: { ok: false, protocol: null, ms: performance.now() - started, certificate: null, error: err.message } });
    });
  });
}

export async function probeSmtp(o: SmtpProbeOptions): Promise<SmtpProbeResult> {
  const r: SmtpProbeResult = {
    connected: false,
    connectMs: null,
    connectError: null,
    greeting: null,
    ehlo: null,
    capabilities: [],
    starttlsOffered: false,
    tlsUsed: false,
    tls: null,
    mail: null,
    rcpt: null,
    stoppedAt: null,
    commands: [],
  };
  const started = performance.now();
  const tcp = await connectTcp(o.address, o.port, o.stepMs, o.signal);
  if (!('socket' in tcp)) {
    r.connectError = tcp;
    return r;
  }
  r.connected = true;
  r.connectMs = performance.now() - started;
  const d = new Dialogue(tcp.socket, o.stepMs);
  const onAbort = () => d.abort(stopReason(o.signal!));
  o.signal?.addEventListener('abort', onAbort, { once: true });
  let step = 'greeting';
  try {
    r.greeting = await d.reply();
    if (r.greeting.code !== 220) {
      r.stoppedAt = { step, reason: `${r.greeting.code} ${r.greeting.text}` };
      await d.polite('QUIT');
      return r;
    }
    step = 'ehlo';
    r.ehlo = await d.command(`EHLO ${o.heloName}`);
    if (r.ehlo.code !== 250) {
      r.stoppedAt = { step, reason: `${r.ehlo.code} ${r.ehlo.text}` };
      await d.polite('QUIT');
      return r;
    }
    r.capabilities = capabilitiesOf(r.ehlo.text);
    r.starttlsOffered = r.capabilities.some((c) => c.toUpperCase() === 'STARTTLS');
    r.tlsUsed = o.useTls !== 'off' && r.starttlsOffered;
    if (o.useTls === 'on' && !r.starttlsOffered) {
      // The service would not go on: `on` requires STARTTLS.
      r.stoppedAt = { step: 'tls', reason: 'the server does not offer STARTTLS' };
      await d.polite('QUIT');
      return r;
    }
    if (r.tlsUsed) {
      step = 'starttls';
      const go = await d.command('STARTTLS');
      if (go.code !== 220) {
        r.tls = { ok: false, protocol: null, ms: go.ms, certificate: null, error: `STARTTLS answered ${go.code} ${go.text}` };
        r.stoppedAt = { step: 'tls', reason: r.tls.error! };
        await d.polite('QUIT');
        return r;
      }
      const plain = d.detach() as Socket;
      const { socket, outcome } = await startTls(plain, o);
      r.tls = outcome;
      if (!socket) {
        r.stoppedAt = { step: 'tls', reason: outcome.error ?? 'TLS handshake failed' };
        plain.destroy();
        return r;
      }
      d.swap(socket);
      step = 'ehlo';
      const again = await d.command(`EHLO ${o.heloName}`);
      if (again.code !== 250) {
        r.stoppedAt = { step, reason: `${again.code} ${again.text} (after STARTTLS)` };
        await d.polite('QUIT');
        return r;
      }
    }
    step = 'mail';
    r.mail = await d.command(`MAIL FROM:<${o.mailFrom}>`);
    if (r.mail.code !== 250) {
      r.stoppedAt = { step, reason: `${r.mail.code} ${r.mail.text}` };
      await d.polite('RSET');
      await d.polite('QUIT');
      return r;
    }
    step = 'rcpt';
    r.rcpt = await d.command(`RCPT TO:<${o.testAccount}>`);
    // Whatever the answer, the dialogue ends here: no DATA, ever.
    await d.polite('RSET');
    await d.polite('QUIT');
    return r;
  } catch (err) {
    r.stoppedAt = { step, reason: err instanceof Error ? err.message : String(err) };
    return r;
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
    r.commands = d.commands;
    d.close();
  }
}

/** EHLO's lines after the first (the server's name), as keywords with their parameters. */
function capabilitiesOf(text: string): string[] {
  return text
    .split(' / ')
    .slice(1)
    .map((s) => s.trim())
    .filter(Boolean);
}
