import {
  buildASTSchema,
  GraphQLError,
  Kind,
  parse,
  printSchema,
  specifiedDirectives,
  specifiedScalarTypes,
  validateSchema,
  type ConstDirectiveNode,
  type DefinitionNode,
  type DocumentNode,
  type GraphQLSchema,
  type NamedTypeNode,
  type TypeNode,
} from 'graphql';
// validateSDL is not among graphql's root exports; the path is the CommonJS build that `graphql`
// itself resolves to, so its errors are the same GraphQLError class.
import { validateSDL } from 'graphql/validation/validate.js';
import { APPSYNC_SCALARS, FEDERATION_DECLARATIONS, MOCK_DECLARATIONS, TYPE_SYSTEM_LOCATIONS } from './directives.js';

export interface GraphqlSchemaProblem {
  message: string;
  line?: number;
  column?: number;
}

/** An SDL that does not make a schema: every problem found, each line naming line:column. */
export class GraphqlSchemaError extends Error {
  readonly problems: readonly GraphqlSchemaProblem[];

  constructor(problems: readonly GraphqlSchemaProblem[]) {
    super(problems.map((p) => (p.line === undefined ? p.message : `${p.line}:${p.column}: ${p.message}`)).join('\n'));
    this.name = 'GraphqlSchemaError';
    this.problems = problems;
  }
}

export interface AssembledSchema {
  /** The schema served: the SDL plus what assemble declared for it (not yet mocked). */
  schema: GraphQLSchema;
  /** printSchema of the served schema (computed on first read: large schemas take a while to print). */
  readonly served: string;
  /** The SDL is an Apollo Federation subgraph (`@key` or a `@link` to the federation spec). */
  federated: boolean;
  /** Types of `@key` (the `_Entity` union's members). */
  entities: readonly string[];
  /** What assemble declared or changed, one sentence each (directives the SDL uses and nobody declares). */
  notes: readonly string[];
}

interface DirectiveUse {
  args: Set<string>;
  locations: Set<string>;
  repeated: boolean;
}

interface Survey {
  declaredTypes: Set<string>;
  declaredDirectives: Set<string>;
  referencedTypes: Set<string>;
  used: Map<string, DirectiveUse>;
  /** Types only extended (federation v1 writes `extend type Query`), by name: the first extension's index. */
  extensionOnly: Map<string, number>;
  keyTypes: string[];
  federationV2: boolean;
  queryTypeName: string | undefined;
  queryFields: Set<string>;
}

const SPECIFIED_DIRECTIVES = new Set(specifiedDirectives.map((d) => d.name));
const BUILT_IN_TYPES = new Set(specifiedScalarTypes.map((t) => t.name));
const KEY_DIRECTIVES = new Set(['key', 'federation__key']);

/**
 * Turns a user's SDL (several files already merged; `extend type` works, also of a type only
 * extended, as federation v1 subgraphs write `extend type Query`) into the schema the mock serves.
 * Adds declarations only for what the SDL uses and does not declare: the mock directives, the
 * federation vocabulary, AWS AppSync's scalars, and (as no-op directives, with a note) any other
 * directive it uses without declaring. An SDL that needs none of it is served exactly as
 * `buildSchema` builds it. A subgraph (`@key`) also gets `_service` and `_entities` on Query.
 * Throws GraphqlSchemaError with every problem found.
 */
export function assembleSchema(sdl: string): AssembledSchema {
  let document: DocumentNode;
  try {
    document = parse(sdl);
  } catch (error) {
    throw new GraphqlSchemaError([problemOf(error)]);
  }
  const survey = surveyDocument(document);
  const notes: string[] = [];
  const definitions = promoteExtensions(document.definitions, survey, notes);
  const federated = survey.keyTypes.length > 0 || survey.federationV2;
  const additions = declarationsFor(survey, federated, notes);
  if (federated) additions.push(...federationRoot(survey, notes));
  const assembled: DocumentNode =
    additions.length === 0 && definitions === document.definitions
      ? document
      : { kind: Kind.DOCUMENT, definitions: [...definitions, ...(additions.length > 0 ? parse(additions.join('\n\n')).definitions : [])] };

  const sdlErrors = validateSDL(assembled);
  if (sdlErrors.length > 0) throw new GraphqlSchemaError(sdlErrors.map(problemOf));
  const schema = buildASTSchema(assembled, { assumeValidSDL: true });
  const schemaErrors = validateSchema(schema);
  if (schemaErrors.length > 0) throw new GraphqlSchemaError(schemaErrors.map(problemOf));

  let served: string | undefined;
  return {
    schema,
    get served() {
      return (served ??= printSchema(schema));
    },
    federated,
    entities: survey.keyTypes,
    notes,
  };
}

