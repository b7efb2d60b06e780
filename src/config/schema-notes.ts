import type { ConfigSource } from './layer.js';
import schema from './schema.json' with { type: 'json' };

/**
 * What the schema says about keys beyond their shape: `deprecated` + `x-replacement` (an old
 * spelling whose value goes to the replacement key). Read once from schema.json, so marking or
 * unmarking a key there is all it takes.
 */
interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  $ref?: string;
  deprecated?: boolean;
  'x-replacement'?: string;
}

export interface Deprecation {
  /** Dotted key, e.g. `chaos.failure_rate`. */
  key: string;
  /** Dotted key that takes its value. */
  replacement: string;
}

const definitions = (schema as { definitions: Record<string, SchemaNode> }).definitions;

/** A node with its `$ref` followed; the referring node's own keywords (`deprecated`) are kept. */
function resolve(node: SchemaNode): SchemaNode {
  if (!node.$ref) return node;
  const target = definitions[node.$ref.replace('#/definitions/', '')];
  return { ...resolve(target), ...node, properties: resolve(target).properties };
}

const deprecations: Deprecation[] = [];

(function walk(node: SchemaNode, prefix: string): void {
  for (const [name, raw] of Object.entries(node.properties ?? {})) {
    const child = resolve(raw);
    const key = prefix ? `${prefix}.${name}` : name;
    if (child.deprecated && child['x-replacement']) deprecations.push({ key, replacement: child['x-replacement'] });
    walk(child, key);
  }
})(schema as SchemaNode, '');

export const DEPRECATIONS: readonly Deprecation[] = deprecations;

/** True for the key itself and every key below it (`admin.port`, `core.routes[0].path` are within `admin`, `core.routes`). */
export function isWithin(key: string, outer: string): boolean {
  return key === outer || key.startsWith(`${outer}.`) || key.startsWith(`${outer}[`);
}

/** Whether anything at or below `key` was set by a flag, the environment or the file; returns that source. */
export function setBy(key: string, sources: Readonly<Record<string, ConfigSource>>): ConfigSource | undefined {
  const order: ConfigSource[] = ['flag', 'env', 'file'];
  let best: ConfigSource | undefined;
  for (const [leaf, source] of Object.entries(sources)) {
    if (source === 'default' || !isWithin(leaf, key)) continue;
    if (best === undefined || order.indexOf(source) < order.indexOf(best)) best = source;
  }
  return best;
}

/** Deprecated keys that the configuration sets. */
export const deprecatedInUse = (sources: Readonly<Record<string, ConfigSource>>): Deprecation[] =>
  DEPRECATIONS.filter(({ key }) => setBy(key, sources) !== undefined);

/** A copy of `value` with object keys in schema order (keys the schema does not list keep theirs, after). */
export function orderBySchema(value: unknown, node: SchemaNode = schema as SchemaNode): unknown {
  if (Array.isArray(value) || typeof value !== 'object' || value === null) return value;
  const properties = resolve(node).properties ?? {};
  const known = Object.keys(properties).filter((key) => key in value);
  const rest = Object.keys(value).filter((key) => !(key in properties));
  const record = value as Record<string, unknown>;
  return Object.fromEntries([
    ...known.map((key) => [key, orderBySchema(record[key], properties[key])]),
    ...rest.map((key) => [key, record[key]]),
  ]);
}
