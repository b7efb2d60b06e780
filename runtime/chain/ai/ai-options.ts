import type { LlmEndpoint } from '../../drift/explain/index.js';

/** One operation whose answers the model writes: the documented answer it must match, and what it is told. */
export interface AiOperation {
  /** The route key (`GET /v1/pets/{petId}`). */
  key: string;
  /** The documented success status the answer is served with. */
  status: number;
  /** The documented JSON media type. */
  contentType: string;
  /** The response's JSON Schema, with the definitions it refers to under `definitions`. */
  schema: Record<string, unknown>;
  /** What mock.yaml's ai.rules and the scenario's mockai_rules say about it; empty when only all_generated_routes covers it. */
  rules: string[];
}

/** mock.yaml `ai`, as the CLI resolves it (docs/ai.md). */
export interface AiOptions {
  endpoint: LlmEndpoint;
  model: string;
  timeoutMs: number;
  /** By route key: only these routes carry the ai stage. */
  operations: Record<string, AiOperation>;
  /** Where examples of real answers come from, when any. */
  ragProvider?: 'recorder' | 'fixtures';
  ragExamples: number;
  /** The ai-answers store's budget. */
  cacheMaxBytes: number;
}
