import { Errors, Flags } from '@oclif/core';
import { defaultValue, type FlagSetting } from '../config/index.js';

// Flags for config keys have no oclif defaults: an absent flag must not mask env or file values.
// The defaults come from the schema and are only quoted in the help text.
function describe(text: string, key: string, shownDefault?: string): string {
  const value = shownDefault ?? defaultValue(key);
  const shown = value === undefined ? '' : ` [default: ${Array.isArray(value) ? value.join(',') : value}]`;
  return `${text}${shown}`;
}

/** A number with a fraction allowed; the schema checks the range and names the flag. */
const decimal = Flags.custom<number>({
  helpValue: '<number>',
  parse: async (input) => {
    const value = Number(input);
    if (input.trim() === '' || !Number.isFinite(value)) throw new Errors.CLIError(`Expected a number but received: ${input}`);
    return value;
  },
});

/** A number of processes, or auto; the schema checks the range and names the flag. */
const workerCount = Flags.custom<number | 'auto'>({
  helpValue: '<n|auto>',
  parse: async (input) => {
    const given = input.trim();
    if (given === 'auto') return given;
    if (!/^\d+$/.test(given)) throw new Errors.CLIError(`Expected a number of workers (1 to 256) or auto but received: ${input}`);
    return Number(given);
  },
});

/** `500,503`: HTTP status codes. */
const statusList = Flags.custom<number[]>({
  helpValue: '<codes>',
  parse: async (input) => {
    const codes = input.split(',').map((code) => code.trim());
    if (!codes.every((code) => /^\d{3}$/.test(code))) {
      throw new Errors.CLIError(`Expected comma-separated HTTP status codes such as 500,503 but received: ${input}`);
    }
    return codes.map(Number);
  },
});

/** `10-500`: milliseconds, min <= max. */
const msRange = Flags.custom<{ min: number; max: number }>({
  helpValue: '<min-max>',
  parse: async (input) => {
    const match = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(input);
    if (!match) throw new Errors.CLIError(`Expected <min>-<max> in milliseconds such as 10-500 but received: ${input}`);
    const [min, max] = [Number(match[1]), Number(match[2])];
    if (min > max) throw new Errors.CLIError(`Expected the minimum first (${max}-${min}) but received: ${input}`);
    return { min, max };
  },
});

/** What to build, shared by `build` and `serve`. */
export const buildFlags = {
  spec: Flags.string({
    description:
      'API description (OpenAPI 3.x or Swagger 2.0, JSON or YAML) as a file or URL; repeat for several. Replaces specs: of the config file.',
    helpValue: '<path|url>',
    multiple: true,
  }),
  'graphql-schema': Flags.string({
    description:
      'GraphQL schema: an SDL file (.graphql, .gql, .graphqls), a glob of them or an introspection result (.json); repeat for several, read in order as one SDL. Starts the GraphQL server; replaces graphql.schema of the config file.',
    helpValue: '<path>',
    multiple: true,
  }),
  'proto-dir': Flags.string({
    description: describe('Folder of .proto files, read recursively; it starts the gRPC server (a default proto/ that is absent starts nothing)', 'grpc.proto_dir'),
    helpValue: '<dir>',
  }),
  config: Flags.string({
    char: 'c',
    description: 'Config file [default: mock.yaml, mock.yml, .mock.yaml or .mock.yml in this or a parent directory]',
    helpValue: '<path>',
  }),
  out: Flags.string({ description: describe('Folder holding the builds, anywhere (build.out_dir of mock.yaml must lie in the project)', 'build.out_dir'), helpValue: '<dir>' }),
  name: Flags.string({ description: "Build name, the folder under --out: letters, digits, - and _ [default: the first spec's file name (else the first GraphQL schema file's), so made]" }),
};

