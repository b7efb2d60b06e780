/** The gRPC server's transport: its connections, the call handlers of the four modes (and of unknown methods), the call as the chain sees it, reflection, the concurrency limit, per-method statistics, the HTTP bridge. */
export { handlerFor, type CallContext } from './call-handlers.js';
export { describeCall } from './call-run.js';
export { ConcurrencyGate } from './concurrency-gate.js';
export type { GrpcOptions } from './grpc-options.js';
export { GrpcRouter } from './grpc-router.js';
export { GrpcHttpBridge } from './bridge/index.js';
export { LOADER_OPTIONS } from './loader-options.js';
export { MethodStats } from './method-stats.js';
export { REFLECTION_SERVICES, reflectionServices } from './reflection.js';
export { decodingLeniently } from './undecodable.js';
export { GrpcConnections } from './connections.js';
export { catchUnknownMethods } from './unknown-methods.js';
