export { Engine, type AnswerCheck, type EngineOptions, type EngineRoute } from './engine.js';
export { loadBuild, runtimeRequire } from './load-build.js';
export type { ApiKeyMeta, BuildModule, OperationMeta } from '../../../common/contract/index.js';
export { apiKeyParameters } from './api-keys.js';
