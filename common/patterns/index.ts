export { MAX_PATTERN_LENGTH, PatternError, compileCapturing, compileLinear, escapeLiteral, type CapturingPattern, type LinearPattern, type PatternOptions } from './linear-regex.js';
export { compileRouteCondition, type ValueMatcher } from './route-condition.js';
export { SCHEMA_PATTERN_MODULE, linearOrAny, schemaPattern, type SchemaPattern } from './schema-pattern.js';
export { JSONPATH_BASE_STEPS, JSONPATH_STEPS_PER_NODE, JsonPathLimitError, MAX_JSONPATH_DEPTH, MAX_JSONPATH_LENGTH, compileJsonPath, type JsonPath } from './json-path.js';
export {
  compileCondition,
  compileJsonPathConditions,
  firstValue,
  holds,
  holdsForAny,
  jsonEquals,
  jsonPathHolds,
  type Condition,
  type ConditionSpec,
  type JsonPathCondition,
  type Shorthand,
} from './condition.js';
