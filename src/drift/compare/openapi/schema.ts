import type { Changes } from './changes.js';
import type { OpenApiCheckId } from './checks.js';
import { type Description, escape, isObject, type Json } from './document.js';

export type Side = 'request' | 'response';

/** Where a schema compare runs: both descriptions, the operation, the side, and the pairs already on the walk (recursive schemas). */
export interface SchemaScope {
  readonly old: Description;
  readonly new: Description;
  readonly where: string;
  readonly side: Side;
  readonly changes: Changes;
  readonly walking: Set<string>;
}

/** Upper bounds: a smaller value accepts less. Lower bounds: a larger value accepts less. */
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const COMPOSITIONS = ['oneOf', 'anyOf', 'allOf'] as const;

/**
 * Compares two schemas with $refs followed on both sides, so an inline schema and a $ref to the
 * same schema are one (oasdiff #929, #930). `label` names the value (`body.owner.name`).
 */
export function compareSchema(scope: SchemaScope, oldRaw: unknown, oldAt: string, newRaw: unknown, newAt: string, label: string): void {
  const { node: oldNode, pointer: oldPointer } = scope.old.resolve(oldRaw, oldAt);
  const { node: newNode, pointer: newPointer } = scope.new.resolve(newRaw, newAt);
  if (!isObject(oldNode) || !isObject(newNode)) return;
  const pair = `${oldPointer}|${newPointer}`;
  if (scope.walking.has(pair)) return;
  scope.walking.add(pair);
  const at = { scope, label, oldPointer, newPointer };
  compareType(at, oldNode, newNode);
  compareFormat(at, oldNode, newNode);
  compareEnum(at, oldNode, newNode);
  compareConstraints(at, oldNode, newNode);
  compareProperties(at, oldNode, newNode);
  if (oldNode.items !== undefined && newNode.items !== undefined) compareSchema(scope, oldNode.items, `${oldPointer}/items`, newNode.items, `${newPointer}/items`, `${label}[]`);
  for (const keyword of COMPOSITIONS) compareBranches(at, keyword, oldNode, newNode);
  scope.walking.delete(pair);
}

interface At {
  scope: SchemaScope;
  label: string;
  oldPointer: string;
  newPointer: string;
}

const report = ({ scope, newPointer }: At, check: string, message: string, pointer = newPointer): void => scope.changes.add(`${scope.side}-${check}` as OpenApiCheckId, scope.where, pointer, message);

/** The types a schema allows, undefined for any; `nullable` (3.0) counts as "null". */
function typesOf(schema: Json): Set<string> | undefined {
  if (schema.type === undefined) return undefined;
  const types = new Set(Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string]);
  if (schema.nullable === true) types.add('null');
  return types;
}

/** Every value of `inner` is a value of `outer` (integer is a number). */
function within(inner: Set<string> | undefined, outer: Set<string> | undefined): boolean {
  if (outer === undefined) return true;
  if (inner === undefined) return false;
  return [...inner].every((type) => outer.has(type) || (type === 'integer' && outer.has('number')));
}

function compareType(at: At, oldNode: Json, newNode: Json): void {
  const [before, after] = [typesOf(oldNode), typesOf(newNode)];
  const shown = (types: Set<string> | undefined): string => (types === undefined ? 'any' : [...types].join('|'));
  if (within(before, after) && within(after, before)) return;
  const message = `${at.label}: type ${shown(before)} became ${shown(after)}`;
  if (at.scope.side === 'request') report(at, within(before, after) ? 'type-widened' : 'type-changed', message);
  else report(at, within(after, before) ? 'type-narrowed' : 'type-changed', message);
}

function compareFormat(at: At, oldNode: Json, newNode: Json): void {
  const [before, after] = [oldNode.format, newNode.format];
  if (before === after) return;
  if (before === undefined) report(at, 'format-added', `${at.label}: format ${String(after)} added`);
  else if (after === undefined) report(at, 'format-removed', `${at.label}: format ${String(before)} removed`);
  else report(at, 'format-changed', `${at.label}: format ${String(before)} became ${String(after)}`);
}

