import { parse, type GraphQLSchema } from 'graphql';
import { loadGraphqlSchema } from '../../../../compiler/index.js';
import { MockError, isMockError } from '../../../../common/errors.js';
import type { Change, Severity } from '../types.js';

export interface GraphqlCompareOptions {
  /** Folder relative inputs and globs are read from; default: the current one. */
  cwd?: string;
}

/** @graphql-inspector/core's criticality levels as the compare report names them. */
const SEVERITY: Readonly<Record<string, Severity>> = { BREAKING: 'error', DANGEROUS: 'warning', NON_BREAKING: 'info' };

/**
 * The changes from one GraphQL schema to another (issue 39, "Compare"), classified by
 * @graphql-inspector/core. Each side is what `mock build --graphql-schema` takes: SDL files
 * (.graphql, .gql, .graphqls), globs of them, or an introspection result (.json), several read in
 * order as one SDL. The check id is the differ's change type in kebab case (FIELD_REMOVED:
 * `field-removed`), listed in docs/contract-diff-graphql-proto.md.
 */
export async function compareGraphql(oldInput: string | readonly string[], newInput: string | readonly string[], options: GraphqlCompareOptions = {}): Promise<Change[]> {
  const cwd = options.cwd ?? process.cwd();
  const old = await readSide('old', oldInput, cwd);
  const next = await readSide('new', newInput, cwd);
  const { diff } = await import('@graphql-inspector/core');
  const changes = await diff(old.schema, next.schema);
  // what assembleSchema declared for a side (the mock directives, their enums, undeclared directives) is not the user's to compare
  const owner = (location: string): string => location.split('.')[0].replace(/^@/, '');
  const declared = (location: string): boolean => old.declared.has(owner(location)) || next.declared.has(owner(location));
  return changes
    .filter((change) => change.path === undefined || declared(change.path))
    .map((change) => ({
      id: change.type.toLowerCase().replace(/_/g, '-'),
      severity: SEVERITY[change.criticality.level] ?? 'warning',
      kind: 'graphql' as const,
      location: change.path ?? '(schema)',
      message: oneLine(change.criticality.reason === undefined ? change.message : `${change.message}: ${change.criticality.reason}`),
    }));
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ');

interface Side {
  schema: GraphQLSchema;
  /** Names of the types and directives the user's SDL defines or extends. */
  declared: Set<string>;
}

async function readSide(side: string, input: string | readonly string[], cwd: string): Promise<Side> {
  const graphqlSchemas = typeof input === 'string' ? [input] : [...input];
  if (graphqlSchemas.length === 0)
    throw new MockError('MOCK_ERR_GRAPHQL_SCHEMA_NOT_FOUND', `the ${side} GraphQL schema is not named: give its SDL files, a glob of them or an introspection result (.json)`);
  try {
    // a glob never matches the schema.graphql of earlier builds in the default builds' folder, as in mock build
    const loaded = await loadGraphqlSchema({ graphqlSchemas, cwd, outDir: 'generated' });
    const declared = new Set<string>();
    for (const definition of parse(loaded.sources.map((source) => source.sdl).join('\n')).definitions) {
      if ('name' in definition && definition.name !== undefined) declared.add(definition.name.value);
    }
    return { schema: loaded.assembled.schema, declared };
  } catch (e) {
    if (!isMockError(e)) throw e;
    const [line, ...more] = e.message.split('\n');
    throw new MockError(e.code, `the ${side} GraphQL schema: ${line}${more.length > 0 ? ` (and ${more.length} more problem(s))` : ''}`, e.exitCode);
  }
}
