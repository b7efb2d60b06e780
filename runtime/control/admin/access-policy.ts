import { isIP } from 'node:net';
import { MockError } from '../../../common/errors.js';
import { DEFAULT_PORTS, OriginList, parseOrigin, type ParsedOrigin } from '../../match/index.js';

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
 *   page it serves itself: the Origin's host and port equal the Host header). Never `null`
 *   (sandboxed documents, file: pages), whatever `*` says.
 * - Mock ports: anyone can plant a page on a port this process serves mocks on (a runtime mock
 *   answering text/html), so an Origin on one of those ports is refused whatever the two rules
 *   above say, under any host name: any name can be pointed at this machine, so the port is what
 *   identifies the mock. The one exception is the admin embedded in a mock server, for its own
 *   origin: there every answer of the mock itself is sandboxed (an opaque origin, `null`), so a
 *   document with that origin is the admin page.
 */
export interface AccessPolicyOptions {
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
}

export const DEFAULT_ALLOWED_ORIGINS: readonly string[] = ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*', 'https://localhost:*', 'https://127.0.0.1:*', 'https://[::1]:*'];

/** This machine's pages only. */
export const DEFAULT_ACCESS: AccessPolicyOptions = { allowedHosts: [], allowedOrigins: DEFAULT_ALLOWED_ORIGINS };

const NO_PORTS: ReadonlySet<number> = new Set();

export class AccessPolicy {
  private readonly anyHost: boolean;
  private readonly hosts: Set<string>;
  private readonly domains: string[];
  private readonly origins: OriginList;

  /**
   * `mockPorts`: the ports this process serves mocks on, read at each request (servers start,
   * restart and stop; port 0 is known only once listening). Throws MOCK_ERR_CONFIG_INVALID naming
   * an entry that is not a host or an origin.
   */
  constructor(
    options: AccessPolicyOptions,
    private readonly mockPorts: () => ReadonlySet<number> = () => NO_PORTS,
  ) {
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

  /**
   * `origin` is the Origin header (present); `host` the Host header, for the server's own origin;
   * `embedded`: the caller is the admin embedded in the mock server the request reached.
   */
  originAllowed(origin: string, host: string | undefined, embedded = false): boolean {
    const parsed = parseOrigin(origin);
    if (parsed === undefined) return false;
    const own = host !== undefined && sameAuthority(parsed, host);
    if (this.servesMocks(parsed)) return embedded && own;
    return own || this.origins.allows(parsed);
  }

  /**
   * Whether a page of another origin may read the admin page, and with it the browser token:
   * only origins an allowedOrigins entry names exactly (`https://dash.example.com`), not the
   * patterns (`http://localhost:*`, the default, covers every local port, other programs' too).
   */
  pageReadableBy(origin: string): boolean {
    const parsed = parseOrigin(origin);
    return parsed !== undefined && !this.servesMocks(parsed) && this.origins.names(parsed);
  }

  private servesMocks(origin: ParsedOrigin): boolean {
    return this.mockPorts().has(Number(origin.port));
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
