import type { Logger } from 'pino';
import type { ApiAuthOptions } from './chain/security/index.js';
import type { RequestLog } from './control/logging/index.js';
import type { ProxyRule } from './chain/proxy/index.js';
import type { WebhookTarget } from './drift/webhooks/index.js';
import type { CallbackSettings, WebhookSchedule } from './callbacks/index.js';
import type { AiOptions } from './chain/ai/ai-options.js';

export type ValidationMode = 'off' | 'warn' | 'enforce';

export type HttpBackend = 'auto' | 'uws' | 'node';

/** server.http_version: 2 serves HTTP/2 (h2c by prior knowledge) and HTTP/1.1 on one port through node:http2. */
export type HttpVersion = '1.1' | '2';

export type ErrorBody = 'documented' | 'problem';

/** proxy.ca and proxy.insecure: what the proxy, the continuum and recording trust of https:// upstreams. */
export interface UpstreamTls {
  /** PEM bundle of the authorities upstream certificates are checked against (instead of Node's). */
  ca?: string;
  /** Accept any upstream certificate. */
  insecure: boolean;
}

/** Whether a TLS server asks for clients' certificates (server.tls.client_auth). */
export type ClientAuth = 'none' | 'request' | 'require';

/**
 * A server's TLS, read and checked by the CLI: PEM texts for node:https, node:tls and grpc-js, and
 * the files for uWebSockets.js, which reads its own.
 */
export interface TlsOptions {
  cert: string;
  key: string;
  passphrase?: string;
  /** Certificate authorities client certificates are checked against; absent: the system's. */
  ca?: string;
  certFile: string;
  keyFile: string;
  caFile?: string;
  clientAuth: ClientAuth;
}

export interface ValidationOptions {
  mode: ValidationMode;
  aggregate_errors: boolean;
  validate_responses: boolean;
  /** Check the security requirements of the descriptions (validation.security, --no-security); absent: true. */
  security?: boolean;
  status_code: number;
  /** How refusals are answered (validation.error_body): the operation's documented response, else mock's problem body; absent: documented. */
  error_body?: ErrorBody;
  /** Route key (`GET /health`) or path glob (`/api/admin/**`) to mode. */
  overrides: Record<string, ValidationMode>;
}

/** admin.limits: what the admin API and the management router keep at most (a write past one is refused naming it). */
export interface AdminLimits {
  max_mocks: number;
  /** One runtime mock's JSON, as sent. */
  max_mock_bytes: number;
  max_override_rules: number;
  max_log_subscribers: number;
  /** Custom chaos profiles created or imported over the Chaos API. */
  max_chaos_profiles: number;
  /** One chaos profile document as JSON. */
  max_chaos_profile_bytes: number;
}

/** admin.limits' defaults (src/config/schema.json), for servers started without a configuration. */
export const DEFAULT_ADMIN_LIMITS: AdminLimits = {
  max_mocks: 1000,
  max_mock_bytes: 1024 * 1024,
  max_override_rules: 1000,
  max_log_subscribers: 32,
  max_chaos_profiles: 100,
  max_chaos_profile_bytes: 64 * 1024,
};

/** mock.yaml http.cors, when enabled. */
export interface CorsOptions {
  /** `*`, exact origins, `http://localhost:*` (any port), `https://*.example.com`. */
  allowedOrigins: readonly string[];
  /** Pages may send credentials: the origin is echoed with Access-Control-Allow-Credentials: true (never `*`). */
  credentials: boolean;
  /** Absent: a preflight is allowed the method it asks for. */
  allowedMethods?: readonly string[];
  /** Absent: a preflight is allowed the headers it asks for. */
  allowedHeaders?: readonly string[];
  /** Access-Control-Max-Age of preflight answers. */
  maxAgeSeconds: number;
  /** Requests that may go to a real upstream (proxy, continuum) get CORS too; off: they pass as they are. */
  proxied: boolean;
}

/** response.caching when enabled. */
export interface ResponseCacheOptions {
  ttlSeconds: number;
  maxSizeMb: number;
  /** Monotonic milliseconds the TTL counts on; default performance.now (tests pass their own). */
  now?: () => number;
}

export interface ServeOptions {
  /** Absolute directory of a build (holds index.js). */
  buildDir: string;
  host: string;
  port: number;
  validation: ValidationOptions;
  templateExpand: boolean;
  seed?: number;
  /** Epoch milliseconds the clock of generated data and templates is pinned to; absent: the real clock. */
  now?: number;
  /** time_travel: the virtual clock (POST /api/v2/time/* steers it while serving). */
  timeTravel?: { enabled: boolean; initialTime?: number; scaleFactor: number; schedule: ReadonlyArray<{ at: number; jumpTo?: number; advanceBy?: number }> };
  /** response.caching when enabled: answers made per request are kept; absent: off. */
  responseCache?: ResponseCacheOptions;
  /** Largest request body accepted (413 above). */
  maxBodyBytes: number;
  logger: Logger;
  /** uWebSockets.js (`uws`), node:http (`node`), or `auto` (the default): uWS where its addon loads, else node:http (runtime/servers/http/backend.ts). */
  httpBackend?: HttpBackend;
  /** server.http_version; absent: 1.1. */
  httpVersion?: HttpVersion;
  /** http.keepalive_hint: answers that keep their connection say so, with the idle timeout. */
  keepAliveHint?: boolean;
  /** server.tls: the HTTP mock serves https://; absent: plain HTTP. */
  tls?: TlsOptions;
  /** http.streams: how many items a streamed answer (SSE, JSON Lines …) holds and how fast they come; absent: 10 items a second apart. */
  streams?: { items: number | 'forever'; interval_ms: number };
  /** Where handled requests are recorded; default: a new RequestLog (1000 entries) logging to `logger`. */
  requestLog?: RequestLog;
  /** mock.yaml http.cors when enabled. */
  cors?: CorsOptions;
  /** core.max_connections / --max-connections: more concurrent connections get 503. */
  maxConnections?: number;
  /** mock.yaml `auth`: credentials the mocked API accepts, and its mock OAuth 2.0 token endpoint. */
  apiAuth?: ApiAuthOptions;
  /** How https:// upstreams are checked (proxy.ca, proxy.insecure); absent: Node's authorities. */
  upstreamTls?: UpstreamTls;
  /** The conditional proxy's rules (proxy.rules): requests they select go to their upstream. */
  proxyRules?: readonly ProxyRule[];
  /** contract_diff.capture when enabled: what upstreams answer is checked against the description and kept; violationsHeader marks the answers. */
  contractDiffCapture?: { violationsHeader: boolean };
  /** contract_diff.webhooks and webhook_allow_private: where the mismatches of analysed traffic are sent. */
  contractDiffWebhooks?: { webhooks: readonly WebhookTarget[]; allowPrivate: boolean };
  /** mock.yaml `callbacks` (docs/callbacks-webhooks.md): where callbacks and webhooks may go and how they are sent, the webhooks' secret and schedules. Absent: loopback only, no retries' delay beyond the defaults. */
  callbacks?: { settings: CallbackSettings; secret?: string; schedules: readonly WebhookSchedule[] };
  /** mock.yaml `ai` when enabled (docs/ai.md): the operations a model answers. */
  ai?: AiOptions;
}

export interface RunningServer {
  host: string;
  /** The bound port (useful with port 0). */
  port: number;
  /** Recent requests (ring buffer) and their subscribers, for the admin API. */
  requestLog: RequestLog;
  close(): Promise<void>;
}
