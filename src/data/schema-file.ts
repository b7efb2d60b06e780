import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { MockError } from '../../common/errors.js';
import { type GenMode, type JsonSchema, readDescription, resolvePointer, SchemaRegistry, toOpenApi3 } from '../../compiler/index.js';
import { compileGenerators } from './generators.js';
import { closest } from './similar.js';
import type { ValueSource } from './values.js';

export interface SchemaDataRequest {
  /** --schema: a JSON Schema file (JSON or YAML); an OpenAPI/Swagger file here counts as --spec. */
  schema?: string;
  /** --spec: an OpenAPI/Swagger description; needs `definition`. */
  spec?: string;
  /** --definition: a `components/schemas` entry (spec), or a `definitions`/`$defs` entry (schema file). */
  definition?: string;
  mode: GenMode;
  /** --allow-ref: absolute folders and URL prefixes outside the project that a description's external $refs may read. */
  allowRefs?: string[];
}

/** Where definitions live in a standalone schema file, in lookup order. */
const DEFINITION_HOMES = [['definitions'], ['$defs'], ['components', 'schemas']] as const;

/**
 * Values for a standalone JSON Schema (or one definition of it, or one `components/schemas` entry
 * of a description), lowered exactly as the compiler lowers description schemas (draft-07,
 * `#/definitions/<Name>` references) and generated with the server's generators.
 */
export async function schemaSource(request: SchemaDataRequest, cwd: string): Promise<ValueSource> {
  if (request.schema !== undefined && request.spec !== undefined) {
    throw new MockError('MOCK_ERR_FLAG_INVALID', '--schema and --spec: pass one of them (--spec with --definition picks a components/schemas entry)');
  }
  if (request.schema === undefined && request.spec === undefined) {
    throw new MockError('MOCK_ERR_FLAG_INVALID', 'no schema given: pass --schema <file>, or --spec <file> with --definition <Name>');
  }
  let lowered: { root: JsonSchema; definitions: Record<string, JsonSchema> };
  if (request.spec !== undefined) {
    lowered = await fromDescription(request.spec, request.spec, request.definition, '--spec', cwd, request.allowRefs);
  } else {
    const file = request.schema as string;
    const document = readSchemaFile(file, cwd);
    lowered = isDescription(document)
      ? await fromDescription(file, path.resolve(cwd, file), request.definition, '--schema', cwd, request.allowRefs)
      : fromSchema(file, document, request.definition);
  }
  const { root, definitions } = lowered;
  return { create: (options) => compileGenerators(definitions, [{ schema: root, mode: request.mode }], options)[0] };
}

const isDescription = (document: unknown): boolean =>
  document !== null && typeof document === 'object' && !Array.isArray(document) && ('openapi' in document || 'swagger' in document);

function readSchemaFile(file: string, cwd: string): unknown {
  const location = path.resolve(cwd, file);
  if (!existsSync(location) || !statSync(location).isFile()) {
    throw new MockError('MOCK_ERR_FLAG_INVALID', `--schema ${file}: file not found (checked ${location}; pass a JSON or YAML JSON Schema file)`);
  }
  const text = readFileSync(location, 'utf8');
  let document: unknown;
  try {
    document = text.trimStart().startsWith('{') ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    try {
      document = parseYaml(text);
    } catch (yamlError) {
      // yaml's message already ends with the line and column
      const error = yamlError instanceof YAMLParseError ? yamlError : (e as Error);
      const message = error.message.split('\n')[0].replace(/:\s*$/, '');
      throw new MockError('MOCK_ERR_FLAG_INVALID', `--schema ${file}: not valid JSON or YAML: ${message} (fix the file)`);
    }
  }
  if (typeof document !== 'boolean' && (document === null || typeof document !== 'object' || Array.isArray(document))) {
    throw new MockError('MOCK_ERR_FLAG_INVALID', `--schema ${file}: not a JSON Schema (expected an object or a boolean, got ${document === null ? 'null' : Array.isArray(document) ? 'an array' : typeof document})`);
  }
  return document;
}

