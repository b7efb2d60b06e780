import { statSync } from 'node:fs';
import path from 'node:path';
import { MockError } from '../../common/errors.js';
import type { BuildOptions } from '../../compiler/index.js';
import { isDynamicPattern } from 'tinyglobby';
import { displayPath, isUrl, type ResolvedConfig } from '../config/index.js';
import { writablePath } from './project-paths.js';

/**
 * What `build`/`checkBuild` get. Spec sources and GraphQL schema files (and globs) are relative to
 * the project directory, as messages name them; the build itself records them relative to its own
 * folder. `allowRefs`: --allow-ref.
 */
export function toBuildOptions(resolved: ResolvedConfig, allowRefs: string[]): BuildOptions {
  const { config, projectDir } = resolved;
  const schemas = config.graphql.schema;
  if (config.specs.length === 0 && schemas.length === 0) {
    throw new MockError('MOCK_ERR_NO_SPEC', 'no spec given: pass --spec <path|url> (or --graphql-schema <path> to mock a GraphQL schema) or list specs: in mock.yaml');
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

/** Names where the GraphQL schema list came from, for the not-found message. */
function graphqlOrigin({ sources, file }: ResolvedConfig): string {
  const source = sources['graphql.schema'];
  if (source === 'flag') return '--graphql-schema';
  if (source === 'env') return 'MOCK_GRAPHQL_SCHEMA';
  return file ? `graphql.schema in ${displayPath(file.file)}` : 'graphql.schema';
}
