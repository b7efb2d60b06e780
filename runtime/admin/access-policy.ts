import { isIP } from 'node:net';
import { MockError } from '../../common/errors.js';
import { DEFAULT_PORTS, OriginList, parseOrigin, type ParsedOrigin } from '../match/index.js';

/**
 * Who may talk to a control surface (the admin API, the management router) from a browser.
 * Requests from tools (curl, scripts, tests) carry no `Origin` and are judged by their `Host` only.
 *
 * - Host (DNS rebinding): a page on `http://evil.example` whose name later resolves to 127.0.0.1
 *   reaches the admin with `Host: evil.example`. Allowed: no Host (HTTP/1.0 tools), `localhost`
 *   and `*.localhost`, IP literals (a rebinding attack needs a name), and `allowedHosts` entries:
 *   `mock.internal`, `.example.com` (the domain and every subdomain), or `*` (any).
 * - Origin (cross-site requests): a request from a page carries its origin. Allowed: the
 *   `allowedOrigins` entries (`http://localhost:5173`, `http://localhost:*` for any port,
 *   `https://*.example.com` for subdomains, `*` for any) and the server's own origin (the
 *   page it serves itself: the Origin's host and port equal the Host header).
 */
export interface AccessPolicyOptions {
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
}

export const DEFAULT_ALLOWED_ORIGINS: readonly string[] = ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'];

/** This machine's pages only. */
export const DEFAULT_ACCESS: AccessPolicyOptions = { allowedHosts: [], allowedOrigins: DEFAULT_ALLOWED_ORIGINS };

export class AccessPolicy {
  private readonly anyHost: boolean;
  private readonly hosts: Set<string>;
  private readonly domains: string[];
  private readonly origins: OriginList;

  /** Throws MOCK_ERR_CONFIG_INVALID naming an entry that is not a host or an origin. */
  constructor(options: AccessPolicyOptions) {
    this.anyHost = options.allowedHosts.includes('*');
    const names = options.allowedHosts.filter((h) => h !== '*').map((h) => hostName(h, 'admin.allowed_hosts'));
    this.hosts = new Set(names.filter((h) => !h.startsWith('.')));
    this.domains = names.filter((h) => h.startsWith('.'));
    this.origins = new OriginList(options.allowedOrigins, 'admin.cors.allowed_origins');
  }

  /** `host` is the Host header as received. */
  hostAllowed(host: string | undefined): boolean {
    if (host === undefined || host === '' || this.anyHost) return true;
    const name = splitHost(host)?.name;
    if (name === undefined) return false;
    if (name === 'localhost' || name.endsWith('.localhost') || isIP(name) !== 0) return true;
    return this.hosts.has(name) || this.domains.some((domain) => name === domain.slice(1) || name.endsWith(domain));
  }

  /** `origin` is the Origin header (present); `host` the Host header, for the server's own origin. */
  originAllowed(origin: string, host: string | undefined): boolean {
    if (this.origins.any) return true;
    const parsed = parseOrigin(origin);
    if (parsed === undefined) return false;
    if (host !== undefined && sameAuthority(parsed, host)) return true;
    return this.origins.allows(parsed);
  }
}

/** `name[:port]` or `[v6][:port]`, lower case, without a trailing dot. */
function splitHost(text: string): { name: string; port: string | undefined } | undefined {
  const value = text.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end < 0) return undefined;
    const rest = value.slice(end + 1);
    if (rest !== '' && !/^:\d+$/.test(rest)) return undefined;
    return { name: value.slice(1, end), port: rest === '' ? undefined : rest.slice(1) };
  }
  const colon = value.indexOf(':');
  const name = (colon < 0 ? value : value.slice(0, colon)).replace(/\.$/, '');
  const port = colon < 0 ? undefined : value.slice(colon + 1);
  if (name === '' || (port !== undefined && !/^\d+$/.test(port))) return undefined;
  return { name, port };
}

/** The Origin names the same host and port as the Host header: the page came from this server. */
function sameAuthority(origin: ParsedOrigin, hostHeader: string): boolean {
  const host = splitHost(hostHeader);
  if (host === undefined) return false;
  return host.name === origin.host && (host.port ?? DEFAULT_PORTS[origin.scheme]) === origin.port;
}

const HOST_NAME = /^\.?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/;

function hostName(entry: string, key: string): string {
  const name = entry.trim().toLowerCase();
  if (!HOST_NAME.test(name)) {
    throw new MockError('MOCK_ERR_CONFIG_INVALID', `${key}: "${entry}" is not a host name; give one such as mock.internal, .example.com (the domain and its subdomains) or *`);
  }
  return name.replace(/\.$/, '');
}
