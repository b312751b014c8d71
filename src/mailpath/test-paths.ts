/**
 * `monsync test`'s work, without printing: for each declared SMTP monitor, what the service does up
 * to the point of sending, from this machine: DNS (the host's A or AAAA; for `mx` and `mx:failover`
 * the MX of the test account's domain and each MX host's addresses), TCP to the monitor's port,
 * greeting, EHLO, STARTTLS as `use_tls` says, MAIL FROM and RCPT TO:<test_account>, then RSET and
 * QUIT (smtp.ts: never DATA). Findings are the catalogue's live checks (src/checks), at the
 * configured severities.
 *
 * When not one connection succeeded in the whole run, a failed connection says nothing about the
 * monitor: outbound port 25 is blocked on many CI runners and home networks. The connections are
 * then `unreachable`, the run `inconclusive`, and only what DNS found counts.
 *
 * Bounded (docs/test.md): at most `concurrency` monitors at once, each step within `stepMs`, at
 * most MAX_HOSTS_PER_MONITOR delivery hosts a monitor (200 equal MX hosts that never greet took
 * 203 s at a 1 s step), and the whole run within its deadline (`signal`): once it is aborted no
 * step starts, dialogues in flight are closed, and what was not tested is `unreachable` with the
 * signal's reason. A DNS query in flight still ends within its step's limit.
 *
 * Not connected to, unless `allowPrivate`: a loopback, link-local or private address
 * (private-address.ts). The configuration may come from a pull request; the step names what the
 * address is, and the monitor is inconclusive, not passed.
 */
import { isIP } from 'node:net';
import { liveFindings, type Finding, type LiveHit } from '../checks/index.js';
import type { DesiredMonitor, DesiredState } from '../model/desired.js';
import { Semaphore } from '../api/semaphore.js';
import { isNoRecords, type MailDns, type Mx } from './dns.js';
import { privateAddressKind } from './private-address.js';
import { probeSmtp, type SmtpProbeOptions, type SmtpProbeResult, type UseTlsMode } from './smtp.js';

export const DEFAULT_SMTP_PORT = 25;
/** Delivery hosts tried per monitor (its MX hosts in preference order); the rest are named, not tried. */
export const MAX_HOSTS_PER_MONITOR = 5;
/** Days before expiry from which a certificate is reported (`monitor/certificate-expiring`). */
export const CERTIFICATE_WARNING_DAYS = 14;

export type StepStatus = 'pass' | 'note' | 'warning' | 'fail' | 'unreachable' | 'skipped';

export interface Step {
  /** dns, mx, connect, greeting, ehlo, tls, mail, rcpt. */
  step: string;
  status: StepStatus;
  text: string;
  /** How long it took, when timed. */
  ms?: number;
  /** The delivery host the step is about (several for mx:failover). */
  host?: string;
}

export type Outcome = 'pass' | 'warning' | 'fail' | 'inconclusive';

export interface MonitorPath {
  label: string;
  /** `ip_address` as declared: a host, an address, `mx` or `mx:failover`. */
  target: string;
  test_account: string;
  port: number;
  family: 4 | 6;
  use_tls: UseTlsMode;
  outcome: Outcome;
  steps: Step[];
  findings: Finding[];
}

export interface MailPathReport {
  monitors: MonitorPath[];
  /** No connection at all succeeded: connection results say nothing (port 25 blocked here?). */
  inconclusive: boolean;
  /** The ports tried, for the inconclusive message. */
  ports: number[];
  counts: Record<Outcome, number>;
  elapsedMs: number;
}

export interface MailPathOptions {
  dns: MailDns;
  stepMs: number;
  concurrency: number;
  /** Connect here instead of each monitor's port (a tunnel or relay standing in). */
  portOverride?: number;
  heloName: string;
  /** MAIL FROM's reverse path; '' is `<>`. */
  mailFrom: string;
  ca?: string[];
  now: number;
  /** Connect to loopback, link-local and private addresses too (servers on this machine, a test's). */
  allowPrivate?: boolean;
  /** The run's deadline: aborted (with a string reason), nothing more is tried. */
  signal?: AbortSignal;
  /** Told as each monitor finishes (progress). */
  onMonitor?: (m: MonitorPath, done: number, total: number) => void;
}

interface Delivery {
  host: string;
  address: string | null;
}

