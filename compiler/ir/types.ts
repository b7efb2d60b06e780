/**
 * The intermediate representation: a plain, JSON-serialisable picture of everything the
 * emitters need. Loaders lower OpenAPI 3.0/3.1 and Swagger 2.0 (+ mock.yaml) into it.
 *
 * Schema conventions (see compiler/ir/normalize-schema.ts):
 * - JSON Schema draft-07 vocabulary; OpenAPI `nullable` is folded into `type` arrays
 *   (or `anyOf [.., {type: 'null'}]` when there is no `type`), boolean
 *   `exclusiveMinimum/Maximum` become numeric ones.
 * - Every `$ref` is `#/definitions/<Name>` and points into `Ir.definitions`.
 * - OpenAPI annotations stay as they are: `readOnly`, `writeOnly`, `format`, `example`,
 *   `default`, `discriminator` ({propertyName, mapping: value -> '#/definitions/<Name>'}), `xml`.
 */
import type { CallbackMeta, CallbackParameter, ConditionSpec, RouteBehaviourMeta, SequenceFraming, WebhookMeta } from '../../common/contract/index.js';

export type JsonSchema = { [key: string]: unknown };

export interface Ir {
  /** Name of the build: the folder under generated/. */
  name: string;
  specs: IrSpec[];
  definitions: Record<string, JsonSchema>;
  operations: IrOperation[];
  /** Custom routes from mock.yaml (`http.routes`), highest priority first. */
  routes: IrCustomRoute[];
  /** What mock.yaml configures per route (`core.routes`), by route position, only where it does. */
  behaviours: IrRouteBehaviour[];
  /** Requests sent after answering a route (operations' `callbacks`, custom routes' `callbacks`), by route position. */
  callbacks: Array<IrCallback & { route: number }>;
  /** The descriptions' OpenAPI 3.1 `webhooks`. */
  webhooks: IrWebhook[];
  /** What lowering left out of the descriptions, and why (build warnings). */
  warnings: string[];
}

/** A request sent after a route answers, before the build gives its route a position. */
export type IrCallback = Omit<CallbackMeta, 'route' | 'parameters'> & { parameters?: IrCallbackParameter[] };
/** A callback parameter as the build knows it: the schema of one the description gives no value for, which the emitted generator makes values from. */
export type IrCallbackParameter = CallbackParameter & { schema?: JsonSchema };
export type IrWebhook = Omit<WebhookMeta, 'parameters'> & { parameters?: IrCallbackParameter[] };

/** Static per-route behaviour, as the build exports it (the contract's shape is the IR's). */
export type IrRouteBehaviour = RouteBehaviourMeta;

export interface IrSpec {
  /** The --spec value as given (path relative to cwd, or URL). */
  source: string;
  title: string;
  version: string;
  /** 'openapi-3.0' | 'openapi-3.1' | 'openapi-3.2' | 'swagger-2.0' */
  dialect: string;
  /** Path prefix the description is mounted under ('' for root). */
  basePath: string;
  /** The apiKey security schemes it declares. */
  apiKeys: IrApiKey[];
}

export interface IrApiKey {
  scheme: string;
  in: 'header' | 'query' | 'cookie';
  /** As declared (header names in any case). */
  name: string;
}

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export interface IrParameter {
  /** Header names are lower-case, as requests carry them. */
  name: string;
  /** The name as the description writes it. */
  declaredName: string;
  in: ParameterLocation;
  required: boolean;
  schema: JsonSchema;
  /** OpenAPI serialisation style: form, simple, label, matrix, spaceDelimited, pipeDelimited, deepObject; `json` for a parameter given by a JSON `content`. */
  style: string;
  explode: boolean;
  /** A query parameter that may be sent empty (`allowEmptyValue: true`); absent: it may not. */
  allowEmptyValue?: true;
}

