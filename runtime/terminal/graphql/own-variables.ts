import { getNamedType, isInputObjectType, typeFromAST, type GraphQLInputObjectType, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';

/** Names an ordinary object answers without having them: `constructor`, `toString`, `__proto__`, … */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Whether the operation's variables, or a field of an input object they may hold, are named like
 * a property of Object.prototype. graphql-jit reads a variable's value as `input["name"] == null`,
 * so an ordinary object (what JSON.parse gives) answers `$constructor` with the Object function
 * when the client sent none: "got invalid value [function Object]" instead of the default. Known
 * once per document, so only those operations pay for a copy (ownVariables) per request.
 */
export function readsInheritedNames(schema: GraphQLSchema, operation: OperationDefinitionNode): boolean {
  const seen = new Set<GraphQLInputObjectType>();
  const pending: GraphQLInputObjectType[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    if (INHERITED.has(definition.variable.name.value)) return true;
    const type = typeFromAST(schema, definition.type as Parameters<typeof typeFromAST>[1]);
    const named = type === undefined ? undefined : getNamedType(type);
    if (named !== undefined && isInputObjectType(named)) pending.push(named);
  }
  while (pending.length > 0) {
    const type = pending.pop()!;
    if (seen.has(type)) continue;
    seen.add(type);
    for (const field of Object.values(type.getFields())) {
      if (INHERITED.has(field.name)) return true;
      const named = getNamedType(field.type);
      if (isInputObjectType(named)) pending.push(named);
    }
  }
  return false;
}

/** The variables with every object rebuilt on a null prototype: only own keys answer. Iterative: JSON nests deeper than the stack. */
export function ownVariables(variables: Record<string, unknown>): Record<string, unknown> {
  const root = Object.create(null) as Record<string, unknown>;
  const pending: Array<[source: Record<string, unknown> | unknown[], target: Record<string, unknown> | unknown[]]> = [[variables, root]];
  while (pending.length > 0) {
    const [source, target] = pending.pop()!;
    const keys = Array.isArray(source) ? source.keys() : Object.keys(source);
    for (const key of keys) {
      const value = (source as Record<string | number, unknown>)[key];
      let copy = value;
      if (Array.isArray(value)) copy = new Array<unknown>(value.length);
      else if (typeof value === 'object' && value !== null) copy = Object.create(null) as Record<string, unknown>;
      if (copy !== value) pending.push([value as Record<string, unknown>, copy as Record<string, unknown>]);
      // a null-prototype target inherits no `__proto__` setter: that key stays a key like any other
      (target as Record<string | number, unknown>)[key] = copy;
    }
  }
  return root;
}
