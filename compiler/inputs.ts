import { createHash } from 'node:crypto';
import path from 'node:path';
import type { BuildOptions } from './options.js';
import { isUrl, readDescription, toOpenApi3, type RawDescription } from './load/index.js';
import { TOOL_VERSION } from '../common/version.js';

/**
 * Reads and bundles the descriptions; the hash covers bundled content (so external $ref files
 * count), where the build records them, mock.yaml's routes and the tool version.
 */
export async function loadInputs(options: BuildOptions) {
  const raw = await Promise.all(options.specs.map((s) => readDescription(s.source, options.cwd)));
  const inputs = await Promise.all(
    raw.map(async (r, i) => ({ source: r.source, basePath: options.specs[i].basePath, description: await toOpenApi3(r.source, r.document) })),
  );
  const name = options.name ?? defaultName(options.specs[0]?.source ?? 'api');
  const dir = path.resolve(options.cwd, options.outDir, name);
  const sources = raw.map((r) => recordedSource(r, dir));
  const inputsHash = sha256(
    JSON.stringify({
      version: TOOL_VERSION,
      name,
      specs: raw.map((r, i) => ({ source: sources[i], basePath: options.specs[i].basePath ?? null, document: r.document })),
      routes: options.routes,
      routeRules: options.routeRules ?? [],
    }),
  );
  return { name, dir, inputs, inputsHash, raw, sources };
}

/**
 * A description as the build records it (manifest.json, index.ts): a URL as given, a file by its
 * path from the build folder, with `/`. Relative to the folder rather than to the cwd (or to
 * mock.yaml, which a project may not have), so that the output is the same bytes whatever folder
 * `mock build` ran in, and the path still leads to the description in every checkout.
 */
function recordedSource({ source, location }: RawDescription, dir: string): string {
  return isUrl(source) ? source : path.relative(dir, location).split(path.sep).join('/');
}

/** `./specs/petstore.yaml` and `https://x/petstore.json` both name a build `petstore`. */
export function defaultName(source: string): string {
  const base = path.basename(source.replace(/[?#].*$/, '')).replace(/\.(ya?ml|json)$/i, '');
  return base.replace(/[^A-Za-z0-9_.-]/g, '-') || 'api';
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
