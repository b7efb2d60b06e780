import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { BuildOptions } from './options.js';
import { MockError } from '../common/errors.js';
import { TOOL_VERSION } from '../common/version.js';
import { schemaFiles } from './graphql/schema-files.js';
import { protoFiles } from './grpc/proto-files.js';

// Light on purpose: `mock serve` asks whether its build is fresh through this module alone, without
// loading the description parser, the bundler or the emitters (tens of MB and seconds on large
// descriptions).

export const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

export const isUrl = (s: string): boolean => /^https?:\/\//i.test(s);

/**
 * `./specs/petstore.yaml` and `https://x/petstore.json` both name a build `petstore`; a build name
 * is one plain folder name, so `api.v2.yaml` names `api-v2` (see BUILD_NAME).
 */
export function defaultName(source: string): string {
  const base = path.basename(source.replace(/[?#].*$/, '')).replace(/\.(ya?ml|json|graphqls?|gql)$/i, '');
  return base.replace(/[^A-Za-z0-9_-]/g, '-') || 'api';
}

/** What a build name (--name, build.name) may be: one folder name without separators or dots, so the build stays in its out folder. */
const BUILD_NAME = /^[A-Za-z0-9_-]+$/;

/** The build's name and absolute folder. */
export function buildPlace(options: BuildOptions): { name: string; dir: string } {
  const name = options.name ?? defaultName(options.specs[0]?.source ?? firstSchemaFile(options) ?? options.protoDir ?? 'api');
  if (!BUILD_NAME.test(name)) {
    throw new MockError('MOCK_ERR_BUILD_NAME', `build name ${JSON.stringify(name)} is not a plain folder name: use letters, digits, "-" and "_" only (no "/", "\\" or "."), in --name or build.name of mock.yaml`);
  }
  return { name, dir: path.resolve(options.cwd, options.outDir, name) };
}

/**
 * A description as the build records it (manifest.json, index.ts): a URL as given, a file by its
 * path from the build folder, with `/`. Relative to the folder rather than to the cwd (or to
 * mock.yaml, which a project may not have), so that the output is the same bytes whatever folder
 * `mock build` ran in, and the path still leads to the description in every checkout.
 */
export function recordedSource(source: string, location: string, dir: string): string {
  return isUrl(source) ? source : path.relative(dir, location).split(path.sep).join('/');
}

/** A build of a GraphQL schema alone is named after its first file (a glob's first match). */
function firstSchemaFile(options: BuildOptions): string | undefined {
  return (options.graphqlSchemas ?? []).length === 0 ? undefined : schemaFiles(options)[0]?.file;
}

/**
 * The GraphQL schema's files as a build records them (from its folder), when it has any: in the
 * options hash, so that a file a glob newly matches (or no longer matches) makes the build stale.
 */
export function graphqlFiles(options: BuildOptions, dir: string): { graphql?: string[] } {
  if ((options.graphqlSchemas ?? []).length === 0) return {};
  return { graphql: schemaFiles(options).map(({ file }) => recordedSource(file, file, dir)) };
}

/**
 * The .proto files as a build records them (from its folder) and the services left out, when the
 * build has gRPC: in the options hash, so that a new or removed file makes the build stale.
 */
export function grpcFiles(options: BuildOptions, dir: string): { grpc?: { files: string[]; excluded: string[] } } {
  if (options.protoDir === undefined) return {};
  return { grpc: { files: protoFiles(options).map(({ file }) => recordedSource(file, file, dir)), excluded: options.excludedServices ?? [] } };
}

/** Where a --spec value points: a URL, or the absolute file. */
export const specLocation = (source: string, cwd: string): string => (isUrl(source) ? source : path.resolve(cwd, source));

/** Everything a build depends on besides the bytes of its files: tool version, name, sources, mounts, mock.yaml's routes. */
export function optionsHash(options: BuildOptions): string {
  const { name, dir } = buildPlace(options);
  return sha256(
    JSON.stringify({
      version: TOOL_VERSION,
      name,
      specs: options.specs.map((s) => ({ source: recordedSource(s.source, specLocation(s.source, options.cwd), dir), basePath: s.basePath ?? null })),
      routes: options.routes,
      routeRules: options.routeRules ?? [],
      ...graphqlFiles(options, dir),
      ...grpcFiles(options, dir),
    }),
  );
}

/** SHA-256 of each file's bytes, by its path from the build folder (sorted: the manifest's order). */
export function fileHashes(files: readonly string[], dir: string): Record<string, string> {
  const entries = [...new Set(files)].map((file): [string, string] => [path.relative(dir, file).split(path.sep).join('/'), sha256(readFileSync(file))]);
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * True when the manifest proves the build fresh from bytes alone: the same options and every file
 * the descriptions were read from (external $ref files included) unchanged. False means "not
 * proven": the full check decides (URL descriptions always go there).
 */
export function provenFresh(options: BuildOptions, manifest: { options_sha256?: unknown; input_files?: unknown }): boolean {
  const { dir } = buildPlace(options);
  if (manifest.options_sha256 !== optionsHash(options)) return false;
  const recorded = manifest.input_files;
  if (recorded === null || typeof recorded !== 'object' || Object.keys(recorded).length === 0) return false;
  for (const [file, hash] of Object.entries(recorded as Record<string, unknown>)) {
    const full = path.resolve(dir, file);
    // a regular file only: a planted manifest naming a device or a pipe must not stall the start
    if (statSync(full, { throwIfNoEntry: false })?.isFile() !== true || sha256(readFileSync(full)) !== hash) return false;
  }
  return true;
}
