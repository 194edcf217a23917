import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';

/** Global unicast IPv6 (RFC 4291 §2.4): what IANA allocates to the public internet. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Whether a webhook may reach this IP address: public unicast only. ipaddr.js calls every IPv6
 * address outside its named special ranges "unicast", the deprecated IPv4-compatible ones
 * (`::7f00:1`, `::a9fe:a9fe`) included, which a host with such a route (a 6in4 tunnel, a
 * translator) would carry to loopback or the cloud metadata service. So IPv6 must also be global
 * unicast. IPv4-mapped addresses (`::ffff:127.0.0.1`) are judged as the IPv4 they are.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.range() !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || parsed.match(GLOBAL_UNICAST_V6);
}

/** A name that has no address a webhook may reach, however it resolved (or did not). */
export class NoPublicAddressError extends Error {
  constructor() {
    super('the host has no public address');
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * `dns.lookup` for the delivery's sockets that answers only public addresses (isPublicAddress).
 * The check happens in the lookup the connection itself uses, so a name cannot resolve to one
 * address for the check and another for the connection (DNS rebinding). A name that does not
 * resolve fails as one that resolves to private addresses, so the owner's `lastError` does not
 * tell which internal names exist.
 */
export function publicOnlyLookup(
  hostname: string,
  options: LookupOptions,
  callback: LookupCallback,
): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(new NoPublicAddressError(), []);
    if (addresses.length === 0 || !addresses.every((a) => isPublicAddress(a.address)))
      return callback(new NoPublicAddressError(), []);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}
