import type { Server, UntypedHandleCall } from '@grpc/grpc-js';

/** grpc-js's registered handler of a path, as its server keeps it. */
interface Handler {
  func: UntypedHandleCall;
  serialize: (value: unknown) => Buffer;
  deserialize: (bytes: Buffer) => unknown;
  type: 'unary' | 'clientStream' | 'serverStream' | 'bidi';
  path: string;
}

const bytes = (value: unknown): Buffer => value as Buffer;

/**
 * Calls of a path no service declares get `handle(path)` as a bidirectional handler (it takes
 * whatever the client sends) instead of grpc-js's own UNIMPLEMENTED, so that they are answered,
 * logged and counted like every call. grpc-js answers such a call before any interceptor runs; its
 * handler lookup (`_retrieveHandler`, not part of its typed API: e2e/grpc-unhappy.test.js fails
 * if a grpc-js update renames it) is the one place where it is seen.
 */
export function catchUnknownMethods(server: Server, handle: (path: string) => UntypedHandleCall): void {
  const inside = server as unknown as { _retrieveHandler(path: string): Handler | null };
  const lookup = inside._retrieveHandler;
  if (typeof lookup !== 'function') throw new TypeError('@grpc/grpc-js: Server._retrieveHandler is gone; calls of unknown methods cannot be logged (update runtime/servers/grpc/unknown-methods.ts)');
  inside._retrieveHandler = (path) => lookup.call(server, path) ?? { func: handle(path), serialize: bytes, deserialize: bytes, type: 'bidi', path };
}
