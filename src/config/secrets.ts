import { redactUrlCredentials } from '../../common/redacted.js';
import type { KeyPath } from './key-path.js';
import schema from './schema.json' with { type: 'json' };

/**
 * The keys that hold credentials, read once from schema.json's `x-secret` marks (so marking a key
 * there is all it takes), and copies of configuration values with them hidden, for everything that
 * displays configuration: `mock config show`, `--print-config` and the errors of a check.
 */
interface SchemaNode {
  $ref?: string;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  'x-secret'?: boolean;
}

/** A key path where `*` is any key and `[]` any index. */
type Pattern = ReadonlyArray<string>;

const root = schema as unknown as SchemaNode;

/** The node a local `$ref` (`#/definitions/chaos/properties/rate_limit`) points at. */
const target = (ref: string): SchemaNode =>
  ref
    .slice(2)
    .split('/')
    .reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, root as Record<string, unknown>) as SchemaNode;

const patterns: Pattern[] = [];

(function walk(node: SchemaNode, at: Pattern, refs: ReadonlySet<string>): void {
  if (node['x-secret'] === true) {
    patterns.push(at);
    return;
  }
  if (node.$ref !== undefined) {
    // definitions may refer to themselves (nested conditions): one round of each is enough
    if (!refs.has(node.$ref)) walk(target(node.$ref), at, new Set([...refs, node.$ref]));
  }
  for (const [key, child] of Object.entries(node.properties ?? {})) walk(child, [...at, key], refs);
  if (typeof node.additionalProperties === 'object') walk(node.additionalProperties, [...at, '*'], refs);
  if (node.items !== undefined) walk(node.items, [...at, '[]'], refs);
  for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) walk(branch, at, refs);
})(root, [], new Set());

const matches = (pattern: Pattern, path: KeyPath): boolean =>
  pattern.length <= path.length &&
  pattern.every((part, i) => (part === '[]' ? typeof path[i] === 'number' : part === '*' ? typeof path[i] === 'string' : part === path[i]));

/** Whether the value at `path` is a credential or part of one (`auth.schemes.api.tokens[0]`). */
export const isSecret = (path: KeyPath): boolean => patterns.some((pattern) => matches(pattern, path));

/**
 * A copy of the value at `path` with every credential in it shown as `shown`, and the password of
 * every URL in it as [redacted] (a URL's userinfo is a credential whatever its key).
 */
export function redactSecrets(value: unknown, shown: string, path: KeyPath = []): unknown {
  if (isSecret(path) && (typeof value !== 'object' || value === null)) return shown;
  if (typeof value === 'string') return redactUrlCredentials(value);
  if (Array.isArray(value)) return value.map((item, i) => redactSecrets(item, shown, [...path, i]));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, redactSecrets(inner, shown, [...path, key])]));
}
