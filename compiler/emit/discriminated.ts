import type { JsonSchema } from '../ir/types.js';
import { mapSchema } from './schema-walk.js';

const DEF_PREFIX = '#/definitions/';

/**
 * The tag value(s) a `$ref` branch of a discriminated union is chosen by: the mapping's keys that
 * point at it, else (OpenAPI's implicit mapping) the schema's name, as the generator emits it.
 */
function tagValues(ref: string, mapping: Record<string, string>): string[] | undefined {
  const mapped = Object.keys(mapping).filter((value) => mapping[value] === ref);
  return mapped.length > 0 ? mapped : undefined;
}

/** Whether the branch's own schema pins the tag (an enum or const on the property, through allOf). */
function pinsTag(branch: JsonSchema, property: string, definitions: Record<string, JsonSchema>, depth = 0): boolean {
  let node = branch;
  for (let hops = 0; typeof node.$ref === 'string' && hops < 20; hops++) node = definitions[node.$ref.slice(DEF_PREFIX.length)] ?? {};
  const own = (node.properties as Record<string, JsonSchema> | undefined)?.[property];
  if (own !== undefined && ('const' in own || Array.isArray(own.enum))) return true;
  return depth < 10 && ((node.allOf as JsonSchema[] | undefined) ?? []).some((part) => pinsTag(part, property, definitions, depth + 1));
}

/**
 * oneOf/anyOf with a `discriminator`: each `$ref` branch also requires its tag value, so that
 * branches which overlap in shape (Cat and Dog both `{name}`) no longer match together and a valid
 * body is not refused with "must match exactly one schema in oneOf". Ajv's own `discriminator`
 * keyword needs every branch to declare the tag as a const and forbids `mapping`, which real
 * descriptions rarely satisfy; this rewrite is what their discriminator means.
 */
function tagBranches(node: JsonSchema, definitions: Record<string, JsonSchema>): JsonSchema {
  const discriminator = node.discriminator as { propertyName?: unknown; mapping?: Record<string, string> } | undefined;
  const key = Array.isArray(node.oneOf) ? 'oneOf' : Array.isArray(node.anyOf) ? 'anyOf' : undefined;
  if (key === undefined || discriminator === undefined || typeof discriminator.propertyName !== 'string') return node;
  const property = discriminator.propertyName;
  const mapping = discriminator.mapping ?? {};
  const tags: string[] = [];
  let everyBranchTagged = true;
  const branches = (node[key] as JsonSchema[]).map((branch) => {
    const values = typeof branch.$ref === 'string' && branch.$ref.startsWith(DEF_PREFIX) ? branchTags(branch, branch.$ref, property, mapping, definitions) : undefined;
    if (values === undefined) {
      everyBranchTagged = false;
      return branch;
    }
    tags.push(...values);
    return { allOf: [branch, tagged(property, values)] };
  });
  const union = { ...node, [key]: branches };
  // the tag checked first on its own: a body with an unknown tag is told every value the union
  // takes, not the values of whichever branch reported first
  return everyBranchTagged ? { allOf: [tagged(property, tags), union] } : union;
}

/**
 * The tag values of one `$ref` branch. The implicit mapping (the schema's name) only where the
 * branch does not say its tag itself: descriptions that pin `type: {enum: [track]}` mean "track",
 * whatever the schema is called.
 */
function branchTags(branch: JsonSchema, ref: string, property: string, mapping: Record<string, string>, definitions: Record<string, JsonSchema>): string[] | undefined {
  return tagValues(ref, mapping) ?? (pinsTag(branch, property, definitions) ? undefined : [ref.slice(DEF_PREFIX.length)]);
}

const tagged = (property: string, values: string[]): JsonSchema => ({ properties: { [property]: { enum: values } }, required: [property] });

/** `schema` with every discriminated union's branches told apart by their tag (validation only). */
export const discriminated = (schema: JsonSchema, definitions: Record<string, JsonSchema>): JsonSchema => mapSchema(schema, (node) => tagBranches(node, definitions));