export interface IrContent {
  /** Media type as written, e.g. application/json, text/plain, application/x-www-form-urlencoded, * / *. */
  mediaType: string;
  schema?: JsonSchema;
  /** Named examples in description order; the first is the default. Values are raw JSON values (or strings). */
  examples: IrExample[];
  /** Request bodies (form, multipart): the media type's `encoding` by field, when it has one. */
  encoding?: Record<string, { contentType?: string; style?: string; explode?: boolean }>;
  /** Request bodies (form, multipart): fields that may not be sent empty (Swagger 2.0 formData without allowEmptyValue). */
  nonEmptyFields?: string[];
  /** A sequential media type (docs/streaming.md): how its items are framed, and the schema of one item. */
  sequence?: IrSequence;
}


export interface IrSequence {
  framing: SequenceFraming;
  /** `itemSchema` (3.2), else what the ordinary `schema` says of one item (its `items` when it is an array); absent: any item. */
  itemSchema?: JsonSchema;
  /** Where the item schema came from: with `schema`, an array example is one item, not a list of them. */
  from: 'itemSchema' | 'schema.items' | 'schema';
}

export interface IrExample {
  name: string;
  value: unknown;
}

export interface IrRequestBody {
  required: boolean;
  contents: IrContent[];
}

export interface IrHeader {
  name: string;
  required: boolean;
  schema?: JsonSchema;
  example?: unknown;
}

export interface IrResponse {
  /** '200', '404', '2XX' or 'default' as written in the description. */
  status: string;
  description: string;
  headers: IrHeader[];
  contents: IrContent[];
}

export interface IrOperation {
  /** Index in Ir.operations; stable for identical inputs. */
  index: number;
  /** Unique, stable key: `METHOD /mounted/path` (with `?query` when the path key carries one). */
  key: string;
  operationId?: string;
  summary?: string;
  description?: string;
  tags: string[];
  /** Upper-case HTTP method. */
  method: string;
  /** Mounted path template, e.g. /v1/pets/{petId}. */
  path: string;
  /** Path as written in its description (without the mount prefix). */
  specPath: string;
  /**
   * A query the path key carries (`/?Action=CreateQueue`, or `/#Action=CreateQueue` as converted
   * AWS descriptions write it): the operation is routed only for requests that have it.
   */
  queryMatch?: Record<string, string>;
  /** Index into Ir.specs. */
  spec: number;
  parameters: IrParameter[];
  requestBody?: IrRequestBody;
  responses: IrResponse[];
  /** Security requirement scheme names (empty: none). */
  /** Every scheme the requirements name, once. */
  security: IrSecurity[];
  /** Requirement objects by scheme name: OR between them, AND within one; [[]] optional, [] none. */
  securityRequirements: string[][];
  /** The scopes each requirement object lists per scheme (same order), where it lists any. */
  requiredScopes: Array<Record<string, string[]>>;
  /** Its `callbacks`, one entry per request to send; absent when none. */
  callbacks?: IrCallback[];
}

export interface IrSecurity {
  scheme: string;
  /** apiKey | http | oauth2 | openIdConnect */
  type: string;
  /** http scheme (basic, bearer) lower-cased, or apiKey location. */
  detail?: string;
  /** apiKey parameter name. */
  name?: string;
  /** http bearer: the token format it documents (JWT). */
  bearerFormat?: string;
}

/** A route defined in mock.yaml; overrides description operations on the same path. */
export interface IrCustomRoute {
  index: number;
  /** Upper-case method or '*' for any. */
  method: string;
  /** Path template; `{name}` segments are parameters, a trailing `/**` matches the rest. */
  path: string;
  match: {
    /** Conditions (docs/configuration.md, "Conditions"); strings are exact values or `/regex/flags`. */
    query?: Record<string, ConditionSpec>;
    headers?: Record<string, ConditionSpec>;
    /** Partial deep match against the JSON request body. */
    body?: unknown;
    /** JSONPaths into the JSON request body, each with its condition. */
    json_path?: Record<string, ConditionSpec>;
    /** subject, san, fingerprint of the client's TLS certificate, each with its condition. */
    client_certificate?: Record<string, unknown>;
  };
  response: {
    status: number;
    headers: Record<string, string>;
    /** Body as written (JSON value or string); serialised at build time. */
    body?: unknown;
    /** Explicit content type; default application/json for JSON values, text/plain for strings. */
    contentType?: string;
  };
  /** Requests sent after the route answers; absent when none. */
  callbacks?: IrCallback[];
}
