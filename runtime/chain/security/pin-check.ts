import type { OperationMeta } from '../../../common/contract/index.js';
import type { ApiAuthOptions, SchemePins } from './options.js';

/** Which pins a scheme can use, by its type (http: by its scheme). */
function fits(type: string, detail: string | null): Array<keyof SchemePins> {
  if (type === 'apiKey') return ['apiKeys'];
  if (type === 'http' && detail === 'basic') return ['users'];
  if ((type === 'http' && detail === 'bearer') || type === 'oauth2' || type === 'openIdConnect') return ['tokens', 'jwt'];
  return [];
}

const YAML_KEY: Record<keyof SchemePins, string> = { apiKeys: 'api_keys', users: 'users', tokens: 'tokens', jwt: 'jwt' };

/**
 * What in mock.yaml `auth.schemes` the build cannot use: a scheme no description declares, or pins
 * of the wrong kind (API keys for a bearer scheme). One line each, naming the key and the fix.
 */
export function pinProblems(operations: OperationMeta[], auth: ApiAuthOptions): string[] {
  const declared = new Map<string, { type: string; detail: string | null }>();
  for (const op of operations) for (const s of op.security) declared.set(s.scheme, { type: s.type, detail: s.detail });
  const problems: string[] = [];
  for (const [name, pins] of Object.entries(auth.schemes)) {
    const scheme = declared.get(name);
    if (scheme === undefined) {
      const known = [...declared.keys()];
      problems.push(`auth.schemes.${name}: no operation of the descriptions uses a security scheme named ${name}${known.length > 0 ? ` (they use ${known.join(', ')})` : ''}; its pins are not used`);
      continue;
    }
    const usable = fits(scheme.type, scheme.detail);
    const kind = scheme.type === 'http' ? `http ${scheme.detail ?? ''}` : scheme.type;
    for (const key of Object.keys(pins) as Array<keyof SchemePins>) {
      if (pins[key] === undefined || usable.includes(key)) continue;
      const instead = usable.length > 0 ? `pin ${usable.map((k) => YAML_KEY[k]).join(' or ')} instead` : 'mock does not check its credentials';
      problems.push(`auth.schemes.${name}.${YAML_KEY[key]}: ${name} is a ${kind} scheme; ${instead}`);
    }
  }
  return problems;
}
