import type { Options } from '@grpc/proto-loader';

/**
 * How messages look to handlers and the engine: the .proto's field names, int64 as decimal strings,
 * enums by name, bytes as Buffers, default values present, the set member of a oneof named.
 */
export const LOADER_OPTIONS: Options = { keepCase: true, longs: String, enums: String, bytes: Buffer, defaults: true, oneofs: true };
