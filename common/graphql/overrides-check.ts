import {
  getNamedType,
  GraphQLError,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { closest, distance } from 'fastest-levenshtein';
import { hasTemplate, parseTemplate, TemplateSyntaxError, type TemplateNode } from '../template/index.js';

/**
 * graphql.overrides: type name → field name → a value the field answers. A static JSON value, or a
 * string with `{{…}}` template tokens, which may read the field's arguments (`{{args.id}}`,
 * `{{args.input.name}}`) and the parent object's other fields (`{{parent.name}}`) besides every
 * token templates know (`{{uuid}}`, `{{now}}`, `{{faker.person.firstName}}` …). Strings inside a
 * static object or list are templates too.
 */
export type GraphqlOverrides = Record<string, Record<string, unknown>>;

/**
 * graphql.overrides' one key that is not a type (`$` starts no GraphQL name): mutation field →
 * the subscription fields that emit what it wrote (a name or a list; `[]`: none), instead of the
 * naming convention (runtime/terminal/graphql/mutation-events.ts).
 */
export const EMITS_KEY = '$emits';

const INPUT_DEPTH = 3;
const VAR_TOKEN = /\{\{[^}]*\b(args|parent)\./;

/** Whether an override string is a template: a token templates know, or one naming an argument or a parent field. */
export function hasOverrideTemplate(text: string): boolean {
  return text.includes('{{') && (VAR_TOKEN.test(text) || hasTemplate(text));
}

/** The template variables an override of `type.field` may use. */
export function overrideVars(schema: GraphQLSchema, typeName: string, fieldName: string): string[] {
  const type = schema.getType(typeName);
  if (!isObjectType(type) && !isInterfaceType(type)) return [];
  const field = type.getFields()[fieldName];
  if (field === undefined) return [];
  const vars: string[] = [];
  const walkInput = (prefix: string, inputType: GraphQLInputType, depth: number): void => {
    vars.push(prefix);
    const named = getNamedType(inputType);
    if (depth >= INPUT_DEPTH || !isInputObjectType(named) || isListType(isNonNullType(inputType) ? inputType.ofType : inputType)) return;
    for (const inputField of Object.values(named.getFields())) walkInput(`${prefix}.${inputField.name}`, inputField.type, depth + 1);
  };
  for (const arg of field.args) walkInput(`args.${arg.name}`, arg.type, 1);
  for (const sibling of Object.values(type.getFields())) {
    if (sibling.name !== fieldName && !sibling.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined)) vars.push(`parent.${sibling.name}`);
  }
  return vars;
}

/** The `var` tokens a template uses (names among `vars`). */
export function templateVarNames(nodes: readonly TemplateNode[], out: Set<string> = new Set()): Set<string> {
  for (const node of nodes) {
    if (node.kind === 'value' && node.expr.kind === 'var') out.add(node.expr.name);
    else if (node.kind === 'if') {
      for (const operand of node.condition.kind === 'truthy' ? [node.condition.operand] : [node.condition.left, node.condition.right]) {
        if (operand.kind === 'var') out.add(operand.name);
      }
      templateVarNames(node.then, out);
      templateVarNames(node.else, out);
    }
  }
  return out;
}

const suggest = (name: string, candidates: readonly string[]): string => {
  if (candidates.length === 0) return '';
  const best = closest(name, candidates as string[]);
  return distance(name, best) <= Math.max(2, Math.floor(name.length / 3)) ? ` (did you mean ${best}?)` : '';
};

/**
 * Every problem of graphql.overrides against the schema, one line each, naming the setting:
 * `graphql.overrides.User.nmae: no field nmae on type User (did you mean name?)`. Empty when all
 * is well. The mock refuses to start with any (the engine throws them).
 */
export function checkOverrides(schema: GraphQLSchema, overrides: unknown): string[] {
  const problems: string[] = [];
  if (overrides === undefined || overrides === null) return problems;
  if (typeof overrides !== 'object' || Array.isArray(overrides)) return ['graphql.overrides: expected a map of type names to maps of field names to values'];
  const typeNames = Object.keys(schema.getTypeMap()).filter((name) => !name.startsWith('__'));
  for (const [typeName, fields] of Object.entries(overrides as Record<string, unknown>)) {
    const at = `graphql.overrides.${typeName}`;
    if (typeName === EMITS_KEY) {
      checkEmits(schema, fields, problems);
      continue;
    }
    const type = schema.getType(typeName);
    if (type === undefined || typeName.startsWith('__')) {
      problems.push(`${at}: no type ${typeName} in the schema${suggest(typeName, typeNames)}`);
      continue;
    }
    if (!isObjectType(type) && !isInterfaceType(type)) {
      problems.push(`${at}: ${typeName} is ${describeKind(type)}; overrides set fields of object and interface types`);
      continue;
    }
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
      problems.push(`${at}: expected a map of field names to values`);
      continue;
    }
    const fieldMap = type.getFields();
    const fieldNames = Object.keys(fieldMap);
    for (const [fieldName, value] of Object.entries(fields as Record<string, unknown>)) {
      const field = fieldMap[fieldName];
      if (field === undefined) {
        problems.push(`${at}.${fieldName}: no field ${fieldName} on type ${typeName}${suggest(fieldName, fieldNames)}`);
        continue;
      }
      checkValue(`${at}.${fieldName}`, value, field, overrideVars(schema, typeName, fieldName), problems);
    }
  }
  return problems;
}

