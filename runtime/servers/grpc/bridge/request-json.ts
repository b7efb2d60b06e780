import { PROBLEMS, type ProblemCode, type ProblemParams } from '../../../../common/errors.js';
import { RESERVED_KEYS } from '../../../../common/reserved-keys.js';
import type { HttpBinding } from './http-rules.js';

type Plain = Record<string, unknown>;

/** A request the bridge refuses with a catalogue error (answered as google.rpc.Status JSON). */
export class BridgeRefusal extends Error {
  constructor(
    readonly code: ProblemCode,
    message: string,
  ) {
    super(message);
  }

  static of<C extends ProblemCode>(code: C, params: ProblemParams<C>): BridgeRefusal {
    return new BridgeRefusal(code, (PROBLEMS[code].detail as (p: ProblemParams<C>) => string)(params));
  }
}

/**
 * Sets `a.b.c` (a query parameter's name, a path template's field) in the request's JSON. Objects
 * it makes have no prototype, and it walks only own properties: a name from the query never reaches
 * Object.prototype, nor a method inherited by an object of the body.
 */
function setPath(json: Plain, dotted: string, value: string, where: string): void {
  const keys = dotted.split('.');
  const reserved = keys.find((key) => RESERVED_KEYS.has(key));
  if (reserved !== undefined) throw BridgeRefusal.of('MOCK_ERR_FORBIDDEN_KEY', { key: reserved, where: `${where} ${dotted}` });
  let node = json;
  for (const [i, key] of keys.entries()) {
    const current = Object.hasOwn(node, key) ? node[key] : undefined;
    if (i === keys.length - 1) {
      node[key] = current === undefined ? value : [current, value].flat();
      return;
    }
    if (current === undefined || current === null) node = node[key] = Object.create(null) as Plain;
    else if (typeof current === 'object' && !Array.isArray(current)) node = current as Plain;
    else throw BridgeRefusal.of('MOCK_ERR_GRPC_BRIDGE_REQUEST', { reason: `${where} ${dotted}: ${keys.slice(0, i + 1).join('.')} is not a message` });
  }
}

/**
 * The request messages as JSON, before the proto3 mapping: the body (a JSON array of messages
 * for client and bidirectional streams, at most `maxMessages`), the fields the path bound, the
 * query's for the rest (bindings whose body is not `*`).
 */
export function requestJson(body: Buffer | undefined, options: { clientStreaming: boolean; binding?: HttpBinding; bound: Record<string, string>; query: string; maxMessages: number }): unknown[] {
  let parsed: unknown = {};
  if (body !== undefined && body.byteLength > 0) {
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      throw BridgeRefusal.of('MOCK_ERR_GRPC_BRIDGE_REQUEST', { reason: 'the body is not JSON' });
    }
  }
  if (options.clientStreaming) {
    if (!Array.isArray(parsed)) throw BridgeRefusal.of('MOCK_ERR_GRPC_BRIDGE_REQUEST', { reason: 'a client- or bidirectional-streaming method takes a JSON array of messages' });
    if (parsed.length > options.maxMessages) throw BridgeRefusal.of('MOCK_ERR_GRPC_BRIDGE_TOO_MANY_MESSAGES', { count: parsed.length, max: options.maxMessages });
    return parsed;
  }
  const { binding } = options;
  const json = Object.create(null) as Plain;
  if (binding === undefined || binding.body === '*') {
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) Object.assign(json, parsed);
    else if (parsed !== null) throw BridgeRefusal.of('MOCK_ERR_GRPC_BRIDGE_REQUEST', { reason: 'the body must be a JSON object: the request message' });
  } else if (binding.body !== undefined) json[binding.body] = parsed;
  for (const [field, value] of Object.entries(options.bound)) setPath(json, field, value, 'the path field');
  if (binding !== undefined && binding.body !== '*') for (const [key, value] of new URLSearchParams(options.query)) setPath(json, key, value, 'the query parameter');
  return [json];
}
