import { toSafeString } from '../bundled/json-schema-to-typescript.js';

/**
 * Globals a generated type must not shadow: an `export interface Error` in types.ts hides the
 * built-in Error from every module that imports it. ECMAScript's globals, TypeScript's lib types
 * and the web-platform globals Node.js also has. DOM-only names (Node, Image, Storage...) are left
 * alone: builds run on Node.js, and renaming every API's Node or Image would cost more than it saves.
 */
const GLOBALS = new Set([
  // ECMAScript
  'AggregateError', 'Array', 'ArrayBuffer', 'Atomics', 'BigInt', 'BigInt64Array', 'BigUint64Array', 'Boolean', 'DataView',
  'Date', 'Error', 'EvalError', 'FinalizationRegistry', 'Float32Array', 'Float64Array', 'Function', 'Infinity', 'Int16Array',
  'Int32Array', 'Int8Array', 'Intl', 'Iterator', 'JSON', 'Map', 'Math', 'NaN', 'Number', 'Object', 'Promise', 'Proxy',
  'RangeError', 'ReferenceError', 'Reflect', 'RegExp', 'Set', 'SharedArrayBuffer', 'String', 'Symbol', 'SyntaxError',
  'TypeError', 'URIError', 'Uint16Array', 'Uint32Array', 'Uint8Array', 'Uint8ClampedArray', 'WeakMap', 'WeakRef', 'WeakSet',
  // TypeScript's lib
  'ArrayLike', 'AsyncDisposable', 'AsyncGenerator', 'AsyncIterable', 'AsyncIterableIterator', 'AsyncIterator', 'Awaited',
  'CallableFunction', 'Capitalize', 'ConstructorParameters', 'Disposable', 'Exclude', 'Extract', 'Generator', 'IArguments',
  'InstanceType', 'Iterable', 'IterableIterator', 'Lowercase', 'NewableFunction', 'NoInfer', 'NonNullable', 'Omit',
  'OmitThisParameter', 'Parameters', 'Partial', 'Pick', 'PromiseLike', 'PropertyDescriptor', 'PropertyKey', 'Readonly',
  'ReadonlyArray', 'ReadonlyMap', 'ReadonlySet', 'Record', 'Required', 'ReturnType', 'TemplateStringsArray',
  'ThisParameterType', 'ThisType', 'Uncapitalize', 'Uppercase',
  // Node.js and the web platform
  'AbortController', 'AbortSignal', 'Blob', 'BroadcastChannel', 'Buffer', 'CompressionStream', 'Console', 'Crypto',
  'CryptoKey', 'CustomEvent', 'DOMException', 'DecompressionStream', 'Event', 'EventTarget', 'File', 'FormData', 'Headers',
  'MessageChannel', 'MessageEvent', 'MessagePort', 'Navigator', 'Performance', 'ReadableStream', 'Request', 'Response',
  'SubtleCrypto', 'TextDecoder', 'TextEncoder', 'TransformStream', 'URL', 'URLSearchParams', 'WebAssembly', 'WebSocket',
  'WritableStream',
]);

/**
 * The title each definition's type is generated from (json-schema-to-typescript names it
 * toSafeString(title)). The rule: a definition whose type name would be a global gets the prefix
 * `Model`, as OpenAPI Generator does (`Error` -> `ModelError`), numbered when the description
 * already has that name (`ModelError2`); every other definition keeps its own name.
 */
export function typeTitles(definitions: string[]): Map<string, string> {
  const taken = new Set(definitions.map(toSafeString));
  return new Map(
    definitions.map((name) => {
      const safe = toSafeString(name);
      if (!GLOBALS.has(safe)) return [name, name];
      let title = `Model${safe}`;
      for (let n = 2; taken.has(title); n++) title = `Model${safe}${n}`;
      taken.add(title);
      return [name, title];
    }),
  );
}
