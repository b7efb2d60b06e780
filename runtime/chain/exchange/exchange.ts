// the global `performance` is a getter, read on every call: the module binding is not
import { performance } from 'node:perf_hooks';
import type { RouteBehaviourMeta } from '../../../common/contract/index.js';
import type { WebSocketSessionLog } from '../../../common/request-log.js';
import type { Answer } from './answer.js';
import { isMultipart, readMultipart, type FormParts } from './multipart.js';
import { parseQuery } from './query.js';
import type { Validated } from './validated.js';
import { readableAddress } from './address.js';
import type { ClientCertificate } from './client-certificate.js';

/** A route of the build (an operation or a custom route), or of a runtime mock: statistics key on it. */
export interface RouteRef {
  /** `GET /v1/pets/{petId}` */
  key: string;
  method: string;
  /** The path pattern. */
  path: string;
  /** Tells apart routes that share a key (an operation, mock.yaml routes with conditions, runtime mocks): each is counted on its own as well. */
  id?: string;
}

/** A route of the build being served. */
export interface BuildRoute extends RouteRef {
  /** Position in the build's route list (operations, then custom routes): per-route tables index by it. */
  index: number;
  /** Tags of the operation (latency tag overrides); none for custom routes. */
  tags: string[];
  /** What mock.yaml configures for it (core.routes), lowered by the compiler; null: nothing. */
  behaviour: RouteBehaviourMeta | null;
}

/** Where the router sent a request. */
export type RouteMatch =
  | { kind: 'operation'; index: number }
  | { kind: 'custom'; index: number }
  /** No route has this path. */
  | { kind: 'none' }
  /** The path exists, not for this method (405, or 204 for OPTIONS). */
  | { kind: 'method'; allow: string };

export interface ExchangeInit {
  method: string;
  /** Path without the query string, as received (percent-encoded). */
  path: string;
  /** Raw query string without `?`. */
  rawQuery?: string;
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body?: Buffer;
  /** uWS's raw address text or a readable address. */
  client?: ArrayBuffer | string;
  /** performance.now() when the request arrived. */
  startedAt?: number;
  /** The client's TLS certificate; null: asked for and not shown; absent: not asked for (plain HTTP, or client_auth none). */
  clientCertificate?: ClientCertificate | null;
}

/** The chain an exchange ran through (runtime/chain compiles one per route): its hooks after the answer. */
export interface ChainRun {
  /** After the answer is written: the afterAnswer hooks of the stages it ran through. */
  written(ex: Exchange, answer: Answer): void;
  /** An answer made outside the chain (413, 500) as those stages would leave it (CORS, sandbox). */
  decorate(ex: Exchange, answer: Answer): Answer;
}

/**
 * What stages learn about a request and later stages or hooks read back (a bulkhead's release).
 * A stage that keeps something declares its key here, so every reader agrees on its type.
 */
export interface ExchangeLocals {
  /** Gives the request's bulkhead place back once its answer is written. */
  releaseBulkhead?: () => void;
  /** Gives the hosted mock's place (max_concurrent_executions) back once its answer is written. */
  releaseTenantSlot?: () => void;
  /** The id of the fixture that answered (replay): the recording of it is not recorded again. */
  replayed?: string;
  /** The upstream answered (the proxy), not the mock: recordings say where an answer came from. */
  upstream?: boolean;
  /** The GraphQL operation the request ran: the request log and the per-operation metrics name it. */
  graphql?: GraphqlOperation;
  /** The gRPC call the exchange stands for: how it ended and what went each way. */
  grpc?: GrpcCall;
  /** The WebSocket session an upgrade opened, once it ended: its part of the request log, and the bytes of the messages the mock sent. */
  websocket?: { log: WebSocketSessionLog; bytesOut: number };
}

export interface GrpcCall {
  /** The status name it ended with: OK, NOT_FOUND, … */
  status: string;
  /** The status's number. */
  code: number;
  messages_in: number;
  messages_out: number;
  /** A call answered from a recording: its file below core.fixtures.dir (grpc/pkg.Service/Method/call-0001.jsonl). */
  fixture?: string;
}

