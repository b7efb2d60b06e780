import { statSync } from 'node:fs';
import path from 'node:path';
import { globSync, isDynamicPattern } from 'tinyglobby';
import { isInside, realPathOf } from '../../common/confinement.js';
import { MockError } from '../../common/errors.js';

// Light on purpose, like fingerprint.ts: `mock serve` lists the schema files (to name the build and
// to hash them) without loading graphql.

/** Where a build writes the GraphQL schema: its files concatenated, checked (GraphqlOptions.schemaFile). */
export const GRAPHQL_SCHEMA_FILE = 'schema.graphql';

/** Extensions of SDL files; `.json` is an introspection result. */
export const SDL_EXTENSIONS: readonly string[] = ['.graphql', '.gql', '.graphqls'];
const EXTENSIONS = [...SDL_EXTENSIONS, '.json'];

/** One file of the GraphQL schema. */
export interface SchemaFile {
  /** The --graphql-schema / graphql.schema entry it comes from (a path or a glob, relative to the project folder). */
  source: string;
  /** Absolute path. */
  file: string;
}

export interface SchemaFileOptions {
  /** --graphql-schema, graphql.schema: files and globs, relative to `cwd` or absolute, in order. */
  graphqlSchemas?: readonly string[];
  /** The project folder. */
  cwd: string;
  /** Folder holding the builds: never matched by a glob (it holds schema.graphql files of earlier builds). */
  outDir: string;
  /** --allow-ref: folders outside the project a glob may match files in. */
  allowRefs?: readonly string[];
}

/**
 * The schema's files, in order: a named file as given (it may lie anywhere, as a description named
 * by --spec may); a glob's matches sorted by path, never in node_modules nor in the builds' folder,
 * and (like a description's external $refs) only in the project folder or an --allow-ref folder,
 * by real path. A file named twice is read once, where first named. Throws one line per the first
 * source that names no usable file.
 */
export function schemaFiles(options: SchemaFileOptions): SchemaFile[] {
  const files: SchemaFile[] = [];
  const seen = new Set<string>();
  for (const source of options.graphqlSchemas ?? []) {
    for (const file of isDynamicPattern(source) ? globbed(source, options) : [named(source, options.cwd)]) {
      if (seen.has(file)) continue;
      seen.add(file);
      files.push({ source, file });
    }
  }
  return files;
}

/** The project-relative name a message gives a file, with `/`. */
export const shownPath = (file: string, cwd: string): string => {
  const relative = path.relative(cwd, file);
  return (relative.startsWith('..') || path.isAbsolute(relative) ? file : relative).split(path.sep).join('/');
};

function named(source: string, cwd: string): string {
  const file = path.resolve(cwd, source);
  const stat = statSync(file, { throwIfNoEntry: false });
  if (stat === undefined) {
    throw new MockError('MOCK_ERR_GRAPHQL_SCHEMA_NOT_FOUND', `GraphQL schema not found: ${source} (checked ${file}); name an existing file in --graphql-schema or graphql.schema`);
  }
  if (stat.isDirectory()) {
    throw new MockError('MOCK_ERR_GRAPHQL_SCHEMA_NOT_FOUND', `GraphQL schema ${source} is a folder: name its files, or a glob such as ${path.posix.join(source.split(path.sep).join('/'), '**/*.graphql')}`);
  }
  checkExtension(source, source);
  return file;
}

function globbed(pattern: string, options: SchemaFileOptions): string[] {
  const { cwd } = options;
  const outDir = path.resolve(cwd, options.outDir);
  const matches = globSync(pattern, { cwd, absolute: true, onlyFiles: true, expandDirectories: false, ignore: ['**/node_modules/**'] })
    .map((file) => path.resolve(file))
    .filter((file) => !isInside(file, outDir))
    .sort();
  if (matches.length === 0) {
    throw new MockError('MOCK_ERR_GRAPHQL_SCHEMA_NOT_FOUND', `GraphQL schema glob ${JSON.stringify(pattern)} matches no file under ${cwd}; fix the pattern (node_modules and the builds' folder are never matched)`);
  }
  const allowed = [cwd, ...(options.allowRefs ?? []).filter((a) => !/^https?:\/\//i.test(a))].map((folder) => path.resolve(folder));
  const realAllowed = allowed.map(realPathOf);
  for (const file of matches) {
    const real = realPathOf(file);
    if (!allowed.some((folder) => isInside(file, folder)) || !realAllowed.some((folder) => isInside(real, folder))) {
      throw new MockError(
        'MOCK_ERR_GRAPHQL_SCHEMA_REFUSED',
        `GraphQL schema glob ${JSON.stringify(pattern)} matches ${real}, outside the project ${cwd}: what a glob matches must stay in the project (pass --allow-ref ${path.dirname(real)} to allow it, or name the file itself)`,
      );
    }
    checkExtension(shownPath(file, cwd), `glob ${JSON.stringify(pattern)}`);
  }
  return matches;
}

function checkExtension(shown: string, given: string): void {
  if (EXTENSIONS.includes(path.extname(shown).toLowerCase())) return;
  const fix = given === shown ? 'rename it, or convert it' : 'narrow the pattern';
  throw new MockError(
    'MOCK_ERR_GRAPHQL_SCHEMA',
    `${shown}: not a GraphQL schema file: expected SDL (.graphql, .gql, .graphqls) or an introspection result (.json)${given === shown ? '' : ` (matched by ${given})`}; ${fix}`,
  );
}
