import { buildClientSchema, printSchema, type IntrospectionQuery } from 'graphql';

const SHAPE = 'expected the answer to an introspection query: {"data": {"__schema": …}} or {"__schema": …}';

/**
 * The SDL of an introspection result (what `getIntrospectionQuery()` answers), as a server's
 * `{data: {__schema}}` or its `data` alone. Throws an Error saying what was found instead.
 */
export function introspectionToSdl(json: unknown): string {
  const schema = introspectedSchema(json);
  let built;
  try {
    built = buildClientSchema({ __schema: schema } as unknown as IntrospectionQuery);
  } catch (error) {
    throw new Error(`the introspection result does not describe a schema: ${error instanceof Error ? error.message : String(error)}`);
  }
  return printSchema(built);
}

function introspectedSchema(json: unknown): object {
  if (!isObject(json)) throw new Error(`${SHAPE}, got ${json === null ? 'null' : Array.isArray(json) ? 'an array' : typeof json}`);
  if (isObject(json.__schema)) return json.__schema;
  if (isObject(json.data) && isObject(json.data.__schema)) return json.data.__schema;
  if (Array.isArray(json.errors) && json.errors.length > 0) {
    const first = isObject(json.errors[0]) && typeof json.errors[0].message === 'string' ? json.errors[0].message : JSON.stringify(json.errors[0]);
    throw new Error(`the introspection result is an error answer (${first}); is introspection turned off on that server?`);
  }
  const keys = Object.keys(isObject(json.data) ? json.data : json);
  throw new Error(`${SHAPE}, got an object with ${keys.length === 0 ? 'no keys' : `keys ${keys.slice(0, 5).join(', ')}`}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
