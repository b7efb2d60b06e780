import { createHash } from 'node:crypto';
import {
  execute as executeJs,
  getOperationAST,
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  subscribe as subscribeJs,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';
import { PROBLEMS } from '../../../common/errors.js';
import { assembleSchema } from '../../../common/graphql/assemble.js';
import { checkOverrides, EMITS_KEY } from '../../../common/graphql/overrides-check.js';
import { AnswerCache, type AnswerCacheStats } from './answer-cache.js';
import { GRAPHQL_CODES, withCode } from './codes.js';
import { eventStream } from './event-stream.js';
import { MutationEvents } from './mutation-events.js';
import { hashValue } from '../fake-data/index.js';
import { operationCost, type OperationCost } from './limits.js';
import { MockModel } from './mock-model.js';
import type { FieldPlan, MockObject } from './mock-object.js';
import { ownVariables, readsInheritedNames } from './own-variables.js';
import type { GraphqlMockSettings } from './settings.js';
import { MockStore, graphqlObjectsBudget, type StoreStats } from './store.js';
import { MemoryStores, settingsBudget } from '../../store/index.js';

export type OperationType = 'query' | 'mutation' | 'subscription';

/** A document the engine will not run: where it failed, and the errors to answer with. */
export interface Refused {
  ok: false;
  stage: 'parse' | 'validation' | 'operation';
  errors: readonly GraphQLError[];
}

export type ExecutionAnswer = ExecutionResult & { variablesRejected?: boolean };

/** A document parsed, validated, measured and compiled for one operation; shared by every request that sends it. */
export interface Prepared {
  ok: true;
  operationType: OperationType;
  operationName: string | null;
  document: DocumentNode;
  /** A query or mutation; `variablesRejected` when the variables do not coerce (answer 400). Synchronous unless a resolver is async. */
  execute(variables: Record<string, unknown> | undefined | null): ExecutionAnswer | Promise<ExecutionAnswer>;
  /** A subscription: its events, or a result with errors (bad variables, a failing subscribe). */
  subscribe(variables: Record<string, unknown> | undefined | null): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionAnswer>;
}

export interface EngineStats {
  /** Documents prepared and kept, and the estimate of their size that graphql.max_cache_mb bounds. */
  documents: number;
  documentBytes: number;
  /** Documents graphql-jit compiled (on their second run), and those it could not compile, executed by graphql-js instead. */
  compiled: number;
  interpreted: number;
  store: StoreStats;
  /** Answers kept for queries seen before (graphql.answer_cache_bytes). */
  answers: AnswerCacheStats;
  seed: number;
}

/** Queries longer than this are keyed by their SHA-1 rather than kept whole as cache keys. */
const KEY_TEXT_LIMIT = 1024;
const DAY = 86_400_000;

/**
 * What a prepared document is estimated to hold, for graphql.max_cache_mb. Measured with graphql
 * 16 and graphql-jit 0.8 (heap after GC, per document kept): 15-35 KB for a small query; its AST
 * ~300 bytes a token; graphql-jit's compiled code ~0.9-1.4 KB per field selected (fragments
 * expanded: the complexity) and ~6 KB per variable (its coercion is compiled too); text in
 * strings and comments one or two bytes a character; a refusal ~5 KB per error (a GraphQLError
 * keeps its captured stack and its nodes, so the AST). The constants err high, 1.1-2.7× the
 * measurements of documents that compile (the IDE introspection query: 304 KB measured, 424 KB
 * counted; 200 fields of aliases: 302 KB, 524 KB), so the budget holds.
 */
const DOCUMENT_BASE_BYTES = 32 * 1024;
const DOCUMENT_TOKEN_BYTES = 300;
const DOCUMENT_FIELD_BYTES = 1536;
const DOCUMENT_VARIABLE_BYTES = 8 * 1024;
const DOCUMENT_CHAR_BYTES = 2;
const DOCUMENT_ERROR_BYTES = 8 * 1024;
/** graphql-js's message when parse stops at maxTokens. */
const TOKEN_LIMIT = /contains more tha[nt] \d+ tokens/;
/** Variables of a request that sent none: graphql-jit reads them by name, so nothing may be inherited. */
const NO_VARIABLES: Record<string, unknown> = Object.freeze(Object.create(null) as Record<string, unknown>);

/** graphql.overrides that name nothing or do not parse (checkOverrides' lines). */
export class GraphqlOverridesError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'GraphqlOverridesError';
  }
}

