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

  /**
   * Whether a body's member or form field holds a secret: a name logging.redact lists, or, with
   * redact_credentials, one that says it is a credential as a header name would (`password`,
   * `client_secret`, `accessToken`, `apiKey`: camelCase splits into words first).
   */
  isSecretField(name: string): boolean {
    const lower = name.toLowerCase();
    if (this.names.has(lower)) return true;
    return this.credentials && CREDENTIAL_NAME.test(CAMEL_BOUNDARY.test(name) ? name.replace(CAMEL_BOUNDARY_ALL, '$1_$2').toLowerCase() : lower);
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

  /**
   * A body's text with the values of secret members (JSON) or fields (forms, multipart form data)
   * replaced; other media types as they are. Works on a truncated prefix too (no parse): one pass over the JSON's string
   * tokens, each consumed whole, so it runs in linear time whatever the client sent.
   */
  bodyText(text: string, contentType: string | undefined): string {
    if (contentType === undefined) return text;
    if (JSON_TYPE.test(contentType)) {
      return text.replace(JSON_MEMBER, (whole: string, name: string, colon: string | undefined, value: string | undefined) =>
        colon !== undefined && value !== undefined && this.isSecretField(jsonName(name)) ? `"${name}"${colon}"${REDACTED}"` : whole,
      );
    }
    if (FORM_TYPE.test(contentType)) {
      return text
        .split('&')
        .map((pair) => {
          const eq = pair.indexOf('=');
          return eq >= 0 && this.isSecretField(decodeName(pair.slice(0, eq))) ? `${pair.slice(0, eq + 1)}${encodeURIComponent(REDACTED)}` : pair;
        })
        .join('&');
    }
    if (MULTIPART_TYPE.test(contentType)) {
      return text.replace(MULTIPART_FIELD, (whole: string, head: string, name: string) => (this.isSecretField(name) ? `${head}${REDACTED}` : whole));
    }
    return text;
  }

  /** `a=1; session=xyz` with the secret cookies' values replaced (a Cookie header that is not redacted whole). */
  private cookie(value: string): string {
    if (this.cookieNames.size === 0) return value;
    return value.replace(/(^|;\s*)([^=;\s]+)=([^;]*)/g, (whole: string, lead: string, name: string) =>
      this.cookieNames.has(name.toLowerCase()) ? `${lead}${name}=${REDACTED}` : whole,
    );
  }
}

const JSON_TYPE = /^application\/([\w.+-]*\+)?json\b/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\b/i;
export const MULTIPART_TYPE = /^multipart\/form-data\b/i;
/** A multipart part's headers (its name) and its content up to the next boundary line; each line is read once. */
const MULTIPART_FIELD = /(content-disposition:[^\r\n]*?;\s*name="([^"\r\n]*)"[^\r\n]*(?:\r?\n[^\r\n]+)*\r?\n\r?\n)[^]*?(?=\r?\n--|$)/gi;
/**
 * A JSON string token (a lone backslash or the text's end close it too: a truncated body), and,
 * when a colon follows, the member's scalar value. The alternatives inside a token start with
 * different characters and every token matches once started, so nothing is tried twice.
 */
const JSON_MEMBER = /"((?:[^"\\]|\\[^]|\\$)*)(?:"|$)(?:(\s*:\s*)("(?:[^"\\]|\\[^]|\\$)*(?:"|$)|[-\w.+]+))?/g;

/** A member name as written in JSON (escapes undone where they parse). */
function jsonName(raw: string): string {
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

const CAMEL_BOUNDARY = /[a-z0-9][A-Z]/;
const CAMEL_BOUNDARY_ALL = /([a-z0-9])([A-Z])/g;

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
