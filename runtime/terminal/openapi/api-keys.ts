import type { ApiKeyMeta, BuildModule } from '../../../common/contract/index.js';

/**
 * Where the build's descriptions expect API keys: every declared apiKey scheme, plus those the
 * operations require (all a build made before schemes were exported can tell).
 */
export function apiKeyParameters(build: BuildModule): Array<Pick<ApiKeyMeta, 'in' | 'name'>> {
  const keys: Array<Pick<ApiKeyMeta, 'in' | 'name'>> = build.specs.flatMap((spec) => spec.apiKeys ?? []);
  for (const op of build.operations) {
    for (const s of op.security) {
      if (s.type === 'apiKey' && s.name !== null && (s.detail === 'header' || s.detail === 'query' || s.detail === 'cookie')) keys.push({ in: s.detail, name: s.name });
    }
  }
  return keys;
}