/**
 * The GraphQL mock of one schema: the SDL assembled (mock and federation declarations added) and
 * mocked (see mock-model.ts for the data, mutations.ts for what mutations store), documents
 * prepared once and cached, queries and mutations run by graphql-jit from their second run on.
 *
 * graphql-jit's compiling a document (generating and compiling its code) costs more than
 * graphql-js's running it once: a document seen once (a client inlining its values, a one-off
 * query) is run by graphql-js, and compiled when it comes again.
 *
 * Subscriptions run on graphql-js: graphql-jit 0.8 passes the variables where a field's
 * `subscribe` expects its arguments. graphql-js also runs what graphql-jit cannot compile
 * (stats.interpreted counts them).
 */
export class GraphqlEngine {
  readonly schema: GraphQLSchema;
  readonly sourceSdl: string;
  /** The seed in use: settings.seed, or one drawn at start. */
  readonly seed: number;
  private readonly settings: GraphqlMockSettings;
  private readonly store: MockStore;
  private readonly model: MockModel;
  private readonly roots: Partial<Record<OperationType, MockObject>> = {};
  private readonly cache: LRUCache<string, Prepared | Refused>;
  private readonly mutationEvents: MutationEvents;
  private compiled = 0;
  private interpreted = 0;
  /** Off when graphql.answer_cache_bytes is 0. */
  private readonly answers: AnswerCache<object> | undefined;
  /** Mutations run (each may change what queries answer, stored or not). */
  private mutations = 0;
  /** Reads of the clock to the millisecond (override templates: {{now}}, faker.date.*): an answer that made one is not kept. */
  private instantReads = 0;
  /** The state of the last answer lookup, which keepAnswer checks still holds. */
  private lookedUp = { version: -1, day: Number.NaN, instantReads: -1 };

  constructor(sourceSdl: string, settings: GraphqlMockSettings) {
    this.sourceSdl = sourceSdl;
    this.settings = settings;
    this.cache = new LRUCache<string, Prepared | Refused>({ maxSize: settings.maxCacheBytes });
    const stores = settings.stores ?? new MemoryStores(settings.warn);
    this.store = new MockStore(stores.open('graphql-objects', graphqlObjectsBudget(settings.maxStoreBytes)), stores.open('settings', settingsBudget), settings.namespace, (message) =>
      settings.warn?.(message),
    );
    const assembled = assembleSchema(sourceSdl);
    this.schema = assembled.schema;
    const problems = checkOverrides(this.schema, settings.overrides);
    if (problems.length > 0) throw new GraphqlOverridesError(problems);
    this.seed = settings.seed ?? Math.floor(Math.random() * 2 ** 32);
    const instant = (): number => {
      this.instantReads++;
      return settings.now();
    };
    const answerBytes = settings.answerCacheBytes ?? 0;
    this.answers = answerBytes > 0 ? new AnswerCache(answerBytes) : undefined;
    this.model = new MockModel(
      this.schema,
      { seed: this.seed >>> 0, now: settings.now, instant, listLength: settings.listLength, overrides: settings.overrides ?? {}, sourceSdl, plugins: settings.plugins },
      this.store,
      assembled.entities,
    );
    this.mutationEvents = new MutationEvents(this.schema, this.model, emitsOf(settings.overrides));
    if (this.mutationEvents.problems.length > 0) throw new GraphqlOverridesError(this.mutationEvents.problems);
    this.model.subscribeHook = (field, root, args) => this.events(field, root, args);
    this.model.mutatedHook = (mutation, what, target) => this.mutationEvents.publish(mutation, what, target);
    const query = this.schema.getQueryType();
    const mutation = this.schema.getMutationType();
    const subscription = this.schema.getSubscriptionType();
    if (query) this.roots.query = this.model.root(query);
    if (mutation) this.roots.mutation = this.model.root(mutation);
    if (subscription) this.roots.subscription = this.model.root(subscription);
  }

  get stats(): EngineStats {
    const answers = this.answers?.stats() ?? { answers: 0, bytes: 0, max_bytes: 0, hits: 0, misses: 0, invalidations: 0 };
    return { documents: this.cache.size, documentBytes: this.cache.calculatedSize, compiled: this.compiled, interpreted: this.interpreted, store: this.store.stats(), answers, seed: this.seed };
  }