function compareEnum(at: At, oldNode: Json, newNode: Json): void {
  const [before, after] = [oldNode.enum, newNode.enum];
  if (!Array.isArray(before) && !Array.isArray(after)) return;
  if (!Array.isArray(before)) return report(at, 'enum-added', `${at.label}: now limited to ${JSON.stringify(after)}`);
  if (!Array.isArray(after)) return report(at, 'enum-removed', `${at.label}: no longer limited to ${JSON.stringify(before)}`);
  const keys = (values: unknown[]): Set<string> => new Set(values.map((v) => JSON.stringify(v)));
  const [oldKeys, newKeys] = [keys(before), keys(after)];
  for (const value of oldKeys) if (!newKeys.has(value)) report(at, 'enum-value-removed', `${at.label}: enum value ${value} removed`);
  for (const value of newKeys) if (!oldKeys.has(value)) report(at, 'enum-value-added', `${at.label}: enum value ${value} added`);
}

function compareConstraints(at: At, oldNode: Json, newNode: Json): void {
  for (const keyword of [...UPPER, ...LOWER]) {
    const [before, after] = [oldNode[keyword], newNode[keyword]];
    if (before === after || (typeof before !== 'number' && typeof after !== 'number')) continue;
    const upper = UPPER.includes(keyword);
    // a bound that appears accepts less; one that goes away accepts more
    const less = before === undefined || (after !== undefined && (upper ? (after as number) < (before as number) : (after as number) > (before as number)));
    report(at, less ? 'constraint-narrowed' : 'constraint-widened', `${at.label}: ${keyword} ${String(before ?? 'none')} became ${String(after ?? 'none')}`);
  }
  if (oldNode.pattern !== newNode.pattern) {
    // a pattern removed accepts more; added or rewritten, assume less (regular expressions are not compared)
    const less = newNode.pattern !== undefined;
    report(at, less ? 'constraint-narrowed' : 'constraint-widened', `${at.label}: pattern ${String(oldNode.pattern ?? 'none')} became ${String(newNode.pattern ?? 'none')}`);
  }
}

function compareProperties(at: At, oldNode: Json, newNode: Json): void {
  const { scope, label, oldPointer, newPointer } = at;
  const oldProps = isObject(oldNode.properties) ? oldNode.properties : {};
  const newProps = isObject(newNode.properties) ? newNode.properties : {};
  const oldRequired = new Set(Array.isArray(oldNode.required) ? (oldNode.required as string[]) : []);
  const newRequired = new Set(Array.isArray(newNode.required) ? (newNode.required as string[]) : []);
  const request = scope.side === 'request';
  const named = (name: string): string => (label === '' ? name : `${label}.${name}`);
  for (const name of Object.keys(oldProps)) {
    if (name in newProps || hiddenOnSide(scope, oldProps[name], 'old')) continue;
    report(at, 'property-removed', `${named(name)}: property removed`, `${oldPointer}/properties/${escape(name)}`);
  }
  for (const [name, schema] of Object.entries(newProps)) {
    const pointer = `${newPointer}/properties/${escape(name)}`;
    if (hiddenOnSide(scope, schema, 'new')) continue;
    if (!(name in oldProps)) {
      // a default is what the server assumes when a client leaves the property out (oasdiff #549)
      const required = request && newRequired.has(name) && !hasDefault(scope, schema);
      const kind = newRequired.has(name) ? (required || !request ? 'required' : 'required (with a default)') : 'optional';
      report(at, required ? 'property-added-required' : 'property-added', `${named(name)}: ${kind} property added`, pointer);
      continue;
    }
    if (!oldRequired.has(name) && newRequired.has(name) && !(request && hasDefault(scope, schema))) report(at, 'property-became-required', `${named(name)}: now required`, pointer);
    if (oldRequired.has(name) && !newRequired.has(name)) report(at, 'property-became-optional', `${named(name)}: now optional`, pointer);
    compareSchema(scope, oldProps[name], `${oldPointer}/properties/${escape(name)}`, schema, pointer, named(name));
  }
}

/** readOnly properties are not sent in requests, writeOnly ones not answered. */
function hiddenOnSide(scope: SchemaScope, schema: unknown, which: 'old' | 'new'): boolean {
  const { node } = scope[which].resolve(schema, '');
  if (!isObject(node)) return false;
  return scope.side === 'request' ? node.readOnly === true : node.writeOnly === true;
}

function hasDefault(scope: SchemaScope, schema: unknown): boolean {
  const { node } = scope.new.resolve(schema, '');
  return isObject(node) && node.default !== undefined;
}

/**
 * oneOf/anyOf/allOf (oasdiff #314, #610): branches equal on both sides (after $refs) are the same
 * branch; the rest pair by $ref name, then by position, and are compared inside; what is left was
 * added or removed.
 */
