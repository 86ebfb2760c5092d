import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which IP addresses an outbound fetch driven by chain data (a jetton's metadata URI) may reach:
 * none of the machine's own, its network's, or its cloud's (169.254.169.254). Returns why an
 * address is refused, or null for a public address.
 */
export function nonPublicAddressReason(address: string): string | null {
    const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
    if (isIPv4(bare)) return ipv4Reason(ipv4Number(bare));
    if (isIPv6(bare)) return ipv6Reason(ipv6Groups(bare));
    return 'not an IP address';
}

/** [first address, prefix length, why] for IPv4. */
const IPV4_RANGES: [string, number, string][] = [
    ['0.0.0.0', 8, 'an unspecified ("this network") address'],
    ['10.0.0.0', 8, 'a private address'],
    ['100.64.0.0', 10, 'a carrier-grade NAT (shared) address'],
    ['127.0.0.0', 8, 'a loopback address'],
    ['169.254.0.0', 16, 'a link-local address'],
    ['172.16.0.0', 12, 'a private address'],
    ['192.0.0.0', 24, 'an IETF protocol assignment address'],
    ['192.0.2.0', 24, 'a documentation address'],
    ['192.168.0.0', 16, 'a private address'],
    ['198.18.0.0', 15, 'a benchmarking address'],
    ['198.51.100.0', 24, 'a documentation address'],
    ['203.0.113.0', 24, 'a documentation address'],
    ['224.0.0.0', 4, 'a multicast address'],
    ['240.0.0.0', 4, 'a reserved or broadcast address'],
];

function ipv4Number(address: string): number {
    return address.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

function ipv4Reason(value: number): string | null {
    for (const [first, prefix, why] of IPV4_RANGES) {
        const size = 2 ** (32 - prefix);
        const start = ipv4Number(first);
        if (value >= start && value < start + size) return why;
    }
    return null;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part included). */
function ipv6Groups(address: string): number[] {
    let text = address.toLowerCase();
    const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
    if (dotted) {
        const v4 = ipv4Number(dotted[1]);
        text = `${text.slice(0, dotted.index)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
    }
    const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
    const parse = (part: string | undefined) => (part ? part.split(':').map(group => parseInt(group, 16)) : []);
    const left = parse(head);
    const right = parse(tail);
    return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function ipv6Reason(groups: number[]): string | null {
    const zeroUpTo = (n: number) => groups.slice(0, n).every(group => group === 0);
    const embedded = (high: number, low: number) => ipv4Reason(high * 65536 + low);
    if (zeroUpTo(8)) return 'an unspecified address';
    if (zeroUpTo(7) && groups[7] === 1) return 'a loopback address';
    // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) reach the IPv4 address inside.
    if (zeroUpTo(5) && groups[5] === 0xffff) return embedded(groups[6], groups[7]);
    if (zeroUpTo(6)) return embedded(groups[6], groups[7]);
    if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every(group => group === 0)) return embedded(groups[6], groups[7]);
    if (groups[0] === 0x64 && groups[1] === 0xff9b && groups[2] === 1) return 'a local-use NAT64 address';
    // 6to4 (2002:a.b.c.d::/48) tunnels to the IPv4 address in groups 1 and 2.
    if (groups[0] === 0x2002) return embedded(groups[1], groups[2]);
    if ((groups[0] & 0xfe00) === 0xfc00) return 'a unique-local address';
    if ((groups[0] & 0xffc0) === 0xfe80) return 'a link-local address';
    if ((groups[0] & 0xffc0) === 0xfec0) return 'a site-local address';
    if ((groups[0] & 0xff00) === 0xff00) return 'a multicast address';
    if (groups[0] === 0x2001 && groups[1] === 0x0db8) return 'a documentation address';
    if (groups[0] === 0x0100 && groups.slice(1, 4).every(group => group === 0)) return 'a discard-only address';
    return null;
}
