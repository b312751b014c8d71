/**
 * DNS for `monsync test`, through Node's resolver (`node:dns` `Resolver`, c-ares): the servers of the
 * system, or those of MONSYNC_DNS_SERVERS (`127.0.0.1:5353,[::1]:53`), which split-horizon set-ups
 * need (the service resolves from outside, a laptop inside) and tests point at a local server. The
 * resolver asks DNS only: /etc/hosts is not what the service sees.
 */
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { UsageError } from '../util/errors.js';

export const DNS_SERVERS_ENV = 'MONSYNC_DNS_SERVERS';

export interface Mx {
  exchange: string;
  priority: number;
}

/** What the probe asks of DNS: one interface so the failures are values, not codes to catch. */
export interface MailDns {
  addresses(host: string, family: 4 | 6): Promise<DnsAnswer<string[]>>;
  mx(domain: string): Promise<DnsAnswer<Mx[]>>;
  /** The name an alias points at, or null when the name is not a CNAME. */
  cname(host: string): Promise<string | null>;
}

export type DnsAnswer<T> = { ok: true; value: T; ms: number } | { ok: false; code: string; message: string; ms: number };

/** `host:port` or `[v6]:port` items, comma or space separated; a bad one is a usage error naming it. */
export function parseDnsServers(text: string): string[] {
  const items = text.split(/[\s,]+/).filter(Boolean);
  for (const item of items) {
    const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(item) ?? /^([^:]+)(?::(\d+))?$/.exec(item);
    const ok = m !== null && isIP(m[1]!) !== 0 && (m[2] === undefined || (Number(m[2]) >= 1 && Number(m[2]) <= 65535));
    // A bare IPv6 address has colons of its own: accepted as it is (port 53).
    if (!ok && isIP(item) !== 6) throw new UsageError(`${DNS_SERVERS_ENV}: "${item}" is not an IP address with an optional port (127.0.0.1:5353, [::1]:53)`);
  }
  return items;
}

/** No answer of a kind is not a failure of DNS: the name has none. */
const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND']);

export function createMailDns(env: NodeJS.ProcessEnv, timeoutMs: number): MailDns {
  // tries: 1, so a step's time limit is the resolver's own, not four times it.
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  const servers = env[DNS_SERVERS_ENV]?.trim();
  if (servers) resolver.setServers(parseDnsServers(servers));
  const timed = async <T>(run: () => Promise<T>): Promise<DnsAnswer<T>> => {
    const started = performance.now();
    try {
      const value = await run();
      return { ok: true, value, ms: performance.now() - started };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'ERROR';
      return { ok: false, code, message: describeDnsError(code), ms: performance.now() - started };
    }
  };
  return {
    addresses: (host, family) => timed(() => (family === 6 ? resolver.resolve6(host) : resolver.resolve4(host))),
    mx: (domain) => timed(() => resolver.resolveMx(domain)),
    cname: async (host) => {
      const r = await timed(() => resolver.resolveCname(host));
      return r.ok && r.value.length > 0 ? r.value[0]! : null;
    },
  };
}

export function isNoRecords(code: string): boolean {
  return NO_RECORDS.has(code);
}

function describeDnsError(code: string): string {
  switch (code) {
    case 'ENOTFOUND':
      return 'no such name (NXDOMAIN)';
    case 'ENODATA':
      return 'no records of this kind';
    case 'ETIMEOUT':
      return 'the DNS server did not answer in time';
    case 'ESERVFAIL':
      return 'the DNS server failed (SERVFAIL)';
    case 'ECONNREFUSED':
      return 'the DNS server refused the connection';
    case 'EREFUSED':
      return 'the DNS server refused the query';
    default:
      return `DNS error ${code}`;
  }
}
