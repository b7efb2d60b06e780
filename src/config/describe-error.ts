import type { ErrorObject } from 'ajv';
import { closest, distance } from 'fastest-levenshtein';
import type { KeyPath } from './key-path.js';
import { isSecret, redactSecrets } from './secrets.js';
import { isTree } from './tree.js';

export interface ErrorDescription {
  /** Where the offending value is (for a missing or unknown key: that key). */
  path: KeyPath;
  /** What was expected and what was found: `expected integer, got "abc"`. */
  text: string;
}

/**
 * Turns Ajv's errors (allErrors and verbose on) into one description per key path, in the order
 * the values appear in `root` (a missing key where its object is). A value failing several
 * keywords (`type` then `enum`) is described by the first, Ajv's `type`.
 */
export function describeErrors(errors: readonly ErrorObject[], root: unknown): ErrorDescription[] {
  const seen = new Set<string>();
  const unique = failures(errors)
    .flatMap((failure) => describeFailure(failure, root))
    .filter(({ path }) => {
      const key = JSON.stringify(path);
      return !seen.has(key) && seen.add(key);
    });
  const rank = documentOrder(root);
  const rankOf = (path: KeyPath): number => {
    for (let end = path.length; end >= 0; end--) {
      const found = rank.get(JSON.stringify(path.slice(0, end)));
      if (found !== undefined) return found;
    }
    return 0;
  };
  return unique.sort((a, b) => rankOf(a.path) - rankOf(b.path)); // stable: Ajv's (schema) order breaks ties
}

/**
 * Groups Ajv's list into failures: an `anyOf`/`oneOf` error comes after the errors of its
 * branches, which only explain it and are not failures of their own.
 */
function failures(errors: readonly ErrorObject[]): ErrorObject[][] {
  let groups: ErrorObject[][] = [];
  for (const error of errors) {
    if (error.keyword !== 'anyOf' && error.keyword !== 'oneOf') {
      groups.push([error]);
      continue;
    }
    const inside = ([first]: ErrorObject[]): boolean =>
      first.schemaPath.startsWith(`${error.schemaPath}/`) && isWithin(first.instancePath, error.instancePath);
    groups = [...groups.filter((group) => !inside(group)), [...groups.filter(inside).flat(), error]];
  }
  return groups;
}

const isWithin = (pointer: string, ancestor: string): boolean => pointer === ancestor || pointer.startsWith(`${ancestor}/`);

/** Position of every key path of `root` (as JSON) in document order. */
function documentOrder(root: unknown): Map<string, number> {
  const rank = new Map<string, number>();
  const visit = (node: unknown, path: Array<string | number>): void => {
    rank.set(JSON.stringify(path), rank.size);
    if (Array.isArray(node)) node.forEach((item, i) => visit(item, [...path, i]));
    else if (isTree(node)) for (const [key, value] of Object.entries(node)) visit(value, [...path, key]);
  };
  visit(root, []);
  return rank;
}

/**
 * One failure: its keyword is the last error; for `anyOf` the errors of the branch whose type
 * matches the value explain it best (each of them).
 */
function describeFailure(errors: readonly ErrorObject[], root: unknown): ErrorDescription[] {
  const error = errors[errors.length - 1];
  if (error.keyword === 'anyOf') {
    const branches = error.schema as Array<{ type: string }>;
    const match = branches.findIndex((branch) => hasType(error.data, branch.type));
    const inner = errors.filter((e) => e.schemaPath.startsWith(`${error.schemaPath}/${match}/`));
    if (match >= 0 && inner.length > 0) return describeErrors(inner, root);
  }
  return [describeError(error, root)];
}

