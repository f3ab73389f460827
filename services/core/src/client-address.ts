const HEXTET = /^[0-9a-f]{1,4}$/i;
const DOTTED = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * The client a per-address rule counts (rate limits, the scans counted per address): an IPv4
 * address as it is; an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, what a dual-stack socket
 * reports for IPv4) as that IPv4 address; any other IPv6 address as its /64 (`2001:db8:0:7::/64`).
 * An IPv6 network hands each subscriber (a home, a phone) a /64 at least, and the device picks
 * any of its 2^64 addresses: counted per address, one person would have no limit at all.
 * Anything that is not an address (an X-Forwarded-For a proxy let through) is a client of its own.
 */
export function addressGroup(address: string): string {
  if (!address.includes(':')) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address in any of its spellings, or undefined if it is none. */
function ipv6Groups(address: string): number[] | undefined {
  const zone = address.indexOf('%');
  let text = zone === -1 ? address : address.slice(0, zone);
  // The last 32 bits may be written as an IPv4 address (`::ffff:192.0.2.1`).
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const dotted = DOTTED.exec(text.slice(lastColon + 1));
  if (dotted) {
    const octets = dotted.slice(1).map(Number);
    if (octets.some((octet) => octet > 255)) return undefined;
    tail.push((octets[0]! << 8) | octets[1]!, (octets[2]! << 8) | octets[3]!);
    text = text.slice(0, text.endsWith('::', lastColon + 1) ? lastColon + 1 : lastColon);
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const hextets = (part: string) => (part === '' ? [] : part.split(':'));
  const head = hextets(halves[0]!);
  const rest = halves.length === 2 ? hextets(halves[1]!) : [];
  const given = head.length + rest.length + tail.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return undefined;
  if (![...head, ...rest].every((hextet) => HEXTET.test(hextet))) return undefined;
  return [
    ...head.map((hextet) => parseInt(hextet, 16)),
    ...Array<number>(8 - given).fill(0),
    ...rest.map((hextet) => parseInt(hextet, 16)),
    ...tail,
  ];
}
