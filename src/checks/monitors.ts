/**
 * Checks of monitors' own settings: values the service accepts that make its tests mean less than
 * the user thinks (a ttl reaching into the next test) or fail every time (a delivery address of
 * the IP version the monitor does not use).
 */
import { isIP } from 'node:net';
import type { DesiredState } from '../model/desired.js';
import { minutes, q } from './items.js';
import type { Hit } from './types.js';

/** monitor/ttl-beyond-timer: `ttl` (seconds) longer than the interval between tests. */
export function ttlBeyondTimer(desired: DesiredState): Hit[] {
  const out: Hit[] = [];
  for (const monitor of desired.monitors) {
    const { ttl, timer } = monitor.spec;
    // ttl 0 (or none) means no TTL at all (monitoring-api.md 2.2).
    if (!ttl || typeof timer !== 'number' || ttl <= timer * 60) continue;
    out.push({
      subject: { kind: 'monitor', monitor },
      message: `monitor ${q(monitor.label)} has a ttl of ${ttl} seconds, longer than its timer of ${minutes(timer)} (${timer * 60} seconds): a reply can still count after the next test has started`,
    });
  }
  return out;
}

/**
 * An IPv4-mapped IPv6 address (::ffff:192.0.2.1) names an IPv4 host: whether a service delivering
 * over IPv4 uses it is not documented, so it is not reported.
 */
const MAPPED_V4 = /^::ffff:/i;

/** monitor/ip-version-mismatch: `ipv6: true` (IPv6 only) to an IPv4 address, or IPv4 delivery to an IPv6 address. */
export function ipVersionMismatch(desired: DesiredState): Hit[] {
  const out: Hit[] = [];
  for (const monitor of desired.monitors) {
    const address = monitor.spec.ip_address;
    if (typeof address !== 'string') continue;
    const version = isIP(address);
    // The service's default for ipv6 is false: IPv4 (monitoring-api.md 4.4).
    const ipv6 = monitor.spec.ipv6 === true;
    let why: string | undefined;
    if (version === 4 && ipv6) why = `delivers over IPv6 only (ipv6: true) to the IPv4 address ${q(address)}`;
    else if (version === 6 && !ipv6 && !MAPPED_V4.test(address)) {
      why = `delivers over IPv4 (ipv6 ${monitor.spec.ipv6 === false ? 'false' : 'not set'}) to the IPv6 address ${q(address)}`;
    }
    if (why) out.push({ subject: { kind: 'monitor', monitor }, message: `monitor ${q(monitor.label)} ${why}: every test fails` });
  }
  return out;
}
