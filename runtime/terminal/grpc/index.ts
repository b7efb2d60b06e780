/**
 * What answers gRPC calls, without a transport (no @grpc/grpc-js here; runtime/servers/grpc* carries
 * the calls): the chain's terminal (`grpcTerminal`, which leaves a CallAnswer on the CallExchange
 * the server made), recorded calls under core.fixtures.dir (GrpcRecordings: record and replay),
 * the proto3 JSON mapping, and the mock engine.
 *
 * `new GrpcEngine(root, settings)` takes the protobufjs Root of the build's grpc.json (its field
 * names as the .proto spells them: the compiler parses with `keepCase: true`) and compiles
 * `grpc.methods` once, refusing a bad rule with a GrpcRuleError naming it (`grpc.methods[2].method:
 * …`). `engine.method('pkg.Service/Method')` gives the method's mock: `unary`, `clientStream`
 * (after the half-close), `serverStream` (a plan of messages with their delays and how the stream
 * ends) and `bidi` (a session fed each client message).
 *
 * Messages in and out are plain objects in protobufjs' object form, exactly what
 * `@grpc/proto-loader` with `{ keepCase: true, longs: String, enums: String, bytes: Buffer,
 * defaults: true, oneofs: true }` hands a grpc-js handler and accepts back: .proto field names,
 * 64-bit integers as decimal strings, enums by name, bytes as Buffer, a set oneof also named by its
 * virtual field. Returned messages may be shared between calls: treat them as read-only.
 *
 * Delays (`delayMs`) are the rule's and the stream's; the server waits them (and adds chaos).
 * A failure carries the status code, its message, the trailers and, when the rule has `details`,
 * the serialized google.rpc.Status for `grpc-status-details-bin`.
 */
export { GrpcEngine, GrpcRuleError, jsonView, type BidiSession, type GrpcFailure, type Metadata, type MethodMock, type Outgoing, type Reply, type StreamPlan } from './engine.js';
export { MAX_DEPTH, enumNames } from './generate.js';
export { DETAIL_TYPES, RPC_ROOT, STATUS_TYPE, decodeStatus, encodeStatus, statusCode } from './status.js';
export type { GrpcMockSettings } from './settings.js';
export { CallAnswer, CallExchange, grpcTerminal, type Answered } from './call-terminal.js';
export { fromJson, toJson } from './json-mapping.js';
export { GrpcRecordings, type GrpcTape } from './recordings.js';
