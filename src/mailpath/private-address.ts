/**
 * Which addresses `monsync test` does not connect to unless told it may (`--allow-private`): this
 * machine (loopback, unspecified), link-local ones (169.254.169.254 is the cloud metadata service
 * of most CI runners), private networks, and the special-purpose ranges of IANA's registries that
 * no mail server on the internet is on (benchmarking, documentation, multicast, reserved,
 * broadcast...). The configuration under test comes from whoever opened the pull request, so a
 * monitor's `ip_address` (or its MX, or a name resolving there) could point the runner at its own
 * network; the service, on the internet, cannot reach such an address anyway.
 *
 * An IPv6 address that carries an IPv4 one is judged by the IPv4 address inside: IPv4-mapped,
 * IPv4-compatible and IPv4-translated forms, NAT64 (RFC 6052's well-known prefix, RFC 8215's
 * local-use one, where the operator's prefix length decides where the IPv4 address sits: every
 * place it may sit is judged), 6to4 (RFC 3056) and Teredo (RFC 4380, the client's address XOR-ed).
 * On an IPv6-only runner with DNS64, `64:ff9b::a00:1` is 10.0.0.1 of the runner's own network.
 *
 * `SPECIAL_RANGES` is the one table, each row named as the registry names it. Node's BlockList
 * holds the ranges. ipaddr.js was considered: its `range()` folds documentation, benchmarking and
 * 240/4 into one "reserved", names no registry, and reads no IPv4 out of NAT64, 6to4 or Teredo
 * forms; the table below with the built-in BlockList is smaller than the dependency.
 */
import { BlockList, isIP } from 'node:net';

export interface SpecialRange {
  /** The registry the row comes from. */
  registry: 'IANA IPv4 Special-Purpose Address Registry' | 'IANA IPv6 Special-Purpose Address Registry' | 'IANA IPv4 Multicast Address Space' | 'IANA IPv6 Multicast Address Space';
  /** The row's name in that registry. */
  name: string;
  /** The range, as the registry writes it. */
  cidr: string;
  /** What the address is, as a message says it. */
  what: string;
}

const V4 = 'IANA IPv4 Special-Purpose Address Registry' as const;
const V6 = 'IANA IPv6 Special-Purpose Address Registry' as const;

/** The ranges refused, most specific first (169.254.169.254 before 169.254.0.0/16). */
export const SPECIAL_RANGES: readonly SpecialRange[] = [
  { registry: V4, name: 'Link Local', cidr: '169.254.169.254/32', what: 'a link-local address (the cloud metadata service)' },
  { registry: V4, name: '"This network"', cidr: '0.0.0.0/8', what: 'an unspecified address (this machine)' },
  { registry: V4, name: 'Private-Use', cidr: '10.0.0.0/8', what: 'a private address' },
  { registry: V4, name: 'Shared Address Space', cidr: '100.64.0.0/10', what: 'a private address' },
  { registry: V4, name: 'Loopback', cidr: '127.0.0.0/8', what: 'a loopback address (this machine)' },
  { registry: V4, name: 'Link Local', cidr: '169.254.0.0/16', what: 'a link-local address' },
  { registry: V4, name: 'Private-Use', cidr: '172.16.0.0/12', what: 'a private address' },
  { registry: V4, name: 'IETF Protocol Assignments', cidr: '192.0.0.0/24', what: 'an IETF protocol assignment address' },
  { registry: V4, name: 'Documentation (TEST-NET-1)', cidr: '192.0.2.0/24', what: 'a documentation address (TEST-NET-1)' },
  { registry: V4, name: 'Deprecated (6to4 Relay Anycast)', cidr: '192.88.99.0/24', what: 'a 6to4 relay anycast address (deprecated)' },
  { registry: V4, name: 'Private-Use', cidr: '192.168.0.0/16', what: 'a private address' },
  { registry: V4, name: 'Benchmarking', cidr: '198.18.0.0/15', what: 'a benchmarking address' },
  { registry: V4, name: 'Documentation (TEST-NET-2)', cidr: '198.51.100.0/24', what: 'a documentation address (TEST-NET-2)' },
  { registry: V4, name: 'Documentation (TEST-NET-3)', cidr: '203.0.113.0/24', what: 'a documentation address (TEST-NET-3)' },
  { registry: 'IANA IPv4 Multicast Address Space', name: 'Multicast', cidr: '224.0.0.0/4', what: 'a multicast address' },
  { registry: V4, name: 'Limited Broadcast', cidr: '255.255.255.255/32', what: 'the limited broadcast address' },
  { registry: V4, name: 'Reserved', cidr: '240.0.0.0/4', what: 'a reserved address' },
  { registry: V6, name: 'Loopback Address', cidr: '::1/128', what: 'a loopback address (this machine)' },
  { registry: V6, name: 'Unspecified Address', cidr: '::/128', what: 'an unspecified address (this machine)' },
  { registry: V6, name: 'Discard-Only Address Block', cidr: '100::/64', what: 'a discard-only address' },
  { registry: V6, name: 'Benchmarking', cidr: '2001:2::/48', what: 'a benchmarking address' },
  { registry: V6, name: 'ORCHIDv2', cidr: '2001:20::/28', what: 'an ORCHID identifier, not an address' },
  { registry: V6, name: 'Documentation', cidr: '2001:db8::/32', what: 'a documentation address' },
  { registry: V6, name: 'Documentation', cidr: '3fff::/20', what: 'a documentation address' },
  { registry: V6, name: 'Segment Routing (SRv6) SIDs', cidr: '5f00::/16', what: 'a segment routing identifier' },
  { registry: V6, name: 'Unique-Local', cidr: 'fc00::/7', what: 'a private address' },
  { registry: V6, name: 'Link-Local Unicast', cidr: 'fe80::/10', what: 'a link-local address' },
  { registry: 'IANA IPv6 Multicast Address Space', name: 'Multicast', cidr: 'ff00::/8', what: 'a multicast address' },
];

