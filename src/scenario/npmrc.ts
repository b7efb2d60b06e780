import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'ini';

export const PUBLIC_REGISTRY = 'https://registry.npmjs.org/';

/**
 * The npm options of the user's registry as npm itself reads them: the project's .npmrc over the
 * user's ~/.npmrc (NPM_CONFIG_USERCONFIG), `${VAR}` expanded; `registry=`, `@scope:registry=` and the
 * `//host/:_authToken=` credentials go to pacote and npm-registry-fetch untouched. `registry` (--registry,
 * else scenarios.registry of mock.yaml or MOCK_SCENARIO_REGISTRY: registryOf) wins over .npmrc's.
 */
export function registryOptions(project: string, registry?: string, env: Readonly<Record<string, string | undefined>> = process.env): Record<string, unknown> {
  const files = [env.NPM_CONFIG_USERCONFIG ?? path.join(os.homedir(), '.npmrc'), path.join(project, '.npmrc')];
  const options: Record<string, unknown> = {};
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const [key, value] of Object.entries(parse(text))) {
      options[key] = typeof value === 'string' ? value.replace(/\$\{([^}]+)\}/g, (_, name: string) => env[name] ?? '') : value;
    }
  }
  const chosen = registry ?? (options.registry as string | undefined) ?? PUBLIC_REGISTRY;
  return { ...options, registry: chosen.endsWith('/') ? chosen : `${chosen}/` };
}
