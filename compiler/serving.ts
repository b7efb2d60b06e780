/**
 * The compiler's second face, for `mock serve`: whether the build is fresh and how to rebuild it,
 * without loading the parser, the bundler or the emitters until a build is due (index.ts pulls
 * them all in at import; a server of a fresh build never needs them).
 */
export type { BuildOptions, BuildProgress, BuildResult } from './options.js';
export { build } from './build.js';
export { isBuildStale } from './staleness.js';
export { buildPlace } from './fingerprint.js';
export { GRAPHQL_SCHEMA_FILE } from './graphql/schema-files.js';
export { GRPC_BUILD_FILE } from './grpc/proto-files.js';
export { TOOL_VERSION } from '../common/version.js';
