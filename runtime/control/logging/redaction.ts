import { CREDENTIAL_HEADERS, CREDENTIAL_NAME } from '../../../common/credentials.js';
import { REDACTED } from '../../../common/redacted.js';

export { CREDENTIAL_HEADERS, REDACTED };

export interface RedactionOptions {
  /** logging.redact_credentials (default true): the credential headers and the descriptions' apiKey parameters. */
  credentials: boolean;
  /** logging.redact: more header, query and cookie parameter names, always redacted (any case). */
  names: readonly string[];
}

/** Where an apiKey scheme's key travels. */
export interface KeyParameter {
  in: 'header' | 'query' | 'cookie';
  name: string;
}

/**
 * Which values are secrets. Names compare in lower case: header names are case-insensitive, and a
 * query or cookie parameter spelled in another case is no less a secret.
 */
export class Redaction {
  private readonly credentials: boolean;
  private readonly names: ReadonlySet<string>;
  private headerNames: ReadonlySet<string>;
  private queryNames: ReadonlySet<string>;
  private cookieNames: ReadonlySet<string>;

  constructor(options: RedactionOptions = { credentials: true, names: [] }) {
    this.credentials = options.credentials;
    this.names = new Set(options.names.map((n) => n.toLowerCase()));
    this.headerNames = this.queryNames = this.cookieNames = new Set();
    this.useKeys([]);
  }

  /** The apiKey parameters of the served descriptions; set at start and again after a restart. */
  useKeys(keys: readonly KeyParameter[]): void {
    const of = (where: KeyParameter['in']): string[] => (this.credentials ? keys.filter((k) => k.in === where).map((k) => k.name.toLowerCase()) : []);
    this.headerNames = new Set([...(this.credentials ? CREDENTIAL_HEADERS : []), ...this.names, ...of('header')]);
    this.queryNames = new Set([...this.names, ...of('query')]);
    this.cookieNames = new Set([...this.names, ...of('cookie')]);
  }

  /** Whether a header's value is a secret (lower-case name). */
  isSecretHeader(name: string): boolean {
    return this.headerNames.has(name) || (this.credentials && CREDENTIAL_NAME.test(name));
  }

  /** Whether a query parameter's value is a secret. */
  isSecretQuery(name: string): boolean {
    return this.queryNames.has(name.toLowerCase());
  }

  /** Request or response headers (lower-case names) with secret values replaced; the same object when none is secret. */
  headers(headers: Readonly<Record<string, string>>): Record<string, string> {
    let out: Record<string, string> | undefined;
    for (const name in headers) {
      const value = headers[name];
      const shown = this.isSecretHeader(name) ? REDACTED : name === 'cookie' || name === 'set-cookie' ? this.cookie(value) : value;
      if (shown !== value) (out ??= { ...headers })[name] = shown;
    }
    return out ?? (headers as Record<string, string>);
  }

  /** A raw query string (without `?`) with the values of secret parameters replaced. */
  queryString(query: string): string {
    if (this.queryNames.size === 0 || query === '') return query;
    return query
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        if (eq < 0) return pair;
        return this.queryNames.has(decodeName(pair.slice(0, eq)).toLowerCase()) ? `${pair.slice(0, eq + 1)}${encodeURIComponent(REDACTED)}` : pair;
      })
      .join('&');
  }

  /** Query parameters (name → value or values) with secret values replaced. */
  query<T extends string | string[]>(params: Readonly<Record<string, T>>): Record<string, T | string> {
    const out: Record<string, T | string> = {};
    for (const [name, value] of Object.entries(params)) out[name] = this.queryNames.has(name.toLowerCase()) ? REDACTED : value;
    return out;
  }

  /** `a=1; session=xyz` with the secret cookies' values replaced (a Cookie header that is not redacted whole). */
  private cookie(value: string): string {
    if (this.cookieNames.size === 0) return value;
    return value.replace(/(^|;\s*)([^=;\s]+)=([^;]*)/g, (whole: string, lead: string, name: string) =>
      this.cookieNames.has(name.toLowerCase()) ? `${lead}${name}=${REDACTED}` : whole,
    );
  }
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
