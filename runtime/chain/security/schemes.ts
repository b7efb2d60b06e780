import type { SecuritySchemeMeta } from '../../../common/contract/index.js';
import { parseCookies, type Exchange } from '../exchange/index.js';
import { jwtVerifier, type Granted, type JwtVerifier } from './jwt-verifier.js';
import type { SchemePins } from './options.js';
import type { TokenIssuer } from './token-issuer.js';

/**
 * true: satisfied; a grant: satisfied by a token that says which scopes it grants; false: the
 * credentials are absent or malformed; a string: present but refused, and why.
 */
export type SchemeVerdict = boolean | string | Granted;

/** One security scheme of a description, as the runtime checks it. */
export interface SchemeCheck {
  readonly name: string;
  check(ex: Exchange): SchemeVerdict | Promise<SchemeVerdict>;
  /** A WWW-Authenticate challenge naming the scheme; `refused` says why present credentials were not accepted. */
  challenge(refused?: string): string;
  /** What a client has to send, for the 401's message. */
  readonly expected: string;
  /** Its refusals are 403s (a credential shown and not trusted that no header could replace: a client certificate). */
  readonly forbids?: boolean;
}

/** What a scheme check may use besides the description: mock.yaml's pins and the token endpoint. */
export interface SchemeContext {
  pins?: SchemePins;
  issuer?: TokenIssuer;
  now?: () => number;
}

const BASIC = /^basic[ \t]+([A-Za-z0-9+/]+={0,2})[ \t]*$/i;
const BEARER = /^bearer[ \t]+([A-Za-z0-9\-._~+/]+=*)[ \t]*$/i;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

const quoted = (value: string): string => `"${value.replace(/["\\]/g, '\\$&')}"`;

