import type { Changes } from './changes.js';
import { type Description, escape, isObject, type Json } from './document.js';
import { compareSchema, type Side } from './schema.js';
import { compareSecurity } from './security.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** `/pets/{petId}` and `/pets/{id}` are one path: clients send the same URL (oasdiff #608). */
const template = (path: string): string => path.replace(/\{[^}]*\}/g, '{}');
const pathParams = (path: string): string[] => [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);

/** Compares the paths and operations of two OpenAPI 3.x documents. */
export function compareOperations(old: Description, next: Description, changes: Changes): void {
  const oldPaths = paths(old.document);
  const newPaths = paths(next.document);
  // the same path first; a path left over pairs with a new one of its template (one description may hold several: GitHub's)
  const unpaired = new Set(Object.keys(newPaths).filter((path) => !(path in oldPaths)));
  for (const [oldPath, oldItem] of Object.entries(oldPaths)) {
    const newPath = oldPath in newPaths ? oldPath : [...unpaired].find((path) => template(path) === template(oldPath));
    if (newPath === undefined) {
      changes.add('path-removed', oldPath, `#/paths/${escape(oldPath)}`, `${oldPath}: path removed`);
      continue;
    }
    unpaired.delete(newPath);
    const renames = new Map<string, string>();
    const [before, after] = [pathParams(oldPath), pathParams(newPath)];
    before.forEach((name, i) => {
      if (name !== after[i]) renames.set(name, after[i]);
    });
    if (renames.size > 0) {
      const list = [...renames].map(([from, to]) => `{${from}} → {${to}}`).join(', ');
      changes.add('path-parameter-renamed', newPath, `#/paths/${escape(newPath)}`, `${oldPath} → ${newPath}: path parameter renamed (${list}); the URL is unchanged`);
    }
    comparePathItem({ old, next, changes, oldPath, newPath, renames }, oldItem, newPaths[newPath]);
  }
  for (const newPath of unpaired) changes.add('path-added', newPath, `#/paths/${escape(newPath)}`, `${newPath}: path added`);
}

interface PathPair {
  old: Description;
  next: Description;
  changes: Changes;
  oldPath: string;
  newPath: string;
  /** Old path parameter name → new one. */
  renames: Map<string, string>;
}

const paths = (document: Json): Record<string, Json> => (isObject(document.paths) ? (document.paths as Record<string, Json>) : {});

function comparePathItem(pair: PathPair, oldItemRaw: Json, newItemRaw: Json): void {
  const { old, next, changes, oldPath, newPath } = pair;
  const oldItem = old.resolve(oldItemRaw, '').node as Json;
  const newItem = next.resolve(newItemRaw, '').node as Json;
  for (const method of METHODS) {
    const where = `${method.toUpperCase()} ${newPath}`;
    const oldAt = `#/paths/${escape(oldPath)}/${method}`;
    const newAt = `#/paths/${escape(newPath)}/${method}`;
    if (!isObject(oldItem?.[method])) {
      if (isObject(newItem?.[method])) changes.add('operation-added', where, newAt, `${where}: operation added`);
      continue;
    }
    if (!isObject(newItem?.[method])) {
      changes.add('operation-removed', `${method.toUpperCase()} ${oldPath}`, oldAt, `${method.toUpperCase()} ${oldPath}: operation removed`);
      continue;
    }
    const op = { ...pair, where, oldAt, newAt, oldOp: oldItem[method] as Json, newOp: newItem[method] as Json };
    compareSecurity(changes, where, newAt, effectiveSecurity(old.document, op.oldOp), effectiveSecurity(next.document, op.newOp));
    compareParameters(op, oldItem, newItem);
    compareRequestBody(op);
    compareResponses(op);
  }
}

interface OperationPair extends PathPair {
  where: string;
  oldAt: string;
  newAt: string;
  oldOp: Json;
  newOp: Json;
}

function effectiveSecurity(document: Json, operation: Json): unknown[] {
  const security = operation.security ?? document.security;
  return Array.isArray(security) ? security : [];
}

const scopeOf = (op: OperationPair, side: Side) => ({ old: op.old, new: op.next, where: op.where, side, changes: op.changes, walking: new Set<string>() });

interface Parameter {
  node: Json;
  pointer: string;
}

/** Path-item and operation parameters by `in` and name (the operation's win), $refs followed; header names are case-insensitive. */
function parametersOf(description: Description, item: Json, itemAt: string, operation: Json, operationAt: string, renames?: Map<string, string>): Map<string, Parameter> {
  const found = new Map<string, Parameter>();
  const collect = (list: unknown, at: string): void => {
    if (!Array.isArray(list)) return;
    list.forEach((raw, i) => {
      const { node } = description.resolve(raw, '');
      if (!isObject(node) || typeof node.name !== 'string') return;
      const name = node.in === 'header' ? node.name.toLowerCase() : node.in === 'path' ? (renames?.get(node.name) ?? node.name) : node.name;
      found.set(`${String(node.in)} ${name}`, { node, pointer: `${at}/parameters/${i}` });
    });
  };
  collect(item.parameters, itemAt);
  collect(operation.parameters, operationAt);
  return found;
}

