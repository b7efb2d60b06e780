/** AI-assisted mocks, CLI side (docs/ai.md): the start-up check of --ai-enabled, and the ai settings the HTTP mock's ai stage reads. */
export { aiOptions } from './options.js';
export { aiOperations, type AiRuleEntry } from './operations.js';
export { refuseAiWithoutEndpoint } from './refuse.js';
