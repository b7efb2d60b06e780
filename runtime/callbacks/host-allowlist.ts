import { BlockList, isIP } from 'node:net';
import { isPrivateAddress } from '../drift/webhooks/index.js';

/** callbacks.allowed_hosts when mock.yaml says nothing: this machine only. */
export const DEFAULT_ALLOWED_HOSTS: readonly string[] = ['localhost', '127.0.0.0/8', '::1'];

/**
 * Where callbacks and webhooks may go (callbacks.allowed_hosts), so that a request to the mock
 * cannot make it call anything its user did not list (SSRF). An entry is a host name
 * (`hooks.example.com`), a wildcard (`*.example.com`: names below it; `*`: any name), an address
 * or a CIDR range (`10.1.0.0/16`). The URL's host must match an entry; then every address the
 * name resolves to is checked where the connection is made: an address outside the listed
 * addresses and ranges is refused when it is loopback, link-local (cloud metadata), private or
 * unspecified, so a listed public name cannot be pointed at the inside by its DNS.
 */
export class HostAllowlist {
  private readonly names = new Set<string>();
  private readonly suffixes: string[] = [];
  private anyName = false;
  private readonly addresses = new BlockList();

  constructor(readonly entries: readonly string[]) {
    for (const raw of entries) {
      const entry = raw
        .trim()
        .toLowerCase()
        .replace(/^\[|\]$/g, '');
      const problem = allowlistEntryProblem(entry);
      if (problem !== undefined) throw new TypeError(`callbacks.allowed_hosts: ${JSON.stringify(raw)} ${problem}`);
      const slash = entry.indexOf('/');
      if (slash !== -1) {
        const address = entry.slice(0, slash);
        this.addresses.addSubnet(address, Number(entry.slice(slash + 1)), isIP(address) === 4 ? 'ipv4' : 'ipv6');
      } else if (isIP(entry) !== 0) this.addresses.addAddress(entry, isIP(entry) === 4 ? 'ipv4' : 'ipv6');
      else if (entry === '*') this.anyName = true;
      else if (entry.startsWith('*.')) this.suffixes.push(entry.slice(1));
      else this.names.add(entry.replace(/\.$/, ''));
    }
  }

  /** Whether the URL's host (a name or an address literal, without brackets) may be called at all. */
  allowsHost(host: string): boolean {
    const family = isIP(host);
    if (family !== 0) return this.listedAddress(host);
    const name = host.toLowerCase().replace(/\.$/, '');
    return this.anyName || this.names.has(name) || this.suffixes.some((suffix) => name.endsWith(suffix));
  }

  /** Whether an address a listed name resolved to may be connected to. */
  allowsAddress(address: string): boolean {
    return this.listedAddress(address) || !isPrivateAddress(address);
  }

  private listedAddress(address: string): boolean {
    const family = isIP(address);
    return family !== 0 && this.addresses.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }
}

/** What is wrong with an allowed_hosts entry, or undefined (mock.yaml's check and the allowlist's share it). */
export function allowlistEntryProblem(entry: string): string | undefined {
  const slash = entry.indexOf('/');
  if (slash !== -1) {
    const address = entry.slice(0, slash);
    const bits = entry.slice(slash + 1);
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    if (family === 0 || !/^\d{1,3}$/.test(bits) || Number(bits) > max) return 'is not a CIDR range such as 10.1.0.0/16 or fd00::/8';
    return undefined;
  }
  if (isIP(entry) !== 0 || entry === '*') return undefined;
  return /^(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/i.test(entry) ? undefined : 'is not a host name, *.domain, an address or a CIDR range';
}