/** `user:password` of a well-formed `Basic base64(user:password)`. */
function basicPair(authorization: string | undefined): [string, string] | undefined {
  const encoded = authorization === undefined ? null : BASIC.exec(authorization);
  if (encoded === null || encoded[1].length % 4 !== 0) return undefined;
  const text = Buffer.from(encoded[1], 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon === -1 ? undefined : [text.slice(0, colon), text.slice(colon + 1)];
}

function bearerToken(authorization: string | undefined): string | undefined {
  return authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
}

function jsonObject(segment: string): Record<string, unknown> | undefined {
  if (!BASE64URL.test(segment)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A syntactically valid JWS compact token: a JSON header naming its alg, a JSON payload, a signature part. */
export function isJwt(token: string): boolean {
  const parts = token.split('.');
  if (parts.length !== 3 || (parts[2] !== '' && !BASE64URL.test(parts[2]))) return false;
  const header = jsonObject(parts[0]);
  return header !== undefined && typeof header.alg === 'string' && jsonObject(parts[1]) !== undefined;
}

/**
 * How a bearer-like scheme judges a present token. Without pins (and, for oauth2, without a token
 * endpoint) any token of the right form passes; with them, a pinned token, a JWT that verifies
 * against the `jwt` pins, or a token the token endpoint issued.
 */
function tokenJudge(scheme: SecuritySchemeMeta, context: SchemeContext): ((token: string) => SchemeVerdict | Promise<SchemeVerdict>) | undefined {
  const { pins, issuer } = context;
  const tokens = new Set(pins?.tokens ?? []);
  const verifier: JwtVerifier | undefined = pins?.jwt === undefined ? undefined : jwtVerifier(pins.jwt, context.now);
  const pinned = tokens.size > 0 || verifier !== undefined || (scheme.type === 'oauth2' && issuer !== undefined);
  if (!pinned) return undefined;
  return (token) => {
    if (tokens.has(token)) return true;
    if (!isJwt(token)) return 'the token is not one of the accepted tokens';
    const attempts = [verifier?.(token), issuer?.verify(token)].filter((a): a is Promise<Granted | string> => a !== undefined);
    if (attempts.length === 0) return 'the token is not one of the accepted tokens';
    return Promise.all(attempts).then((results) => results.find((r): r is Granted => typeof r !== 'string') ?? results[0] ?? 'token refused');
  };
}

function bearerCheck(scheme: SecuritySchemeMeta, what: string, context: SchemeContext): SchemeCheck {
  const jwt = scheme.bearerFormat?.toLowerCase() === 'jwt';
  const judge = tokenJudge(scheme, context);
  const realm = `Bearer realm=${quoted(scheme.scheme)}`;
  return {
    name: scheme.scheme,
    check(ex) {
      const token = bearerToken(ex.headers.authorization);
      if (token === undefined) return false;
      if (judge !== undefined) return judge(token);
      return !jwt || isJwt(token) || 'the token is not a JWT';
    },
    // RFC 6750 3.1: a token that was sent and refused is named invalid_token
    challenge: (refused) => (refused === undefined ? realm : `${realm}, error="invalid_token", error_description=${quoted(refused)}`),
    expected: `${jwt ? 'a JWT' : what} in Authorization: Bearer <token> (${scheme.scheme})`,
  };
}

function basicCheck(scheme: SecuritySchemeMeta, context: SchemeContext): SchemeCheck {
  const users = context.pins?.users;
  const passwords = users === undefined ? undefined : new Map(users.map((u) => [u.username, u.password]));
  const challenge = `Basic realm=${quoted(scheme.scheme)}`;
  return {
    name: scheme.scheme,
    check(ex) {
      const pair = basicPair(ex.headers.authorization);
      if (pair === undefined) return false;
      return passwords === undefined || passwords.get(pair[0]) === pair[1] || 'unknown user name or wrong password';
    },
    challenge: () => challenge,
    expected: `HTTP Basic credentials in Authorization: Basic base64(user:password) (${scheme.scheme})`,
  };
}

function apiKeyCheck(scheme: SecuritySchemeMeta, context: SchemeContext): SchemeCheck {
  const key = scheme.name ?? '';
  const where = scheme.detail === 'query' ? 'query' : scheme.detail === 'cookie' ? 'cookie' : 'header';
  const header = key.toLowerCase();
  const valueOf =
    where === 'query'
      ? (ex: Exchange) => ex.query.get(key)?.[0]
      : where === 'cookie'
        ? (ex: Exchange) => parseCookies(ex.headers.cookie)[key]
        : (ex: Exchange) => ex.headers[header];
  const accepted = context.pins?.apiKeys === undefined ? undefined : new Set(context.pins.apiKeys);
  const challenge = `ApiKey realm=${quoted(scheme.scheme)}, in=${quoted(where)}, name=${quoted(key)}`;
  return {
    name: scheme.scheme,
    check(ex) {
      const value = valueOf(ex);
      if (value === undefined) return false;
      return accepted === undefined || accepted.has(value) || 'the API key is not one of the accepted keys';
    },
    challenge: () => challenge,
    expected: `an API key in ${where === 'query' ? 'query parameter' : where} ${key} (${scheme.scheme})`,
  };
}

/** Any other http scheme (Digest, HOBA …): its name in Authorization, with credentials after it. */
function namedHttpCheck(scheme: SecuritySchemeMeta): SchemeCheck {
  const kind = scheme.detail ?? '';
  const prefix = new RegExp(`^${kind.replace(/[^A-Za-z0-9-]/g, '')}[ \\t]+\\S`, 'i');
  const title = kind.charAt(0).toUpperCase() + kind.slice(1);
  const challenge = `${title} realm=${quoted(scheme.scheme)}`;
  return {
    name: scheme.scheme,
    check: (ex) => ex.headers.authorization !== undefined && prefix.test(ex.headers.authorization),
    challenge: () => challenge,
    expected: `Authorization: ${title} <credentials> (${scheme.scheme})`,
  };
}

/**
 * mutualTLS: the client certificate the TLS handshake carried (server.tls.client_auth request or
 * require, which serve with node:https). A server that does not ask for certificates (plain HTTP,
 * client_auth none) cannot check it: the scheme then passes, as it always did.
 */
function mutualTlsCheck(scheme: SecuritySchemeMeta): SchemeCheck {
  return {
    name: scheme.scheme,
    check: (ex) => {
      const certificate = ex.clientCertificate;
      if (certificate === undefined) return true;
      if (certificate === null) return false;
      return certificate.authorized ? true : `the client certificate (${certificate.subject}) is not signed by an authority of server.tls.ca`;
    },
    // TLS asks for certificates in its handshake: there is no WWW-Authenticate challenge for them
    challenge: () => '',
    expected: `a client certificate (${scheme.scheme})`,
    forbids: true,
  };
}

/** The check of one scheme; any type OpenAPI does not define is not checked. */
export function schemeCheck(scheme: SecuritySchemeMeta, context: SchemeContext = {}): SchemeCheck | null {
  switch (scheme.type) {
    case 'http':
      if (scheme.detail === 'basic') return basicCheck(scheme, context);
      if (scheme.detail === 'bearer') return bearerCheck(scheme, 'a bearer token', context);
      return namedHttpCheck(scheme);
    case 'apiKey':
      return apiKeyCheck(scheme, context);
    case 'oauth2':
      return bearerCheck(scheme, 'an OAuth 2.0 access token', context);
    case 'openIdConnect':
      return bearerCheck(scheme, 'an OpenID Connect token', context);
    case 'mutualTLS':
      return mutualTlsCheck(scheme);
    default:
      return null;
  }
}