/** The IPv6 forms that carry an IPv4 address, and where it sits (byte offsets of its four bytes). */
export interface EmbeddingForm {
  name: string;
  cidr: string;
  /**
   * The places the IPv4 address may sit; Teredo's is XOR-ed with 0xffffffff. Where there are
   * several (RFC 8215's prefix lengths), a place counts only when the bytes after it, and RFC 6052's
   * "u" octet (byte 8), are zero, as the RFC requires of the prefix length that puts it there.
   */
  places: readonly (readonly number[])[];
  xor?: boolean;
}

const LAST32 = [12, 13, 14, 15];

export const EMBEDDING_FORMS: readonly EmbeddingForm[] = [
  { name: 'IPv4-mapped Address (RFC 4291)', cidr: '::ffff:0:0/96', places: [LAST32] },
  { name: 'IPv4-translated Address (RFC 2765)', cidr: '::ffff:0:0:0/96', places: [LAST32] },
  { name: 'NAT64 well-known prefix (IPv4-IPv6 Translat., RFC 6052)', cidr: '64:ff9b::/96', places: [LAST32] },
  // RFC 6052 section 2.2: with a prefix of 48, 56, 64 or 96 bits the address sits at these bytes (byte 8 is the zero "u" octet).
  {
    name: 'NAT64 local-use prefix (IPv4-IPv6 Translat., RFC 8215)',
    cidr: '64:ff9b:1::/48',
    places: [
      [6, 7, 9, 10],
      [7, 9, 10, 11],
      [9, 10, 11, 12],
      LAST32,
    ],
  },
  { name: '6to4 (RFC 3056)', cidr: '2002::/16', places: [[2, 3, 4, 5]] },
  { name: 'TEREDO (RFC 4380)', cidr: '2001::/32', places: [LAST32], xor: true },
  // Deprecated (RFC 4291 section 2.5.5.1), last: :: and ::1 are refused above as what they are.
  { name: 'IPv4-compatible Address (RFC 4291, deprecated)', cidr: '::/96', places: [LAST32] },
];

function blockList(cidr: string): BlockList {
  const [net, prefix] = cidr.split('/') as [string, string];
  const list = new BlockList();
  list.addSubnet(net, Number(prefix), net.includes(':') ? 'ipv6' : 'ipv4');
  return list;
}

const RANGE_LISTS = SPECIAL_RANGES.map((r) => [r, blockList(r.cidr)] as const);
const FORM_LISTS = EMBEDDING_FORMS.map((f) => [f, blockList(f.cidr)] as const);

/** The 16 bytes of an IPv6 address Node accepts (`isIP(a) === 6`, no zone). */
export function ipv6Bytes(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  const tail: number[] = [];
  if (dotted) {
    tail.push(...dotted.slice(1).map(Number));
    text = text.slice(0, dotted.index) + '0:0';
  }
  const [head, rest] = text.includes('::') ? (text.split('::') as [string, string]) : [text, undefined];
  const words = (s: string) => (s === '' ? [] : s.split(':').map((w) => parseInt(w, 16)));
  const left = words(head);
  const right = rest === undefined ? [] : words(rest);
  const all = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  const bytes = all.flatMap((w) => [w >> 8, w & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** The IPv4 addresses an IPv6 address carries, with the form that carries them; null for none. */
export function embeddedIpv4(address: string): { form: EmbeddingForm; addresses: string[] } | null {
  for (const [form, list] of FORM_LISTS) {
    if (!list.check(address, 'ipv6')) continue;
    const bytes = ipv6Bytes(address);
    const fits = (at: readonly number[]) => form.places.length === 1 || (bytes[8] === 0 && bytes.slice(at[3]! + 1).every((b) => b === 0)) || at === LAST32;
    const addresses = form.places.filter(fits).map((at) => at.map((i) => (form.xor ? bytes[i]! ^ 0xff : bytes[i]!)).join('.'));
    // 0.0.0.0 read at one place while another place holds an address is the zero tail of a shorter prefix.
    const distinct = [...new Set(addresses)];
    return { form, addresses: distinct.length > 1 ? distinct.filter((a) => a !== '0.0.0.0') : distinct };
  }
  return null;
}

/** The row of the table `address` falls in (an IPv6 address carrying an IPv4 one: not looked through), or null. */
export function specialRange(address: string): SpecialRange | null {
  const family = isIP(address);
  if (family === 0) return null;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [range, list] of RANGE_LISTS) if (list.check(address, type)) return range;
  return null;
}

/** What `address` is when it is not a public one (`a link-local address (...)`), or null. */
export function privateAddressKind(address: string): string | null {
  const bare = address.replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return null;
  const own = specialRange(bare);
  if (own !== null) return own.what;
  if (family === 4) return null;
  const inside = embeddedIpv4(bare);
  if (inside === null) return null;
  for (const v4 of inside.addresses) {
    const range = specialRange(v4);
    if (range === null) continue;
    // ::ffff:a.b.c.d is the IPv4 address itself, written for an IPv6 socket: named as that address is.
    if (inside.form.cidr === '::ffff:0:0/96') return range.what;
    return `${range.what} (${v4}, inside the ${inside.form.name} form)`;
  }
  return null;
}
