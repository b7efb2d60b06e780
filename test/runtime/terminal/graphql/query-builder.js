// Builds a mid-size query over a schema's root fields, for tests over whole schemas (the corpus).
// Not a test file itself (no .test.js): imported by the tests that need it.
import { getNamedType, isAbstractType, isEnumType, isInputObjectType, isLeafType, isListType, isNonNullType, isObjectType, isScalarType } from 'graphql';

function literal(type, depth = 0) {
  if (isNonNullType(type)) return literal(type.ofType, depth);
  if (isListType(type)) return `[${literal(type.ofType, depth)}]`;
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type)) {
    if (depth > 3) return '{}';
    const fields = Object.values(type.getFields()).filter((f) => isNonNullType(f.type) && f.defaultValue === undefined);
    return `{${fields.map((f) => `${f.name}: ${literal(f.type, depth + 1)}`).join(', ')}}`;
  }
  switch (type.name) {
    case 'Int':
      return '1';
    case 'Float':
      return '1.5';
    case 'Boolean':
      return 'true';
    default:
      return '"1"';
  }
}

function argsOf(field) {
  const required = field.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined);
  return required.length === 0 ? '' : `(${required.map((a) => `${a.name}: ${literal(a.type)}`).join(', ')})`;
}

/** The selection of a composite type: its leaves (up to `leaves`), then `nested` object fields one level down. */
function selection(type, depth, budget) {
  const named = getNamedType(type);
  if (isAbstractType(named)) return '{ __typename }';
  const fields = Object.values(named.getFields());
  const parts = [];
  for (const f of fields) {
    if (budget.n <= 0) break;
    if (isLeafType(getNamedType(f.type))) {
      parts.push(`${f.name}${argsOf(f)}`);
      budget.n--;
    }
    if (parts.length >= 8) break;
  }
  if (depth < 2) {
    let nested = 0;
    for (const f of fields) {
      if (budget.n <= 0 || nested >= 2) break;
      const t = getNamedType(f.type);
      if (isObjectType(t) || isAbstractType(t)) {
        parts.push(`${f.name}${argsOf(f)} ${selection(f.type, depth + 1, budget)}`);
        budget.n--;
        nested++;
      }
    }
  }
  if (parts.length === 0) parts.push('__typename');
  return `{ ${parts.join(' ')} }`;
}

/** A query over the first `roots` root fields of the query type. */
export function midSizeQuery(schema, roots = 12) {
  const query = schema.getQueryType();
  const budget = { n: 400 };
  const parts = [];
  for (const f of Object.values(query.getFields()).slice(0, roots)) {
    const t = getNamedType(f.type);
    parts.push(`${f.name}${argsOf(f)}${isLeafType(t) || isScalarType(t) ? '' : ` ${selection(f.type, 1, budget)}`}`);
  }
  return `{ ${parts.join('\n')} }`;
}
