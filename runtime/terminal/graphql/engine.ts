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
import { checkOverrides } from '../../../common/graphql/overrides-check.js';
import { GRAPHQL_CODES, withCode } from './codes.js';
import { eventStream } from './event-stream.js';
import { hashValue } from './hash.js';
import { operationCost } from './limits.js';
import { MockModel } from './mock-model.js';
import type { FieldPlan, MockObject } from './mock-object.js';
import type { GraphqlMockSettings } from './settings.js';
import { MockStore, type StoreStats } from './store.js';

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
  /** Documents prepared and kept (at most DOCUMENT_CACHE_SIZE anonymous ones and as many named). */
  documents: number;
  /** Documents graphql-jit could not compile, executed by graphql-js instead. */
  interpreted: number;
  store: StoreStats;
  seed: number;
}

const DOCUMENT_CACHE_SIZE = 1000;
/** Queries longer than this are keyed by their SHA-1 rather than kept whole as cache keys. */
const KEY_TEXT_LIMIT = 1024;

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
 * prepared once and cached, queries and mutations run by graphql-jit.
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
  private readonly store = new MockStore();
  private readonly model: MockModel;
  private readonly roots: Partial<Record<OperationType, MockObject>> = {};
  private readonly cache = new LRUCache<string, Prepared | Refused>({ max: DOCUMENT_CACHE_SIZE });
  private readonly namedCache = new LRUCache<string, Prepared | Refused>({ max: DOCUMENT_CACHE_SIZE });
  private interpreted = 0;

  constructor(sourceSdl: string, settings: GraphqlMockSettings) {
    this.sourceSdl = sourceSdl;
    this.settings = settings;
    const assembled = assembleSchema(sourceSdl);
    this.schema = assembled.schema;
    const problems = checkOverrides(this.schema, settings.overrides);
    if (problems.length > 0) throw new GraphqlOverridesError(problems);
    this.seed = settings.seed ?? Math.floor(Math.random() * 2 ** 32);
    this.model = new MockModel(
      this.schema,
      { seed: this.seed >>> 0, now: settings.now, listLength: settings.listLength, overrides: settings.overrides ?? {}, sourceSdl },
      this.store,
      assembled.entities,
    );
    this.model.subscribeHook = (field, root, args) => this.events(field, root, args);
    const query = this.schema.getQueryType();
    const mutation = this.schema.getMutationType();
    const subscription = this.schema.getSubscriptionType();
    if (query) this.roots.query = this.model.root(query);
    if (mutation) this.roots.mutation = this.model.root(mutation);
    if (subscription) this.roots.subscription = this.model.root(subscription);
  }

  get stats(): EngineStats {
    return { documents: this.cache.size + this.namedCache.size, interpreted: this.interpreted, store: this.store.stats(), seed: this.seed };
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
   * are cached too). Keys: the text itself when short (a Map hashes it anyway; no digest to pay
   * per request), its SHA-1 when long, so 1,000 kept documents stay small; a named operation is
   * keyed with its name, which cannot contain the NUL separating them.
   */
  prepare(query: string, operationName?: string | null): Prepared | Refused {
    const name = operationName ?? null;
    // digests start with NUL, which short texts used as keys never do
    const text = query.length > KEY_TEXT_LIMIT || query.charCodeAt(0) === 0 ? `\u0000${createHash('sha1').update(query).digest('base64')}` : query;
    const key = name === null ? text : `${name}\u0000${text}`;
    const cache = name === null ? this.cache : this.namedCache;
    let prepared = cache.get(key);
    if (prepared === undefined) {
      prepared = this.prepareUncached(query, name);
      cache.set(key, prepared);
    }
    return prepared;
  }

  private prepareUncached(query: string, operationName: string | null): Prepared | Refused {
    let document: DocumentNode;
    try {
      document = parse(query);
    } catch (error) {
      const parseError = error instanceof GraphQLError ? error : new GraphQLError(String(error));
      return { ok: false, stage: 'parse', errors: [withCode(parseError, GRAPHQL_CODES.PARSE_FAILED)] };
    }
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
    const limits = this.checkLimits(document, operation);
    if (limits !== undefined) return { ok: false, stage: 'validation', errors: [limits] };
    return this.compile(document, operation);
  }

  private checkLimits(document: DocumentNode, operation: OperationDefinitionNode): GraphQLError | undefined {
    const { maxDepth, maxComplexity } = this.settings;
    const cost = operationCost(document, operation);
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
    if (operationType === 'subscription') {
      return {
        ...base,
        execute: () => ({
          errors: [new GraphQLError('a subscription is answered over a WebSocket (graphql-transport-ws), not by a single request', { extensions: { code: GRAPHQL_CODES.BAD_USER_INPUT } })],
        }),
        subscribe: async (variables) => {
          const result = await subscribeJs({ schema, document, operationName, rootValue: root(), variableValues: variables ?? {} });
          if (Symbol.asyncIterator in result) return result as AsyncIterableIterator<ExecutionResult>;
          return finish(result as ExecutionResult);
        },
      };
    }
    const compiled = compileQuery(schema, document, operationName ?? undefined);
    let run: (variables: Record<string, unknown>) => ExecutionResult | Promise<ExecutionResult>;
    if (isCompiledQuery(compiled)) {
      const query = (compiled as CompiledQuery).query;
      run = (variables) => query(root(), undefined, variables);
    } else {
      this.interpreted++;
      run = (variables) => executeJs({ schema, document, operationName, rootValue: root(), variableValues: variables });
    }
    return {
      ...base,
      execute: (variables) => {
        model.beginAnswer();
        let result;
        try {
          result = run(variables ?? {});
        } catch (error) {
          // graphql-jit reads fields without resolvers as properties, outside its error handling
          return { data: null, errors: [error instanceof GraphQLError ? error : new GraphQLError(String(error), { extensions: { code: GRAPHQL_CODES.INTERNAL_SERVER_ERROR } })] };
        }
        return isPromise(result) ? result.then(finish) : finish(result);
      },
      subscribe: async () => ({ errors: [new GraphQLError(`this is a ${operationType}, not a subscription`, { extensions: { code: GRAPHQL_CODES.BAD_USER_INPUT } })] }),
    };
  }

  /** A subscription field's source: its n-th event is a Subscription root whose lanes include n. */
  private events(field: FieldPlan, root: MockObject, args: Record<string, unknown>): AsyncIterableIterator<MockObject> {
    const argsHash = field.field.args.length > 0 ? hashValue(0, args) : 0;
    return eventStream(
      (n) => {
        // the event's answer is computed right after it is produced
        this.model.beginAnswer();
        return this.model.event(root, field, argsHash, n);
      },
      this.settings.subscriptionIntervalMs,
      this.settings.subscriptionMaxEvents,
    );
  }
}

/** Codes on every error; a result without data is a variables failure (graphql-js and graphql-jit both answer so). */
function finish(result: ExecutionResult): ExecutionAnswer {
  const errors = result.errors;
  if (errors === undefined || errors.length === 0) return result;
  if (!('data' in result)) return { errors: errors.map((e) => withCode(e, GRAPHQL_CODES.BAD_USER_INPUT)), variablesRejected: true };
  return { ...result, errors: errors.map((e) => withCode(e, GRAPHQL_CODES.INTERNAL_SERVER_ERROR, true)) };
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown })?.then === 'function';
}
