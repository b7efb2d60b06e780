import { isMap, isScalar, isSeq, Pair, type Document, type Node, type ParsedNode, type YAMLMap, type YAMLSeq } from 'yaml';
import type { PatchOperation } from './operations.js';
import { pointerTokens } from './operations.js';

/**
 * Applies operations already known to apply (they were run on the plain data first) to a YAML
 * document's nodes, so its comments, key order, quoting and flow styles stay where the patch did not
 * reach. Map keys are matched by their text: `200:` is a number to YAML and "200" to a pointer.
 */
export function replayOnYaml(doc: Document.Parsed<ParsedNode>, operations: readonly PatchOperation[]): void {
  for (const operation of operations) {
    switch (operation.op) {
      case 'add':
        put(doc, operation.path, operation.value, true);
        break;
      case 'replace':
        put(doc, operation.path, operation.value, false);
        break;
      case 'remove':
        remove(doc, operation.path);
        break;
      case 'move': {
        const value = valueAt(doc, operation.from as string);
        remove(doc, operation.from as string);
        put(doc, operation.path, value, true);
        break;
      }
      case 'copy':
        put(doc, operation.path, valueAt(doc, operation.from as string), true);
        break;
      case 'test':
        break;
    }
  }
}

function put(doc: Document, pointer: string, value: unknown, insert: boolean): void {
  const tokens = pointerTokens(pointer);
  if (tokens.length === 0) {
    doc.contents = doc.createNode(value) as Node;
    return;
  }
  const parent = collectionAt(doc, tokens.slice(0, -1));
  const last = tokens[tokens.length - 1];
  const node = doc.createNode(value) as Node;
  if (isSeq(parent)) {
    if (last === '-') parent.items.push(node);
    else if (insert) parent.items.splice(Number(last), 0, node);
    else parent.items[Number(last)] = node;
    return;
  }
  const pair = pairOf(parent as YAMLMap, last);
  if (pair !== undefined) pair.value = node;
  else (parent as YAMLMap).items.push(new Pair(doc.createNode(last), node));
}

function remove(doc: Document, pointer: string): void {
  const tokens = pointerTokens(pointer);
  const parent = collectionAt(doc, tokens.slice(0, -1));
  const last = tokens[tokens.length - 1];
  if (isSeq(parent)) parent.items.splice(Number(last), 1);
  else {
    const map = parent as YAMLMap;
    map.items.splice(map.items.indexOf(pairOf(map, last) as Pair), 1);
  }
}

function valueAt(doc: Document, pointer: string): unknown {
  const tokens = pointerTokens(pointer);
  const parent = collectionAt(doc, tokens.slice(0, -1));
  const last = tokens[tokens.length - 1];
  const node = isSeq(parent) ? parent.items[Number(last)] : pairOf(parent as YAMLMap, last)?.value;
  return (node as Node | undefined)?.toJSON() ?? node;
}

function collectionAt(doc: Document, tokens: readonly string[]): YAMLMap | YAMLSeq {
  let node = doc.contents as unknown;
  for (const token of tokens) node = isSeq(node) ? node.items[Number(token)] : pairOf(node as YAMLMap, token)?.value;
  if (!isMap(node) && !isSeq(node)) throw new Error(`no mapping or sequence at /${tokens.join('/')}`);
  return node;
}

function pairOf(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((pair) => String(isScalar(pair.key) ? pair.key.value : pair.key) === key);
}
