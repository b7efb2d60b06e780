export type { BuildOptions, BuildProgress, BuildResult, CheckResult, SpecInput } from './options.js';
export { build, checkBuild } from './build.js';
export { isBuildStale } from './staleness.js';
export { defaultName } from './inputs.js';
export type { GraphqlSummary } from './graphql/load-schema.js';
export type { GrpcSummary } from './grpc/check-protos.js';

// graphql and protobufjs are loaded by the checks that need them, not by every import of the compiler
type CheckGraphql = typeof import('./graphql/check-schema.js').checkGraphqlSchema;
type CheckProtos = typeof import('./grpc/check-protos.js').checkProtos;
export const checkGraphqlSchema: CheckGraphql = async (options) => (await import('./graphql/check-schema.js')).checkGraphqlSchema(options);
export const checkProtos: CheckProtos = async (options) => (await import('./grpc/check-protos.js')).checkProtos(options);
// what `mock contract-diff compare` reads a schema or .proto files with: the same loading as mock build
type LoadGraphql = typeof import('./graphql/load-schema.js').loadGraphqlSchema;
type LoadProtos = typeof import('./grpc/load-protos.js').loadProtos;
export const loadGraphqlSchema = async (...args: Parameters<LoadGraphql>): Promise<ReturnType<LoadGraphql>> => (await import('./graphql/load-schema.js')).loadGraphqlSchema(...args);
export const loadProtos = async (...args: Parameters<LoadProtos>): Promise<ReturnType<LoadProtos>> => (await import('./grpc/load-protos.js')).loadProtos(...args);
export { TOOL_VERSION } from '../common/version.js';
export { buildIr, type Ir, type IrContent, type IrOperation, type IrParameter, type IrResponse, type IrSecurity, type JsonSchema } from './ir/index.js';
export { resolvePointer } from './ir/pointer.js';
export { serverBasePath } from './ir/mount.js';
export { SchemaRegistry } from './ir/normalize-schema.js';
export { checkStructure, readDescription, toOpenApi3, type StructureProblem } from './load/index.js';
export { createGeneratorEmitter, type GenMode } from './generate/index.js';
export { bodyFormat } from './emit/media.js';
export { registerSchemas, type AjvSchemas } from './emit/ajv-schemas.js';
export { mapSchema } from './emit/schema-walk.js';