function problemOf(error: unknown): GraphqlSchemaProblem {
  if (error instanceof GraphQLError) {
    const at = error.locations?.[0];
    // GraphQLError's message on syntax errors starts with "Syntax Error:"; keep it, it says what kind
    return at === undefined ? { message: error.message } : { message: error.message, line: at.line, column: at.column };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}

function surveyDocument(document: DocumentNode): Survey {
  const survey: Survey = {
    declaredTypes: new Set(),
    declaredDirectives: new Set(),
    referencedTypes: new Set(),
    used: new Map(),
    extensionOnly: new Map(),
    keyTypes: [],
    federationV2: false,
    queryTypeName: undefined,
    queryFields: new Set(),
  };
  const extended = new Map<string, number>();
  const keyTypes = new Set<string>();
  const fieldsByType = new Map<string, string[]>();

  const reference = (type: TypeNode): void => {
    let named: TypeNode = type;
    while (named.kind !== Kind.NAMED_TYPE) named = named.type;
    survey.referencedTypes.add((named as NamedTypeNode).name.value);
  };
  const useAll = (directives: readonly ConstDirectiveNode[] | undefined, location: string, owner?: string): void => {
    if (directives === undefined) return;
    const seen = new Set<string>();
    for (const directive of directives) {
      const name = directive.name.value;
      let use = survey.used.get(name);
      if (use === undefined) survey.used.set(name, (use = { args: new Set(), locations: new Set(), repeated: false }));
      use.locations.add(location);
      if (seen.has(name)) use.repeated = true;
      seen.add(name);
      for (const arg of directive.arguments ?? []) use.args.add(arg.name.value);
      if (owner !== undefined && location === 'OBJECT' && KEY_DIRECTIVES.has(name)) keyTypes.add(owner);
      if (name === 'link' && location === 'SCHEMA') {
        const url = directive.arguments?.find((a) => a.name.value === 'url')?.value;
        if (url?.kind === Kind.STRING && /specs\.apollo\.dev\/federation\/v2/.test(url.value)) survey.federationV2 = true;
      }
    }
  };

  document.definitions.forEach((definition, index) => {
    switch (definition.kind) {
      case Kind.SCHEMA_DEFINITION:
      case Kind.SCHEMA_EXTENSION:
        useAll(definition.directives, 'SCHEMA');
        for (const op of definition.operationTypes ?? []) {
          survey.referencedTypes.add(op.type.name.value);
          if (op.operation === 'query') survey.queryTypeName = op.type.name.value;
        }
        return;
      case Kind.DIRECTIVE_DEFINITION:
        survey.declaredDirectives.add(definition.name.value);
        for (const arg of definition.arguments ?? []) {
          reference(arg.type);
          useAll(arg.directives, 'ARGUMENT_DEFINITION');
        }
        return;
      case Kind.OPERATION_DEFINITION:
      case Kind.FRAGMENT_DEFINITION:
        return;
      default:
        break;
    }
    const name = definition.name.value;
    const isExtension =
      definition.kind === Kind.OBJECT_TYPE_EXTENSION ||
      definition.kind === Kind.INTERFACE_TYPE_EXTENSION ||
      definition.kind === Kind.UNION_TYPE_EXTENSION ||
      definition.kind === Kind.ENUM_TYPE_EXTENSION ||
      definition.kind === Kind.INPUT_OBJECT_TYPE_EXTENSION ||
      definition.kind === Kind.SCALAR_TYPE_EXTENSION;
    if (isExtension) {
      if (!extended.has(name)) extended.set(name, index);
    } else {
      survey.declaredTypes.add(name);
    }
    switch (definition.kind) {
      case Kind.OBJECT_TYPE_DEFINITION:
      case Kind.OBJECT_TYPE_EXTENSION:
      case Kind.INTERFACE_TYPE_DEFINITION:
      case Kind.INTERFACE_TYPE_EXTENSION: {
        const object = definition.kind === Kind.OBJECT_TYPE_DEFINITION || definition.kind === Kind.OBJECT_TYPE_EXTENSION;
        useAll(definition.directives, object ? 'OBJECT' : 'INTERFACE', name);
        for (const iface of definition.interfaces ?? []) survey.referencedTypes.add(iface.name.value);
        let names = fieldsByType.get(name);
        if (names === undefined) fieldsByType.set(name, (names = []));
        for (const field of definition.fields ?? []) {
          names.push(field.name.value);
          reference(field.type);
          useAll(field.directives, 'FIELD_DEFINITION');
          for (const arg of field.arguments ?? []) {
            reference(arg.type);
            useAll(arg.directives, 'ARGUMENT_DEFINITION');
          }
        }
        return;
      }
      case Kind.UNION_TYPE_DEFINITION:
      case Kind.UNION_TYPE_EXTENSION:
        useAll(definition.directives, 'UNION');
        for (const member of definition.types ?? []) survey.referencedTypes.add(member.name.value);
        return;
      case Kind.ENUM_TYPE_DEFINITION:
      case Kind.ENUM_TYPE_EXTENSION:
        useAll(definition.directives, 'ENUM');
        for (const value of definition.values ?? []) useAll(value.directives, 'ENUM_VALUE');
        return;
      case Kind.INPUT_OBJECT_TYPE_DEFINITION:
      case Kind.INPUT_OBJECT_TYPE_EXTENSION:
        useAll(definition.directives, 'INPUT_OBJECT');
        for (const field of definition.fields ?? []) {
          reference(field.type);
          useAll(field.directives, 'INPUT_FIELD_DEFINITION');
        }
        return;
      case Kind.SCALAR_TYPE_DEFINITION:
      case Kind.SCALAR_TYPE_EXTENSION:
        useAll(definition.directives, 'SCALAR');
        return;
    }
  });
  for (const [name, index] of extended) if (!survey.declaredTypes.has(name)) survey.extensionOnly.set(name, index);
  survey.queryTypeName ??= 'Query';
  survey.queryFields = new Set(fieldsByType.get(survey.queryTypeName) ?? []);
  survey.keyTypes = [...keyTypes];
  return survey;
}

const PROMOTED_KIND: Partial<Record<DefinitionNode['kind'], DefinitionNode['kind']>> = {
  [Kind.OBJECT_TYPE_EXTENSION]: Kind.OBJECT_TYPE_DEFINITION,
  [Kind.INTERFACE_TYPE_EXTENSION]: Kind.INTERFACE_TYPE_DEFINITION,
  [Kind.UNION_TYPE_EXTENSION]: Kind.UNION_TYPE_DEFINITION,
  [Kind.ENUM_TYPE_EXTENSION]: Kind.ENUM_TYPE_DEFINITION,
  [Kind.INPUT_OBJECT_TYPE_EXTENSION]: Kind.INPUT_OBJECT_TYPE_DEFINITION,
  [Kind.SCALAR_TYPE_EXTENSION]: Kind.SCALAR_TYPE_DEFINITION,
};

/** The first extension of a type nobody defines becomes its definition (what Apollo's subgraph library does). */
function promoteExtensions(definitions: readonly DefinitionNode[], survey: Survey, notes: string[]): readonly DefinitionNode[] {
  if (survey.extensionOnly.size === 0) return definitions;
  const promoted = [...definitions];
  for (const [name, index] of survey.extensionOnly) {
    const extension = promoted[index]!;
    promoted[index] = { ...extension, kind: PROMOTED_KIND[extension.kind]! } as DefinitionNode;
    survey.declaredTypes.add(name);
    notes.push(`type ${name} is only extended (extend type ${name}): its first extension defines it`);
  }
  return promoted;
}

function declarationsFor(survey: Survey, federated: boolean, notes: string[]): string[] {
  const out: string[] = [];
  const added = new Set<string>();
  const fieldSet = survey.federationV2 ? 'FieldSet' : '_FieldSet';
  const declared = (key: string): boolean =>
    key.startsWith('@') ? survey.declaredDirectives.has(key.slice(1)) || SPECIFIED_DIRECTIVES.has(key.slice(1)) : survey.declaredTypes.has(key) || BUILT_IN_TYPES.has(key);
  const add = (key: string, table: Readonly<Record<string, { sdl: string; needs?: readonly string[] }>>, as = key): void => {
    if (added.has(as) || declared(as)) return;
    const declaration = table[key]!;
    added.add(as);
    let text = declaration.sdl.replaceAll('%FIELDSET%', fieldSet);
    if (as !== key) text = text.replace(`directive ${key}`, `directive ${as}`);
    out.push(text);
    for (const need of declaration.needs ?? []) {
      const needed = need === '%FIELDSET%' ? fieldSet : need;
      add(needed, Object.hasOwn(MOCK_DECLARATIONS, needed) ? MOCK_DECLARATIONS : FEDERATION_DECLARATIONS);
    }
  };

  for (const [name, use] of survey.used) {
    if (declared(`@${name}`)) continue;
    const key = `@${name}`;
    if (Object.hasOwn(MOCK_DECLARATIONS, key)) add(key, MOCK_DECLARATIONS);
    else if (Object.hasOwn(FEDERATION_DECLARATIONS, key)) add(key, FEDERATION_DECLARATIONS);
    else if (name.startsWith('federation__') && Object.hasOwn(FEDERATION_DECLARATIONS, `@${name.slice('federation__'.length)}`)) {
      add(`@${name.slice('federation__'.length)}`, FEDERATION_DECLARATIONS, key);
    } else {
      // A directive the SDL's own server defines (@auth, @cacheControl, @aws_subscribe …): declared
      // with the arguments it is given (as String: SDL values are not type-checked) so the schema builds.
      const args = [...use.args].map((arg) => `${arg}: String`).join(', ');
      out.push(`directive @${name}${args ? `(${args})` : ''} repeatable on ${TYPE_SYSTEM_LOCATIONS}`);
      added.add(key);
      notes.push(`directive @${name} is used but not declared: the mock declares it and ignores it`);
    }
  }
  // Types the SDL names without declaring them: the federation scalars (a subgraph that declares
  // its own @key(fields: _FieldSet!)), AppSync's scalars.
  for (const name of survey.referencedTypes) {
    if (declared(name) || added.has(name)) continue;
    if (Object.hasOwn(FEDERATION_DECLARATIONS, name) && !name.startsWith('@')) add(name, FEDERATION_DECLARATIONS);
    else if (Object.hasOwn(MOCK_DECLARATIONS, name) && !name.startsWith('@')) add(name, MOCK_DECLARATIONS);
    else if ((APPSYNC_SCALARS as readonly string[]).includes(name)) {
      out.push(`scalar ${name}`);
      added.add(name);
    }
  }
  if (federated) {
    add('_Any', FEDERATION_DECLARATIONS);
    add('_Service', FEDERATION_DECLARATIONS);
  }
  return out;
}

/** `_service` and `_entities` on the query type (created when the subgraph has none), `_Entity` over the `@key` types. */
function federationRoot(survey: Survey, notes: string[]): string[] {
  const out: string[] = [];
  const fields: string[] = [];
  if (!survey.queryFields.has('_service')) fields.push('  _service: _Service!');
  const entities = survey.keyTypes.length > 0;
  if (entities && !survey.declaredTypes.has('_Entity')) out.push(`union _Entity = ${survey.keyTypes.join(' | ')}`);
  if (entities && !survey.queryFields.has('_entities')) fields.push('  _entities(representations: [_Any!]!): [_Entity]!');
  if (fields.length === 0) return out;
  const query = survey.queryTypeName!;
  if (survey.declaredTypes.has(query)) {
    out.push(`extend type ${query} {\n${fields.join('\n')}\n}`);
  } else {
    out.push(`type ${query} {\n${fields.join('\n')}\n}`);
    notes.push(`the subgraph has no ${query} type: the mock adds one for _service and _entities`);
  }
  return out;
}
