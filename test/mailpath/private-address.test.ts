/**
 * The addresses `monsync test` refuses without --allow-private, range by range as IANA's
 * special-purpose registries name them, and the IPv6 forms that carry an IPv4 address judged by the
 * address inside (issue 45: NAT64, 6to4, Teredo and IPv4-compatible forms of private addresses
 * were connected to).
 */
import { describe, expect, it } from 'vitest';
import { embeddedIpv4, ipv6Bytes, privateAddressKind, specialRange } from '../../src/mailpath/private-address.js';

// [registry's name of the row, an address at its first, one at its last, what the refusal calls it]
const IPV4: [string, string, string, string][] = [
  ['"This network"', '0.0.0.0', '0.255.255.255', 'an unspecified address (this machine)'],
  ['Private-Use', '10.0.0.0', '10.255.255.255', 'a private address'],
  ['Shared Address Space', '100.64.0.0', '100.127.255.255', 'a private address'],
  ['Loopback', '127.0.0.0', '127.255.255.255', 'a loopback address (this machine)'],
  ['Link Local', '169.254.0.0', '169.254.255.255', 'a link-local address'],
  ['Private-Use', '172.16.0.0', '172.31.255.255', 'a private address'],
  ['IETF Protocol Assignments', '192.0.0.0', '192.0.0.255', 'an IETF protocol assignment address'],
  ['Documentation (TEST-NET-1)', '192.0.2.0', '192.0.2.255', 'a documentation address (TEST-NET-1)'],
  ['Deprecated (6to4 Relay Anycast)', '192.88.99.0', '192.88.99.255', 'a 6to4 relay anycast address (deprecated)'],
  ['Private-Use', '192.168.0.0', '192.168.255.255', 'a private address'],
  ['Benchmarking', '198.18.0.0', '198.19.255.255', 'a benchmarking address'],
  ['Documentation (TEST-NET-2)', '198.51.100.0', '198.51.100.255', 'a documentation address (TEST-NET-2)'],
  ['Documentation (TEST-NET-3)', '203.0.113.0', '203.0.113.255', 'a documentation address (TEST-NET-3)'],
  ['Multicast', '224.0.0.0', '239.255.255.255', 'a multicast address'],
  ['Reserved', '240.0.0.0', '255.255.255.254', 'a reserved address'],
  ['Limited Broadcast', '255.255.255.255', '255.255.255.255', 'the limited broadcast address'],
];