function compareParameters(op: OperationPair, oldItem: Json, newItem: Json): void {
  const { changes, where } = op;
  const itemAt = (at: string): string => at.slice(0, at.lastIndexOf('/'));
  const before = parametersOf(op.old, oldItem, itemAt(op.oldAt), op.oldOp, op.oldAt, op.renames);
  const after = parametersOf(op.next, newItem, itemAt(op.newAt), op.newOp, op.newAt);
  for (const [key, { pointer }] of before) if (!after.has(key)) changes.add('request-parameter-removed', where, pointer, `${key} parameter removed`);
  const scope = scopeOf(op, 'request');
  for (const [key, { node, pointer }] of after) {
    const oldParam = before.get(key);
    const required = node.required === true && !hasDefault(op.next, node.schema);
    if (oldParam === undefined) {
      changes.add(
        required ? 'request-parameter-added-required' : 'request-parameter-added',
        where,
        pointer,
        `${key} parameter added${node.required === true ? (required ? ' (required)' : ' (required, with a default)') : ''}`,
      );
      continue;
    }
    const wasRequired = oldParam.node.required === true;
    if (!wasRequired && required) changes.add('request-parameter-became-required', where, pointer, `${key} parameter is now required`);
    if (wasRequired && node.required !== true) changes.add('request-parameter-became-optional', where, pointer, `${key} parameter is now optional`);
    compareSchema(scope, oldParam.node.schema, `${oldParam.pointer}/schema`, node.schema, `${pointer}/schema`, `${key} parameter`);
  }
}

function hasDefault(description: Description, schema: unknown): boolean {
  const { node } = description.resolve(schema, '');
  return isObject(node) && node.default !== undefined;
}

function compareRequestBody(op: OperationPair): void {
  const { changes, where } = op;
  const before = op.old.resolve(op.oldOp.requestBody, `${op.oldAt}/requestBody`);
  const after = op.next.resolve(op.newOp.requestBody, `${op.newAt}/requestBody`);
  if (!isObject(before.node) && !isObject(after.node)) return;
  if (!isObject(after.node)) return changes.add('request-body-removed', where, before.pointer, 'request body removed');
  if (!isObject(before.node)) {
    const required = after.node.required === true;
    return changes.add(required ? 'request-body-added-required' : 'request-body-added', where, after.pointer, `${required ? 'required' : 'optional'} request body added`);
  }
  if (before.node.required !== true && after.node.required === true) changes.add('request-body-became-required', where, after.pointer, 'request body is now required');
  compareContent(op, 'request', before.node.content, `${before.pointer}/content`, after.node.content, `${after.pointer}/content`, 'body');
}

function compareResponses(op: OperationPair): void {
  const { changes, where } = op;
  const before = isObject(op.oldOp.responses) ? op.oldOp.responses : {};
  const after = isObject(op.newOp.responses) ? op.newOp.responses : {};
  for (const status of Object.keys(before)) {
    const oldAt = `${op.oldAt}/responses/${escape(status)}`;
    if (!(status in after)) {
      changes.add('response-status-removed', where, oldAt, `response ${status} removed`);
      continue;
    }
    const oldResponse = op.old.resolve(before[status], oldAt);
    const newResponse = op.next.resolve(after[status], `${op.newAt}/responses/${escape(status)}`);
    if (!isObject(oldResponse.node) || !isObject(newResponse.node)) continue;
    compareContent(op, 'response', oldResponse.node.content, `${oldResponse.pointer}/content`, newResponse.node.content, `${newResponse.pointer}/content`, `response ${status}`);
  }
  for (const status of Object.keys(after)) {
    if (!(status in before)) changes.add('response-status-added', where, `${op.newAt}/responses/${escape(status)}`, `response ${status} added`);
  }
}

function compareContent(op: OperationPair, side: Side, oldContent: unknown, oldAt: string, newContent: unknown, newAt: string, label: string): void {
  const before = isObject(oldContent) ? oldContent : {};
  const after = isObject(newContent) ? newContent : {};
  for (const type of Object.keys(before)) {
    if (!(type in after)) op.changes.add(`${side}-media-type-removed`, op.where, `${oldAt}/${escape(type)}`, `${label}: content type ${type} removed`);
  }
  for (const [type, media] of Object.entries(after)) {
    const at = `${newAt}/${escape(type)}`;
    if (!(type in before)) {
      op.changes.add(`${side}-media-type-added`, op.where, at, `${label}: content type ${type} added`);
      continue;
    }
    const oldMedia = before[type];
    if (!isObject(oldMedia) || !isObject(media)) continue;
    compareSchema(scopeOf(op, side), oldMedia.schema, `${oldAt}/${escape(type)}/schema`, media.schema, `${at}/schema`, label);
  }
}
