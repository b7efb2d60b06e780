/**
 * The one catalogue of errors users see, with codes that are never reused once retired:
 *
 * - PROBLEMS: every problem answer (RFC 9457, `application/problem+json`) the servers write, with
 *   its HTTP status, its gRPC status code, a title and a template for its detail; the body carries
 *   the code. Built by runtime/chain/exchange/problem.ts. One exception in shape, not in source: a 401 of the mocked API's
 *   security is the spec's `{"error": title, "message": detail}` (plus the code), as JSON; a 429 of
 *   the rate limiter is the spec's plain text `Rate limit exceeded`, its code in X-Mock-Error-Code.
 * - CLI_ERRORS: what the CLI and server start-up stop with (one line naming the input and the fix,
 *   exit 1), thrown as MockError. Library errors are mapped to these at the boundary.
 */

import { GRPC, type GrpcStatus } from './grpc-status.js';

interface ProblemEntry<P> {
  /** The HTTP status. */
  status: number;
  /** The gRPC status code the gRPC server answers with; GraphQL answers carry the catalogue code in errors[].extensions.code. */
  grpc: GrpcStatus;
  title: string;
  detail(params: P): string;
}

const entry = <P>(status: number, grpc: GrpcStatus, title: string, detail: (params: P) => string): ProblemEntry<P> => ({ status, grpc, title, detail });

interface Operation {
  method: string;
  path: string;
}

