import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { MockError } from '../../../common/errors.js';
import type { DescriptionKind } from './types.js';

/**
 * The kind of a description from its file: .proto files or a folder (of them) are protobuf;
 * .graphql/.gql/.graphqls and introspection JSON are GraphQL; other YAML and JSON are OpenAPI
 * (whose loader names what is wrong when it is not). `flag` names the input in errors.
 */
export function detectKind(source: string, flag: string): DescriptionKind {
  const location = path.resolve(source);
  if (!existsSync(location)) throw new MockError('MOCK_ERR_SPEC_NOT_FOUND', `${flag} ${source}: not found (checked ${location}; pass an existing file or folder)`);
  if (statSync(location).isDirectory()) return 'proto';
  const extension = path.extname(location).toLowerCase();
  if (extension === '.proto') return 'proto';
  if (['.graphql', '.gql', '.graphqls'].includes(extension)) return 'graphql';
  if (extension === '.yaml' || extension === '.yml') return 'openapi';
  if (extension === '.json') return isIntrospection(location) ? 'graphql' : 'openapi';
  throw new MockError(
    'MOCK_ERR_COMPARE_KIND',
    `${flag} ${source}: unknown description kind (expected OpenAPI .yaml/.yml/.json, GraphQL .graphql/.gql/.graphqls or introspection .json, or .proto files or a folder of them)`,
  );
}

function isIntrospection(location: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(location, 'utf8'));
  } catch {
    return false; // the OpenAPI loader reports the syntax error with its position
  }
  const root = parsed as { __schema?: unknown; data?: { __schema?: unknown } } | null;
  return root?.__schema !== undefined || root?.data?.__schema !== undefined;
}