interface Pending {
  monitor: DesiredMonitor;
  path: Omit<MonitorPath, 'outcome' | 'findings'>;
  hits: LiveHit[];
  probes: { host: string; address: string; result: SmtpProbeResult; cut: boolean }[];
}

/** Why nothing more is tried: the deadline's reason. */
const stopped = (o: MailPathOptions): string | null =>
  o.signal?.aborted ? (typeof o.signal.reason === 'string' ? o.signal.reason : "the run's deadline passed") : null;

export async function testMailPaths(desired: Pick<DesiredState, 'settings'>, monitors: readonly DesiredMonitor[], o: MailPathOptions): Promise<MailPathReport> {
  const started = performance.now();
  const gate = new Semaphore(Math.max(1, o.concurrency));
  const pending = await Promise.all(
    monitors.map(async (m) => {
      const release = await gate.acquire();
      try {
        return await walk(m, o);
      } finally {
        release();
      }
    }),
  );
  // A dialogue the deadline cut says nothing about what this machine can reach.
  const attempts = pending.flatMap((p) => p.probes).filter((a) => !a.cut);
  const inconclusive = attempts.length > 0 && attempts.every((a) => !a.result.connected);
  const out: MonitorPath[] = [];
  let done = 0;
  for (const p of pending) {
    for (const probe of p.probes) {
      if (probe.cut) record(p, { step: 'connect', status: 'unreachable', host: probe.host, text: `${probe.address}:${p.path.port}: not finished: ${stopped(o)}` });
      else judgeProbe(p, probe.host, probe.address, probe.result, inconclusive);
    }
    const findings = liveFindings(desired, p.hits);
    const unreachable = p.path.steps.some((s) => s.status === 'unreachable');
    const outcome: Outcome = findings.some((f) => f.severity === 'error')
      ? 'fail'
      : unreachable
        ? 'inconclusive'
        : findings.length > 0
          ? 'warning'
          : 'pass';
    const path: MonitorPath = { ...p.path, outcome, findings };
    out.push(path);
    o.onMonitor?.(path, ++done, pending.length);
  }
  const counts: Record<Outcome, number> = { pass: 0, warning: 0, fail: 0, inconclusive: 0 };
  for (const m of out) counts[m.outcome]++;
  // The ports connections were tried on (a monitor DNS stopped tried none).
  const ports = [...new Set(pending.filter((p) => p.probes.length > 0).map((p) => p.path.port))].sort((a, b) => a - b);
  return { monitors: out, inconclusive, ports, counts, elapsedMs: performance.now() - started };
}

async function walk(m: DesiredMonitor, o: MailPathOptions): Promise<Pending> {
  const spec = m.spec;
  const family: 4 | 6 = spec.ipv6 ? 6 : 4;
  const port = o.portOverride ?? spec.port ?? DEFAULT_SMTP_PORT;
  const useTls: UseTlsMode = spec.use_tls ?? 'auto';
  const p: Pending = {
    monitor: m,
    path: { label: m.label, target: spec.ip_address, test_account: spec.test_account, port, family, use_tls: useTls, steps: [] },
    hits: [],
    probes: [],
  };
  const before = stopped(o);
  if (before !== null) {
    record(p, { step: 'dns', status: 'unreachable', text: `not tested: ${before}` });
    return p;
  }
  const deliveries = await deliveryHosts(p, o, family);
  for (const d of deliveries) {
    if (d.address === null) continue;
    const shown = d.address.includes(':') ? `[${d.address}]` : d.address;
    const kind = o.allowPrivate ? null : privateAddressKind(d.address);
    if (kind !== null) {
      record(p, {
        step: 'connect',
        status: 'unreachable',
        host: d.host,
        text: `${shown}:${port}: ${kind}: not connected to (the configuration could point this machine at its own network; --allow-private tests it), and the service, on the internet, cannot reach it either`,
      });
      continue;
    }
    const stop = stopped(o);
    if (stop !== null) {
      record(p, { step: 'connect', status: 'unreachable', host: d.host, text: `${shown}:${port}: not tested: ${stop}` });
      continue;
    }
    const options: SmtpProbeOptions = {
      host: d.host,
      address: d.address,
      port,
      useTls,
      testAccount: spec.test_account,
      mailFrom: o.mailFrom,
      heloName: o.heloName,
      stepMs: o.stepMs,
      ca: o.ca,
      now: o.now,
      ...(o.signal && { signal: o.signal }),
    };
    const result = await probeSmtp(options);
    // Ended by the deadline, not by the server: not a finding about it.
    const cut = stopped(o) !== null && (result.connectError?.code === 'STOPPED' || result.stoppedAt?.reason === stopped(o));
    p.probes.push({ host: d.host, address: d.address, result, cut });
  }
  return p;
}