export const PROBLEMS = {
  MOCK_ERR_ROUTE_NOT_FOUND: entry<{ method: string; path: string; mounts: string[] }>(
    404,
    GRPC.UNIMPLEMENTED,
    'Not Found',
    ({ method, path, mounts }) => `no operation matches ${method} ${path}${mounts.length > 0 ? ` (descriptions are mounted under ${mounts.join(', ')})` : ''}`,
  ),
  MOCK_ERR_METHOD_NOT_ALLOWED: entry<{ method: string; path: string; allow: string }>(
    405,
    GRPC.UNIMPLEMENTED,
    'Method Not Allowed',
    ({ method, path, allow }) => `${path} does not accept ${method} (allowed: ${allow})`,
  ),
  MOCK_ERR_NOT_ACCEPTABLE: entry<Operation & { types: string[]; accept: string | undefined }>(
    406,
    GRPC.INVALID_ARGUMENT,
    'Not Acceptable',
    ({ method, path, types, accept }) => `${method} ${path} answers ${types.join(', ')}, none of which matches Accept: ${accept}`,
  ),
  /** The spec's body shape {error, message, code}, application/json, with WWW-Authenticate challenges. */
  MOCK_ERR_UNAUTHORIZED: entry<Operation & { expected: string; refused?: string }>(
    401,
    GRPC.UNAUTHENTICATED,
    'Unauthorized',
    ({ method, path, expected, refused }) => `${method} ${path} needs ${expected}${refused === undefined ? '' : `: ${refused}`}`,
  ),
  /** A token accepted but granting too few scopes (RFC 6750 insufficient_scope): the 401's shape, status 403. */
  MOCK_ERR_INSUFFICIENT_SCOPE: entry<Operation & { refused: string }>(403, GRPC.PERMISSION_DENIED, 'Forbidden', ({ method, path, refused }) => `${method} ${path}: ${refused}`),
  /** A client certificate shown for a mutualTLS scheme that no authority of server.tls.ca vouches for: the 401's shape, status 403. */
  MOCK_ERR_CLIENT_CERTIFICATE_REFUSED: entry<Operation & { refused: string }>(403, GRPC.PERMISSION_DENIED, 'Forbidden', ({ method, path, refused }) => `${method} ${path}: ${refused}`),
  /**
   * The mock OAuth 2.0 token endpoint (mock.yaml auth.token_endpoint) answers errors in RFC 6749's
   * shape, `{"error": <title>, "error_description": …}` (plus the code), as application/json.
   */
  MOCK_ERR_OAUTH_INVALID_REQUEST: entry<{ detail: string }>(400, GRPC.INVALID_ARGUMENT, 'invalid_request', ({ detail }) => detail),
  MOCK_ERR_OAUTH_INVALID_CLIENT: entry<{ clientId: string | undefined }>(401, GRPC.UNAUTHENTICATED, 'invalid_client', ({ clientId }) =>
    clientId === undefined ? 'client authentication is missing: send client_id and client_secret' : `unknown client ${JSON.stringify(clientId)} or wrong client_secret`,
  ),
  MOCK_ERR_OAUTH_UNSUPPORTED_GRANT_TYPE: entry<{ grant: string }>(
    400,
    GRPC.INVALID_ARGUMENT,
    'unsupported_grant_type',
    ({ grant }) => `grant_type ${JSON.stringify(grant)} is not supported: the mock token endpoint grants client_credentials`,
  ),
  MOCK_ERR_OAUTH_INVALID_SCOPE: entry<{ scope: string; allowed: string[] }>(
    400,
    GRPC.INVALID_ARGUMENT,
    'invalid_scope',
    ({ scope, allowed }) => `scope ${JSON.stringify(scope)} is not granted to this client (allowed: ${allowed.join(' ')})`,
  ),
  MOCK_ERR_CORS_ORIGIN: entry<{ origin: string }>(
    403,
    GRPC.PERMISSION_DENIED,
    'Forbidden',
    ({ origin }) => `CORS preflight from origin ${origin} refused: add it to http.cors.allowed_origins in mock.yaml`,
  ),
  /** The body's length cannot be known for sure (RFC 9112 6.3): answered, then the connection is closed. */
  MOCK_ERR_REQUEST_FRAMING: entry<{ reason: string }>(400, GRPC.INVALID_ARGUMENT, 'Bad Request', ({ reason }) => `the request's framing is ambiguous: ${reason}`),
  /** What node:http's parser refuses, in the catalogue's shape (uWebSockets.js answers its own parse errors). */
  MOCK_ERR_REQUEST_MALFORMED: entry<{ reason: string }>(400, GRPC.INVALID_ARGUMENT, 'Bad Request', ({ reason }) => `the request is not valid HTTP/1.1: ${reason}`),
  MOCK_ERR_PAYLOAD_TOO_LARGE: entry<{ limit: number }>(
    413,
    GRPC.RESOURCE_EXHAUSTED,
    'Payload Too Large',
    ({ limit }) => `request body exceeds ${limit} bytes (raise http.max_body_bytes in mock.yaml)`,
  ),
  MOCK_ERR_UNSUPPORTED_MEDIA_TYPE: entry<Operation & { accepted: string[]; given: string | undefined }>(415, GRPC.INVALID_ARGUMENT, 'Unsupported Media Type', ({ method, path, accepted, given }) =>
    accepted.length === 0 ? `${method} ${path} accepts no request body (got ${given ?? 'one without Content-Type'})` : `${method} ${path} accepts ${accepted.join(', ')}, not ${given}`,
  ),
  /** The status is validation.status_code (400 by default, 422 the usual alternative). */
  MOCK_ERR_REQUEST_INVALID: entry<{ first: string }>(400, GRPC.INVALID_ARGUMENT, 'Request validation failed', ({ first }) => first),
  /** Stack overflow in a walk over the request's data (a schema that references itself, a template echoing the body). */
  MOCK_ERR_REQUEST_TOO_DEEP: entry<{ method: string; path: string }>(
    400,
    GRPC.INVALID_ARGUMENT,
    'Bad Request',
    ({ method, path }) => `${method} ${path}: the request body nests too deeply to be answered; send a flatter body`,
  ),
  MOCK_ERR_RESPONSE_NOT_DOCUMENTED: entry<Operation & { code: string; documented: string[] }>(
    404,
    GRPC.NOT_FOUND,
    'Response not documented',
    ({ method, path, code, documented }) => `${method} ${path} documents no ${code} response (documented: ${documented.join(', ') || 'none'})`,
  ),
  MOCK_ERR_EXAMPLE_NOT_DOCUMENTED: entry<Operation & { code: string; type: string; name: string; documented: string[] }>(
    404,
    GRPC.NOT_FOUND,
    'Example not documented',
    (p) => `${p.method} ${p.path} ${p.code} ${p.type} has no example named "${p.name}" (documented: ${p.documented.join(', ') || 'none'})`,
  ),
  MOCK_ERR_INTERNAL: entry<Record<string, never>>(500, GRPC.INTERNAL, 'Internal Server Error', () => 'the mock server failed to answer this request; see its log'),
  /** state.store redis and Redis lost (or slower than the command timeout): state is never guessed, the request fails closed. */
  MOCK_ERR_STATE_STORE_UNAVAILABLE: entry<{ store: string }>(
    503,
    GRPC.UNAVAILABLE,
    'Service Unavailable',
    ({ store }) => `the shared state store (${store}) cannot be reached; the mock serves again once Redis is back (it reconnects by itself)`,
  ),
  /** A plugin call that trapped, ran out of its memory or answered what is not JSON (docs/plugins.md): its request alone fails. */
  MOCK_ERR_PLUGIN_FAILED: entry<{ plugin: string; action: string; reason: string }>(
    502,
    GRPC.INTERNAL,
    'Bad Gateway',
    ({ plugin, action, reason }) => `plugin ${plugin}: ${action} failed: ${reason} (run mock plugin test ${plugin})`,
  ),
  MOCK_ERR_PLUGIN_TIMEOUT: entry<{ plugin: string; action: string; ms: number }>(
    502,
    GRPC.DEADLINE_EXCEEDED,
    'Bad Gateway',
    ({ plugin, action, ms }) => `plugin ${plugin}: ${action} gave no answer within ${ms} ms and was stopped (raise plugins.sandbox.${plugin}.max_execution_ms in mock.yaml)`,
  ),
  MOCK_ERR_PLUGIN_DISABLED: entry<{ plugin: string; failures: number }>(
    502,
    GRPC.UNAVAILABLE,
    'Bad Gateway',
    ({ plugin, failures }) => `plugin ${plugin} is disabled after ${failures} failures in a row (fix it, then restart mock serve)`,
  ),
  /** A middleware plugin refused the request: the spec's `{"error": "Unauthorized", "message": …}` body, like the security schemes' 401. */
  MOCK_ERR_PLUGIN_UNAUTHORIZED: entry<{ plugin: string; message: string }>(401, GRPC.UNAUTHENTICATED, 'Unauthorized', ({ message }) => message),
  /** A request validator plugin refused the request. */
  MOCK_ERR_PLUGIN_REQUEST_INVALID: entry<{ plugin: string; first: string }>(400, GRPC.INVALID_ARGUMENT, 'Request validation failed', ({ plugin, first }) => `${first} (plugin ${plugin})`),
  /** The status is the injected one (500, 502, 503, 504 …). */
  MOCK_ERR_FAULT_INJECTED: entry<{ rate: number }>(500, GRPC.UNAVAILABLE, 'Injected Fault', ({ rate }) => `fault injected by the mock server (failure_rate ${rate})`),
  /** Written as text/plain: the detail alone (see above). */
  MOCK_ERR_RATE_LIMITED: entry<Record<string, never>>(429, GRPC.RESOURCE_EXHAUSTED, 'Too Many Requests', () => 'Rate limit exceeded'),
  MOCK_ERR_CHAOS_HTTP_ERROR: entry<{ why: string }>(500, GRPC.INTERNAL, 'Injected Fault', ({ why }) => `fault injected by the mock server (${why})`),
  MOCK_ERR_CHAOS_CONNECTION: entry<{ why: string }>(503, GRPC.UNAVAILABLE, 'Service Unavailable', ({ why }) => `connection error injected by the mock server (${why})`),
  MOCK_ERR_CHAOS_TIMEOUT: entry<{ ms: number }>(504, GRPC.DEADLINE_EXCEEDED, 'Gateway Timeout', ({ ms }) => `timeout injected by the mock server after ${ms} ms`),
  MOCK_ERR_CHAOS_PACKET_LOSS: entry<{ percent: number }>(408, GRPC.UNAVAILABLE, 'Request Timeout', ({ percent }) => `request lost by the mock server's simulated packet loss (${percent}%)`),
  MOCK_ERR_CHAOS_CONNECTION_LIMIT: entry<{ max: number }>(
    503,
    GRPC.RESOURCE_EXHAUSTED,
    'Service Unavailable',
    ({ max }) => `connection limit reached: the mock server takes at most ${max} connections`,
  ),
  MOCK_ERR_CHAOS_CIRCUIT_OPEN: entry<{ retryMs: number }>(503, GRPC.UNAVAILABLE, 'Service Unavailable', ({ retryMs }) => `circuit breaker open: requests are refused for ${retryMs} ms more`),
  MOCK_ERR_CHAOS_BULKHEAD_FULL: entry<{ concurrent: number; queue: number }>(
    503,
    GRPC.RESOURCE_EXHAUSTED,
    'Service Unavailable',
    ({ concurrent, queue }) => `bulkhead full: ${concurrent} requests run and ${queue} wait already`,
  ),
  MOCK_ERR_UPSTREAM_UNREACHABLE: entry<{ origin: string; reason: string }>(
    502,
    GRPC.UNAVAILABLE,
    'Bad Gateway',
    ({ origin, reason }) => `proxy to ${origin} failed: ${reason} (check proxy.upstream_url, or raise proxy.timeout_seconds)`,
  ),
  MOCK_ERR_UPSTREAM_TIMEOUT: entry<{ origin: string; seconds: number }>(
    504,
    GRPC.DEADLINE_EXCEEDED,
    'Gateway Timeout',
    ({ origin, seconds }) => `proxy to ${origin} failed: no answer within ${seconds}s (check proxy.upstream_url, or raise proxy.timeout_seconds)`,
  ),
  MOCK_ERR_UPSTREAM_TOO_LARGE: entry<{ origin: string; limit: number }>(
    502,
    GRPC.RESOURCE_EXHAUSTED,
    'Bad Gateway',
    ({ origin, limit }) => `proxy to ${origin} failed: its answer is larger than ${limit} bytes (raise http.max_body_bytes in mock.yaml)`,
  ),
  /** The reality continuum asked both sources and neither answered with a status below 400 (spec: both fail means error). */
  MOCK_ERR_CONTINUUM_FAILED: entry<{ mock: string; upstream: string }>(
    502,
    GRPC.UNAVAILABLE,
    'Bad Gateway',
    ({ mock, upstream }) => `the reality continuum has no answer: the mock answered ${mock} and the upstream ${upstream}`,
  ),
  /**
   * A request matched transitions of a state machine (core.stateful) but none leaves the resource's
   * current state; the body also carries machine, resource_id, current_state and allowed_transitions.
   */
  /** An item of a scenario entity (vbr_entities) that is not in its collection. */
  MOCK_ERR_ENTITY_NOT_FOUND: entry<{ entity: string; id: string }>(404, GRPC.NOT_FOUND, 'Not Found', (p) => `${p.entity}: no item with id ${JSON.stringify(p.id)}`),
  /** POST of an item whose id its entity's collection holds already. */
  MOCK_ERR_ENTITY_CONFLICT: entry<{ entity: string; id: string }>(409, GRPC.ALREADY_EXISTS, 'Conflict', (p) => `${p.entity}: an item with id ${JSON.stringify(p.id)} exists; PUT replaces it`),
  /** A body a scenario entity's collection cannot store. */
  MOCK_ERR_ENTITY_INVALID: entry<{ entity: string; why: string }>(400, GRPC.INVALID_ARGUMENT, 'Bad Request', (p) => `${p.entity}: ${p.why}`),
  MOCK_ERR_STATE_CONFLICT: entry<{ machine: string; resource: string; state: string; request: string; from: string[]; allowed: string[] }>(
    409,
    GRPC.FAILED_PRECONDITION,
    'Conflict',
    (p) =>
      `${p.machine}: resource ${JSON.stringify(p.resource)} is in state ${p.state}, and ${p.request} moves a resource only from ${p.from.join(', ')}; ` +
      (p.allowed.length === 0 ? `no transition leaves ${p.state}` : `from ${p.state}: ${p.allowed.join('; ')}`),
  ),
  /** A resource whose id alone is larger than the whole store of core.stateful (max_store_mb): refused rather than stored. */
  MOCK_ERR_STATE_TOO_LARGE: entry<{ machine: string; bytes: number; budgetMb: number }>(
    413,
    GRPC.RESOURCE_EXHAUSTED,
    'Content Too Large',
    ({ machine, bytes, budgetMb }) =>
      `${machine}: the request's resource id takes ${bytes} bytes of the state store, more than all of core.stateful.max_store_mb (${budgetMb}); send a shorter id, or raise max_store_mb in mock.yaml`,
  ),
  /** Checked before the path is joined to the upstream's: a dot segment would climb out of its path. */
  /** The WebSocket server's own refusals and closes (docs/websocket.md): an upgrade refused with the status, a session closed with wsCloseOf's code. */
  MOCK_ERR_WS_CONNECTION_LIMIT: entry<{ max: number }>(
    503,
    GRPC.RESOURCE_EXHAUSTED,
    'Service Unavailable',
    ({ max }) => `websocket.max_connections reached: the WebSocket server holds at most ${max} connections (raise websocket.max_connections in mock.yaml)`,
  ),
  MOCK_ERR_WS_UPGRADE_REQUIRED: entry<{ method: string; path: string }>(
    426,
    GRPC.INVALID_ARGUMENT,
    'Upgrade Required',
    ({ method, path }) => `${method} ${path} is not a WebSocket handshake: this port serves WebSocket connections only (the HTTP mock has its own port)`,
  ),
  MOCK_ERR_WS_HANDSHAKE: entry<{ method: string; path: string; key: string | undefined }>(
    400,
    GRPC.INVALID_ARGUMENT,
    'Bad Request',
    ({ method, path, key }) =>
      `${method} ${path}: ${key === undefined ? 'Sec-WebSocket-Key is missing' : `Sec-WebSocket-Key ${JSON.stringify(key.slice(0, 64))} is not 16 bytes in base64`}; a WebSocket client sends 16 random bytes in base64 there (RFC 6455 4.1)`,
  ),
  MOCK_ERR_WS_VERSION: entry<{ method: string; path: string; version: string | undefined }>(
    426,
    GRPC.INVALID_ARGUMENT,
    'Upgrade Required',
    ({ method, path, version }) =>
      `${method} ${path}: ${version === undefined ? 'Sec-WebSocket-Version is missing' : `WebSocket version ${JSON.stringify(version.slice(0, 16))} is not spoken here`}; this server speaks version 13 (RFC 6455), as its Sec-WebSocket-Version header says`,
  ),
  /**
   * The GraphQL mock's own refusals of a document, before anything runs: errors[].extensions.code
   * of a `{"errors": […]}` answer (graphql.max_depth, graphql.max_complexity, graphql.max_aliases, graphql.max_tokens).
   */
  MOCK_ERR_GRAPHQL_DEPTH: entry<{ operation: string; depth: number; max: number }>(
    400,
    GRPC.INVALID_ARGUMENT,
    'Bad Request',
    ({ operation, depth, max }) => `${operation} depth ${depth} exceeds graphql.max_depth ${max} (fragments expanded; raise graphql.max_depth in mock.yaml)`,
  ),
  MOCK_ERR_GRAPHQL_COMPLEXITY: entry<{ operation: string; complexity: number; max: number }>(
    400,
    GRPC.INVALID_ARGUMENT,
    'Bad Request',
    ({ operation, complexity, max }) =>
      `${operation} complexity ${complexity} exceeds graphql.max_complexity ${max} (each field selected counts 1, fragments expanded; raise graphql.max_complexity in mock.yaml)`,
  ),
  MOCK_ERR_GRAPHQL_ALIASES: entry<{ operation: string; aliases: number; max: number }>(
    400,
    GRPC.INVALID_ARGUMENT,
    'Bad Request',
    ({ operation, aliases, max }) => `${operation} uses ${aliases} aliases, more than graphql.max_aliases ${max} (fragments expanded; raise graphql.max_aliases in mock.yaml)`,
  ),
  MOCK_ERR_GRAPHQL_TOKENS: entry<{ max: number }>(
    400,
    GRPC.INVALID_ARGUMENT,
    'Bad Request',
    ({ max }) => `the document has more than graphql.max_tokens ${max} tokens: parsing stopped (send a smaller document, or raise graphql.max_tokens in mock.yaml)`,
  ),
  /** A mutation would store one object larger than the whole store (a field error of the mutation). */
  MOCK_ERR_GRAPHQL_STORE_OBJECT_TOO_LARGE: entry<{ type: string; bytes: number; max: number }>(
    413,
    GRPC.RESOURCE_EXHAUSTED,
    'Payload Too Large',
    ({ type, bytes, max }) =>
      `the ${type} object would take about ${bytes} bytes, more than the whole mutation store (graphql.max_store_mb, ${max} bytes): nothing was stored (send smaller values, or raise graphql.max_store_mb in mock.yaml)`,
  ),
  /** GraphQL's own limits of requests and answers, over HTTP and graphql-transport-ws (errors[].extensions.code). */
  MOCK_ERR_GRAPHQL_BODY_TOO_LARGE: entry<{ limit: number }>(
    413,
    GRPC.RESOURCE_EXHAUSTED,
    'Payload Too Large',
    ({ limit }) => `the GraphQL request body exceeds graphql.max_body_bytes ${limit} bytes (send a smaller document or variables, or raise graphql.max_body_bytes in mock.yaml)`,
  ),
  MOCK_ERR_GRAPHQL_RESPONSE_TOO_LARGE: entry<{ max: number }>(
    400,
    GRPC.RESOURCE_EXHAUSTED,
    'Bad Request',
    ({ max }) => `the answer would be larger than graphql.max_response_bytes ${max} bytes: select fewer fields, aliases or list items (or raise graphql.max_response_bytes in mock.yaml)`,
  ),
  MOCK_ERR_GRAPHQL_CONNECTION_LIMIT: entry<{ max: number }>(
    503,
    GRPC.RESOURCE_EXHAUSTED,
    'Service Unavailable',
    ({ max }) => `the GraphQL server already holds graphql.subscriptions.max_connections ${max} WebSocket connections: close one, or raise graphql.subscriptions.max_connections in mock.yaml`,
  ),
  MOCK_ERR_GRAPHQL_OPERATION_LIMIT: entry<{ max: number }>(
    429,
    GRPC.RESOURCE_EXHAUSTED,
    'Too Many Requests',
    ({ max }) => `this connection already runs graphql.subscriptions.max_per_connection ${max} operations: complete one first, or raise graphql.subscriptions.max_per_connection in mock.yaml`,
  ),
  /** An answer whose nested lists would hold more items than one answer may (errors[].extensions.code). */
  MOCK_ERR_GRAPHQL_TOO_LARGE: entry<{ max: number; length: number }>(
    400,
    GRPC.RESOURCE_EXHAUSTED,
    'Bad Request',
    ({ max, length }) => `the answer would hold more than ${max} list items: select fewer nested lists, pass first/limit arguments, or lower graphql.list_length (max ${length})`,
  ),
  MOCK_ERR_PROXY_DOT_SEGMENT: entry<{ path: string }>(
    400,
    GRPC.INVALID_ARGUMENT,
    'Bad Request',
    ({ path }) => `the proxy refuses ${path}: it has a . or .. segment (also percent-encoded or between backslashes); send the path without them`,
  ),
  /** GraphQL over HTTP (runtime/servers/graphql): the code goes in errors[].extensions.code; the status follows the GraphQL-over-HTTP specification. */
  MOCK_ERR_GRAPHQL_BAD_REQUEST: entry<{ reason: string }>(400, GRPC.INVALID_ARGUMENT, 'Bad Request', ({ reason }) => `not a GraphQL request: ${reason}`),
  MOCK_ERR_GRAPHQL_PARSE: entry<{ message: string }>(400, GRPC.INVALID_ARGUMENT, 'Bad Request', ({ message }) => message),
  MOCK_ERR_GRAPHQL_VALIDATION: entry<{ message: string }>(400, GRPC.INVALID_ARGUMENT, 'Bad Request', ({ message }) => message),
  MOCK_ERR_GRAPHQL_VARIABLES: entry<{ message: string }>(400, GRPC.INVALID_ARGUMENT, 'Bad Request', ({ message }) => message),
  MOCK_ERR_GRAPHQL_OPERATION: entry<{ message: string }>(400, GRPC.INVALID_ARGUMENT, 'Bad Request', ({ message }) => message),
  MOCK_ERR_GRAPHQL_MUTATION_OVER_GET: entry<{ name: string | null }>(
    405,
    GRPC.INVALID_ARGUMENT,
    'Method Not Allowed',
    ({ name }) => `mutation${name === null ? '' : ` ${name}`} sent with GET: mutations are answered over POST only`,
  ),
  MOCK_ERR_GRAPHQL_SUBSCRIPTION_OVER_HTTP: entry<{ path: string }>(
    400,
    GRPC.INVALID_ARGUMENT,
    'Bad Request',
    ({ path }) => `subscriptions are answered over WebSocket (graphql-transport-ws) at ${path}, not over plain HTTP`,
  ),
  MOCK_ERR_GRAPHQL_MEDIA_TYPE: entry<{ type: string | undefined }>(
    415,
    GRPC.INVALID_ARGUMENT,
    'Unsupported Media Type',
    ({ type }) => `${type === undefined ? 'a POST without Content-Type' : `Content-Type ${type}`}: send the request as application/json (or a GET with query parameters)`,
  ),
  MOCK_ERR_GRAPHQL_PATH: entry<{ method: string; path: string; served: string }>(
    404,
    GRPC.UNIMPLEMENTED,
    'Not Found',
    ({ method, path, served }) => `${method} ${path}: this port answers GraphQL at ${served} only`,
  ),
  /** A name made from request data (a query parameter, a JSON member) that would reach Object.prototype: refused wherever request data becomes keys. */
  MOCK_ERR_FORBIDDEN_KEY: entry<{ key: string; where: string }>(
    400,
    GRPC.INVALID_ARGUMENT,
    'Bad Request',
    ({ key, where }) => `${where}: ${JSON.stringify(key)} is not accepted as a name (__proto__, constructor and prototype never are); rename it`,
  ),
  /** Hosted mode (docs/hosting.md): a path under /api/v1/hosted-mocks/ naming no hosted mock. */
  MOCK_ERR_TENANT_NOT_FOUND: entry<{ id: string }>(404, GRPC.NOT_FOUND, 'Not Found', ({ id }) => `no hosted mock "${id}" (GET /api/v1/hosted-mocks lists them, with the management token)`),
  MOCK_ERR_TENANT_RATE_LIMITED: entry<{ id: string; plan: string; max: number }>(
    429,
    GRPC.RESOURCE_EXHAUSTED,
    'Too Many Requests',
    ({ id, plan, max }) => `hosted mock "${id}" has had its ${max} requests this minute (max_requests_per_minute of plan ${plan}); try again after Retry-After, or move it to a larger plan`,
  ),
  MOCK_ERR_TENANT_BUSY: entry<{ id: string; plan: string; max: number }>(
    429,
    GRPC.RESOURCE_EXHAUSTED,
    'Too Many Requests',
    ({ id, plan, max }) => `hosted mock "${id}" is answering ${max} requests already (max_concurrent_executions of plan ${plan}); send fewer at once, or move it to a larger plan`,
  ),
  /** A gRPC call of a method the protos do not declare (grpc-js's own wording, which clients may match). */
  MOCK_ERR_GRPC_UNKNOWN_METHOD: entry<{ method: string }>(404, GRPC.UNIMPLEMENTED, 'Not Found', ({ method }) => `The server does not implement the method ${method}`),
  /** A gRPC request message that does not decode as its method's request type (grpc-js's own wording, which clients may match). */
  MOCK_ERR_GRPC_UNDECODABLE: entry<Record<string, never>>(400, GRPC.INTERNAL, 'Bad Request', () => 'Error deserializing request'),
  /** The gRPC server's HTTP bridge (runtime/servers/grpc/bridge): google.rpc.Status JSON, the code as the reason of a google.rpc.ErrorInfo in details. */
  MOCK_ERR_GRPC_BRIDGE_ENCODING: entry<{ path: string }>(
    400,
    GRPC.INVALID_ARGUMENT,
    'Bad Request',
    ({ path }) => `the path ${path} has a malformed percent-encoding: write % as %25, and every escape as % and two hex digits of UTF-8`,
  ),
  MOCK_ERR_GRPC_BRIDGE_NO_METHOD: entry<{ method: string; path: string }>(
    404,
    GRPC.NOT_FOUND,
    'Not Found',
    ({ method, path }) => `no gRPC method answers ${method} ${path}: POST /<package.Service>/<Method>, or a google.api.http path of the .proto files`,
  ),
  MOCK_ERR_GRPC_BRIDGE_REQUEST: entry<{ reason: string }>(400, GRPC.INVALID_ARGUMENT, 'Bad Request', ({ reason }) => reason),
  MOCK_ERR_GRPC_BRIDGE_TOO_LARGE: entry<{ limit: number }>(
    413,
    GRPC.RESOURCE_EXHAUSTED,
    'Payload Too Large',
    ({ limit }) => `the request body exceeds ${limit} bytes (raise grpc.http_bridge.max_body_bytes in mock.yaml)`,
  ),
  MOCK_ERR_GRPC_BRIDGE_TOO_MANY_MESSAGES: entry<{ count: number; max: number }>(
    413,
    GRPC.RESOURCE_EXHAUSTED,
    'Payload Too Large',
    ({ count, max }) => `the array holds ${count} messages, more than grpc.http_bridge.max_stream_messages (${max}): send fewer, or raise it in mock.yaml`,
  ),
} as const;

