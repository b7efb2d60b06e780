import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { redactUrlCredentials } from '../../../common/redacted.js';

/**
 * Where a webhook may be sent. The URL is checked as the proxy's upstream is (an http(s) URL with
 * a host), and every address it reaches is checked where the connection is made (the lookup of
 * the request itself, so a name that resolves to another address later is checked again):
 * loopback, link-local (cloud metadata services live there), private, shared (CGNAT) and
 * unspecified addresses are refused unless contract_diff.webhook_allow_private is set.
 */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6');

/** Whether an address is one only this machine or its network reaches (BlockList checks an IPv4-mapped IPv6 address as its IPv4). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  return family === 0 ? false : PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** A URL as log lines show it: without its userinfo and its query, either of which may carry a credential. */
export function displayUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/**
 * What is wrong with a webhook's URL, or undefined: not an http(s) URL, or one naming a refused
 * address or `localhost` itself (a name is otherwise checked when it resolves).
 */
export function checkWebhookUrl(value: string, allowPrivate: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    url = new URL('invalid:');
  }
  const shown = JSON.stringify(redactUrlCredentials(value));
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return `expected an http(s) URL such as https://hooks.example.com/mock, got ${shown}`;
  if (allowPrivate) return undefined;
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || isPrivateAddress(host)) {
    return `${shown} is a loopback, link-local or private address; set contract_diff.webhook_allow_private: true to send there`;
  }
  return undefined;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A dns.lookup for http.request that fails with ERR_WEBHOOK_TARGET when a name resolves to a refused address. */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) return callback(error, []);
      const refused = allowPrivate ? undefined : addresses.find((entry) => isPrivateAddress(entry.address));
      if (refused !== undefined) {
        const failure: NodeJS.ErrnoException = new Error(
          `${hostname} resolves to ${refused.address}, a loopback, link-local or private address; set contract_diff.webhook_allow_private: true to send there`,
        );
        failure.code = 'ERR_WEBHOOK_TARGET';
        return callback(failure, []);
      }
      if ((options as { all?: boolean }).all === true) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
