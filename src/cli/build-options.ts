import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { MockError } from '../../common/errors.js';
import type { BuildOptions } from '../../compiler/index.js';
import { isDynamicPattern } from 'tinyglobby';
import { displayPath, isUrl, type ResolvedConfig } from '../config/index.js';
import { writablePath } from './project-paths.js';
import { websocketWanted } from './servers-wanted.js';

/**
 * What `build`/`checkBuild` get. Spec sources and GraphQL schema files (and globs) are relative to
 * the project directory, as messages name them; the build itself records them relative to its own
 * folder. `allowRefs`: --allow-ref.
 */
export function toBuildOptions(resolved: ResolvedConfig, allowRefs: string[]): BuildOptions {
  const { config, projectDir } = resolved;
  const schemas = config.graphql.schema;
  const protoDir = protoDirInUse(resolved);
  // a WebSocket configuration alone is a project too: it serves with nothing to build
  if (config.specs.length === 0 && schemas.length === 0 && protoDir === undefined && !websocketWanted(resolved)) {
    throw new MockError(
      'MOCK_ERR_NO_SPEC',
      'no spec given: pass --spec <path|url> (or --graphql-schema <path> to mock a GraphQL schema, put .proto files in proto/ or --proto-dir <dir> to mock gRPC, or --ws-port <port> or websocket.routes in mock.yaml to mock WebSocket) or list specs: in mock.yaml',
    );
  }
  for (const spec of config.specs) {
    if (!isUrl(spec.path) && !statSync(spec.path, { throwIfNoEntry: false })?.isFile()) {
      throw new MockError('MOCK_ERR_SPEC_NOT_FOUND', `spec not found: ${displayPath(spec.path)} (checked ${specOrigin(resolved)})`);
    }
  }
  // a named file that is missing, said as for a spec; globs and the rest are the compiler's (compiler/graphql/schema-files.ts)
  for (const schema of schemas) {
    if (!isDynamicPattern(schema) && statSync(schema, { throwIfNoEntry: false }) === undefined) {
      throw new MockError('MOCK_ERR_GRAPHQL_SCHEMA_NOT_FOUND', `GraphQL schema not found: ${displayPath(schema)} (checked ${graphqlOrigin(resolved)})`);
    }
  }
  return {
    specs: config.specs.map((spec) => ({
      source: isUrl(spec.path) ? spec.path : path.relative(projectDir, spec.path),
      basePath: spec.base_path,
    })),
    graphqlSchemas: schemas.map((schema) => path.relative(projectDir, schema) || '.'),
    ...(protoDir === undefined ? {} : { protoDir: path.relative(projectDir, protoDir) || '.', excludedServices: config.grpc.excluded_services }),
    routes: config.http.routes,
    routeRules: config.core.routes,
    outDir: writablePath(resolved, 'build.out_dir', config.build.out_dir, '--out'),
    name: config.build.name,
    cwd: projectDir,
    allowRefs,
  };
}

/** Names where the spec list came from, for the not-found message. */
function specOrigin({ sources, file }: ResolvedConfig): string {
  return sources.specs === 'flag' || !file ? '--spec' : `specs: in ${displayPath(file.file)}`;
}

/**
 * The proto folder (absolute) when this run has gRPC: grpc.proto_dir set anywhere, or --grpc-port,
 * asks for it, and a folder that is missing, not a folder or without a .proto file is then a
 * one-line error; otherwise gRPC runs only when proto/ exists and holds .proto files (an HTTP
 * project without one starts nothing more). A port from the environment or mock.yaml says where
 * the server listens, not whether (servers-wanted.ts notes it when nothing starts).
 */
export function protoDirInUse(resolved: ResolvedConfig): string | undefined {
  const { config, sources } = resolved;
  const dir = config.grpc.proto_dir;
  const explicit = sources['grpc.proto_dir'] !== 'default' || sources['server.grpc_port'] === 'flag';
  if (!explicit) return holdsProto(dir) ? dir : undefined;
  const stat = statSync(dir, { throwIfNoEntry: false });
  const why = `checked ${protoOrigin(resolved)}`;
  if (stat === undefined) throw new MockError('MOCK_ERR_GRPC_PROTO_DIR', `gRPC proto folder not found: ${displayPath(dir)} (${why}); create it with your .proto files, or name the folder holding them with --proto-dir or grpc.proto_dir`);
  if (!stat.isDirectory()) throw new MockError('MOCK_ERR_GRPC_PROTO_DIR', `gRPC proto folder ${displayPath(dir)} is a file (${why}); name the folder holding the .proto files`);
  if (!holdsProto(dir)) throw new MockError('MOCK_ERR_GRPC_PROTO_DIR', `gRPC proto folder ${displayPath(dir)} holds no .proto file (${why}); add your .proto files (subfolders are read too)`);
  return dir;
}

/** Whether a folder holds a .proto file anywhere beneath it (dot-folders and node_modules skipped). */
function holdsProto(dir: string, depth = 0): boolean {
  if (depth > 32) return false;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    const stat = entry.isSymbolicLink() ? statSync(full, { throwIfNoEntry: false }) : entry;
    if (stat?.isFile() && entry.name.endsWith('.proto')) return true;
    if (stat?.isDirectory() && holdsProto(full, depth + 1)) return true;
  }
  return false;
}

/** What asked for gRPC, for the not-found message. */
function protoOrigin({ sources, file }: ResolvedConfig): string {
  const inFile = (key: string): string => (file ? `${key} in ${displayPath(file.file)}` : key);
  switch (sources['grpc.proto_dir']) {
    case 'flag':
      return '--proto-dir';
    case 'env':
      return 'MOCK_GRPC_PROTO_DIR';
    case 'file':
      return inFile('grpc.proto_dir');
  }
  return "grpc.proto_dir's default, as --grpc-port asks for the gRPC server";
}

/** Names where the GraphQL schema list came from, for the not-found message. */
function graphqlOrigin({ sources, file }: ResolvedConfig): string {
  const source = sources['graphql.schema'];
  if (source === 'flag') return '--graphql-schema';
  if (source === 'env') return 'MOCK_GRAPHQL_SCHEMA';
  return file ? `graphql.schema in ${displayPath(file.file)}` : 'graphql.schema';
}
