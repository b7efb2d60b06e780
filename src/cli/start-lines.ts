import type { RunningMock } from '../../runtime/index.js';
import type { ResolvedConfig } from '../config/index.js';

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

/** How a node:http2 port (http_version 2, docs/http2.md) tells HTTP/2 from HTTP/1.1: ALPN over TLS, else the client's first bytes. */
const h2Note = (secure: boolean): string => `node:http2: HTTP/2 by ${secure ? 'ALPN' : 'prior knowledge'}, and HTTP/1.1`;

function backendNote(backend: string | undefined, secure: boolean): string {
  return backend === 'node:http2' ? `(${h2Note(secure)})` : BACKEND_NOTE[backend ?? 'uws'];
}

/** What `mock serve` prints once it serves: the URL of each server, as a user on this machine opens or dials it. */
export function startLines(running: RunningMock, resolved: ResolvedConfig, httpUrl: (host: string, port: number, secure?: boolean) => string): string[] {
  // the HTTP mock, which hosts the management router, runs whenever there is a description
  const http = running.servers.find((server) => server.kind === 'HTTP');
  const at = (host: string, port: number, secure = false): string => reachableUrl(httpUrl(host, port, secure));
  const lines = http === undefined ? [] : [`mock: serving on ${at(http.host, http.port, http.secure)}${http.basePath ?? ''} ${backendNote(http.backend, http.secure === true)}`];
  const websocket = running.servers.find((server) => server.kind === 'WebSocket');
  if (websocket !== undefined) lines.push(`mock: WebSocket on ${at(websocket.host, websocket.port, websocket.secure).replace(/^http/, 'ws')}`);
  const graphql = running.servers.find((server) => server.kind === 'GraphQL');
  // uws and node are said once, on the HTTP mock's line; HTTP/2 is each server's own
  const graphqlNote = graphql?.backend === 'node:http2' ? ` (${h2Note(graphql.secure === true)})` : '';
  if (graphql !== undefined) lines.push(`mock: GraphQL on ${at(graphql.host, graphql.port, graphql.secure)}${resolved.config.graphql.path}${graphqlNote}`);
  const grpc = running.servers.find((server) => server.kind === 'gRPC');
  if (grpc !== undefined) lines.push(`mock: gRPC on ${hostPort(grpc.host, grpc.port)}${grpc.secure === true ? ' (TLS)' : ''}`);
  // the bridge's bound port, when the gRPC server tells it (port 0), else the configured one
  const bridge = resolved.config.grpc.http_bridge;
  const bridgePort = grpc?.bridgePort ?? bridge.port;
  if (grpc !== undefined && bridge.enabled) lines.push(`mock: gRPC HTTP bridge on ${at(grpc.host, bridgePort, grpc.secure)}`);
  const admin = resolved.config.admin;
  const api = admin.disable_api ? '' : ', API under /__mock/';
  const controlNote = (url: string, version: string | undefined): string => (version === '2' ? `; ${h2Note(url.startsWith('https:'))}` : '');
  if (running.adminUrl !== undefined)
    lines.push(`mock: admin on ${reachableUrl(running.adminUrl)} (dashboard ${reachableUrl(running.adminUrl)}/${api}${controlNote(running.adminUrl, running.adminHttpVersion)})`);
  else if (http !== undefined && (admin.enabled || admin.embedded)) lines.push(`mock: admin embedded at ${at(http.host, http.port, http.secure)}${admin.mount_path} (dashboard${api})`);
  if (running.metricsUrl !== undefined)
    lines.push(`mock: metrics on ${reachableUrl(running.metricsUrl)}/metrics${running.metricsHttpVersion === '2' ? ` (${h2Note(running.metricsUrl.startsWith('https:'))})` : ''}`);
  return lines;
}
