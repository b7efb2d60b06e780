import { isIP } from 'node:net';
import { MockError } from '../../common/errors.js';

/**
 * Browser origins a setting allows: `http://localhost:5173`, `http://localhost:*` (any port),
 * `https://*.example.com` (subdomains), `*` (any). Used by the admin API's cross-site guard
 * (admin.cors.allowed_origins) and the mocked API's CORS (http.cors.allowed_origins).
 */
export interface ParsedOrigin {
  scheme: string;
  /** Lower case, IPv6 without brackets. */
  host: string;
  /** The scheme's default when the origin names none. */
  port: string;
}

interface OriginRule {
  scheme: string;
  /** Lower case; `*.` prefix for subdomains. */
  host: string;
  /** `*` for any port. */
  port: string;
}

export const DEFAULT_PORTS: Readonly<Record<string, string>> = { http: '80', https: '443' };

const ORIGIN_EXAMPLES = 'http://localhost:5173, http://localhost:* (any port), https://*.example.com or *';

/** An Origin header's scheme, host and port; undefined for `null` and anything unparsable. */
export function parseOrigin(origin: string): ParsedOrigin | undefined {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return undefined;
  }
  const scheme = url.protocol.slice(0, -1);
  if (url.origin === 'null' || url.host === '') return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return { scheme, host, port: url.port === '' ? (DEFAULT_PORTS[scheme] ?? '') : url.port };
}

export class OriginList {
  readonly any: boolean;
  private readonly rules: OriginRule[];

  /** Throws MOCK_ERR_CONFIG_INVALID naming `key` and an entry that is not an origin. */
  constructor(entries: readonly string[], key: string) {
    this.any = entries.includes('*');
    this.rules = entries.filter((o) => o !== '*').map((entry) => originRule(entry, key));
  }

  /** An entry names the origin exactly: no `*` for its port or host, not `*` itself. */
  names(origin: ParsedOrigin): boolean {
    return this.rules.some((rule) => rule.scheme === origin.scheme && rule.host === origin.host && rule.port === origin.port);
  }

  allows(origin: ParsedOrigin): boolean {
    return this.any || this.rules.some((rule) => rule.scheme === origin.scheme && hostMatches(rule.host, origin.host) && (rule.port === '*' || rule.port === origin.port));
  }
}

function hostMatches(rule: string, host: string): boolean {
  return rule.startsWith('*.') ? host.endsWith(rule.slice(1)) : rule === host;
}

function originRule(entry: string, key: string): OriginRule {
  const invalid = (): never => {
    throw new MockError('MOCK_ERR_CONFIG_INVALID', `${key}: "${entry}" is not an origin; give one such as ${ORIGIN_EXAMPLES}`);
  };
  const match = /^([a-z][a-z0-9+.-]*):\/\/(\[[0-9a-f:.]+\]|(?:\*\.)?[a-z0-9_.-]+)(?::(\d+|\*))?$/.exec(entry.trim().toLowerCase());
  if (match === null) return invalid();
  const [, scheme, host, port] = match;
  const bare = host.replace(/^\[|\]$/g, '');
  if (host.startsWith('[') && isIP(bare) !== 6) return invalid();
  return { scheme, host: bare, port: port ?? DEFAULT_PORTS[scheme] ?? invalid() };
}