  /** graphql.answer_cache_bytes is not 0: keptAnswer and keepAnswer keep answers. */
  get cachesAnswers(): boolean {
    return this.answers !== undefined;
  }

  /**
   * The answer kept for `key` (a key of the request the caller makes: the same key, the same
   * request), if one was kept in the state answers are computed from now: no write to the object
   * store (by any worker or instance: the store's changes are followed), no mutation and no new
   * day of the clock since. Undefined when none is, or the cache is off.
   */
  keptAnswer<T>(key: string): T | undefined {
    const answers = this.answers;
    if (answers === undefined) return undefined;
    const version = this.store.generation + this.mutations;
    const day = Math.floor(this.settings.now() / DAY);
    this.lookedUp.version = version;
    this.lookedUp.day = day;
    this.lookedUp.instantReads = this.instantReads;
    return answers.get(key, version, day) as T | undefined;
  }

  /**
   * Keeps the answer of a query computed right after keptAnswer(key) missed, `bytes` its size;
   * false, keeping nothing, when the state changed meanwhile, the answer read the clock to the
   * millisecond (it would not answer the same again) or it alone is larger than the budget.
   */
  keepAnswer(key: string, answer: object, bytes: number): boolean {
    const { answers, lookedUp } = this;
    if (answers === undefined || lookedUp.instantReads !== this.instantReads || lookedUp.version !== this.store.generation + this.mutations) return false;
    if (lookedUp.day !== Math.floor(this.settings.now() / DAY)) return false;
    return answers.set(key, answer, bytes);
  }

  /**
   * A root value for executing this.schema with another executor (graphql-js's execute or
   * subscribe, a benchmark's baseline): fields answer from it as they do through prepare().
   */
  rootValue(operationType: OperationType = 'query'): unknown {
    const root = this.roots[operationType];
    this.model.beginAnswer();
    return root === undefined ? undefined : new root.$p.Ctor(root.$h, root.$h2, undefined, undefined, undefined);
  }

  /** Forgets what mutations stored; prepared documents stay. */
  reset(): void {
    this.store.clear();
  }

  /**
   * The document prepared for one operation, from the cache when it was prepared before (refusals
   * are cached too), the cache bounded by an estimate of each document's size. Keys: the text
   * itself when short (a Map hashes it anyway; no digest to pay per request), its SHA-1 when long;
   * digests start with NUL, short texts used as keys never with NUL or SOH, and a named operation's
   * key is SOH, the name's length and the name, then the text: no two requests share a key unless
   * they send the same name and text.
   */
  prepare(query: string, operationName?: string | null): Prepared | Refused {
    const name = operationName ?? null;
    const text = query.length > KEY_TEXT_LIMIT || query.charCodeAt(0) <= 1 ? `\u0000${createHash('sha1').update(query).digest('base64')}` : query;
    const key = name === null ? text : `\u0001${name.length}:${name}${text}`;
    let prepared = this.cache.get(key);
    if (prepared === undefined) {
      const made = this.prepareUncached(query, name);
      prepared = made.result;
      const errors = prepared.ok ? 0 : prepared.errors.length;
      const size = DOCUMENT_BASE_BYTES + made.bytes + DOCUMENT_CHAR_BYTES * (query.length + key.length) + DOCUMENT_ERROR_BYTES * errors;
      // one larger than the whole budget is answered and not kept (lru-cache refuses it)
      this.cache.set(key, prepared, { size });
    }
    return prepared;
  }

