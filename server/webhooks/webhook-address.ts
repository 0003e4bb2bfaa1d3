// Where a webhook may be sent. A URL naming a private, loopback, link-local (cloud metadata at
// 169.254.169.254), shared, multicast or reserved address would let any account make this server call into
// its own network (SSRF), so such addresses are refused unless WEBHOOK_ALLOW_PRIVATE=1. The check runs when
// a webhook is created (a friendly 400) and again on every delivery on the address actually connected to:
// deliveries resolve the host through `publicOnlyLookup`, handed to the socket as its DNS lookup, so a name
// that resolved to a public address at creation and to 127.0.0.1 later (DNS rebinding) is refused then.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { AppError } from '@/server/errors';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64 (checked again on its embedded IPv4 below)
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) blocked.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address an IPv6 address carries (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible, NAT64), if any. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1], 16);
    const lo = parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** Whether `address` (an IP literal) is private, loopback, link-local or otherwise not a public unicast address. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4 !== null) return blocked.check(v4, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true; // not an IP address at all: never trusted as public
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function refusal(url: URL, address: string): AppError {
  return new AppError('bad_request', `Webhook URL ${url.origin} resolves to ${address}, a private, loopback or link-local address; webhooks must reach a public address`, {
    address,
    hint: 'An operator may allow private addresses with WEBHOOK_ALLOW_PRIVATE=1 (development and tests)',
  });
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));
}

/**
 * Parses a webhook URL and, unless private addresses are allowed, resolves its host and refuses it when any
 * address it resolves to is private. Throws the caller's 400 with the reason.
 */
export async function assertWebhookUrlAllowed(text: string, allowPrivate: boolean): Promise<URL> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AppError('bad_request', 'url must be an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new AppError('bad_request', 'url must use https (or http)');
  if (allowPrivate) return url;
  const host = hostOf(url);
  if (isIP(host)) {
    if (isPrivateAddress(host)) throw refusal(url, host);
    return url;
  }
  const addresses = await resolveAll(host).catch(() => {
    throw new AppError('bad_request', `Webhook URL host ${host} does not resolve`, { host });
  });
  const bad = addresses.find((a) => isPrivateAddress(a.address));
  if (bad) throw refusal(url, bad.address);
  return url;
}

/**
 * A DNS lookup for outgoing webhook sockets that answers only public addresses: the socket connects to what
 * this returns, so the check holds for the very address used. With private addresses allowed, plain lookup.
 */
export function publicOnlyLookup(allowPrivate: boolean): LookupFunction {
  if (allowPrivate) return dnsLookup as LookupFunction;
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const usable = addresses.filter((a) => !isPrivateAddress(a.address));
      if (usable.length === 0) {
        const e = Object.assign(new Error(`${hostname} resolves only to private, loopback or link-local addresses (${addresses.map((a) => a.address).join(', ')})`), { code: 'EPRIVATEADDRESS' });
        return callback(e, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      callback(null, usable[0].address, usable[0].family);
    });
  };
}
