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
  const [a, b, c, d, e, f] = groups;
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0xffff) {
    return `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
  }
  return `${a!.toString(16)}:${b!.toString(16)}:${c!.toString(16)}:${d!.toString(16)}::/64`;
}

const COLON = 58;
const DOT = 46;

/** The value of the hexadecimal digit at `at`, or -1. */
function hexDigit(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 32;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/** `a.b.c.d` from `start` to `end` as two 16-bit groups, or undefined. */
function dottedGroups(text: string, start: number, end: number): [number, number] | undefined {
  const octets = text.slice(start, end).split('.');
  if (octets.length !== 4) return undefined;
  const values = octets.map((octet) => (/^\d{1,3}$/.test(octet) ? Number(octet) : 256));
  if (values.some((value) => value > 255)) return undefined;
  return [(values[0]! << 8) | values[1]!, (values[2]! << 8) | values[3]!];
}

/**
 * The eight 16-bit groups of an IPv6 address in any of its spellings (`::`, leading zeros, either
 * case, a zone, the last 32 bits as an IPv4 address), or undefined if it is none. Read character
 * by character: it runs for every scan from an IPv6 client.
 */
function ipv6Groups(address: string): number[] | undefined {
  const zone = address.indexOf('%');
  const end = zone === -1 ? address.length : zone;
  const groups: number[] = [];
  /** Where `::` stands among the groups, or -1. */
  let gap = -1;
  let at = 0;
  if (address.charCodeAt(0) === COLON) {
    if (address.charCodeAt(1) !== COLON) return undefined;
    gap = 0;
    at = 2;
  }
  while (at < end) {
    let next = at;
    let value = 0;
    let dotted = false;
    for (; next < end && address.charCodeAt(next) !== COLON; next++) {
      const digit = hexDigit(address, next);
      if (digit === -1) {
        if (address.charCodeAt(next) !== DOT) return undefined;
        dotted = true;
      } else {
        value = value * 16 + digit;
      }
    }
    if (dotted) {
      const tail = next === end ? dottedGroups(address, at, end) : undefined;
      if (!tail) return undefined;
      groups.push(...tail);
      break;
    }
    if (next - at < 1 || next - at > 4) return undefined;
    groups.push(value);
    if (next === end) break;
    if (address.charCodeAt(next + 1) === COLON) {
      if (gap !== -1) return undefined;
      gap = groups.length;
      at = next + 2;
    } else {
      at = next + 1;
      if (at === end) return undefined;
    }
  }
  if (gap === -1) return groups.length === 8 ? groups : undefined;
  if (groups.length > 7) return undefined;
  return [...groups.slice(0, gap), ...Array<number>(8 - groups.length).fill(0), ...groups.slice(gap)];
}
