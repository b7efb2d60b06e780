import { createHash } from 'node:crypto';
import path from 'node:path';
import type { BuildOptions } from './options.js';
import { readDescription, toOpenApi3 } from './load/index.js';
import { TOOL_VERSION } from '../common/version.js';

/** Reads and bundles the descriptions; the hash covers bundled content (so external $ref files count), mock.yaml's routes and tool version. */
export async function loadInputs(options: BuildOptions) {
  const raw = await Promise.all(options.specs.map((s) => readDescription(s.source, options.cwd)));
  const inputs = await Promise.all(
    raw.map(async (r, i) => ({ source: r.source, basePath: options.specs[i].basePath, description: await toOpenApi3(r.source, r.document) })),
  );
  const name = options.name ?? defaultName(options.specs[0]?.source ?? 'api');
  const inputsHash = sha256(
    JSON.stringify({
      version: TOOL_VERSION,
      name,
      specs: raw.map((r, i) => ({ source: r.source, basePath: options.specs[i].basePath ?? null, document: r.document })),
      routes: options.routes,
      routeRules: options.routeRules ?? [],
    }),
  );
  return { name, inputs, inputsHash, raw };
}

/** `./specs/petstore.yaml` and `https://x/petstore.json` both name a build `petstore`. */
export function defaultName(source: string): string {
  const base = path.basename(source.replace(/[?#].*$/, '')).replace(/\.(ya?ml|json)$/i, '');
  return base.replace(/[^A-Za-z0-9_.-]/g, '-') || 'api';
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
