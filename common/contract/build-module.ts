import type { SequenceFraming } from '../sequence-items.js';
import type { GenRuntime, Generate } from './gen-runtime.js';
import type { TemplateContext, TemplateRuntime } from './template-runtime.js';

/** How a string from a URL, header or form field is turned into the value its schema expects. */
export type ValueKind = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'any';

/**
 * How text from a request (a parameter, a form field) is coerced to its schema: a scalar kind, or
 * the structure around the scalars: object properties (`rest`: additionalProperties), array
 * items, or the alternatives of anyOf/oneOf/type lists, tried in order.
 */
export type ValueShape = ValueKind | { object: Record<string, ValueShape>; rest?: ValueShape } | { array: ValueShape } | { oneOf: ValueShape[] };

/** A form or multipart field's `encoding` entry. */
export interface FieldEncoding {
  contentType?: string;
  style?: string;
  explode?: boolean;
}

export interface ParamMeta {
  /** Lower-case for headers. */
  name: string;
  /** As the description writes it. */
  declaredName: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  kind: ValueKind;
  items: ValueKind;
  style: string;
  explode: boolean;
  /** Objects, unions and arrays of them: the structure to coerce into (absent for scalars and arrays of scalars). */
  shape?: ValueShape;
  /** A query parameter that may be sent empty (`?id=`); absent: it may not, OpenAPI's default. */
  allowEmptyValue?: true;
}

export interface BodyMeta {
  type: string;
  format: string;
  validator: string | null;
  /** Form and multipart bodies: the schema's shape, and the media type's `encoding` by field. */
  shape: ValueShape | null;
  encoding: Record<string, FieldEncoding> | null;
  /** Form and multipart bodies: fields that may not be sent empty (Swagger 2.0 formData without allowEmptyValue). */
  nonEmpty?: string[];
  /** A sequential body (JSON Lines, json-seq, SSE): checked item by item against this validator (null: any item). */
  sequence?: { framing: SequenceFraming; itemValidator: string | null };
}

/** How the items of a sequential media type are framed (docs/streaming.md). */
export type { SequenceFraming };

/** A sequential response: its items, one at a time, each validated against `validator` when responses are. */
export interface SequenceEntry {
  framing: SequenceFraming;
  validator: string | null;
  /** Items documented by the examples (an array example is its members), JSON; empty: generated. */
  examples: unknown[];
  /** One generated item; null: no item schema (the items are sequence numbers). */
  generate: Generate | null;
}

export interface OperationMeta {
  key: string;
  method: string;
  path: string;
  /** Query values the path key demands (`/?Action=CreateQueue`): routed only when the request has them. */
  queryMatch?: Record<string, string>;
  operationId: string | null;
  summary: string | null;
  description: string | null;
  tags: string[];
  params: ParamMeta[];
  paramsValidator: string | null;
  body: { required: boolean; contents: BodyMeta[] } | null;
  /** Every security scheme the operation's requirements name. */
  security: SecuritySchemeMeta[];
  /** Requirement objects as lists of scheme names: any one satisfied is enough, all of its schemes must be; [[]] makes security optional, [] means none. */
  securityRequirements: string[][];
  /** Per requirement object (same order), the scopes it lists per scheme; absent when none lists any. */
  requiredScopes?: Array<Record<string, string[]>>;
}

export interface SecuritySchemeMeta {
  scheme: string;
  /** apiKey | http | oauth2 | openIdConnect | mutualTLS */
  type: string;
  /** http: the scheme, lower-case (basic, bearer …); apiKey: where the key travels (header, query, cookie). */
  detail: string | null;
  /** apiKey: the parameter name. */
  name: string | null;
  /** http bearer: the documented token format (JWT). */
  bearerFormat: string | null;
}

/** An apiKey security scheme of a description: where its key travels. */
export interface ApiKeyMeta {
  scheme: string;
  in: 'header' | 'query' | 'cookie';
  name: string;
}

export interface SpecMeta {
  /** Where the description was read: its URL, or its path from the build folder (with `/`). */
  source: string;
  title: string;
  version: string;
  dialect: string;
  basePath: string;
  /** Missing in builds made before it was emitted. */
  apiKeys?: ApiKeyMeta[];
}

/**
 * A condition on a value (docs/configuration.md, "Conditions"): {equals: <value>}, {matches: "<regex>"},
 * {present: true|false}, a plain value (equals), or a string (in custom routes: the exact value,
 * or `/regex/flags` matching any part).
 */
export type ConditionSpec = string | number | boolean | null | { equals: unknown } | { matches: string } | { present: boolean };

export interface CustomRouteMeta {
  method: string;
  path: string;
  match: { query?: Record<string, ConditionSpec>; headers?: Record<string, ConditionSpec>; body?: unknown; json_path?: Record<string, ConditionSpec>; client_certificate?: Record<string, unknown> };
}

/** What a matched path may dispatch to; `names` label the captured parameter values. */
export interface Candidate {
  kind: 'op' | 'route';
  index: number;
  names: string[];
}

export interface Terminal {
  methods: Record<string, Candidate[]>;
  any: Candidate[] | null;
  allow: string;
}

/** The router: `segments` is the request path split on "/" (segments[0] is ""); `params` receives parameter values in order. */
export type Match = (segments: string[], params: string[]) => Terminal | undefined;

export interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

export type Validate = ((data: unknown) => boolean) & { errors?: AjvError[] | null };

/** Validators by export name; `require` resolves what Ajv's standalone code requires (its helpers, the pattern engine). */
export type CreateValidators = (require: (id: string) => unknown) => Record<string, Validate>;

