import type { Agent as HttpsAgent } from 'node:https';
import type { Logger } from 'pino';
import type { ApiAuthOptions, TokenIssuer } from './security/index.js';
import type { Answer, BuildRoute, Exchange } from './exchange/index.js';
import type { Description } from './description.js';
import type { LiveState } from './settings/index.js';
import type { RecorderDb } from './recorder/index.js';
import type { CorsOptions } from '../serve-options.js';
import type { FixtureRecorder, FixtureStore } from './fixtures/index.js';
import type { StatefulService } from './stateful/index.js';
import type { EntityService } from './entities/index.js';
import type { ProxyRule } from './proxy/index.js';
import { SLOTS, slotRank, type Slot } from './slots.js';
import type { LiveCheck } from '../contract-diff/index.js';
import type { PluginHost } from '../plugins/index.js';
import type { AiOptions } from './ai/index.js';
import type { CallbackSender } from '../callbacks/index.js';

/** The rest of the chain after a stage. */
export type Next = (ex: Exchange) => Answer | Promise<Answer>;

/**
 * One behaviour of the request path. Plain objects, checked when registered (as find-my-way
 * checks its constraint strategies): a stage that is off for a route costs that route nothing.
 */
export interface Stage {
  readonly name: string;
  readonly slot: Slot;
  /** Whether the stage runs for requests routed to `route` (null: no route matched), as configured now. */
  appliesTo(route: BuildRoute | null): boolean;
  run(ex: Exchange, next: Next): Answer | Promise<Answer>;
  /** Called once the answer is written (recording). */
  afterAnswer?(ex: Exchange, answer: Answer): void;
  /**
   * Adjusts an answer the chain did not produce (a 413 for a body over the limit, a 500 when
   * something threw), for stages that mark every answer of their routes (CORS headers).
   */
  decorate?(ex: Exchange, answer: Answer): Answer;
  /**
   * The chain passes `changed`; the stage calls it whenever what appliesTo answers may have
   * changed. Absent: what it applies to depends on the build only (a new build recompiles).
   */
  watch?(changed: () => void): void;
}

/** What mock.yaml configures for the stages at start. */
export interface StageSettings {
  /** The admin is embedded: every answer is sandboxed. */
  sandboxAnswers?: boolean;
  /** http.cors when enabled. */
  cors?: CorsOptions;
  /** mock.yaml `auth`: pinned credentials per scheme. */
  apiAuth?: ApiAuthOptions;
  /** Largest body held (proxied answers). */
  maxBodyBytes: number;
  /** The agent of https:// upstreams when proxy.ca or proxy.insecure say how to check them; absent: Node's global agent. */
  upstreamAgent?: HttpsAgent;
  /** core.max_connections, or the server's own limit (websocket.max_connections). */
  maxConnections?: number;
  /** The problem a request beyond maxConnections gets when the server's limit is a key of its own that the problem names; chaos's own otherwise. */
  connectionLimitProblem?: 'MOCK_ERR_WS_CONNECTION_LIMIT';
  /** The conditional proxy's rules (proxy.rules, or the SDK), compiled by their stage. */
  proxyRules?: readonly ProxyRule[];
  /** mock.yaml `ai` when enabled: the operations the model answers, compiled by the ai stage. */
  ai?: AiOptions;
  /** The server is a hosted mock's (docs/hosting.md): its plan's request quotas. */
  tenant?: TenantQuota;
}

/** What the tenant-quota stage enforces of a hosted mock's plan; an absent quota is unlimited. */
export interface TenantQuota {
  id: string;
  plan: string;
  requestsPerMinute?: number;
  concurrent?: number;
}

/** What a stage factory may read: the live state the admin API steers, the terminal's build, the server's settings. */
export interface StageContext {
  readonly live: LiveState;
  readonly logger: Logger;
  /** The description's terminal being served now (a restart swaps it); absent on servers of other protocols, whose kind has none of the stages that answer from it. */
  readonly engine?: () => Description;
  /** Connections open now on the server the chain runs for. */
  readonly openConnections: () => number;
  readonly settings: StageSettings;
  /** The mock OAuth 2.0 token endpoint's issuer, when auth.token_endpoint is configured. */
  readonly tokenIssuer?: TokenIssuer;
  /** core.fixtures: the fixtures replay answers from, and the recorder that writes new ones. */
  readonly fixtures?: { store: FixtureStore; recorder: FixtureRecorder };
  /** The recorder database, while mock serve --recorder is on. */
  readonly recorder?: RecorderDb;
  /** core.stateful when enabled: the machines and their resources' states. */
  readonly stateful?: StatefulService;
  /** contract_diff.capture when enabled: what upstreams answer is checked and kept. */
  readonly contractDiff?: LiveCheck;
  /** mock.yaml plugins: the installed plugins and the hooks configured for them. */
  readonly plugins?: PluginHost;
  /** The entities of the scenario in use (vbr_entities), when it has any. */
  readonly entities?: EntityService;
  /** Sends the callbacks routes declare (runtime/callbacks). */
  readonly callbacks?: CallbackSender;
}

