import { Flags } from '@oclif/core';
import { allowRefFlag, allowedRefs } from '../cli/allow-ref.js';
import { buildFlags, flagSettings, serveFlags } from '../cli/config-flags.js';
import { MockCommand } from '../cli/mock-command.js';
import { startServing } from '../cli/start-serving.js';
import { keepServing } from '../cli/keep-serving.js';
import { untilSignal } from '../cli/until-signal.js';
import { capYoungGeneration, youngGenerationSetByUser } from '../cli/young-generation.js';
import { formatConfig, loadConfig } from '../config/index.js';

/** `http://host:port` with an unspecified host (0.0.0.0, ::) as localhost, which a user on this machine can open: a browser cannot open http://0.0.0.0. */
const reachableUrl = (url: string): string => url.replace(/^(\w+:\/\/)(0\.0\.0\.0|\[::\])(?=[:/]|$)/, '$1localhost');

/** `127.0.0.1:50051`, `[::1]:50051`: where a gRPC client dials (as bound: clients dial 0.0.0.0 too). */
function hostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The start line names the HTTP server library, and what uWS refuses: its 505 to HTTP/1.0 is otherwise a mystery. */
const BACKEND_NOTE: Readonly<Record<string, string>> = {
  uws: '(uWebSockets.js; HTTP/1.0 clients get 505: serve them with --http-backend node)',
  node: '(node:http)',
};

export default class Serve extends MockCommand {
  static description =
    'Serve mocks of API descriptions over HTTP, rebuilding the generated mock first when it is out of date, WebSocket mocks when asked (--ws-port, or websocket in mock.yaml: replay scripts, routes, echo), a GraphQL mock of a schema (--graphql-schema, or graphql.schema in mock.yaml), and a gRPC mock of the .proto files in proto/ (--proto-dir, --grpc-port); a schema or .proto files alone serve without the HTTP mock. Runs until interrupted (SIGINT/SIGTERM).';

  static examples = [
    '<%= config.bin %> <%= command.id %> --spec api.yaml',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --http-port 8080 --validation warn',
    '<%= config.bin %> <%= command.id %> -c mock.yaml --validation enforce --validation-status 422',
    'MOCK_HTTP_PORT=8080 <%= config.bin %> <%= command.id %> --print-config',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --admin --metrics',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --admin-embed --admin-mount-path /ops',
    'MOCK_ADMIN_AUTH_ENABLED=true JWT_SECRET=$(openssl rand -hex 32) <%= config.bin %> <%= command.id %> --spec api.yaml --admin --admin-host 0.0.0.0',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --latency-enabled --chaos-latency-range 10-500',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --seed 42 --now 2025-06-01T00:00:00Z',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --no-security',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --record --proxy-target https://api.example.com',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --replay',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --recorder --recorder-db recordings.db',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --ws-port 3001',
    'MOCK_WS_REPLAY_FILE=session.jsonl <%= config.bin %> <%= command.id %> --spec api.yaml --ws-port 3001',
    '<%= config.bin %> <%= command.id %> --graphql-schema schema.graphql',
    "<%= config.bin %> <%= command.id %> --spec api.yaml --graphql-schema 'graphql/**/*.graphql' --graphql-port 4000 --seed 42",
    '<%= config.bin %> <%= command.id %> --proto-dir protos --grpc-port 50051',
  ];

  static flags = {
    ...buildFlags,
    ...allowRefFlag,
    ...serveFlags,
    'print-config': Flags.boolean({ description: 'Print the effective configuration, with where each value came from, and exit.' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Serve);
    const resolved = loadConfig({ configPath: flags.config, flags: flagSettings(flags) });
    if (flags['print-config']) {
      process.stdout.write(formatConfig(resolved));
      return;
    }

    const { running, logger, close } = await startServing(resolved, { allowRefs: allowedRefs(flags['allow-ref']), say: (line) => this.log(line) });
    keepServing(logger);
    const { httpUrl } = await import('../../runtime/index.js');
    // the HTTP mock, which hosts the management router, runs whenever there is a description
    const http = running.servers.find((server) => server.kind === 'HTTP');
    // 2 x 8 MB: as fast as V8's default 2 x 16 MB here, 16 MB less resident memory
    const uncap = youngGenerationSetByUser() ? () => {} : capYoungGeneration(16 * 1024 * 1024);
    // one write, so that whoever reads the output sees every address at once, each as a user on this machine opens it
    const at = (host: string, port: number): string => reachableUrl(httpUrl(host, port));
    const lines = http === undefined ? [] : [`mock: serving on ${at(http.host, http.port)}${http.basePath ?? ''} ${BACKEND_NOTE[http.backend ?? 'uws']}`];
    const websocket = running.servers.find((server) => server.kind === 'WebSocket');
    if (websocket !== undefined) lines.push(`mock: WebSocket on ${at(websocket.host, websocket.port).replace(/^http/, 'ws')}`);
    const graphql = running.servers.find((server) => server.kind === 'GraphQL');
    if (graphql !== undefined) lines.push(`mock: GraphQL on ${at(graphql.host, graphql.port)}${resolved.config.graphql.path}`);
    const grpc = running.servers.find((server) => server.kind === 'gRPC');
    if (grpc !== undefined) lines.push(`mock: gRPC on ${hostPort(grpc.host, grpc.port)}`);
    // the bridge's bound port, when the gRPC server tells it (port 0), else the configured one
    const bridge = resolved.config.grpc.http_bridge;
    const bridgePort = grpc?.bridgePort ?? bridge.port;
    if (grpc !== undefined && bridge.enabled) lines.push(`mock: gRPC HTTP bridge on ${at(grpc.host, bridgePort)}`);
    const admin = resolved.config.admin;
    const api = admin.disable_api ? '' : ', API under /__mock/';
    if (running.adminUrl !== undefined) lines.push(`mock: admin on ${reachableUrl(running.adminUrl)} (dashboard ${reachableUrl(running.adminUrl)}/${api})`);
    else if (http !== undefined && (admin.enabled || admin.embedded)) lines.push(`mock: admin embedded at ${at(http.host, http.port)}${admin.mount_path} (dashboard${api})`);
    if (running.metricsUrl !== undefined) lines.push(`mock: metrics on ${reachableUrl(running.metricsUrl)}/metrics`);
    this.log(lines.join('\n'));

    const signal = await untilSignal();
    logger.info({ signal }, `shutting down (${signal})`);
    uncap();
    await close();
    // uWS has no way to close open keep-alive connections, which would hold the process until they idle out
    process.exit(0);
  }
}