const IPV6: [string, string, string, string][] = [
  ['Loopback Address', '::1', '::1', 'a loopback address (this machine)'],
  ['Unspecified Address', '::', '::', 'an unspecified address (this machine)'],
  ['Discard-Only Address Block', '100::', '100::ffff:ffff:ffff:ffff', 'a discard-only address'],
  ['Benchmarking', '2001:2::', '2001:2:0:ffff:ffff:ffff:ffff:ffff', 'a benchmarking address'],
  ['ORCHIDv2', '2001:20::', '2001:2f:ffff:ffff:ffff:ffff:ffff:ffff', 'an ORCHID identifier, not an address'],
  ['Documentation', '2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'a documentation address'],
  ['Documentation', '3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', 'a documentation address'],
  ['Segment Routing (SRv6) SIDs', '5f00::', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'a segment routing identifier'],
  ['Unique-Local', 'fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'a private address'],
  ['Link-Local Unicast', 'fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'a link-local address'],
  ['Multicast', 'ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'a multicast address'],
];

describe('IANA IPv4 Special-Purpose Address Registry (and the IPv4 Multicast Address Space): refused range by range', () => {
  for (const [name, first, last, what] of IPV4) {
    it(`refuses "${name}" from ${first} to ${last} as ${what}`, () => {
      expect(specialRange(first)?.name).toBe(name);
      expect(privateAddressKind(first)).toBe(what);
      expect(privateAddressKind(last)).toBe(what);
    });
  }
  it('refuses the cloud metadata service by what it is', () => {
    expect(privateAddressKind('169.254.169.254')).toBe('a link-local address (the cloud metadata service)');
  });
  it('connects to the public addresses just outside the ranges', () => {
    for (const a of ['1.1.1.1', '9.255.255.255', '11.0.0.0', '100.63.255.255', '100.128.0.0', '172.15.255.255', '172.32.0.0', '192.0.1.255', '192.0.3.0', '198.17.255.255', '198.20.0.0', '198.51.99.255', '203.0.112.255', '223.255.255.255']) {
      expect([a, privateAddressKind(a)]).toEqual([a, null]);
    }
  });
});

describe('IANA IPv6 Special-Purpose Address Registry (and the IPv6 Multicast Address Space): refused range by range', () => {
  for (const [name, first, last, what] of IPV6) {
    it(`refuses "${name}" from ${first} to ${last} as ${what}`, () => {
      expect(specialRange(first)?.name).toBe(name);
      expect(privateAddressKind(first)).toBe(what);
      expect(privateAddressKind(last)).toBe(what);
    });
  }
  it('connects to public IPv6 addresses and to IPv4 forms carrying a public address', () => {
    for (const a of ['2a00:1450:4001:80b::1b', '2001:4860:4860::8888', '64:ff9b::808:808', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:f7f7:f7f7', '::ffff:8.8.8.8', '::8.8.8.8', '64:ff9b:1::808:808']) {
      expect([a, privateAddressKind(a)]).toEqual([a, null]);
    }
  });
});

describe('IPv6 forms that carry an IPv4 address are judged by the address inside', () => {
  const cases: [string, string, string, RegExp][] = [
    ['IPv4-mapped Address (RFC 4291)', '::ffff:192.168.1.5', '192.168.1.5', /^a private address$/],
    ['IPv4-compatible Address (RFC 4291, deprecated)', '::127.0.0.1', '127.0.0.1', /^a loopback address \(this machine\) \(127\.0\.0\.1, inside the IPv4-compatible/],
    ['IPv4-translated Address (RFC 2765)', '::ffff:0:10.0.0.1', '10.0.0.1', /^a private address \(10\.0\.0\.1, inside the IPv4-translated/],
    ['NAT64 well-known prefix (IPv4-IPv6 Translat., RFC 6052)', '64:ff9b::a00:1', '10.0.0.1', /^a private address \(10\.0\.0\.1, inside the NAT64 well-known prefix/],
    ['NAT64 well-known prefix (IPv4-IPv6 Translat., RFC 6052)', '64:ff9b::7f00:1', '127.0.0.1', /^a loopback address \(this machine\) \(127\.0\.0\.1/],
    ['NAT64 well-known prefix (IPv4-IPv6 Translat., RFC 6052)', '64:ff9b::a9fe:a9fe', '169.254.169.254', /^a link-local address \(the cloud metadata service\) \(169\.254\.169\.254/],
    ['NAT64 well-known prefix (IPv4-IPv6 Translat., RFC 6052)', '64:ff9b::c612:1', '198.18.0.1', /^a benchmarking address \(198\.18\.0\.1/],
    ['NAT64 local-use prefix (IPv4-IPv6 Translat., RFC 8215)', '64:ff9b:1::a00:1', '10.0.0.1', /^a private address \(10\.0\.0\.1, inside the NAT64 local-use prefix/],
    // The operator's /48 prefix puts 10.0.0.1 at bytes 6-7 and 9-10 (RFC 6052 section 2.2).
    ['NAT64 local-use prefix (IPv4-IPv6 Translat., RFC 8215)', '64:ff9b:1:a00:0:100::', '10.0.0.1', /^a private address \(10\.0\.0\.1, inside the NAT64 local-use prefix/],
    ['6to4 (RFC 3056)', '2002:a9fe:a9fe::1', '169.254.169.254', /^a link-local address \(the cloud metadata service\) \(169\.254\.169\.254, inside the 6to4/],
    ['TEREDO (RFC 4380)', '2001:0:4136:e378:8000:63bf:5601:5601', '169.254.169.254', /^a link-local address \(the cloud metadata service\) \(169\.254\.169\.254, inside the TEREDO/],
  ];
  for (const [form, address, inside, said] of cases) {
    it(`reads ${inside} out of ${address} (${form}) and refuses it`, () => {
      const found = embeddedIpv4(address);
      expect(found?.form.name).toBe(form);
      expect(found?.addresses).toContain(inside);
      expect(privateAddressKind(address)).toMatch(said);
    });
  }
  it('reads the 16 bytes of an IPv6 address written with ::, in full and with a dotted tail', () => {
    expect(ipv6Bytes('64:ff9b::10.0.0.1')).toEqual([0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 1]);
    expect(ipv6Bytes('2002:a9fe:a9fe:0:0:0:0:1')).toEqual([0x20, 0x02, 0xa9, 0xfe, 0xa9, 0xfe, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Bytes('::')).toEqual(Array(16).fill(0));
  });
  it('judges a zoned link-local address by its address', () => {
    expect(privateAddressKind('fe80::1%eth0')).toBe('a link-local address');
  });
});
