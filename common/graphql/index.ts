/**
 * What turns an SDL into the schema the GraphQL mock serves, shared by the compiler (mock build
 * checks and writes the schema) and the runtime (which mocks it): the mock and federation
 * directive declarations, assembleSchema, introspectionToSdl and the check of graphql.overrides.
 */
export { APPSYNC_SCALARS, FAKE_LOCALES, FAKE_TYPES, FEDERATION_SDL, MOCK_DIRECTIVES_SDL } from './directives.js';
export { assembleSchema, GraphqlSchemaError, type AssembledSchema, type GraphqlSchemaProblem } from './assemble.js';
export { introspectionToSdl } from './introspection.js';
export { BUILD_COMMENT, withoutBuildComments } from './build-comments.js';
export { checkOverrides, EMITS_KEY, overrideVars, type GraphqlOverrides } from './overrides-check.js';