/** logging.file for `serve` and `admin`: the command line may name a file anywhere, mock.yaml only one in the project. */
export const logFileFlag = {
  'log-file': Flags.string({
    helpGroup: 'OTHER',
    description: describe('Write the log to this file (rotated), or to stdout or stderr; mock.yaml may name only a file in the project', 'logging.file'),
    helpValue: '<path>',
  }),
};

/** How to serve; every flag sets one configuration key (see FLAG_KEYS). */
export const serveFlags = {
  ...logFileFlag,
  'http-port': Flags.integer({ description: describe('HTTP port; 0 picks a free one', 'server.http_port'), helpValue: '<port>' }),
  'ws-port': Flags.integer({ description: describe('WebSocket port, which starts the WebSocket server; 0 picks a free one', 'server.ws_port'), helpValue: '<port>' }),
  'grpc-port': Flags.integer({ description: describe('gRPC port, which starts the gRPC server (.proto files from grpc.proto_dir, proto/ by default); 0 picks a free one', 'server.grpc_port'), helpValue: '<port>' }),
  'graphql-port': Flags.integer({ description: describe('GraphQL port (the server runs when --graphql-schema or graphql.schema names a schema); 0 picks a free one', 'server.graphql_port'), helpValue: '<port>' }),
  host: Flags.string({ description: describe('Address the mock servers listen on', 'server.bind'), helpValue: '<address>' }),
  workers: workerCount({
    description: describe('Processes serving the HTTP, GraphQL and WebSocket mocks on the same ports (auto: one per core this process may use); docs/workers.md', 'server.workers'),
  }),
  cors: Flags.boolean({
    description: describe("Answer browsers' CORS requests to the mocked API (any origin, credentials allowed; never the /__mock router); http.cors in mock.yaml for the detailed form", 'http.cors.enabled'),
    allowNo: true,
  }),
  'http-backend': Flags.option({
    description: describe(
      'HTTP server library: uws (uWebSockets.js, the fastest; answers every HTTP/1.0 request 505, so nginx without proxy_http_version 1.1, HAProxy httpchk and ab fail), node (node:http: serves HTTP/1.0) or auto (uws where it loads, else node); see docs/backends.md',
      'server.http_backend',
      'auto',
    ),
    options: ['auto', 'uws', 'node'] as const,
  })(),
  'http-version': Flags.option({
    description: describe('HTTP version of the HTTP mock: 1.1, 2 (node:http2: h2c by prior knowledge and HTTP/1.1 on one port) or auto (2 over TLS, else 1.1); see docs/http2.md', 'server.http_version', '1.1'),
    options: ['1.1', '2', 'auto'] as const,
  })(),
  'tls-cert': Flags.string({
    helpGroup: 'TLS',
    description: describe('PEM certificate to serve https://, wss:// and gRPC over TLS with (with --tls-key); see docs/tls.md', 'server.tls.cert'),
    helpValue: '<file>',
  }),
  'tls-key': Flags.string({ helpGroup: 'TLS', description: describe('PEM private key of --tls-cert', 'server.tls.key'), helpValue: '<file>' }),
  'tls-self-signed': Flags.boolean({
    helpGroup: 'TLS',
    description: describe('Serve TLS with a certificate for localhost, 127.0.0.1 and ::1 made once into .mock/tls/ (prints how to trust it)', 'server.tls.self_signed'),
  }),
  validation: Flags.option({
    description: describe('Request validation mode', 'validation.mode'),
    options: ['off', 'warn', 'enforce'] as const,
  })(),
  'validation-status': Flags.integer({
    description: describe('Status of requests rejected by validation (422 is the usual alternative)', 'validation.status_code'),
    helpValue: '<code>',
  }),
  'aggregate-errors': Flags.boolean({
    description: describe('Report all validation errors of a request together', 'validation.aggregate_errors'),
    allowNo: true,
  }),
  'validate-responses': Flags.boolean({
    description: describe('Log responses that do not match the description', 'validation.validate_responses'),
    allowNo: true,
  }),
  security: Flags.boolean({
    description: describe("Check the descriptions' security requirements (credentials); --no-security accepts any", 'validation.security'),
    allowNo: true,
  }),
  'response-template-expand': Flags.boolean({
    description: describe('Expand template tokens such as {{uuid}} in responses', 'response_template_expand'),
    allowNo: true,
  }),
  seed: Flags.integer({ description: 'Seed for generated data, for repeatable responses [default: random]; also pins the clock to 2025-01-01T00:00:00.000Z unless --now is given', helpValue: '<int>' }),
  now: Flags.string({ description: describe('Pin the clock of generated data and templates (date-time values, {{now}}) to this ISO 8601 instant', 'now'), helpValue: '<timestamp>' }),

  admin: Flags.boolean({
    helpGroup: 'ADMIN',
    description: describe('Start the admin UI and API', 'admin.enabled'),
    allowNo: true,
  }),
  'admin-port': Flags.integer({
    helpGroup: 'ADMIN',
    description: describe('Admin server port', 'admin.port'),
    helpValue: '<port>',
  }),
  'admin-host': Flags.string({
    helpGroup: 'ADMIN',
    description: describe('Address the admin server listens on (0.0.0.0 exposes it to the network)', 'admin.bind'),
    helpValue: '<address>',
  }),
  'admin-embed': Flags.boolean({
    helpGroup: 'ADMIN',
    description: describe('Serve the admin API from the HTTP mock server (implies --admin)', 'admin.embedded'),
    allowNo: true,
  }),
  'admin-mount-path': Flags.string({
    helpGroup: 'ADMIN',
    description: describe('Path of the embedded admin page (the API is under /__mock/)', 'admin.mount_path'),
    helpValue: '<path>',
  }),
  'admin-standalone': Flags.boolean({
    helpGroup: 'ADMIN',
    description: describe('Run the admin server on its own port; given with --admin-embed, it wins', 'admin.standalone'),
    allowNo: true,
  }),
  'disable-admin-api': Flags.boolean({
    helpGroup: 'ADMIN',
    description: describe('Serve the admin UI without its REST API', 'admin.disable_api'),
  }),

  'latency-enabled': Flags.boolean({
    helpGroup: 'CHAOS',
    description: describe('Add random latency to every response', 'chaos.latency_enabled'),
    allowNo: true,
  }),
  'chaos-latency-range': msRange({
    helpGroup: 'CHAOS',
    description: describe(
      'Random latency range in ms, e.g. 10-500',
      'chaos.latency_min_ms',
      `${defaultValue('chaos.latency_min_ms')}-${defaultValue('chaos.latency_max_ms')}`,
    ),
  }),
  'failures-enabled': Flags.boolean({
    helpGroup: 'CHAOS',
    description: describe('Inject HTTP errors', 'observability.chaos.fault_injection.enabled'),
    allowNo: true,
  }),
  chaos: Flags.boolean({
    helpGroup: 'CHAOS',
    description: describe('Turn chaos engineering on', 'observability.chaos.enabled'),
    allowNo: true,
  }),
  'chaos-http-errors': statusList({
    helpGroup: 'CHAOS',
    description: describe('Status codes of injected errors, e.g. 500,503', 'observability.chaos.fault_injection.http_errors'),
  }),
  'chaos-http-error-probability': decimal({
    helpGroup: 'CHAOS',
    description: describe('Probability of an injected error, 0.0 to 1.0 (turns fault injection on)', 'observability.chaos.fault_injection.http_error_probability'),
  }),
  'chaos-rate-limit': decimal({
    helpGroup: 'CHAOS',
    description: describe('Rate limit in requests per second (turns the limiter on)', 'observability.chaos.rate_limit.requests_per_second'),
    helpValue: '<rps>',
    exclusive: ['rate-limit'],
  }),
  'rate-limit': Flags.boolean({
    helpGroup: 'CHAOS',
    description: describe('Rate limiting; --no-rate-limit turns it off', 'observability.chaos.rate_limit.enabled'),
    allowNo: true,
  }),
  'chaos-bandwidth-limit': Flags.integer({
    helpGroup: 'CHAOS',
    description: describe(
      'Bandwidth limit in bytes per second, 0 = unlimited (turns traffic shaping on)',
      'observability.chaos.traffic_shaping.bandwidth_limit_bps',
    ),
    helpValue: '<bytes/s>',
  }),
  'chaos-packet-loss': decimal({
    helpGroup: 'CHAOS',
    description: describe(
      'Simulated packet loss in percent, 0 to 100 (turns traffic shaping on)',
      'observability.chaos.traffic_shaping.packet_loss_percent',
    ),
    helpValue: '<percent>',
  }),
  'chaos-profile': Flags.string({
    helpGroup: 'CHAOS',
    description: describe(
      'Chaos profile to apply: slow_3g, fast_3g, flaky_wifi, high_latency, unstable_connection, cable, dialup',
      'observability.chaos.profile',
    ),
    helpValue: '<name>',
  }),

  record: Flags.boolean({
    helpGroup: 'RECORD AND REPLAY',
    description: describe('Record every answered exchange as a fixture file under core.fixtures.dir', 'core.fixtures.record_enabled'),
    allowNo: true,
  }),
  replay: Flags.boolean({
    helpGroup: 'RECORD AND REPLAY',
    description: describe('Answer matching requests from the recorded fixtures first', 'core.fixtures.replay_enabled'),
    allowNo: true,
  }),
  'proxy-target': Flags.string({
    helpGroup: 'RECORD AND REPLAY',
    description: describe('Upstream to proxy to (and record from with --record)', 'proxy.upstream_url'),
    helpValue: '<url>',
  }),
  recorder: Flags.boolean({
    helpGroup: 'RECORD AND REPLAY',
    description: describe('Capture traffic into the recording database', 'recorder.enabled'),
    allowNo: true,
  }),
  'recorder-db': Flags.string({
    helpGroup: 'RECORD AND REPLAY',
    description: describe('Recording database file', 'recorder.db_path'),
    helpValue: '<path>',
  }),
  metrics: Flags.boolean({
    helpGroup: 'OTHER',
    description: describe('Serve Prometheus metrics', 'metrics.enabled'),
    allowNo: true,
  }),
  'metrics-port': Flags.integer({
    helpGroup: 'OTHER',
    description: describe('Metrics port', 'metrics.port'),
    helpValue: '<port>',
  }),
  'metrics-host': Flags.string({
    helpGroup: 'OTHER',
    description: describe('Address the metrics endpoint listens on', 'metrics.bind'),
    helpValue: '<address>',
  }),
  'max-connections': Flags.integer({
    helpGroup: 'OTHER',
    description: describe('Most concurrent connections of each server (HTTP, GraphQL, gRPC)', 'core.max_connections', 'unlimited'),
    helpValue: '<n>',
  }),
  'ai-enabled': Flags.boolean({
    helpGroup: 'OTHER',
    description: describe('Answers of the operations ai.rules (or a scenario\'s mockai_rules) name written by the model at ai.endpoint, checked against the response schema, the generator as fallback (docs/ai.md)', 'ai.enabled'),
    allowNo: true,
  }),
  'rag-provider': Flags.string({
    helpGroup: 'OTHER',
    description: describe('Examples of real answers of the same operation in the model\'s prompt: from the recorder database (needs --recorder) or the fixture files', 'ai.rag_provider'),
    helpValue: '<recorder|fixtures>',
    options: ['recorder', 'fixtures'],
  }),
};

