import type { StoreFactory } from '../../store/index.js';
import type { TemplatePlugins } from '../../template/index.js';

/** What mock.yaml's graphql section sets for the mocked schema (src/cli/serve-options.ts fills it). */
export interface GraphqlMockSettings {
  /** --seed: the same query answers the same bytes; undefined: a random seed per start. */
  seed?: number;
  /** The virtual clock (epoch ms): DateTime and other time values count from it. */
  now: () => number;
  /** graphql.overrides: type name → field name → a value; strings with {{…}} are templates over args and parent. */
  overrides: Record<string, Record<string, unknown>>;
  /** graphql.list_length: how many items a list field gets, unless @listLength says otherwise. */
  listLength: { min: number; max: number };
  /** graphql.max_depth: deepest selection accepted (fragments expanded). */
  maxDepth: number;
  /** graphql.max_complexity: most fields a document may select (each field 1, introspection's too). */
  maxComplexity: number;
  /** graphql.max_aliases: most aliased fields a document may select (fragments expanded). */
  maxAliases: number;
  /** graphql.max_tokens: most lexical tokens a document may have (graphql-js stops parsing past it). */
  maxTokens: number;
  /** graphql.max_cache_mb in bytes: prepared documents kept, by an estimate of their size. */
  maxCacheBytes: number;
  /** graphql.max_store_mb in bytes: what mutations stored, by an estimate of its size. */
  maxStoreBytes: number;
  /** graphql.answer_cache_bytes: serialized answers of queries kept for the next identical request; 0 (or absent) keeps none. */
  answerCacheBytes?: number;
  /** The process's stores (the objects mutations write live in graphql-objects); absent: stores of the engine's own in memory. */
  stores?: StoreFactory;
  /** Keeps this schema's objects apart from another's in the same store (the schema file). */
  namespace?: string;
  /** Answers the overrides' {{plugin:…}} tokens (mock.yaml plugins). */
  plugins?: TemplatePlugins;
  /** Where the engine's own stores warn (no `stores` given); absent: nowhere. */
  warn?: (message: string) => void;
  /** graphql.introspection: __schema and __type answer. */
  introspection: boolean;
  /** graphql.subscriptions.interval_ms: time between two fake events of a subscription. */
  subscriptionIntervalMs: number;
  /** graphql.subscriptions.max_events: events before a subscription completes; 0: until the client stops it. */
  subscriptionMaxEvents: number;
}
