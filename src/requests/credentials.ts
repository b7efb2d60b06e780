import type { IrOperation, IrSecurity } from '../../compiler/index.js';
import type { ApiAuthOptions, SchemePins } from '../../runtime/index.js';

/** Where a request carries credentials. */
export interface Credentials {
  headers: Record<string, string>;
  query: Array<[string, string]>;
  cookies: Array<[string, string]>;
}

const base64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
/** Syntactically a JWT (what a mock checks without a configured key); never a real credential. */
const SAMPLE_JWT = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ sub: 'mock-client' })}.${Buffer.from('mock-signature').toString('base64url')}`;

/** A requirement that one request can satisfy: at most one scheme wants the Authorization header. */
const satisfiable = (schemes: IrSecurity[]): boolean => schemes.filter((s) => s.type !== 'apiKey' && s.type !== 'mutualTLS').length <= 1;

/**
 * Credentials satisfying the operation's first satisfiable security requirement, in the shape each
 * scheme asks for (none when security is absent or optional). Sample values: the mock checks their
 * form, not their secrets, unless mock.yaml pins them.
 */
export function sampleCredentials(op: IrOperation): Credentials {
  const out: Credentials = { headers: {}, query: [], cookies: [] };
  const byName = new Map(op.security.map((s) => [s.scheme, s]));
  const requirements = op.securityRequirements.map((names) => names.map((n) => byName.get(n)).filter((s): s is IrSecurity => s !== undefined));
  if (requirements.some((schemes) => schemes.length === 0)) return out;
  const chosen = requirements.find(satisfiable) ?? requirements[0] ?? [];
  for (const scheme of chosen) {
    if (scheme.type === 'apiKey' && scheme.name !== undefined) {
      if (scheme.detail === 'query') out.query.push([scheme.name, 'mock-api-key']);
      else if (scheme.detail === 'cookie') out.cookies.push([scheme.name, 'mock-api-key']);
      else out.headers[scheme.name.toLowerCase()] = 'mock-api-key';
    } else if (scheme.type === 'http' && scheme.detail === 'basic') {
      out.headers.authorization = `Basic ${Buffer.from('mock:mock').toString('base64')}`;
    } else if (scheme.type === 'http' && scheme.detail !== 'bearer' && scheme.detail !== undefined) {
      out.headers.authorization = `${scheme.detail.charAt(0).toUpperCase()}${scheme.detail.slice(1)} mock-credentials`;
    } else if (scheme.type === 'http' || scheme.type === 'oauth2' || scheme.type === 'openIdConnect') {
      out.headers.authorization = `Bearer ${scheme.bearerFormat?.toLowerCase() === 'jwt' || scheme.type === 'openIdConnect' ? SAMPLE_JWT : 'mock-access-token'}`;
    }
  }
  return out;
}

/** The sample credential values pinned, scheme by scheme: a server with these accepts sampleCredentials and nothing else. */
export function samplePins(operations: IrOperation[]): ApiAuthOptions {
  const schemes: Record<string, SchemePins> = {};
  for (const op of operations) {
    for (const scheme of op.security) {
      if (scheme.scheme in schemes) continue;
      const sample = sampleCredentials({ ...op, securityRequirements: [[scheme.scheme]] });
      if (scheme.type === 'apiKey') schemes[scheme.scheme] = { apiKeys: ['mock-api-key'] };
      else if (scheme.type === 'http' && scheme.detail === 'basic') schemes[scheme.scheme] = { users: [{ username: 'mock', password: 'mock' }] };
      else if (sample.headers.authorization?.startsWith('Bearer ')) schemes[scheme.scheme] = { tokens: [sample.headers.authorization.slice('Bearer '.length)] };
    }
  }
  return { schemes };
}