export interface GraphqlOperation {
  name: string | null;
  type: 'query' | 'mutation' | 'subscription';
  /** The answer carries GraphQL errors. */
  errors?: boolean;
}

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NO_MATCH: RouteMatch = Object.freeze({ kind: 'none' });
const EMPTY_QUERY: ReadonlyMap<string, string[]> = new Map();
const latin1 = new TextDecoder('latin1');

/**
 * One request and what the chain learns about it, whatever the protocol: the router fills the
 * route and its parameters once; the query and the JSON body are parsed on first use, at most once.
 */
export class Exchange {
  readonly protocol = 'http';
  readonly method: string;
  readonly path: string;
  readonly rawQuery: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer | undefined;
  readonly startedAt: number;
  /** The route the router chose; null when none matched. */
  route: BuildRoute | null = null;
  /** Its path parameters, decoded. */
  params: Record<string, string> = NO_PARAMS;
  match: RouteMatch = NO_MATCH;
  /** What statistics count the request under when not its route (a runtime mock that answered it). */
  answeredBy: RouteRef | null = null;
  /** Set by the router for requests its terminal validates (the operations of a description). */
  validator: ((ex: Exchange) => Validated) | null = null;
  /**
   * performance.now() when the answer was written, for an exchange that goes on after it (a
   * WebSocket session after its 101): statistics time the answer, the request log the whole exchange.
   */
  answeredAt: number | undefined = undefined;
  /** The compiled chain the request entered; null until it did. */
  chain: ChainRun | null = null;
  /** The client's address as the server library gave it (uWS: raw text, decoded when first read). */
  client: ArrayBuffer | string;
  /** The client's TLS certificate (ExchangeInit.clientCertificate). */
  readonly clientCertificate: ClientCertificate | null | undefined;
  /** The parts of a multipart body, read by readParts() before the chain runs, or the validation error that refuses it. */
  formParts: FormParts | string | undefined = undefined;
  private ownLocals: ExchangeLocals | undefined;
  private checked: Validated | undefined;
  private parsedQuery: Map<string, string[]> | undefined;
  private parsedJson: { value: unknown } | undefined;

  constructor(init: ExchangeInit) {
    this.method = init.method;
    this.path = init.path;
    this.rawQuery = init.rawQuery ?? '';
    this.headers = init.headers;
    this.body = init.body;
    this.client = init.client ?? '';
    this.clientCertificate = init.clientCertificate;
    this.startedAt = init.startedAt ?? performance.now();
  }

  /** Made on first use: most requests meet no stage that keeps anything. */
  get locals(): ExchangeLocals {
    return (this.ownLocals ??= {});
  }

  /** The locals when something was kept, without making them (hooks after the answer). */
  get keptLocals(): ExchangeLocals | undefined {
    return this.ownLocals;
  }

  /**
   * Typed parameters and the parsed body, with what is wrong with them: validated once, for the
   * stages and the terminal alike. Routes without validation get their path parameters and the
   * JSON body.
   */
  validated(): Validated {
    if (this.checked === undefined) this.checked = this.validator === null ? { params: { path: this.params }, body: this.json, issues: [] } : this.validator(this);
    return this.checked;
  }

  /**
   * Reads a multipart/form-data body's parts into formParts before the chain runs: the parser
   * streams (asynchronous), validation does not. Undefined, at no cost, for any other request.
   */
  readParts(): Promise<void> | undefined {
    const type = this.headers['content-type'];
    if (this.body === undefined || this.body.length === 0 || !isMultipart(type)) return undefined;
    return readMultipart(this.body, type).then((parts) => {
      this.formParts = parts;
    });
  }

  /** Name → values; `+` is a space. */
  get query(): ReadonlyMap<string, string[]> {
    if (this.rawQuery === '') return EMPTY_QUERY;
    return (this.parsedQuery ??= parseQuery(this.rawQuery));
  }

  /** The body parsed as JSON; undefined when absent or not JSON. */
  get json(): unknown {
    if (this.parsedJson === undefined) this.parsedJson = { value: parseJson(this.body) };
    return this.parsedJson.value;
  }

  get clientAddress(): string {
    if (typeof this.client !== 'string') this.client = readableAddress(latin1.decode(this.client));
    return this.client;
  }

  /** What the request counts under in statistics. */
  get countedAs(): RouteRef | null {
    return this.answeredBy ?? this.route;
  }
}

function parseJson(raw: Buffer | undefined): unknown {
  if (raw === undefined || raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}