export type ProblemCode = keyof typeof PROBLEMS;
export type ProblemParams<C extends ProblemCode> = Parameters<(typeof PROBLEMS)[C]['detail']>[0];

/** What each CLI and start-up error means; the message itself names the input and the fix. */
export const CLI_ERRORS = {
  MOCK_ERR_SPEC_NOT_FOUND: 'an API description given by --spec or specs: does not exist',
  MOCK_ERR_SPEC_PARSE: 'an API description is not valid JSON or YAML',
  MOCK_ERR_SPEC_REF: 'a $ref of a description cannot be resolved',
  MOCK_ERR_SPEC_INVALID: 'a description is not OpenAPI 3.x or Swagger 2.0',
  MOCK_ERR_SPEC_FETCH: 'a description URL cannot be fetched',
  MOCK_ERR_SPEC_REF_REFUSED: 'a $ref of a description leads outside the project without --allow-ref',
  MOCK_ERR_ROUTE_COLLISION: 'two descriptions define the same route',
  MOCK_ERR_CONFIG_NOT_FOUND: 'the config file given does not exist',
  MOCK_ERR_CONFIG_PARSE: 'the config file is not valid YAML',
  MOCK_ERR_CONFIG_INVALID: 'a configuration value breaks the schema (file, variable or flag)',
  MOCK_ERR_FLAG_INVALID: 'a flag value is not valid',
  MOCK_ERR_TEMPLATE: 'a template token is malformed',
  MOCK_ERR_PLUGIN_SOURCE: 'a plugin source (path, URL, git reference) cannot be read',
  MOCK_ERR_PLUGIN_CHECKSUM: 'a plugin does not match the checksum given with --checksum',
  MOCK_ERR_PLUGIN_INVALID: 'a plugin module breaks the plugin ABI or its limits',
  MOCK_ERR_PLUGIN_EXISTS: 'a plugin of that name is installed already (use --force to replace it)',
  MOCK_ERR_PLUGIN_NOT_INSTALLED: 'no plugin of that name is installed',
  MOCK_ERR_PLUGIN_TEST_FAILED: "a plugin's declared test cases do not pass",
  MOCK_ERR_PLUGIN_LOAD: 'an installed plugin cannot be loaded at start, or mock.yaml names an action it lacks',
  MOCK_ERR_AI_NO_ENDPOINT: 'AI-assisted mocks are enabled (--ai-enabled, ai.enabled) without ai.endpoint or ai.model',
  MOCK_ERR_PORT_IN_USE: 'a port to listen on is taken',
  MOCK_ERR_PORT_CLASH: 'two servers of one run are configured on the same port',
  MOCK_ERR_LISTEN: 'an address cannot be listened on',
  MOCK_ERR_TLS_FILE: 'a TLS certificate, key or CA file (server.tls, --tls-cert, --tls-key) cannot be read or is not PEM',
  MOCK_ERR_TLS_KEY_MISMATCH: 'the TLS private key does not belong to the certificate',
  MOCK_ERR_TLS_PASSPHRASE: 'the TLS private key is encrypted and its passphrase is missing or wrong',
  MOCK_ERR_TLS_CONFIG: 'a TLS block has neither cert and key nor self_signed, or only one of cert and key',
  MOCK_ERR_HTTP_BACKEND_UNAVAILABLE: 'server.http_backend asks for uWebSockets.js, whose addon does not load on this Node.js and system',
  MOCK_ERR_BUILD_STALE: 'mock build --check found generated files out of date',
  MOCK_ERR_BUILD_MISSING: 'there is no build where one is expected',
  MOCK_ERR_BUILD_TAMPERED: 'a generated file does not match the hash in its manifest',
  MOCK_ERR_BUILD_NAME: 'a build name is not a plain folder name',
  MOCK_ERR_PATH_OUTSIDE_PROJECT:
    'a folder or file mock.yaml names (for writing: build.out_dir, logging.file; for reading: WebSocket scripts, websocket.replay_file, a jwks_file) leads outside the project, and no flag or variable gives it',
  MOCK_ERR_BUILD_FOLDER_FOREIGN: 'the build folder holds files that are not a previous build',
  MOCK_ERR_BUILD_LOCKED: 'another mock build or serve has been writing the build folder for too long',
  MOCK_ERR_NO_SPEC: 'no API description is configured (nor, for mock build and serve, a GraphQL schema)',
  MOCK_ERR_OVERRIDES_INVALID: 'override rules from the environment or a file are invalid',
  MOCK_ERR_AUTH_CONFIG: 'an admin authentication setting is invalid',
  MOCK_ERR_TENANCY_CONFIG: 'tenancy is configured without what hosted mode needs (admin.management_token), or a tenant of tenancy.tenants names a plan or description that does not exist',
  MOCK_ERR_AUTH_DEV_USERS_EXPOSED: 'admin auth would seed the development users on an admin API reachable from other machines',
  MOCK_ERR_ADMIN_UNREACHABLE: 'a command that steers a running server cannot reach its admin API',
  MOCK_ERR_ADMIN_REFUSED: 'the admin API of a running server refused a command',
  MOCK_ERR_FIXTURES_DIR: 'a fixture folder (--dir, core.fixtures.dir) does not exist or is not a folder',
  MOCK_ERR_HAR_INVALID: 'a HAR file cannot be read, is not JSON, or is not a HAR log (log.entries)',
  MOCK_ERR_FIXTURE_WRITE: 'a fixture file or an exported HAR cannot be written',
  MOCK_ERR_REKEY_COLLISION: 'mock fixtures rekey would overwrite a fixture file it does not move',
  MOCK_ERR_SMOKE_UNREACHABLE: 'mock smoke cannot connect to its target server',
  MOCK_ERR_SMOKE_NONE: 'mock smoke found no fixture marked as a smoke test',
  MOCK_ERR_RECORDER_DB: 'a recordings database (recorder.db_path, --recorder-db, --input, --capture-db) cannot be created, opened or read',
  MOCK_ERR_WS_SCRIPT: "a WebSocket replay script (websocket.replay_file, MOCK_WS_REPLAY_FILE, a route's script) cannot be read or has malformed lines",
  MOCK_ERR_WS_ROUTE: 'a WebSocket route of mock.yaml (websocket.routes) is malformed',
  MOCK_ERR_GRAPHQL_SCHEMA: 'a GraphQL schema file (--graphql-schema, graphql.schema) does not parse, is not an introspection result, or does not build into a schema',
  MOCK_ERR_GRAPHQL_SCHEMA_NOT_FOUND: 'a GraphQL schema file given by --graphql-schema or graphql.schema does not exist or cannot be read, or its glob matches no file',
  MOCK_ERR_GRAPHQL_SCHEMA_REFUSED: 'a glob of graphql.schema matches a file outside the project without --allow-ref',
  MOCK_ERR_GRPC_PROTO_DIR: 'the folder of .proto files (grpc.proto_dir, --proto-dir, MOCK_GRPC_PROTO_DIR) does not exist, is not a folder, or holds no .proto file while gRPC was asked for',
  MOCK_ERR_GRPC_PROTO_REFUSED: 'a .proto file under grpc.proto_dir leads (through a symbolic link) outside the proto folder and the project without --allow-ref',
  MOCK_ERR_TUI_NOT_INSTALLED: 'mock tui needs ink and react, which a consumer install leaves out (they serve nothing): install them beside mock-compiler',
  MOCK_ERR_GRPC_PROTO_INVALID: 'no gRPC service is left to serve: every .proto file that would give one does not parse or resolve',
  MOCK_ERR_STATE_STORE_UNREACHABLE: 'state.store is redis and state.redis_url cannot be reached when the server starts',
  MOCK_ERR_COMPARE_KIND: 'mock contract-diff compare was given a file of no known description kind, or two descriptions of different kinds',
  MOCK_ERR_CAPTURE_INVALID: 'a captured request (an upload, a line or entry of --request-path) is not the captured-request shape {method, path, headers, query_params, body, response}',
  MOCK_ERR_CAPTURE_SOURCE: 'mock contract-diff analyze --request-path names no readable source of captures (JSON, JSON Lines, HAR, a recordings database or a fixtures folder)',
  MOCK_ERR_PATCH_INVALID: 'a JSON Patch given to mock contract-diff apply-patch is not an array of RFC 6902 operations, or does not apply to the description',
  MOCK_ERR_PATCH_RESULT: 'the description a JSON Patch would make is not a valid OpenAPI or Swagger document (nothing is written)',
  MOCK_ERR_GIT: 'mock git-watch cannot run git (not installed), is not in a git working tree, or a git command it needs failed',
  MOCK_ERR_SCENARIO_INVALID: 'a scenario package breaks the format of docs/scenarios.md (scenario.yaml, config.yaml, its description, fixtures, README.md, CHANGELOG.md)',
  MOCK_ERR_SCENARIO_SOURCE: 'a scenario to install (a path, URL, Git reference, registry name or name@range) cannot be found, fetched or resolved',
  MOCK_ERR_SCENARIO_CHECKSUM: 'the archive of a scenario does not have the sha256 checksum --checksum gave (nothing was unpacked)',
  MOCK_ERR_SCENARIO_ARCHIVE: 'a scenario archive holds an entry that would leave its folder, a link, a device file, or more files or bytes than the caps allow',
  MOCK_ERR_SCENARIO_EXISTS: 'a scenario of that name is installed already and --force was not given',
  MOCK_ERR_SCENARIO_DEPENDENCY: 'the dependencies of a scenario form a cycle or ask for versions of one scenario that no single version satisfies',
  MOCK_ERR_SCENARIO_NOT_INSTALLED: 'a scenario named to use, show or update is not installed in this project',
  MOCK_ERR_SCENARIO_REGISTRY: 'the npm registry of scenarios refused or failed a search, a publish or a review',
  MOCK_ERR_DEV_SETUP_NOT_INSTALLED: 'mock dev-setup needs @hey-api/openapi-ts and TypeScript 5, which a consumer install leaves out (they serve nothing): install them in the project',
  MOCK_ERR_DEV_SETUP_EXISTS: 'a file mock dev-setup would write exists with other content and --force was not given (nothing was written)',
  MOCK_ERR_DEV_SETUP_GENERATE: 'the client generator of mock dev-setup failed on a description',
} as const;

export type MockErrorCode = keyof typeof CLI_ERRORS;

/** Compiles only while a code names one error: the two tables never share one. */
type Disjoint<Shared extends never> = Shared;
export type CodesAreDisjoint = Disjoint<Extract<ProblemCode, MockErrorCode>>;

export class MockError extends Error {
  readonly code: MockErrorCode;
  readonly exitCode: number;

  constructor(code: MockErrorCode, message: string, exitCode = 1) {
    super(message);
    this.name = 'MockError';
    this.code = code;
    this.exitCode = exitCode;
  }
}

export const isMockError = (e: unknown): e is MockError => e instanceof MockError;
