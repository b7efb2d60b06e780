import { readFileSync } from 'node:fs';
import type { BuildOptions } from './options.js';
import { readDescription, toOpenApi3 } from './load/index.js';
import { TOOL_VERSION } from '../common/version.js';
import { buildPlace, fileHashes, isUrl, optionsHash, recordedSource, sha256 } from './fingerprint.js';
import { schemaFiles } from './graphql/schema-files.js';
import { protoFiles } from './grpc/proto-files.js';

export { defaultName, sha256 } from './fingerprint.js';

/**
 * Reads and bundles the descriptions; the hash covers bundled content (so external $ref files
 * count), where the build records them, mock.yaml's routes, the GraphQL schema's files, the .proto
 * files (and grpc.excluded_services) and the tool version.
 */
export async function loadInputs(options: BuildOptions) {
  const raw = await Promise.all(options.specs.map((s) => readDescription(s.source, options.cwd, options.allowRefs)));
  const inputs = await Promise.all(
    raw.map(async (r, i) => ({ source: r.source, basePath: options.specs[i].basePath, description: await toOpenApi3(r.source, r.document) })),
  );
  const { name, dir } = buildPlace(options);
  const sources = raw.map((r) => recordedSource(r.source, r.location, dir));
  // the GraphQL schema's files by their bytes (graphql itself loads only to compile them)
  const graphqlFiles = (options.graphqlSchemas ?? []).length === 0 ? [] : schemaFiles(options).map(({ file }) => file);
  const graphql = graphqlFiles.map((file) => ({ source: recordedSource(file, file, dir), sha256: sha256(readFileSync(file)) }));
  // the .proto files by their bytes (protobufjs loads only to compile them)
  const protos = protoFiles(options).map(({ file }) => file);
  const grpc = protos.map((file) => ({ source: recordedSource(file, file, dir), sha256: sha256(readFileSync(file)) }));
  const inputsHash = sha256(
    JSON.stringify({
      version: TOOL_VERSION,
      name,
      specs: raw.map((r, i) => ({ source: sources[i], basePath: options.specs[i].basePath ?? null, document: r.document })),
      routes: options.routes,
      routeRules: options.routeRules ?? [],
      ...(graphql.length > 0 ? { graphql } : {}),
      ...(options.protoDir === undefined ? {} : { grpc: { files: grpc, excluded: options.excludedServices ?? [] } }),
    }),
  );
  // what lets `mock serve` tell a fresh build from bytes alone (not for descriptions read from URLs)
  const local = raw.every((r) => !isUrl(r.source) && r.files.every((f) => !isUrl(f)));
  const fingerprint = local ? { options_sha256: optionsHash(options), input_files: fileHashes([...raw.flatMap((r) => r.files), ...graphqlFiles, ...protos], dir) } : undefined;
  return { name, dir, inputs, inputsHash, raw, sources, fingerprint, graphql, grpc };
}
