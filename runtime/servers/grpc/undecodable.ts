import type { MethodDefinition } from '@grpc/grpc-js';

/** What a request message that does not decode becomes, so that the handler sees the call (grpc-js would end it before any handler did). */
export const UNDECODABLE: object = Object.freeze({});

/** The method with a request deserializer that gives UNDECODABLE instead of throwing. */
export function decodingLeniently<T extends MethodDefinition<object, object>>(method: T): T {
  const decode = method.requestDeserialize;
  return {
    ...method,
    requestDeserialize: (bytes: Buffer): object => {
      try {
        return decode(bytes);
      } catch {
        return UNDECODABLE;
      }
    },
  };
}
