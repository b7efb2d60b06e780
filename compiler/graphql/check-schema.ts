import type { GraphqlSummary } from './load-schema.js';
import type { SchemaFileOptions } from './schema-files.js';

/**
 * Reads and checks the GraphQL schema as `mock build` would (one-line errors naming each file and
 * its line), and says what it defines. graphql loads only when called.
 */
export async function checkGraphqlSchema(options: SchemaFileOptions): Promise<GraphqlSummary> {
  const { loadGraphqlSchema, summarizeGraphql } = await import('./load-schema.js');
  return summarizeGraphql(loadGraphqlSchema(options));
}