const record = (p: Pending, step: Step) => p.path.steps.push(step);
const hit = (p: Pending, check: string, message: string) => p.hits.push({ check, monitor: p.monitor, message });
const ms = (x: number) => Math.round(x);

/** The hosts the service would deliver to, with the address each resolves to (null: none, a finding made). */
async function deliveryHosts(p: Pending, o: MailPathOptions, family: 4 | 6): Promise<Delivery[]> {
  const target = p.path.target;
  if (target !== 'mx' && target !== 'mx:failover') return [await address(p, o, target, family)];
  const at = p.path.test_account.lastIndexOf('@');
  const domain = p.path.test_account.slice(at + 1);
  const answer = await o.dns.mx(domain);
  if (!answer.ok) {
    const why = isNoRecords(answer.code) ? (answer.code === 'ENOTFOUND' ? `${domain} does not exist` : `${domain} has no MX records`) : answer.message;
    record(p, { step: 'mx', status: 'fail', text: `MX ${domain}: ${why}`, ms: ms(answer.ms) });
    hit(p, 'monitor/unresolvable', `${target}: the test account's domain ${domain} gives no MX (${why}); the service has nowhere to deliver`);
    return [];
  }
  const mxs = [...answer.value].sort((a, b) => a.priority - b.priority || (a.exchange < b.exchange ? -1 : 1));
  record(p, { step: 'mx', status: 'pass', text: `MX ${domain}: ${mxs.map((x) => `${x.priority} ${x.exchange || '.'}`).join(', ')}`, ms: ms(answer.ms) });
  if (mxs.some((x) => x.exchange === '' || x.exchange === '.')) {
    p.path.steps[p.path.steps.length - 1]!.status = 'fail';
    hit(p, 'monitor/null-mx', `${domain} publishes a null MX (it accepts no mail): the test message cannot be delivered`);
    return [];
  }
  // `mx`: the primary (the lowest preference; any of several equal ones). `mx:failover`: all, in order.
  const candidates: Mx[] = target === 'mx' ? mxs.filter((x) => x.priority === mxs[0]!.priority) : mxs;
  const chosen = candidates.slice(0, MAX_HOSTS_PER_MONITOR);
  if (candidates.length > chosen.length) {
    const rest = candidates.length - chosen.length;
    record(p, {
      step: 'mx',
      status: 'note',
      text: `${rest} more MX host${rest === 1 ? '' : 's'} of ${domain} not tried: at most ${MAX_HOSTS_PER_MONITOR} a monitor (${chosen.map((x) => x.exchange.replace(/\.$/, '')).join(', ')} were)`,
    });
  }
  const out: Delivery[] = [];
  for (const x of chosen) {
    if (stopped(o) !== null) break;
    const host = x.exchange.replace(/\.$/, '');
    if (isIP(host)) {
      hit(p, 'monitor/mx-not-hostname', `MX ${x.priority} of ${domain} is the IP address ${host}, not a host name; senders may skip it`);
      record(p, { step: 'dns', status: 'fail', host, text: `${host}: an IP address as MX (not tried)` });
      continue;
    }
    const alias = await o.dns.cname(host);
    if (alias !== null) hit(p, 'monitor/mx-not-hostname', `MX ${x.priority} of ${domain} is ${host}, an alias (CNAME) of ${alias}; senders may skip it`);
    out.push(await address(p, o, host, family, alias));
  }
  return out;
}

