/**
 * AI-assisted mocks (docs/ai.md): answers of the operations mock.yaml's ai.rules and the
 * scenario's mockai_rules name written by a model behind an OpenAI-compatible endpoint, checked
 * against the documented response, cached per request shape, with the ordinary generator as the
 * fallback. The ai stage (stages/ai.ts) runs them on the routes they cover only.
 */
export { AiAnswers, aiAnswersBudget } from './ai-answers.js';
export type { AiOperation, AiOptions } from './ai-options.js';
export { fixtureExamples, recorderExamples, type ExampleSource } from './examples.js';
export { AI_SYSTEM_PROMPT, aiPrompt, jsonOfAnswer } from './prompt.js';
export { requestShape, shapeKey, type RequestShape } from './request-shape.js';