/** A compiled template: `{{…}}` tokens rendered against the request. */
export type Render = (t: TemplateRuntime, c: TemplateContext) => string;

export interface ExampleEntry {
  name: string;
  valid: boolean;
  body: string;
  template: Render | null;
}

export interface ContentEntry {
  type: string;
  format: string;
  xmlRoot: string;
  validator: string | null;
  /** Index of the example served by default; -1 generates. */
  preferred: number;
  examples: ExampleEntry[];
  generate: Generate | null;
  /** Present for sequential media types (text/event-stream, JSON Lines …): the answer streams these items. */
  sequence?: SequenceEntry;
}

export interface ResponseEntry {
  code: string;
  status: number;
  headers: Array<[string, () => string]>;
  contents: ContentEntry[];
}

export interface OperationResponders {
  defaultResponse: number;
  responses: ResponseEntry[];
}

export interface RouteResponder {
  status: number;
  type: string | null;
  headers: Array<[string, string, Render | null]>;
  body: string;
  template: Render | null;
}

export interface Responders {
  operations: OperationResponders[];
  routes: RouteResponder[];
  /** By the build's `callbacks` entry, then by its `parameters` entry: the generator of a parameter the description gives no value for, else null. */
  callbacks?: Array<Array<(() => unknown) | null>>;
  /** The same for the build's `webhooks`. */
  webhooks?: Array<Array<(() => unknown) | null>>;
}

/** Latency configured for one route (core.routes[].latency). */
export interface RouteLatencyMeta {
  enabled: boolean;
  probability?: number;
  distribution?: 'fixed' | 'normal' | 'exponential' | 'uniform' | 'lognormal';
  mean_ms?: number;
  std_dev_ms?: number;
  /** lognormal: the median and the 99th percentile. */
  p50_ms?: number;
  p99_ms?: number;
  jitter_percent?: number;
}

/** One injected fault kind of core.routes[].fault_injection.fault_types. */
export type RouteFaultTypeMeta =
  | { type: 'http_error'; status_code?: number; message?: string }
  | { type: 'timeout'; duration_ms?: number }
  | { type: 'connection_error'; message?: string };

/** Faults configured for one route (core.routes[].fault_injection). */
export interface RouteFaultsMeta {
  enabled: boolean;
  probability?: number;
  fault_types?: RouteFaultTypeMeta[];
}

/**
 * What mock.yaml configures statically for one route, lowered at build time: the request chain's
 * stages read it through the route, and the live state (admin API) only overlays it.
 */
export interface RouteBehaviourMeta {
  /** Position in the build's route list: operations, then custom routes. */
  route: number;
  /** Where it was configured (`core.routes[2]`), for messages. */
  sources: string[];
  latency?: RouteLatencyMeta;
  fault_injection?: RouteFaultsMeta;
}

/**
 * A request the mock sends after answering a route (docs/callbacks-webhooks.md): an OpenAPI
 * `callbacks` entry of an operation, or a custom route's `callbacks`. `url` and the header values
 * hold runtime expressions (`{$request.body#/callbackUrl}`), evaluated against the exchange.
 */
export interface CallbackMeta {
  /** Position in the build's route list: operations, then custom routes. */
  route: number;
  /** The callback's name (`onData`), or `callbacks[i]` of a custom route. */
  name: string;
  url: string;
  /** Upper-case method. */
  method: string;
  headers: Record<string, string>;
  contentType: string | null;
  /** The body: the description's example, else one sampled from its schema at build time; a custom route's as written. */
  body?: unknown;
  /** The body's strings hold runtime expressions too (custom routes). */
  expandBody?: true;
  /** Wait this long before sending, instead of callbacks.delay_ms (custom routes' delay_ms, an OpenAPI callback's x-mock-delay-ms). */
  delayMs?: number;
  /** An OpenAPI callback's header, query and cookie parameters that are sent; absent when none. */
  parameters?: CallbackParameter[];
}

/** A header, query or cookie parameter of an OpenAPI callback's or webhook's operation that the mock sends. */
export interface CallbackParameter {
  /** As the description writes it. */
  name: string;
  in: 'header' | 'query' | 'cookie';
  /** OpenAPI style (simple, form, spaceDelimited, pipeDelimited, deepObject); `json` for a parameter given by a JSON `content`. */
  style: string;
  explode: boolean;
  /** The description's value (example, examples, the schema's example or default); absent: generated from the schema at each send (Responders.callbacks). */
  value?: unknown;
}

/** An OpenAPI 3.1 `webhooks` entry: sent on demand or on a schedule to a URL given then. */
export interface WebhookMeta {
  name: string;
  method: string;
  contentType: string | null;
  body?: unknown;
  /** Its operation's header, query and cookie parameters, as callbacks send theirs. */
  parameters?: CallbackParameter[];
}

/** Every export of a build's index.js, as compiler/emit writes it and runtime/terminal/openapi loads it. */
export interface BuildModule {
  name: string;
  specs: SpecMeta[];
  operations: OperationMeta[];
  customRoutes: CustomRouteMeta[];
  /** Only the routes mock.yaml configures, in route order. */
  behaviours: RouteBehaviourMeta[];
  /** Present only when a route declares callbacks, so that builds without any are as before. */
  callbacks?: CallbackMeta[];
  /** Present only when the descriptions declare webhooks. */
  webhooks?: WebhookMeta[];
  match: Match;
  createValidators: CreateValidators;
  createResponders(g: GenRuntime): Responders;
}

/** Resolves to `T` when the module type `T` is a BuildModule, and fails type-checking otherwise. */
export type BuildModuleCheck<T extends BuildModule> = T;
