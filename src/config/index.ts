/** Configuration: mock.yaml lookup, environment, flags, precedence, schema and defaults. */
export { defaultValue } from './default-value.js';
export { displayPath } from './display-path.js';
export { ENV_VARIABLES, type EnvType, type EnvVariable } from './env.js';
export { keyLocator, readConfigFile } from './file.js';
export type { ConfigSource } from './layer.js';
export { loadConfig, type FlagSetting, type LoadConfigOptions, type ResolvedConfig } from './load.js';
export { CONFIG_FILE_NAMES, findConfigFile, type ConfigLocation } from './lookup.js';
export { activeScenarioAiRules, activeScenarioEntities, activeScenarioSummary, scenarioConfigProblems } from './scenario-layer.js';
export { isUrl, type EffectiveConfig } from './paths.js';
export { formatConfig } from './print.js';
export {
  DEPRECATIONS,
  deprecatedInUse,
  setBy,
  type Deprecation,
} from './schema-notes.js';
export type * from './types.generated.js';
