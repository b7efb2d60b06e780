import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BUILD_COMMENT, GraphqlSchemaError, assembleSchema, introspectionToSdl } from '../../common/graphql/index.js';
import { MockError } from '../../common/errors.js';
import { schemaFiles, shownPath, type SchemaFileOptions } from './schema-files.js';

/** One file of the schema, read. */
export interface GraphqlSource {
  /** The file as messages name it: from the project folder, with `/`. */
  shown: string;
  /** Absolute path. */
  file: string;
  /** The bytes read (hashed into manifest.json). */
  text: string;
  /** Its SDL: the text of an SDL file, the SDL printed from an introspection result. */
  sdl: string;
  /** Whether `sdl` was printed from an introspection result (.json). */
  introspection: boolean;
}

export interface LoadedGraphql {
  sources: GraphqlSource[];
  /** What assembleSchema built, for counts. */
  assembled: ReturnType<typeof assembleSchema>;
}

/**
 * Reads the schema's files (schema-files.ts), converts introspection results to SDL, and checks the
 * SDL they make together with assembleSchema. A problem is reported in the file it lies in, at
 * that file's own line and column, one line each (MOCK_ERR_GRAPHQL_SCHEMA).
 */
export function loadGraphqlSchema(options: SchemaFileOptions): LoadedGraphql {
  const sources = schemaFiles(options).map(({ file }) => readSource(file, options.cwd));
  const { text, segments } = concatenate(sources, (source) => source.shown);
  try {
    return { sources, assembled: assembleSchema(text) };
  } catch (e) {
    if (!(e instanceof GraphqlSchemaError)) throw e;
    const lines = [...new Set(e.problems.map((problem) => problemLine(problem, segments, sources)))];
    const more = lines.length - MAX_PROBLEMS;
    const shown = more > 0 ? [...lines.slice(0, MAX_PROBLEMS), `… and ${more} more problem${more === 1 ? '' : 's'} of the GraphQL schema (fix these first)`] : lines;
    throw new MockError('MOCK_ERR_GRAPHQL_SCHEMA', shown.join('\n'));
  }
}

/** Problems listed at most: two files defining the same types make one per type and field. */
const MAX_PROBLEMS = 20;

/** Where one source's SDL lies in the concatenation: from `start`, `lines` lines (1-based). */
interface Segment {
  source: GraphqlSource;
  start: number;
  lines: number;
}

/** The first line of schema.graphql. */
const HEADER = `${BUILD_COMMENT}generated from the GraphQL schema files named below: do not edit; edit them and run mock build.\n`;

/**
 * The files' SDL in order, each after a comment naming it (`label`), each ending with a newline:
 * the schema.graphql a build writes, and the text its problems are mapped back from.
 */
export function concatenate(sources: readonly GraphqlSource[], label: (source: GraphqlSource) => string): { text: string; segments: Segment[] } {
  const parts: string[] = [HEADER];
  const segments: Segment[] = [];
  let line = 2;
  for (const source of sources) {
    const body = source.sdl.endsWith('\n') || source.sdl === '' ? source.sdl : `${source.sdl}\n`;
    const comment = `${BUILD_COMMENT}${label(source)}${source.introspection ? ' (introspection result, as SDL)' : ''}\n`;
    parts.push(comment, body);
    const lines = body.split('\n').length - 1;
    segments.push({ source, start: line + 1, lines });
    line += 1 + lines;
  }
  return { text: parts.join(''), segments };
}

function problemLine(problem: GraphqlSchemaError['problems'][number], segments: readonly Segment[], sources: readonly GraphqlSource[]): string {
  const message = problem.message.replace(/\s*\n\s*/g, ' ').trim();
  const segment = problem.line === undefined ? undefined : segments.find((s) => problem.line! < s.start + Math.max(s.lines, 1)) ?? segments[segments.length - 1];
  if (segment === undefined || problem.line === undefined) {
    const names = sources.map((s) => s.shown).join(', ');
    return `${names || 'the GraphQL schema'}: ${message} (fix the schema)`;
  }
  const line = Math.max(1, problem.line - segment.start + 1);
  if (segment.source.introspection) return `${segment.source.shown}: ${message} (line ${line} of the SDL printed from this introspection result; fix the schema it was taken from)`;
  return `${segment.source.shown}:${line}:${problem.column ?? 1}: ${message} (fix the schema there)`;
}

function readSource(file: string, cwd: string): GraphqlSource {
  const shown = shownPath(file, cwd);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new MockError('MOCK_ERR_GRAPHQL_SCHEMA_NOT_FOUND', `${shown}: cannot read the GraphQL schema (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); fix its permissions or name another file`);
  }
  if (path.extname(file).toLowerCase() !== '.json') return { shown, file, text, sdl: text, introspection: false };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new MockError('MOCK_ERR_GRAPHQL_SCHEMA', `${shown}${jsonPosition(text, (e as Error).message)}: not JSON (${(e as Error).message.replace(/\s*\n\s*/g, ' ')}); an introspection result is the JSON answer of an introspection query ({"data": {"__schema": …}})`);
  }
  try {
    return { shown, file, text, sdl: introspectionToSdl(json), introspection: true };
  } catch (e) {
    throw new MockError('MOCK_ERR_GRAPHQL_SCHEMA', `${shown}: not a GraphQL introspection result (${(e as Error).message.replace(/\s*\n\s*/g, ' ')}); give the JSON answer of an introspection query ({"data": {"__schema": …}}) or an SDL file`);
  }
}

/** `:line:column` of a JSON.parse error, from the position its message gives (Node 20 says `at position N`, later ones also the line). */
function jsonPosition(text: string, message: string): string {
  const at = /at position (\d+)/.exec(message);
  if (at === null) return '';
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  return `:${line}:${Number(at[1]) - before.lastIndexOf('\n')}`;
}

/** What `mock config validate` reports of a schema: its files and how much it defines. */
export interface GraphqlSummary {
  /** As messages name them. */
  files: string[];
  /** Named types the schema defines (built-in scalars and introspection types left out). */
  types: number;
  queries: number;
  mutations: number;
  subscriptions: number;
}

export function summarizeGraphql(loaded: LoadedGraphql): GraphqlSummary {
  const { schema } = loaded.assembled;
  const fields = (type: { getFields(): object } | null | undefined): number => (type ? Object.keys(type.getFields()).length : 0);
  const builtIn = new Set(['String', 'Int', 'Float', 'Boolean', 'ID']);
  return {
    files: loaded.sources.map((source) => source.shown),
    types: Object.keys(schema.getTypeMap()).filter((name) => !name.startsWith('__') && !builtIn.has(name)).length,
    queries: fields(schema.getQueryType()),
    mutations: fields(schema.getMutationType()),
    subscriptions: fields(schema.getSubscriptionType()),
  };
}
