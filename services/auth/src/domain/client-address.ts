// The keys the per-address throttles count a client under. An IPv4 address is one client; an IPv6 client holds a
// whole /64 (any host part is theirs for the asking), and a site usually a /48, so IPv6 counts per /64 and, with
// a higher limit, per /48. An IPv4 address written as IPv6 (`::ffff:192.0.2.1`, as dual-stack sockets report
// it) is that IPv4 address.
import { isIPv4, isIPv6 } from 'node:net';

export interface AddressKeys {
  /** The client: an IPv4 address or an IPv6 /64. */
  host: string;
  /** The IPv6 /48 around it, counted with a higher limit; none for IPv4. */
  network?: string;
}

/** Anything that is not an IP address (no address known): all such requests count as one client. */
const UNKNOWN: AddressKeys = { host: 'unknown' };

/** The eight 16-bit groups of a valid IPv6 address (an embedded dotted IPv4 tail is read as two groups). */
function groupsOf(address: string): number[] {
  let text = address;
  const tailStart = text.lastIndexOf(':') + 1;
  const tail = text.slice(tailStart);
  if (tail.includes('.')) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split('.').map(Number);
    text = `${text.slice(0, tailStart)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : []);
  const [head = '', rest] = text.split('::');
  if (rest === undefined) return parse(head);
  const before = parse(head);
  const after = parse(rest);
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

const hex = (groups: number[]) => groups.map((group) => group.toString(16)).join(':');

export function addressKeys(clientIp: string): AddressKeys {
  const address = clientIp.trim();
  if (isIPv4(address)) return { host: `ip4:${address}` };
  // A zone index (fe80::1%eth0) names the interface, not the client.
  const withoutZone = address.split('%')[0] ?? '';
  if (!isIPv6(withoutZone)) return UNKNOWN;
  const groups = groupsOf(withoutZone.toLowerCase());
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [high = 0, low = 0] = groups.slice(6);
    return { host: `ip4:${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}` };
  }
  return { host: `ip6/64:${hex(groups.slice(0, 4))}`, network: `ip6/48:${hex(groups.slice(0, 3))}` };
}
