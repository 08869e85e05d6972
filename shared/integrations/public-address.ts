import { BlockList, isIP } from 'node:net';

/**
 * Addresses a server-side fetch of a user-chosen URL must never reach: this host, private networks, link-local
 * (which holds the cloud metadata service, 169.254.169.254 and fd00:ec2::254), unique-local, carrier-grade NAT,
 * multicast, reserved and documentation ranges, and IPv6 forms that embed an IPv4 address, which are refused whole
 * rather than decoded: NAT64 (`64:ff9b::/96`, `64:ff9b:1::/48`), 6to4, IPv4-compatible (`::a.b.c.d`, `::/96`, which
 * some stacks still route to the IPv4 address) and SIIT IPv4-translated (`::ffff:0:a.b.c.d`, `::ffff:0:0:0/96`). IPv4-mapped IPv6 (`::ffff:a.b.c.d`) is judged by its IPv4 address:
 * BlockList matches it against the IPv4 rules (and matches IPv4 against `::ffff:0:0/96`, so that range must not
 * be listed, or every IPv4 address would be refused).
 */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  // `::` and `::1` included: IPv4-compatible addresses (issue 21, item 7).
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

/** True for an IP address that may be fetched; anything that is not an IP literal is false. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) return false;
  return !BLOCKED.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}