  /** The document prepared, and the estimate of its AST and compiled code (none when it did not parse: then only its text is kept, in the error). */
  private prepareUncached(query: string, operationName: string | null): { result: Prepared | Refused; bytes: number } {
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: this.settings.maxTokens });
    } catch (error) {
      const parseError = error instanceof GraphQLError ? error : new GraphQLError(String(error));
      if (TOKEN_LIMIT.test(parseError.message)) {
        const message = PROBLEMS.MOCK_ERR_GRAPHQL_TOKENS.detail({ max: this.settings.maxTokens });
        return { result: { ok: false, stage: 'parse', errors: [new GraphQLError(message, { extensions: { code: GRAPHQL_CODES.TOKENS } })] }, bytes: 0 };
      }
      return { result: { ok: false, stage: 'parse', errors: [withCode(parseError, GRAPHQL_CODES.PARSE_FAILED)] }, bytes: 0 };
    }
    const ast = DOCUMENT_TOKEN_BYTES * (document.tokenCount ?? 0);
    const parsed = this.prepareParsed(document, operationName);
    return 'result' in parsed ? { result: parsed.result, bytes: ast + parsed.compiledBytes } : { result: parsed, bytes: ast };
  }

  /** A refusal, or the document compiled and the estimate of its compiled code. */
  private prepareParsed(document: DocumentNode, operationName: string | null): Refused | { result: Prepared; compiledBytes: number } {
    const invalid = validate(this.schema, document, specifiedRules, { maxErrors: 100 });
    if (invalid.length > 0) return { ok: false, stage: 'validation', errors: invalid.map((e) => withCode(e, GRAPHQL_CODES.VALIDATION_FAILED)) };
    if (!this.settings.introspection) {
      const introspection = validate(this.schema, document, [NoSchemaIntrospectionCustomRule]);
      if (introspection.length > 0) {
        return {
          ok: false,
          stage: 'validation',
          errors: introspection.map(
            (e) =>
              new GraphQLError(`${e.message.replace(/\.$/, '')} (graphql.introspection is off in mock.yaml)`, {
                nodes: e.nodes,
                extensions: { code: GRAPHQL_CODES.INTROSPECTION_DISABLED },
              }),
          ),
        };
      }
    }
    const operation = getOperationAST(document, operationName);
    if (operation === null || operation === undefined) {
      const named = document.definitions.filter((d) => d.kind === 'OperationDefinition').map((d) => (d as OperationDefinitionNode).name?.value ?? '(anonymous)');
      const message =
        operationName === null
          ? `the document defines ${named.length} operations (${named.join(', ')}): send operationName to pick one`
          : `Unknown operation named "${operationName}" (the document defines ${named.join(', ') || 'none'})`;
      return { ok: false, stage: 'operation', errors: [new GraphQLError(message, { extensions: { code: GRAPHQL_CODES.OPERATION_RESOLUTION_FAILURE } })] };
    }
    const cost = operationCost(document, operation);
    const limits = this.checkLimits(cost, operation);
    if (limits !== undefined) return { ok: false, stage: 'validation', errors: [limits] };
    const compiledBytes = DOCUMENT_FIELD_BYTES * cost.complexity + DOCUMENT_VARIABLE_BYTES * (operation.variableDefinitions?.length ?? 0);
    return { result: this.compile(document, operation), compiledBytes };
  }

  private checkLimits(cost: OperationCost, operation: OperationDefinitionNode): GraphQLError | undefined {
    const { maxDepth, maxComplexity, maxAliases } = this.settings;
    const kind = operation.operation;
    if (maxDepth > 0 && cost.depth > maxDepth) {
      return new GraphQLError(PROBLEMS.MOCK_ERR_GRAPHQL_DEPTH.detail({ operation: kind, depth: cost.depth, max: maxDepth }), {
        nodes: operation,
        extensions: { code: GRAPHQL_CODES.DEPTH },
      });
    }
    if (maxComplexity > 0 && cost.complexity > maxComplexity) {
      return new GraphQLError(PROBLEMS.MOCK_ERR_GRAPHQL_COMPLEXITY.detail({ operation: kind, complexity: cost.complexity, max: maxComplexity }), {
        nodes: operation,
        extensions: { code: GRAPHQL_CODES.COMPLEXITY },
      });
    }
    if (cost.aliases > maxAliases) {
      return new GraphQLError(PROBLEMS.MOCK_ERR_GRAPHQL_ALIASES.detail({ operation: kind, aliases: cost.aliases, max: maxAliases }), {
        nodes: operation,
        extensions: { code: GRAPHQL_CODES.ALIASES },
      });
    }
    return undefined;
  }

  private compile(document: DocumentNode, operation: OperationDefinitionNode): Prepared {
    const operationType = operation.operation as OperationType;
    const operationName = operation.name?.value ?? null;
    const rootObject = this.roots[operationType];
    const model = this.model;
    // a root per request: values kept by the getters (see mock-model.ts) never outlive a request
    const root = (): MockObject | undefined => (rootObject === undefined ? undefined : new rootObject.$p.Ctor(rootObject.$h, rootObject.$h2, undefined, undefined, undefined));
    const schema = this.schema;
    const base = { ok: true as const, operationType, operationName, document };
    const own = readsInheritedNames(schema, operation);
    const variablesOf = (variables: Record<string, unknown> | undefined | null): Record<string, unknown> =>
      variables === undefined || variables === null ? NO_VARIABLES : own ? ownVariables(variables) : variables;
    if (operationType === 'subscription') {
      return {
        ...base,
        execute: () => ({
          errors: [new GraphQLError('a subscription is answered over a WebSocket (graphql-transport-ws), not by a single request', { extensions: { code: GRAPHQL_CODES.BAD_USER_INPUT } })],
        }),
        subscribe: async (variables) => {
          const result = await subscribeJs({ schema, document, operationName, rootValue: root(), variableValues: variablesOf(variables) });
          if (Symbol.asyncIterator in result) return result as AsyncIterableIterator<ExecutionResult>;
          return finish(result as ExecutionResult);
        },
      };
    }
    const interpret = (variables: Record<string, unknown>): ExecutionResult | Promise<ExecutionResult> =>
      executeJs({ schema, document, operationName, rootValue: root(), variableValues: variables });
    const jit = (): typeof interpret => {
      const compiled = compileQuery(schema, document, operationName ?? undefined);
      if (!isCompiledQuery(compiled)) {
        this.interpreted++;
        return interpret;
      }
      this.compiled++;
      const query = (compiled as CompiledQuery).query;
      return (variables) => query(root(), undefined, variables);
    };
    let runs = 0;
    let run = interpret;
    const mutation = operationType === 'mutation';
    return {
      ...base,
      execute: (variables) => {
        model.beginAnswer();
        if (mutation) this.mutations++;
        if (++runs === 2) run = jit();
        let result;
        try {
          result = run(variablesOf(variables));
        } catch (error) {
          // graphql-jit reads fields without resolvers as properties, outside its error handling
          return { data: null, errors: [error instanceof GraphQLError ? error : new GraphQLError(String(error), { extensions: { code: GRAPHQL_CODES.INTERNAL_SERVER_ERROR } })] };
        }
        if (!isPromise(result)) return finish(result);
        return result.then((done) => {
          // answers computed while it ran may have read what it was writing
          if (mutation) this.mutations++;
          return finish(done);
        });
      },
      subscribe: async () => ({ errors: [new GraphQLError(`this is a ${operationType}, not a subscription`, { extensions: { code: GRAPHQL_CODES.BAD_USER_INPUT } })] }),
    };
  }

  /**
   * A subscription field's source: its n-th event is a Subscription root whose lanes include n;
   * between them, what the mutations it follows wrote (mutation-events.ts), as the field's value.
   */
  private events(field: FieldPlan, root: MockObject, args: Record<string, unknown>): AsyncIterableIterator<MockObject> {
    const argsHash = field.field.args.length > 0 ? hashValue(0, args) : 0;
    let written = 0;
    const stream = eventStream(
      (n) => {
        // the event's answer is computed right after it is produced
        this.model.beginAnswer();
        return this.model.event(root, field, argsHash, n);
      },
      this.settings.subscriptionIntervalMs,
      this.settings.subscriptionMaxEvents,
    );
    stream.onEnd = this.mutationEvents.follow(field.name, (payload) => {
      this.model.beginAnswer();
      const event = this.model.event(root, field, argsHash, -1 - written++);
      event.$s = { [field.name]: payload };
      stream.push(event);
    });
    return stream;
  }
}

/** Codes on every error; a result without data is a variables failure (graphql-js and graphql-jit both answer so). */
function finish(result: ExecutionResult): ExecutionAnswer {
  const errors = result.errors;
  if (errors === undefined || errors.length === 0) return result;
  if (!('data' in result)) return { errors: errors.map((e) => withCode(e, GRAPHQL_CODES.BAD_USER_INPUT)), variablesRejected: true };
  return { ...result, errors: errors.map((e) => withCode(e, GRAPHQL_CODES.INTERNAL_SERVER_ERROR, true)) };
}

/** graphql.overrides.$emits, checked with the rest of the overrides before the engine is made. */
function emitsOf(overrides: Record<string, Record<string, unknown>> | undefined): Record<string, unknown> {
  return overrides?.[EMITS_KEY] ?? {};
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown })?.then === 'function';
}
