/** The gRPC server's HTTP bridge: google.api.http bindings and POST /<Service>/<Method>, JSON by the proto3 mapping. */
export { GrpcHttpBridge, type BridgeOptions } from './bridge-server.js';
