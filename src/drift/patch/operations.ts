import { MockError } from '../../../common/errors.js';

/** One RFC 6902 operation. */
export interface PatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

const NEEDS_VALUE = new Set(['add', 'replace', 'test']);
const NEEDS_FROM = new Set(['move', 'copy']);

/**
 * A JSON Patch document read from `text` (`source` names it in errors): an array of operations,
 * each checked for the members its op needs, so a typo is one line naming the operation, not a
 * half-applied description.
 */
export function parsePatch(text: string, source: string): PatchOperation[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw patchError(source, `not JSON (${(e as Error).message})`);
  }
  if (!Array.isArray(parsed)) throw patchError(source, 'a JSON Patch is an array of operations ([{"op": "add", "path": "/…", "value": …}])');
  return parsed.map((item: unknown, index) => operationAt(item, index, source));
}

function operationAt(item: unknown, index: number, source: string): PatchOperation {
  const where = `operation ${index}`;
  if (item === null || typeof item !== 'object' || Array.isArray(item)) throw patchError(source, `${where} is not an object`);
  const { op, path, from } = item as Record<string, unknown>;
  if (typeof op !== 'string' || !['add', 'remove', 'replace', 'move', 'copy', 'test'].includes(op)) {
    throw patchError(source, `${where}: "op" must be add, remove, replace, move, copy or test`);
  }
  if (!isPointer(path)) throw patchError(source, `${where}: "path" must be a JSON pointer ("" or starting with "/")`);
  if (NEEDS_VALUE.has(op) && !('value' in item)) throw patchError(source, `${where}: "${op}" needs a "value"`);
  if (NEEDS_FROM.has(op) && !isPointer(from)) throw patchError(source, `${where}: "${op}" needs a "from" JSON pointer`);
  return item as PatchOperation;
}

const isPointer = (value: unknown): value is string => typeof value === 'string' && (value === '' || value.startsWith('/'));

/** A pointer's reference tokens, unescaped (RFC 6901: ~1 is /, ~0 is ~). */
export function pointerTokens(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function patchError(source: string, problem: string): MockError {
  return new MockError('MOCK_ERR_PATCH_INVALID', `--patch ${source}: ${problem}`, 2);
}