/** graphql.overrides.$emits: names of Mutation fields, each naming Subscription fields. */
function checkEmits(schema: GraphQLSchema, pairs: unknown, problems: string[]): void {
  const at = `graphql.overrides.${EMITS_KEY}`;
  if (typeof pairs !== 'object' || pairs === null || Array.isArray(pairs)) {
    problems.push(`${at}: expected a map of mutation fields to the subscription fields that emit what they wrote ({ issueOpen: [issueOpened] })`);
    return;
  }
  const mutations = Object.keys(schema.getMutationType()?.getFields() ?? {});
  const subscriptions = Object.keys(schema.getSubscriptionType()?.getFields() ?? {});
  for (const [mutation, named] of Object.entries(pairs as Record<string, unknown>)) {
    if (!mutations.includes(mutation)) problems.push(`${at}.${mutation}: no mutation ${mutation} in the schema${suggest(mutation, mutations)}`);
    const names = [named].flat();
    if (!names.every((name) => typeof name === 'string')) {
      problems.push(`${at}.${mutation}: expected a subscription field's name or a list of them`);
      continue;
    }
    for (const name of names as string[]) {
      if (!subscriptions.includes(name)) problems.push(`${at}.${mutation}: no subscription ${name} in the schema${suggest(name, subscriptions)}`);
    }
  }
}

function describeKind(type: GraphQLNamedType): string {
  if (isEnumType(type)) return 'an enum';
  if (isInputObjectType(type)) return 'an input type';
  if (isLeafType(type)) return 'a scalar';
  return 'a union (its members are object types: override theirs)';
}

function checkValue(at: string, value: unknown, field: GraphQLField<unknown, unknown>, vars: readonly string[], problems: string[]): void {
  checkTemplates(at, value, vars, field, problems);
  checkShape(at, value, field.type, problems);
}

function checkTemplates(at: string, value: unknown, vars: readonly string[], field: GraphQLField<unknown, unknown>, problems: string[]): void {
  if (typeof value === 'string') {
    if (!hasOverrideTemplate(value)) return;
    try {
      parseTemplate(value, 'none', vars);
    } catch (error) {
      problems.push(`${at}: ${error instanceof TemplateSyntaxError ? error.message : String(error)} in ${JSON.stringify(value)}`);
      return;
    }
    // Tokens that look like variables but name none stay literal text: say so.
    for (const match of value.matchAll(/\{\{\s*((?:args|parent)\.[^\s}]*)\s*\}\}/g)) {
      const name = match[1]!;
      if (vars.includes(name)) continue;
      const [scope] = name.split('.');
      const known = vars.filter((v) => v.startsWith(`${scope}.`));
      const what = scope === 'args' ? `the arguments of ${field.name}` : 'the fields of the parent';
      problems.push(`${at}: {{${name}}} names none of ${what}${suggest(name, known)}${known.length === 0 ? ` (${field.name} has none)` : ''}`);
    }
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => checkTemplates(`${at}[${i}]`, item, vars, field, problems));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) checkTemplates(`${at}.${key}`, item, vars, field, problems);
  }
}

/** Static values against the field's type: leaves coerced as the answer would be, object keys named after fields. */
function checkShape(at: string, value: unknown, type: GraphQLOutputType, problems: string[]): void {
  if (typeof value === 'string' && hasOverrideTemplate(value)) return;
  if (isNonNullType(type)) {
    if (value === null) problems.push(`${at}: null for a non-null field (${String(type)})`);
    else checkShape(at, value, type.ofType, problems);
    return;
  }
  if (value === null) return;
  if (isListType(type)) {
    if (Array.isArray(value)) value.forEach((item, i) => checkShape(`${at}[${i}]`, item, type.ofType, problems));
    else checkShape(at, value, type.ofType, problems);
    return;
  }
  if (isLeafType(type)) {
    if (Array.isArray(value)) {
      problems.push(`${at}: a list for ${type.name}, which is not a list`);
      return;
    }
    if (typeof value === 'object') {
      if (type.name === 'String' || type.name === 'ID' || type.name === 'Int' || type.name === 'Float' || type.name === 'Boolean' || isEnumType(type)) {
        problems.push(`${at}: an object for ${type.name}`);
      }
      return;
    }
    try {
      type.serialize(value);
    } catch (error) {
      const reason = error instanceof GraphQLError ? error.message : String(error);
      problems.push(`${at}: ${JSON.stringify(value)} is not a valid ${type.name} (${reason})`);
    }
    return;
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    if (typeof value === 'string' || typeof value === 'number') return; // an id: the object with that id
    problems.push(`${at}: expected an object for ${type.name}, got ${Array.isArray(value) ? 'a list' : typeof value}`);
    return;
  }
  const record = value as Record<string, unknown>;
  if (isObjectType(type) || isInterfaceType(type)) {
    const fields = type.getFields();
    const names = Object.keys(fields);
    for (const [key, item] of Object.entries(record)) {
      if (key === '__typename') continue;
      const field = fields[key];
      if (field === undefined) {
        if (/(Id|ID|_id|Ids|IDs|_ids)$/.test(key)) continue; // a related object by id
        problems.push(`${at}.${key}: no field ${key} on type ${type.name}${suggest(key, names)}`);
      } else {
        checkShape(`${at}.${key}`, item, field.type, problems);
      }
    }
  }
}