async function address(p: Pending, o: MailPathOptions, host: string, family: 4 | 6, alias: string | null = null): Promise<Delivery> {
  const literal = isIP(host);
  if (literal !== 0) {
    record(p, { step: 'dns', status: 'pass', host, text: `${host}: an address (no lookup)` });
    return { host, address: host };
  }
  const kind = family === 6 ? 'AAAA' : 'A';
  const answer = await o.dns.addresses(host, family);
  if (!answer.ok || answer.value.length === 0) {
    const why = answer.ok ? `no ${kind} records` : isNoRecords(answer.code) ? (answer.code === 'ENOTFOUND' ? 'no such name' : `no ${kind} records`) : answer.message;
    record(p, { step: 'dns', status: 'fail', host, text: `${host} ${kind}: ${why}`, ms: ms(answer.ms) });
    const over = family === 6 ? ' (the monitor has ipv6: true, so the service delivers over IPv6)' : '';
    hit(p, 'monitor/unresolvable', `${host} has no ${kind} address: ${why}${over}`);
    return { host, address: null };
  }
  const via = alias ? ` (via CNAME ${alias})` : '';
  record(p, { step: 'dns', status: 'pass', host, text: `${host} ${kind} ${answer.value.join(', ')}${via}`, ms: ms(answer.ms) });
  return { host, address: answer.value[0]! };
}

/** Steps and findings of one SMTP dialogue. */
function judgeProbe(p: Pending, host: string, address: string, r: SmtpProbeResult, inconclusive: boolean): void {
  const where = isIP(host) ? `${host}:${p.path.port}` : `${host} (${address}):${p.path.port}`;
  const shownAddress = address.includes(':') ? `[${address}]` : address;
  if (!r.connected) {
    const e = r.connectError!;
    if (inconclusive) {
      record(p, { step: 'connect', status: 'unreachable', host, text: `${shownAddress}:${p.path.port}: ${e.message} (no server could be reached from here)` });
    } else {
      record(p, { step: 'connect', status: 'fail', host, text: `${shownAddress}:${p.path.port}: ${e.message}` });
      hit(p, 'monitor/connection-failed', `cannot connect to ${where}: ${e.message}`);
    }
    return;
  }
  record(p, { step: 'connect', status: 'pass', host, text: `${shownAddress}:${p.path.port}`, ms: ms(r.connectMs ?? 0) });
  const stop = r.stoppedAt;
  const smtpFail = (step: string, reason: string) => {
    record(p, { step, status: 'fail', host, text: reason });
    hit(p, 'monitor/smtp-failed', `${where}: ${step}: ${reason}`);
  };
  if (!r.greeting) return smtpFail('greeting', stop?.reason ?? 'no greeting');
  if (r.greeting.code !== 220) return smtpFail('greeting', `${r.greeting.code} ${r.greeting.text}`);
  record(p, { step: 'greeting', status: 'pass', host, text: `220 ${r.greeting.text}`, ms: ms(r.greeting.ms) });
  if (!r.ehlo) return smtpFail('ehlo', stop?.reason ?? 'no answer');
  if (r.ehlo.code !== 250) return smtpFail('ehlo', `${r.ehlo.code} ${r.ehlo.text}`);
  record(p, { step: 'ehlo', status: 'pass', host, text: r.capabilities.length ? r.capabilities.join(', ') : '(no extensions)', ms: ms(r.ehlo.ms) });

  const mode = p.path.use_tls;
  if (mode === 'on' && !r.starttlsOffered) {
    record(p, { step: 'tls', status: 'fail', host, text: 'use_tls: on, and the server does not offer STARTTLS' });
    hit(p, 'monitor/starttls-missing', `${where} does not offer STARTTLS, which use_tls: on requires: every test fails`);
    return;
  }
  if (mode === 'off') record(p, { step: 'tls', status: 'note', host, text: `use_tls: off: not used${r.starttlsOffered ? ' (the server offers STARTTLS)' : ''}` });
  else if (!r.starttlsOffered) record(p, { step: 'tls', status: 'note', host, text: 'use_tls: auto: the server does not offer STARTTLS, so the test message goes unencrypted' });
  else if (r.tls) {
    if (!r.tls.ok) {
      record(p, { step: 'tls', status: 'fail', host, text: r.tls.error ?? 'handshake failed' });
      hit(p, 'monitor/tls-failed', `${where}: STARTTLS ${mode === 'auto' ? '(offered, so use_tls: auto uses it) ' : ''}failed: ${r.tls.error}`);
      return;
    }
    judgeTls(p, host, where, r);
  }
  if (stop && (stop.step === 'ehlo' || stop.step === 'starttls')) return smtpFail(stop.step, stop.reason);

  if (!r.mail) return smtpFail('mail', stop?.reason ?? 'no answer');
  if (r.mail.code !== 250) {
    const reply = `${r.mail.code} ${r.mail.text}`;
    if (r.mail.code >= 500 && r.mail.code < 600) {
      record(p, { step: 'mail', status: 'fail', host, text: reply });
      hit(p, 'monitor/sender-refused', `${where} refused MAIL FROM: ${reply}`);
    } else if (r.mail.code >= 400 && r.mail.code < 500) {
      record(p, { step: 'mail', status: 'warning', host, text: reply });
      hit(p, 'monitor/greylisted', `${where} deferred MAIL FROM: ${reply}`);
    } else smtpFail('mail', reply);
    return;
  }
  record(p, { step: 'mail', status: 'pass', host, text: `250 ${r.mail.text}`, ms: ms(r.mail.ms) });
  if (!r.rcpt) return smtpFail('rcpt', stop?.reason ?? 'no answer');
  const reply = `${r.rcpt.code} ${r.rcpt.text}`;
  const account = p.path.test_account;
  if (r.rcpt.code === 250 || r.rcpt.code === 251) record(p, { step: 'rcpt', status: 'pass', host, text: `<${account}>: ${reply}`, ms: ms(r.rcpt.ms) });
  else if (r.rcpt.code >= 500 && r.rcpt.code < 600) {
    record(p, { step: 'rcpt', status: 'fail', host, text: `<${account}>: ${reply}` });
    hit(p, 'monitor/recipient-refused', `${where} refused RCPT TO:<${account}>: ${reply}`);
  } else if (r.rcpt.code >= 400 && r.rcpt.code < 500) {
    record(p, { step: 'rcpt', status: 'warning', host, text: `<${account}>: ${reply}` });
    hit(p, 'monitor/greylisted', `${where} deferred RCPT TO:<${account}> (greylisting?): ${reply}; with a short ttl the delay fails tests`);
  } else smtpFail('rcpt', reply);
}