/**
 * The kinds of exchange a server runs through its chain, by what the server knows of a request:
 * - description: an HTTP request answered from an API description (the OpenAPI servers), whose
 *   routes are the description's operations and custom routes
 * - http: an HTTP request of a protocol without a description (GraphQL over HTTP)
 * - call: a gRPC call when it starts (an exchange without a body, answered by the gRPC terminal
 *   with what the server then plays message by message), or a request of the gRPC HTTP bridge
 * - upgrade: a WebSocket upgrade request, admitted by the chain before the handshake (an exchange
 *   without a body; a refusal is its HTTP answer, an admission opens the session)
 */
export type ExchangeKind = 'description' | 'http' | 'call' | 'upgrade';

/** What a stage file declares of its stage: its place in the chain, and the kinds of exchange it acts on. */
export interface StageDeclaration {
  /** One stage per slot; the stage is named after it. */
  readonly slot: Slot;
  /** A server's chain holds the stages of its kind (createStages). */
  readonly kinds: readonly ExchangeKind[];
}

/** A stage file's export: its declaration, and its stage for a server, or undefined when the configuration leaves it out for the server's life. */
export interface StageFactory extends StageDeclaration {
  create(context: StageContext): Stage | undefined;
}

/** What a stage file's factory makes: the stage but its name and slot, which its declaration gives. */
export type StageBody = Omit<Stage, 'name' | 'slot'>;

/** A stage file's export, from its declaration and the factory of its stage (run once per server, at start). */
export function defineStage(declaration: StageDeclaration, create: (context: StageContext) => StageBody | undefined): StageFactory {
  const { slot, kinds } = declaration;
  return {
    slot,
    kinds,
    create(context) {
      const body = create(context);
      return body === undefined ? undefined : { name: slot, slot, ...body };
    },
  };
}

/** Throws TypeError naming what is wrong with a stage. */
export function checkStage(stage: Stage): Stage {
  const what = `stage ${JSON.stringify((stage as { name?: unknown }).name)}`;
  if (typeof stage.name !== 'string' || stage.name === '') throw new TypeError('a stage needs a name');
  if (!(SLOTS as readonly string[]).includes(stage.slot)) throw new TypeError(`${what}: slot must be one of ${SLOTS.join(', ')} (got ${JSON.stringify(stage.slot)})`);
  for (const method of ['appliesTo', 'run'] as const) {
    if (typeof stage[method] !== 'function') throw new TypeError(`${what}: ${method} must be a function`);
  }
  for (const hook of ['afterAnswer', 'decorate', 'watch'] as const) {
    if (stage[hook] !== undefined && typeof stage[hook] !== 'function') throw new TypeError(`${what}: ${hook} must be a function when given`);
  }
  return stage;
}

/**
 * Checks each stage, and that no two claim one slot (the slot alone orders them): the stages in
 * their slots' order, whatever order they came in.
 */
export function checkStages(stages: readonly Stage[]): Stage[] {
  const bySlot = new Map<Slot, Stage>();
  for (const stage of stages.map(checkStage)) {
    const taken = bySlot.get(stage.slot);
    if (taken !== undefined)
      throw new TypeError(`stage ${JSON.stringify(stage.name)}: slot ${stage.slot} is taken by stage ${JSON.stringify(taken.name)}; give it a slot of its own in SLOTS (runtime/chain/slots.ts)`);
    bySlot.set(stage.slot, stage);
  }
  return [...bySlot.values()].sort((a, b) => slotRank(a.slot) - slotRank(b.slot));
}

/** `then` for a result that may or may not be a promise: synchronous answers stay synchronous. */
export function afterNext(result: Answer | Promise<Answer>, adjust: (answer: Answer) => Answer | Promise<Answer>): Answer | Promise<Answer> {
  return result instanceof Promise ? result.then(adjust) : adjust(result);
}
