// Keeps the feed reader on the public internet (no SSRF): every connection it opens, to a feed or to any
// redirect's target, is checked on the address actually connected to, after DNS. So a feed or redirect naming
// 127.0.0.1, 169.254.169.254 (cloud metadata) or [::1], or a host name that resolves (or re-resolves, DNS
// rebinding) to such an address, is refused before a byte is sent. Only addresses an operator lists as
// allowed (NEWS_ALLOW_PRIVATE_ADDRESSES, none by default) are exempt.
import { promises as dns, type LookupAddress } from 'node:dns';
import net from 'node:net';
import { Agent, buildConnector } from 'undici';

/** Loopback, private, link-local, shared, multicast and reserved ranges: nothing a public feed lives on. */
const NOT_PUBLIC: readonly [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'], // "this network": 0.0.0.0 reaches the local host
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'], // link-local, where cloud metadata answers
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, and the broadcast address
  ['::', 96, 'ipv6'], // unspecified, loopback (::1) and the old IPv4-compatible form
  ['fc00::', 7, 'ipv6'], // unique local
  ['fe80::', 10, 'ipv6'], // link-local
  ['fec0::', 10, 'ipv6'], // site-local (deprecated, still routed by some)
  ['ff00::', 8, 'ipv6'], // multicast
];
// IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) are checked by BlockList against the IPv4 ranges.

const notPublic = new net.BlockList();
for (const [address, prefix, family] of NOT_PUBLIC) notPublic.addSubnet(address, prefix, family);

/** An address or a range ('127.0.0.1', '10.0.0.0/8', 'fd00::/8'), as NEWS_ALLOW_PRIVATE_ADDRESSES lists them. */
export function parseAddressRange(text: string): {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
} {
  const [address = '', prefixText, ...rest] = text.trim().split('/');
  const version = net.isIP(address);
  const bits = version === 4 ? 32 : 128;
  const prefix =
    prefixText === undefined ? bits : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (version === 0 || rest.length > 0 || !(prefix <= bits))
    throw new RangeError(`"${text}" is not an IP address or a range such as 10.0.0.0/8`);
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

export class PrivateAddressRefused extends Error {
  constructor(address: string, hostname?: string) {
    super(
      `${hostname && hostname !== address ? `${hostname} resolves to ${address}, ` : `${address} is `}` +
        'a private, loopback or link-local address; feeds are read from public addresses only',
    );
    this.name = 'PrivateAddressRefused';
  }
}

/** Answers whether an address may be connected to: public ones, and the ranges listed as allowed. */
export function addressPolicy(allowedRanges: readonly string[] = []): (address: string) => boolean {
  const allowed = new net.BlockList();
  for (const range of allowedRanges) {
    const { address, prefix, family } = parseAddressRange(range);
    allowed.addSubnet(address, prefix, family);
  }
  return (address) => {
    const family = net.isIPv6(address) ? 'ipv6' : 'ipv4';
    return !notPublic.check(address, family) || allowed.check(address, family);
  };
}

/** Every address of a host name, as the system resolver answers (tests answer for their own names). */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (hostname) => dns.lookup(hostname, { all: true });

/**
 * A lookup for net.connect that refuses a host name any of whose addresses is not allowed: the socket then
 * connects to an address this very lookup checked, so a second, different DNS answer cannot slip in.
 */
function checkedLookup(allows: (address: string) => boolean, resolve: Resolve): net.LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (all) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const addresses = all.filter((a) => wanted === 0 || a.family === wanted);
        const refused = addresses.find((a) => !allows(a.address));
        if (refused) return callback(new PrivateAddressRefused(refused.address, hostname), '');
        const first = addresses[0];
        if (!first)
          return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
        if (options.all) return callback(null, addresses);
        callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

export interface PublicOnlyOptions {
  /** Addresses or ranges that may be reached although not public (a feed served on this machine). */
  allowedRanges?: readonly string[];
  resolve?: Resolve;
}

/**
 * An undici dispatcher whose every connection goes to an allowed address: a host name through the checked
 * lookup, a literal address (which net.connect uses without any lookup) checked here.
 */
export function publicOnlyDispatcher({
  allowedRanges = [],
  resolve = systemResolve,
}: PublicOnlyOptions = {}) {
  const allows = addressPolicy(allowedRanges);
  const connect = buildConnector({ lookup: checkedLookup(allows, resolve) });
  return new Agent({
    connect: (options, callback) => {
      if (net.isIP(options.hostname) && !allows(options.hostname)) {
        callback(new PrivateAddressRefused(options.hostname), null);
        return;
      }
      connect(options, callback);
    },
  });
}
