export { MAX_PATTERN_LENGTH, PatternError, compileLinear, escapeLiteral, type LinearPattern, type PatternOptions } from './linear-regex.js';
export { compileRouteCondition, type ValueMatcher } from './route-condition.js';
export { SCHEMA_PATTERN_MODULE, linearOrAny, schemaPattern, type SchemaPattern } from './schema-pattern.js';