function describeError(error: ErrorObject, root: unknown): ErrorDescription {
  const path = pointerToPath(root, error.instancePath);
  const found = `got ${shown(error.data, path)}`;
  switch (error.keyword) {
    case 'anyOf':
      return { path, text: `expected ${(error.schema as Array<{ type: string }>).map((b) => b.type).join(' or ')}, ${found}` };
    case 'type':
      return { path, text: `expected ${[error.params.type].flat().join(' or ')}, ${found}` };
    case 'enum':
      return { path, text: `expected one of ${error.params.allowedValues.join(', ')}, ${found}` };
    case 'required':
      return { path: [...path, error.params.missingProperty], text: 'required key is missing' };
    case 'additionalProperties': {
      const unknown: string = error.params.additionalProperty;
      const known = Object.keys(error.parentSchema?.properties ?? {});
      return { path: [...path, unknown], text: `unknown key${suggestion(unknown, known)}; expected one of ${known.join(', ')}` };
    }
    case 'discriminator': {
      const { tag, tagValue } = error.params as { tag: string; tagValue: unknown };
      if (tagValue === undefined) return { path: [...path, tag], text: 'required key is missing' };
      const branches = (error.parentSchema?.oneOf ?? []) as Array<{ properties: Record<string, { const: string }> }>;
      const allowed = branches.map((branch) => branch.properties[tag].const);
      const expected = typeof tagValue === 'string' ? `one of ${allowed.join(', ')}` : 'string';
      return { path: [...path, tag], text: `expected ${expected}, got ${show(tagValue)}` };
    }
    case 'const':
      return { path, text: `expected ${show(error.params.allowedValue)}, ${found}` };
    case 'oneOf':
      if (error.parentSchema?.['x-expected'] !== undefined) return { path, text: `expected ${error.parentSchema['x-expected']}, ${found}` };
      return { path, text: `${error.message}, ${found}` };
    case 'pattern':
      return { path, text: `expected ${error.parentSchema?.['x-expected'] ?? `a string matching ${error.schema}`}, ${found}` };
    case 'minItems':
      return { path, text: `expected at least ${error.params.limit} item(s), ${found}` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { path, text: `expected ${error.parentSchema?.type} ${error.params.comparison} ${error.params.limit}, ${found}` };
    case 'minLength': {
      const limit: number = error.params.limit;
      return { path, text: `expected ${limit === 1 ? 'a non-empty string' : `a string of at least ${limit} characters`}, ${found}` };
    }
    default:
      return { path, text: `${error.message}, ${found}` };
  }
}

/** JSON pointer (`/specs/0/path`) to key path, telling array indexes from keys by the data. */
function pointerToPath(root: unknown, pointer: string): KeyPath {
  const path: Array<string | number> = [];
  let node = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    const segment = Array.isArray(node) ? Number(key) : key;
    path.push(segment);
    node = (node as Record<string | number, unknown>)[segment];
  }
  return path;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return isTree(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'null':
      return value === null;
    default:
      return typeof value === type;
  }
}

/** ` (did you mean http_port?)` when one known key is close to the unknown one. */
function suggestion(unknown: string, known: readonly string[]): string {
  if (known.length === 0) return '';
  const extended = known.filter((key) => unknown.length >= 3 && key.startsWith(unknown));
  if (extended.length === 1) return ` (did you mean ${extended[0]}?)`; // `embed` for `embedded`
  const best = closest(unknown, [...known]);
  const d = distance(unknown, best);
  // a short key two edits from another is a different word (foo is not now), not a typo of it
  return d <= Math.max(2, Math.floor(best.length / 3)) && d < unknown.length - 1 ? ` (did you mean ${best}?)` : '';
}

const MAX_SHOWN = 60;

/**
 * The offending value as an error shows it: never a credential (keys marked x-secret, inside it
 * too, and URLs' passwords), since errors reach terminals and logs.
 */
function shown(value: unknown, path: KeyPath): string {
  if (!isSecret(path)) return show(redactSecrets(value, '<redacted>', path));
  if (typeof value === 'string') return `a value of ${value.length} characters (not shown)`;
  const kind = Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
  return `${kind} (not shown)`;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}