function compareBranches(at: At, keyword: (typeof COMPOSITIONS)[number], oldNode: Json, newNode: Json): void {
  const before = Array.isArray(oldNode[keyword]) ? (oldNode[keyword] as unknown[]) : [];
  const after = Array.isArray(newNode[keyword]) ? (newNode[keyword] as unknown[]) : [];
  if (before.length === 0 && after.length === 0) return;
  const { scope, label, oldPointer, newPointer } = at;
  const oldLeft = new Set(before.keys());
  const newLeft = new Set(after.keys());
  for (const i of [...oldLeft]) {
    const j = [...newLeft].find((k) => sameSchema(scope, before[i], after[k]));
    if (j === undefined) continue;
    oldLeft.delete(i);
    newLeft.delete(j);
  }
  const refName = (schema: unknown): string | undefined => (isObject(schema) && typeof schema.$ref === 'string' ? schema.$ref.split('/').pop() : undefined);
  const pairs: Array<[number, number]> = [];
  for (const i of [...oldLeft]) {
    const j = [...newLeft].find((k) => refName(before[i]) !== undefined && refName(before[i]) === refName(after[k]));
    if (j === undefined) continue;
    pairs.push([i, j]);
    oldLeft.delete(i);
    newLeft.delete(j);
  }
  // a branch changed inside: the one left on each side, else the most alike (properties, title) when they mostly agree
  for (const i of [...oldLeft]) {
    const scored = [...newLeft].map((j) => ({ j, score: likeness(scope, before[i], after[j]) })).sort((x, y) => y.score - x.score);
    const best = oldLeft.size === 1 && newLeft.size === 1 ? scored[0] : scored.find((s) => s.score >= 0.5);
    if (best === undefined) continue;
    pairs.push([i, best.j]);
    oldLeft.delete(i);
    newLeft.delete(best.j);
  }
  const lower = keyword.toLowerCase();
  const branch = (schema: unknown, i: number): string => `${keyword}[${i}]${refName(schema) === undefined ? '' : ` (${refName(schema)})`}`;
  for (const [i, j] of pairs) compareSchema(scope, before[i], `${oldPointer}/${keyword}/${i}`, after[j], `${newPointer}/${keyword}/${j}`, `${label}.${keyword}[${j}]`);
  for (const i of oldLeft) report(at, `${lower}-branch-removed`, `${label || 'schema'}: ${branch(before[i], i)} removed`, `${oldPointer}/${keyword}/${i}`);
  for (const j of newLeft) report(at, `${lower}-branch-added`, `${label || 'schema'}: ${branch(after[j], j)} added`, `${newPointer}/${keyword}/${j}`);
}

/** 0 to 1: how alike two branches look by title and property names. */
function likeness(scope: SchemaScope, a: unknown, b: unknown): number {
  const [x, y] = [scope.old.resolve(a, '').node, scope.new.resolve(b, '').node];
  if (!isObject(x) || !isObject(y)) return 0;
  if (x.title !== undefined && x.title === y.title) return 1;
  const names = (node: Json): Set<string> => new Set(isObject(node.properties) ? Object.keys(node.properties) : []);
  const [left, right] = [names(x), names(y)];
  const union = new Set([...left, ...right]).size;
  if (union === 0) return x.type === y.type ? 0.5 : 0;
  return [...left].filter((name) => right.has(name)).length / union;
}

/** Deep equality with $refs followed on both sides; a pair met again on the walk counts as equal. */
export function sameSchema(scope: SchemaScope, a: unknown, b: unknown, seen = new Set<string>()): boolean {
  const left = scope.old.resolve(a, '');
  const right = scope.new.resolve(b, '');
  const key = `${left.pointer}|${right.pointer}`;
  if (left.pointer !== '' && right.pointer !== '') {
    if (seen.has(key)) return true;
    seen.add(key);
  }
  const [x, y] = [left.node, right.node];
  if (Array.isArray(x) && Array.isArray(y)) return x.length === y.length && x.every((v, i) => sameSchema(scope, v, y[i], seen));
  if (isObject(x) && isObject(y)) {
    const keys = Object.keys(x).filter((k) => !isDoc(k));
    if (keys.length !== Object.keys(y).filter((k) => !isDoc(k)).length) return false;
    return keys.every((k) => k in y && sameSchema(scope, x[k], y[k], seen));
  }
  return x === y;
}

/** Words for readers only: a changed description or example is not a change of the contract. */
const isDoc = (key: string): boolean => key === 'description' || key === 'title' || key === 'example' || key === 'examples';
