/**
 * Which addresses `monsync test` does not connect to unless told it may (`--allow-private`): this
 * machine (loopback, unspecified), link-local ones (169.254.169.254 is the cloud metadata service
 * of most CI runners) and private networks. The configuration under test comes from whoever opened
 * the pull request, so a monitor's `ip_address` (or its MX, or a name resolving there) could point
 * the runner at its own network; the service, on the internet, cannot reach such an address anyway.
 * Node's BlockList holds the ranges (IPv4-mapped IPv6 addresses are checked as the IPv4 they carry).
 */
import { BlockList, isIP } from 'node:net';

type Kind = 'loopback' | 'unspecified' | 'link-local' | 'private';

const RANGES: readonly [Kind, string, number, 'ipv4' | 'ipv6'][] = [
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['loopback', '::1', 128, 'ipv6'],
  // 0.0.0.0 and :: reach this machine when connected to.
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  // Carrier-grade NAT (RFC 6598): a provider's internal network.
  ['private', '100.64.0.0', 10, 'ipv4'],
  ['private', 'fc00::', 7, 'ipv6'],
];

const LISTS = new Map<Kind, BlockList>();
for (const [kind, net, prefix, family] of RANGES) {
  const list = LISTS.get(kind) ?? new BlockList();
  list.addSubnet(net, prefix, family);
  LISTS.set(kind, list);
}

const WORDS: Record<Kind, string> = {
  loopback: 'a loopback address (this machine)',
  unspecified: 'an unspecified address (this machine)',
  'link-local': 'a link-local address',
  private: 'a private address',
};

/** What `address` is when it is not a public one (`a link-local address (...)`), or null. */
export function privateAddressKind(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return null;
  const mapped = family === 6 ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] : undefined;
  const [value, type] = mapped !== undefined ? [mapped, 'ipv4' as const] : [address, family === 4 ? ('ipv4' as const) : ('ipv6' as const)];
  for (const [kind, list] of LISTS) {
    if (!list.check(value, type)) continue;
    if (kind === 'link-local' && value === '169.254.169.254') return 'a link-local address (the cloud metadata service)';
    return WORDS[kind];
  }
  return null;
}
