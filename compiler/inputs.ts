import type { BuildOptions } from './options.js';
import { readDescription, toOpenApi3 } from './load/index.js';
import { TOOL_VERSION } from '../common/version.js';
import { buildPlace, fileHashes, isUrl, optionsHash, recordedSource, sha256 } from './fingerprint.js';

export { defaultName, sha256 } from './fingerprint.js';

/**
 * Reads and bundles the descriptions; the hash covers bundled content (so external $ref files
 * count), where the build records them, mock.yaml's routes and the tool version.
 */
export async function loadInputs(options: BuildOptions) {
  const raw = await Promise.all(options.specs.map((s) => readDescription(s.source, options.cwd, options.allowRefs)));
  const inputs = await Promise.all(
    raw.map(async (r, i) => ({ source: r.source, basePath: options.specs[i].basePath, description: await toOpenApi3(r.source, r.document) })),
  );
  const { name, dir } = buildPlace(options);
  const sources = raw.map((r) => recordedSource(r.source, r.location, dir));
  const inputsHash = sha256(
    JSON.stringify({
      version: TOOL_VERSION,
      name,
      specs: raw.map((r, i) => ({ source: sources[i], basePath: options.specs[i].basePath ?? null, document: r.document })),
      routes: options.routes,
      routeRules: options.routeRules ?? [],
    }),
  );
  // what lets `mock serve` tell a fresh build from bytes alone (not for descriptions read from URLs)
  const local = raw.every((r) => !isUrl(r.source) && r.files.every((f) => !isUrl(f)));
  const fingerprint = local ? { options_sha256: optionsHash(options), input_files: fileHashes(raw.flatMap((r) => r.files), dir) } : undefined;
  return { name, dir, inputs, inputsHash, raw, sources, fingerprint };
}
