import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { ApiError } from '../errors/api-error.js';

/**
 * Addresses a webhook may not reach unless local endpoints are allowed: loopback, private networks,
 * link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, multicast and reserved ranges.
 */
const privateRanges = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  privateRanges.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  privateRanges.addSubnet(network, prefix, 'ipv6');

/** Whether an IP address is on the public internet (an IPv4-mapped IPv6 address counts as its IPv4). */
export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isPublicAddress(mapped);
  const family = isIP(address);
  if (family === 0) return false;
  return !privateRanges.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const bareHost = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

const privateMessage = (url: string) =>
  `The webhook URL ${url} points at a private network address; endpoints must be reachable on the public internet.`;

/**
 * Checks an endpoint URL before it is stored: a 400 saying what is wrong. Without `allowLocal`
 * (production), only `https://` to a host whose every address is public.
 */
export async function checkEndpointUrl(raw: string, allowLocal: boolean): Promise<string> {
  const url = new URL(raw);
  const issue = (message: string) =>
    new ApiError('validation_failed', message, { issues: [{ location: 'body', path: 'url', message }] });
  if (url.username || url.password)
    throw issue('The webhook URL may not carry a user name or password; put a token in its path or query.');
  if (url.hash) throw issue('The webhook URL may not have a #fragment.');
  if (allowLocal) return url.toString();
  if (url.protocol !== 'https:')
    throw issue(`The webhook URL must start with https:// (${url.protocol}// is not accepted).`);
  const host = bareHost(url.hostname);
  if (host === 'localhost' || host.endsWith('.localhost')) throw issue(privateMessage(url.toString()));
  if (isIP(host)) {
    if (!isPublicAddress(host)) throw issue(privateMessage(url.toString()));
    return url.toString();
  }
  const addresses = await new Promise<LookupAddress[]>((resolve) =>
    dnsLookup(host, { all: true }, (error, found) => resolve(error ? [] : found)),
  );
  if (addresses.length === 0) throw issue(`The webhook URL's host ${host} could not be found (DNS).`);
  if (!addresses.every(({ address }) => isPublicAddress(address)))
    throw issue(privateMessage(url.toString()));
  return url.toString();
}

/**
 * A DNS lookup for deliveries that refuses private addresses: a host that resolved to a public
 * address when registered may point inside the network later (DNS rebinding).
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const found = addresses as LookupAddress[];
    const blocked = found.find(({ address }) => !isPublicAddress(address));
    if (blocked) {
      const refusal = Object.assign(
        new Error(`${hostname} resolves to a private network address (${blocked.address}); not sent`),
        { code: 'EPRIVATEADDRESS' },
      );
      return callback(refusal, '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, found);
    const first = found[0]!;
    callback(null, first.address, first.family);
  });
};
