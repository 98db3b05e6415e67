import { BlockList, isIP } from 'node:net';

/**
 * The proxies whose `X-Forwarded-For` is believed (`TRUSTED_PROXIES`: comma-separated CIDRs or
 * addresses, IPv4 or IPv6). Throws naming the entry that is not one.
 */
export function parseTrustedProxies(value: string | undefined): BlockList {
  const list = new BlockList();
  for (const raw of (value ?? '').split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const [address, bits, ...rest] = entry.split('/');
    const family = isIP(address ?? '');
    const prefix = bits === undefined ? (family === 6 ? 128 : 32) : Number(bits);
    if (family === 0 || rest.length > 0 || !/^\d{1,3}$/.test(String(prefix)) || prefix > (family === 6 ? 128 : 32)) {
      throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR`);
    }
    list.addSubnet(address!, prefix, family === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

function plain(address: string): string {
  return address.trim().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
}

function trusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * The client's address: the peer's, unless the peer is a trusted proxy, in which case the
 * `X-Forwarded-For` hops are walked from the right (the nearest) while they are trusted
 * proxies too; the first untrusted hop is the client. A forged left part of the header is
 * therefore never reached through an untrusted hop.
 */
export function clientIpOf(peer: string, forwardedFor: string | string[] | undefined, proxies: BlockList): string {
  let client = plain(peer);
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? ''))
    .split(',')
    .map(plain)
    .filter((h) => h !== '');
  while (trusted(proxies, client) && hops.length > 0) {
    const next = hops.pop()!;
    if (isIP(next) === 0) break; // not an address: stop at the last proxy
    client = next;
  }
  return client;
}