type Settings = (value: never) => Array<[key: string, value: unknown]>;

/**
 * The config key(s) each flag sets; other flags (--config, --check, --print-config …) steer the
 * command. A flag that gives a limit also turns its block on.
 */
export const FLAG_KEYS: Readonly<Record<string, string | Settings>> = {
  spec: 'specs',
  'graphql-schema': 'graphql.schema',
  'proto-dir': 'grpc.proto_dir',
  out: 'build.out_dir',
  name: 'build.name',
  'http-port': 'server.http_port',
  'ws-port': 'server.ws_port',
  'grpc-port': 'server.grpc_port',
  'graphql-port': 'server.graphql_port',
  host: 'server.bind',
  cors: 'http.cors.enabled',
  'http-backend': 'server.http_backend',
  'http-version': 'server.http_version',
  workers: 'server.workers',
  'tls-cert': 'server.tls.cert',
  'tls-key': 'server.tls.key',
  'tls-self-signed': 'server.tls.self_signed',
  validation: 'validation.mode',
  'validation-status': 'validation.status_code',
  'aggregate-errors': 'validation.aggregate_errors',
  'validate-responses': 'validation.validate_responses',
  security: 'validation.security',
  'response-template-expand': 'response_template_expand',
  seed: 'seed',
  now: 'now',
  admin: 'admin.enabled',
  'admin-port': 'admin.port',
  'admin-host': 'admin.bind',
  'admin-embed': 'admin.embedded',
  'admin-mount-path': 'admin.mount_path',
  'admin-standalone': 'admin.standalone',
  'disable-admin-api': 'admin.disable_api',
  'latency-enabled': 'chaos.latency_enabled',
  'chaos-latency-range': ({ min, max }: { min: number; max: number }) => [
    ['chaos.latency_min_ms', min],
    ['chaos.latency_max_ms', max],
  ],
  'failures-enabled': 'observability.chaos.fault_injection.enabled',
  chaos: 'observability.chaos.enabled',
  'chaos-http-errors': 'observability.chaos.fault_injection.http_errors',
  'chaos-http-error-probability': (probability: number) => [
    ['observability.chaos.fault_injection.http_error_probability', probability],
    ['observability.chaos.fault_injection.enabled', true],
  ],
  'chaos-rate-limit': (rps: number) => [
    ['observability.chaos.rate_limit.requests_per_second', rps],
    ['observability.chaos.rate_limit.enabled', true],
  ],
  'rate-limit': 'observability.chaos.rate_limit.enabled',
  'chaos-bandwidth-limit': (bps: number) => [
    ['observability.chaos.traffic_shaping.bandwidth_limit_bps', bps],
    ['observability.chaos.traffic_shaping.enabled', true],
  ],
  'chaos-packet-loss': (percent: number) => [
    ['observability.chaos.traffic_shaping.packet_loss_percent', percent],
    ['observability.chaos.traffic_shaping.enabled', true],
  ],
  'chaos-profile': 'observability.chaos.profile',
  record: 'core.fixtures.record_enabled',
  replay: 'core.fixtures.replay_enabled',
  'proxy-target': 'proxy.upstream_url',
  recorder: 'recorder.enabled',
  'recorder-db': 'recorder.db_path',
  metrics: 'metrics.enabled',
  'metrics-port': 'metrics.port',
  'metrics-host': 'metrics.bind',
  'max-connections': 'core.max_connections',
  'log-file': 'logging.file',
  'ai-enabled': 'ai.enabled',
  'rag-provider': 'ai.rag_provider',
};

/** The config values among the parsed flags: only those the user passed. */
export function flagSettings(flags: Readonly<Record<string, unknown>>): FlagSetting[] {
  return Object.entries(FLAG_KEYS)
    .filter(([flag]) => flags[flag] !== undefined)
    .flatMap(([flag, target]) => {
      const pairs = typeof target === 'string' ? [[target, flags[flag]] as const] : target(flags[flag] as never);
      return pairs.map(([key, value]) => ({ flag, key, value }));
    });
}
