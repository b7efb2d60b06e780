// Shared by the GraphQL engine tests (not a test file itself).
import { GraphqlEngine } from '../../../../dist/runtime/terminal/graphql/index.js';

export const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);

export const defaults = {
  seed: 42,
  now: () => NOW,
  overrides: {},
  listLength: { min: 2, max: 4 },
  maxDepth: 15,
  maxComplexity: 1000,
  maxAliases: 50,
  maxTokens: 10000,
  maxCacheBytes: 32 * 1024 * 1024,
  maxStoreBytes: 64 * 1024 * 1024,
  introspection: true,
  subscriptionIntervalMs: 20,
  subscriptionMaxEvents: 3,
};

export const mockEngine = (sdl, settings = {}) => new GraphqlEngine(sdl, { ...defaults, ...settings });

/** prepare + execute; a refusal comes back as {refused}. */
export async function run(engine, query, variables, operationName) {
  const prepared = engine.prepare(query, operationName);
  if (!prepared.ok) return { refused: prepared };
  return await prepared.execute(variables);
}

/**
 * The data of a query that must succeed, as a client receives it (through JSON: graphql-jit leaves
 * a field skipped by @skip/@include as an undefined property, which JSON drops).
 */
export async function data(t, engine, query, variables, operationName) {
  const result = await run(engine, query, variables, operationName);
  t.notOk(result.refused, `prepared: ${result.refused?.errors.map((e) => e.message).join('; ') ?? ''}`);
  t.same(result.errors, undefined, 'no errors');
  return JSON.parse(JSON.stringify(result.data));
}
