import type { GraphqlSummary } from './load-schema.js';
import type { SchemaFileOptions } from './schema-files.js';

/**
 * Reads and checks the GraphQL schema as `mock build` would (one-line errors naming each file and
 * its line), says what it defines, and checks graphql.overrides against it (one line per problem,
 * naming the setting, as the mock would refuse them at start). graphql loads only when called.
 */
export async function checkGraphqlSchema(options: SchemaFileOptions & { overrides?: unknown }): Promise<{ summary: GraphqlSummary; overrideProblems: string[] }> {
  const [{ loadGraphqlSchema, summarizeGraphql }, { checkOverrides }] = await Promise.all([import('./load-schema.js'), import('../../common/graphql/index.js')]);
  const loaded = loadGraphqlSchema(options);
  return { summary: summarizeGraphql(loaded), overrideProblems: checkOverrides(loaded.assembled.schema, options.overrides) };
}
