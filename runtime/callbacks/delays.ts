import type { CallbackMeta } from '../../common/contract/index.js';

/** One entry of callbacks.delays: an OpenAPI callback's own wait before its first attempt. */
export interface CallbackDelay {
  /** The operation's operationId, or its `METHOD /path` (the path as the description writes it, mount prefix included: the route the request log shows). */
  operation: string;
  /** The callback's name (the key under the operation's `callbacks`). */
  callback: string;
  delayMs: number;
}

/** What names an operation: its operationId and its key. */
export interface NamedOperation {
  key: string;
  operationId: string | null;
}

const names = (entry: CallbackDelay, op: NamedOperation): boolean => entry.operation === op.operationId || entry.operation === op.key;

/** The delay mock.yaml gives the operation's callback `name` (the last entry naming it), or undefined. */
export function configuredDelay(delays: readonly CallbackDelay[], op: NamedOperation, name: string): number | undefined {
  let found: number | undefined;
  for (const entry of delays) if (entry.callback === name && names(entry, op)) found = entry.delayMs;
  return found;
}

/** callbacks.delays entries that name no callback of the served operations: one line each, naming the entry and what is known. */
export function unknownDelays(delays: readonly CallbackDelay[], operations: readonly NamedOperation[], callbacks: readonly CallbackMeta[]): string[] {
  return delays.flatMap((entry, i) => {
    const at = `mock.yaml: callbacks.delays[${i}]`;
    const op = operations.findIndex((candidate) => names(entry, candidate));
    if (op === -1) return [`${at}.operation: no operation ${JSON.stringify(entry.operation)} in the served descriptions (give its operationId, or "METHOD /path" with the path as the description writes it, mount prefix included)`];
    const known = [...new Set(callbacks.filter((c) => c.route === op).map((c) => c.name))];
    if (known.includes(entry.callback)) return [];
    return [
      `${at}.callback: operation ${JSON.stringify(entry.operation)} has no callback ${JSON.stringify(entry.callback)} (${known.length === 0 ? 'it declares none' : `known: ${known.join(', ')}`})`,
    ];
  });
}
