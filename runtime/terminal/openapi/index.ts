export { Engine, type EngineOptions, type EngineRoute } from './engine.js';
export type { AnswerCheck } from './answer-check.js';
export { loadBuild, runtimeRequire } from './load-build.js';
export type { ApiKeyMeta, BuildModule, OperationMeta } from '../../../common/contract/index.js';
export { apiKeyParameters } from './api-keys.js';
