import type { Ir, IrOperation } from '../../compiler/index.js';
import { framingOf } from '../../common/sequence-items.js';
import { HttpClient, isFailure } from './http-client.js';
import type { WireRequest } from './request-model.js';
import { ResponseChecker } from './response-check.js';
import { SchemaView } from './schema-view.js';
import { Validators } from './validators.js';

/** One streamed answer read item by item (what `mock bench` reports before its load). */
export interface StreamCheck {
  operation: string;
  status: number | null;
  contentType?: string;
  /** Items read (at most five: a stream may not end). */
  items: number;
  /** When the first item was complete, from sending the request. */
  firstItemMs: number | null;
  /** The first item that does not fit the item schema, and why. */
  mismatch?: string;
  /** The request failed (connection, timeout). */
  error?: string;
}

/** Whether an operation documents a sequential media type (SSE, JSON Lines …) for a 2xx answer. */
export const isStreamed = (op: IrOperation): boolean => op.responses.some((r) => r.status.startsWith('2') && r.contents.some((c) => framingOf(c.mediaType) !== undefined));

/** Sends `request` to `target` once and checks the items of its answer as the conformance probes do. */
export async function checkStream(ir: Ir, op: IrOperation, target: string, request: WireRequest, timeoutMs: number): Promise<StreamCheck> {
  const client = new HttpClient(target, timeoutMs, 1);
  try {
    const answer = await client.send(request);
    if (isFailure(answer)) return { operation: op.key, status: null, items: 0, firstItemMs: null, error: answer.error };
    const checker = new ResponseChecker(new Validators(ir), new SchemaView(ir.definitions), false);
    const check = checker.check(op, answer.status, answer.contentType, answer.body, answer.stream);
    return {
      operation: op.key,
      status: answer.status,
      contentType: answer.contentType,
      items: answer.stream?.items.length ?? 0,
      firstItemMs: answer.stream?.firstItemMs ?? null,
      ...(check?.mismatch === undefined ? {} : { mismatch: check.mismatch }),
    };
  } finally {
    client.close();
  }
}

/**
 * Items of streamed answers checked one at a time against their item schema, as the probes check
 * them: what `mock bench` does with the items it samples under load.
 */
export class StreamItemValidator {
  private readonly checker: ResponseChecker;
  private readonly checks = new Map<string, ((item: string) => string | undefined) | undefined>();

  constructor(ir: Ir) {
    this.checker = new ResponseChecker(new Validators(ir), new SchemaView(ir.definitions), false);
  }

  /** Why `item` of an answer of `op` (`status`, `contentType`) does not fit its item schema; undefined when it fits or nothing says what an item is. */
  check(op: IrOperation, status: number, contentType: string, item: string): string | undefined {
    const type = contentType.split(';')[0].trim().toLowerCase();
    const key = `${op.key} ${status} ${type}`;
    let check = this.checks.get(key);
    if (!this.checks.has(key)) {
      const framing = framingOf(type);
      check = framing === undefined ? undefined : this.checker.itemCheck(op, status, type, framing)?.check;
      this.checks.set(key, check);
    }
    return check?.(item);
  }
}