function judgeTls(p: Pending, host: string, where: string, r: SmtpProbeResult): void {
  const tls = r.tls!;
  const c = tls.certificate;
  // `auto` uses STARTTLS because the server offers it: say so, as the note does when it does not.
  const parts = [`${p.path.use_tls === 'auto' ? 'use_tls: auto: offered, so used: ' : ''}${tls.protocol ?? 'TLS'}`];
  let status: StepStatus = 'pass';
  if (c) {
    parts.push(`certificate ${c.subject} issued by ${c.issuer}`, `chain ${c.chain.join(' < ')}`);
    const expired = c.daysLeft < 0 || c.trustError === 'CERT_HAS_EXPIRED';
    if (expired) {
      status = 'fail';
      parts.push(`EXPIRED on ${c.validTo.slice(0, 10)}`);
      hit(p, 'monitor/certificate-expired', `${where}: the certificate ${c.subject} expired on ${c.validTo.slice(0, 10)}`);
    } else {
      parts.push(`expires in ${c.daysLeft} days (${c.validTo.slice(0, 10)})`);
      if (c.daysLeft < CERTIFICATE_WARNING_DAYS) {
        status = 'warning';
        hit(p, 'monitor/certificate-expiring', `${where}: the certificate ${c.subject} expires in ${c.daysLeft} days (${c.validTo.slice(0, 10)})`);
      }
    }
    if (c.nameMatches) parts.push(`name ${host} matches`);
    else {
      if (status === 'pass') status = 'warning';
      parts.push(`name ${host} does NOT match`);
      hit(p, 'monitor/certificate-name-mismatch', `${where}: the certificate ${c.subject} is not issued for ${host}`);
    }
    // Expiry and the name are reported above; the chain is its own finding.
    const chainError = c.trusted || c.trustError === 'CERT_HAS_EXPIRED' || c.trustError === 'ERR_TLS_CERT_ALTNAME_INVALID' ? null : c.trustError;
    if (chainError) {
      if (status === 'pass') status = 'warning';
      parts.push(`not trusted here (${chainError})`);
      hit(p, 'monitor/certificate-untrusted', `${where}: the certificate chain ${c.chain.join(' < ')} is not trusted (${chainError})`);
    } else if (!expired) parts.push('trusted');
  }
  record(p, { step: 'tls', status, host, text: parts.join('; '), ms: ms(tls.ms) });
}
