/**
 * The GraphQL mock's engine: an SDL in, a mocked schema out, documents prepared (parsed,
 * validated, limited, compiled) and run. Protocol-free: the GraphQL server adapts HTTP and
 * graphql-transport-ws to prepare/execute/subscribe.
 */
export { GraphqlEngine, GraphqlOverridesError, type EngineStats, type ExecutionAnswer, type OperationType, type Prepared, type Refused } from './engine.js';
export { GRAPHQL_CODES, type GraphqlErrorCode } from './codes.js';
export type { GraphqlMockSettings } from './settings.js';
export { checkOverrides } from '../../../common/graphql/overrides-check.js';
