/**
 * Optional natural-language explanations of contract-drift mismatch groups (contract-diff
 * analyze --llm-provider --llm-model, docs/contract-diff-webhooks.md#llm-explanations) from an
 * OpenAI-compatible endpoint the user names; bounded in groups, time and answer size, and never
 * an error. A folder of the runtime so that the CLI and the admin API can both ask.
 */
export { LLM_TIMEOUT_MS, MAX_EXPLAINED_GROUPS, MAX_EXPLANATION_CHARS, explainGroups, type ExplainOptions, type Explanations } from './explainer.js';
export type { ExplainGroup } from './group.js';
export { PROMPT_MISMATCHES, SYSTEM_PROMPT, groupPrompt } from './prompt.js';
export { LLM_PROVIDERS, resolveLlmProvider, type LlmEndpoint } from './provider.js';
export { chatCompletion, type ChatMessage } from './chat.js';