/** A pointer token for a definition name (`/` and `~` escaped, the rest URI-encoded like the compiler decodes it). */
const token = (name: string): string => encodeURIComponent(name.replace(/~/g, '~0').replace(/\//g, '~1'));

function fromSchema(file: string, document: unknown, definition: string | undefined): { root: JsonSchema; definitions: Record<string, JsonSchema> } {
  checkReferences(file, document);
  const registry = new SchemaRegistry();
  registry.use(document, 'schema');
  if (definition === undefined) return { root: registry.normalize(document), definitions: registry.definitions };
  for (const home of DEFINITION_HOMES) {
    const ref = `#/${[...home, definition].map(token).join('/')}`;
    if (resolvePointer(document, ref) !== undefined) {
      return { root: { $ref: `#/definitions/${registry.refName(ref)}` }, definitions: registry.definitions };
    }
  }
  throw new MockError('MOCK_ERR_FLAG_INVALID', `--definition ${definition}: not in ${file} (${nameHint(definition, definitionNames(document))})`);
}

async function fromDescription(
  source: string,
  location: string,
  definition: string | undefined,
  flag: string,
  cwd: string,
  allowRefs: string[] | undefined,
): Promise<{ root: JsonSchema; definitions: Record<string, JsonSchema> }> {
  const raw = await readDescription(location, cwd, allowRefs);
  const { document } = await toOpenApi3(source, raw.document);
  const names = Object.keys(((document.components as Record<string, unknown> | undefined)?.schemas as Record<string, unknown> | undefined) ?? {});
  if (definition === undefined) {
    throw new MockError('MOCK_ERR_FLAG_INVALID', `${flag} ${source} is an API description: pass --definition <Name> to pick one of its schemas (${nameHint('', names)})`);
  }
  const ref = `#/components/schemas/${token(definition)}`;
  if (resolvePointer(document, ref) === undefined) {
    throw new MockError('MOCK_ERR_FLAG_INVALID', `--definition ${definition}: no such schema in ${source} (${nameHint(definition, names)})`);
  }
  const registry = new SchemaRegistry();
  registry.use(document, '0');
  return { root: { $ref: `#/definitions/${registry.refName(ref)}` }, definitions: registry.definitions };
}

function definitionNames(document: unknown): string[] {
  return DEFINITION_HOMES.flatMap((home) => {
    const found = resolvePointer(document, `#/${home.join('/')}`);
    return found && typeof found === 'object' ? Object.keys(found) : [];
  });
}

function nameHint(wanted: string, names: string[]): string {
  if (names.length === 0) return 'it has no named schemas';
  const near = wanted === '' ? names.slice(0, 5) : closest(wanted, names, 5);
  return `${wanted === '' ? 'e.g.' : 'closest:'} ${near.join(', ')}${names.length > near.length ? `, … ${names.length} in all` : ''}`;
}

/** Only references inside the file are supported; one that leads nowhere would silently generate anything. */
function checkReferences(file: string, document: unknown): void {
  const visit = (node: unknown, at: string): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      node.forEach((item, i) => visit(item, `${at}/${i}`));
      return;
    }
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === 'string') {
      const ref = record.$ref;
      if (!ref.startsWith('#')) {
        throw new MockError('MOCK_ERR_FLAG_INVALID', `--schema ${file}: $ref ${JSON.stringify(ref)} at ${at || '/'} points outside the file (inline it, or move both into an OpenAPI description and use --spec --definition)`);
      }
      if (resolvePointer(document, ref) === undefined) {
        throw new MockError('MOCK_ERR_FLAG_INVALID', `--schema ${file}: $ref ${JSON.stringify(ref)} at ${at || '/'} resolves to nothing (fix the $ref)`);
      }
    }
    for (const [key, value] of Object.entries(record)) {
      // enum/const/example values are data, not schemas
      if (key === 'enum' || key === 'const' || key === 'example' || key === 'examples' || key === 'default') continue;
      visit(value, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  };
  visit(document, '');
}
