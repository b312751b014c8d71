/**
 * Whether two accounts of one run reach one service as one login (docs/accounts.md, "One login, one
 * account"): each would plan away what the other wrote, so the run is refused before any request,
 * naming both and why they are one.
 *
 * Two URLs reach the same place when their scheme, port (the scheme's default applied) and path
 * agree and their hosts share an address: every address each name resolves to (hosts file and DNS,
 * through `resolve`), every loopback or unspecified address being this machine (`localhost`,
 * `127.0.0.1`, `127.0.0.2`, `[::1]`, `0.0.0.0` are one place). A host that resolves to nothing is
 * compared by name (connecting will fail on its own, naming it).
 *
 * Logins are compared as the service compares them: trimmed, and without regard to case. The API
 * contract does not say how the service matches an e-mail login (or a client id); e-mail addresses
 * are matched case-insensitively in practice, and refusing two accounts whose logins differ only in
 * case costs far less than letting one undo the other's writes.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** Every address `host` resolves to; [] when it resolves to none. */
export type ResolveHost = (host: string) => Promise<string[]>;

/** The system's resolver (hosts file, then DNS), every address of both families. */
export const systemResolve: ResolveHost = async (host) => {
  try {
    return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return [];
  }
};

export interface ServiceLogin {
  /** The account's name. */
  name: string;
  /** The service URL as given. */
  url: string;
  /** The v1 login or OAuth client id as given. */
  login: string;
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** What an address is as a place: this machine for every loopback and unspecified address. */
function place(address: string): string {
  const a = address.toLowerCase().replace(/^::ffff:(?=\d+\.)/, '');
  if (/^(127|0)\./.test(a) || a === '::1' || a === '::') return 'this machine';
  return a;
}

interface Where {
  /** scheme, port and path: what must be equal. */
  route: string;
  /** The places the host reaches. */
  places: Set<string>;
  /** How the message says it: `http://localhost:8181 (this machine)`. */
  shown: string;
}

function parse(url: string): { route: string; host: string; shown: string } {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    const text = url.trim().replace(/\/+$/, '');
    return { route: text, host: text, shown: text };
  }
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  const port = u.port || DEFAULT_PORTS[u.protocol] || '';
  const path = u.pathname.replace(/\/+$/, '');
  return { route: `${u.protocol}//:${port}${path}`, host, shown: `${u.protocol}//${u.host}${path}` };
}

/** Where a URL leads; its host resolved only when another account has its route and login (most runs resolve nothing). */
async function where(url: string, resolve: ResolveHost, needed: boolean): Promise<Where> {
  const { route, host, shown } = parse(url);
  const addresses = isIP(host) !== 0 ? [host] : needed ? await resolve(host) : [];
  return { route, places: new Set(addresses.length > 0 ? addresses.map(place) : [host]), shown };
}

/** A login as the service matches it. */
export function comparableLogin(login: string): string {
  return login.trim().toLowerCase();
}

/**
 * The refusal for the first two accounts that reach one service as one login, or null. Accounts
 * are resolved side by side; the message names both, their URLs, the addresses they share and the
 * logins.
 */
export async function sameServiceProblem(accounts: readonly ServiceLogin[], resolve: ResolveHost = systemResolve): Promise<{ second: number; message: string } | null> {
  const keys = accounts.map((a) => `${parse(a.url).route}\n${comparableLogin(a.login)}`);
  const wheres = await Promise.all(accounts.map((a, i) => where(a.url, resolve, keys.indexOf(keys[i]!) !== keys.lastIndexOf(keys[i]!))));
  for (let j = 1; j < accounts.length; j++) {
    for (let i = 0; i < j; i++) {
      const [a, b, wa, wb] = [accounts[i]!, accounts[j]!, wheres[i]!, wheres[j]!];
      if (keys[i] !== keys[j]) continue;
      const shared = [...wa.places].filter((p) => wb.places.has(p));
      if (shared.length === 0) continue;
      const why = wa.shown === wb.shown ? wa.shown : `${wa.shown} and ${wb.shown} both reach ${shared.join(', ')}`;
      const logins = a.login === b.login ? `as ${a.login.trim()}` : `as ${JSON.stringify(a.login)} and ${JSON.stringify(b.login)}, one login to the service (trimmed, case aside)`;
      return { second: j, message: `accounts ${a.name} and ${b.name} resolve to the same service and login (${why}, ${logins}): one would undo the other's changes; nothing was sent` };
    }
  }
  return null;
}
