import type { SecuritySchemeMeta } from '../../common/contract/index.js';
import { parseCookies, type Exchange } from '../exchange/index.js';

/** One security scheme of a description, as the runtime checks it. */
export interface SchemeCheck {
  readonly name: string;
  /** Whether the request carries what the scheme asks for. */
  satisfiedBy(ex: Exchange): boolean;
  /** A WWW-Authenticate challenge naming the scheme. */
  readonly challenge: string;
  /** What a client has to send, for the 401's message. */
  readonly expected: string;
}

const BASIC = /^basic[ \t]+([A-Za-z0-9+/]+={0,2})[ \t]*$/i;
const BEARER = /^bearer[ \t]+([A-Za-z0-9\-._~+/]+=*)[ \t]*$/i;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

const quoted = (value: string): string => `"${value.replace(/["\\]/g, '\\$&')}"`;

/** Well-formed `Basic base64(user:password)`. */
function hasBasic(authorization: string | undefined): boolean {
  const encoded = authorization === undefined ? null : BASIC.exec(authorization);
  if (encoded === null || encoded[1].length % 4 !== 0) return false;
  return Buffer.from(encoded[1], 'base64').toString('utf8').includes(':');
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

function bearerCheck(scheme: SecuritySchemeMeta, what: string): SchemeCheck {
  const jwt = scheme.bearerFormat?.toLowerCase() === 'jwt';
  return {
    name: scheme.scheme,
    satisfiedBy(ex) {
      const token = bearerToken(ex.headers.authorization);
      return token !== undefined && (!jwt || isJwt(token));
    },
    challenge: `Bearer realm=${quoted(scheme.scheme)}`,
    expected: `${jwt ? 'a JWT' : what} in Authorization: Bearer <token> (${scheme.scheme})`,
  };
}

/** The check of one scheme; mutualTLS (and any type OpenAPI does not define) is not checked. */
export function schemeCheck(scheme: SecuritySchemeMeta): SchemeCheck | null {
  const name = scheme.scheme;
  switch (scheme.type) {
    case 'http': {
      const kind = scheme.detail ?? '';
      if (kind === 'basic') {
        return {
          name,
          satisfiedBy: (ex) => hasBasic(ex.headers.authorization),
          challenge: `Basic realm=${quoted(name)}`,
          expected: `HTTP Basic credentials in Authorization: Basic base64(user:password) (${name})`,
        };
      }
      if (kind === 'bearer') return bearerCheck(scheme, 'a bearer token');
      const prefix = new RegExp(`^${kind.replace(/[^A-Za-z0-9-]/g, '')}[ \\t]+\\S`, 'i');
      const title = kind.charAt(0).toUpperCase() + kind.slice(1);
      return {
        name,
        satisfiedBy: (ex) => ex.headers.authorization !== undefined && prefix.test(ex.headers.authorization),
        challenge: `${title} realm=${quoted(name)}`,
        expected: `Authorization: ${title} <credentials> (${name})`,
      };
    }
    case 'apiKey': {
      const key = scheme.name ?? '';
      const where = scheme.detail === 'query' ? 'query' : scheme.detail === 'cookie' ? 'cookie' : 'header';
      const header = key.toLowerCase();
      const satisfiedBy =
        where === 'query'
          ? (ex: Exchange) => ex.query.has(key)
          : where === 'cookie'
            ? (ex: Exchange) => parseCookies(ex.headers.cookie)[key] !== undefined
            : (ex: Exchange) => ex.headers[header] !== undefined;
      const place = where === 'query' ? 'query parameter' : where;
      return {
        name,
        satisfiedBy,
        challenge: `ApiKey realm=${quoted(name)}, in=${quoted(where)}, name=${quoted(key)}`,
        expected: `an API key in ${place} ${key} (${name})`,
      };
    }
    case 'oauth2':
      return bearerCheck(scheme, 'an OAuth 2.0 access token');
    case 'openIdConnect':
      return bearerCheck(scheme, 'an OpenID Connect token');
    default:
      return null;
  }
}
