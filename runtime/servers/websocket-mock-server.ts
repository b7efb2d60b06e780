import type { Logger } from 'pino';
import type { ServerAdapter } from '../chain/exchange/index.js';
import { hostPort } from '../chain/exchange/index.js';
import { serverInfo, type RegisteredServer, type ServerInfo, type ServerRegistry } from '../control/registry/index.js';
import { createWebSocketAdapter, WsService, type WsServiceOptions } from './websocket/index.js';
import type { HttpBackend } from '../serve-options.js';

export interface WebSocketMockServerOptions extends WsServiceOptions {
  host: string;
  registry: ServerRegistry;
  logger: Logger;
  backend?: HttpBackend;
}

/**
 * The WebSocket mock server (port 3001 by default): routes, replay scripts and echo over the
 * adapter its library gives (websocket/). Listed in servers[] with its sessions and messages.
 */
export class WebSocketMockServer implements RegisteredServer {
  readonly kind = 'WebSocket' as const;
  private readonly service: WsService;
  private adapter: ServerAdapter | undefined;
  private startTime = Date.now();
  private readonly unregister: () => void;

  constructor(private readonly options: WebSocketMockServerOptions) {
    this.service = new WsService(options);
    this.unregister = options.registry.add(this);
  }

  get secure(): boolean {
    return this.options.settings.tls !== undefined;
  }

  get host(): string {
    return this.options.host;
  }

  /** Which server library answers: uws or node. */
  get backend(): string {
    return this.adapter?.library ?? (this.options.backend === 'node' ? 'node' : 'uws');
  }

  get port(): number {
    return this.adapter?.port ?? this.options.settings.port;
  }

  get listeningPort(): number | null {
    return this.adapter?.listening === true ? this.adapter.port : null;
  }

  async listen(): Promise<void> {
    const adapter = await createWebSocketAdapter(this.options.backend, this.service, this.options.logger);
    await adapter.listen(this.options.host, this.options.settings.port, '--ws-port');
    this.adapter = adapter;
    this.startTime = Date.now();
    const { routes, replayFile } = this.options.settings;
    const plays = replayFile === undefined ? 'echo' : 'websocket.replay_file';
    this.options.logger.info(`WebSocket mock on ws://${adapter.address} (${adapter.library}): ${routes.length} route(s); other paths play ${plays}`);
  }

  async close(): Promise<void> {
    const adapter = this.adapter;
    this.adapter = undefined;
    this.unregister();
    this.service.close();
    await adapter?.close();
    // after the adapter: the sessions it closed are saved whole
    await this.service.closeRecordings();
  }

  info(): ServerInfo {
    const adapter = this.adapter;
    const running = adapter?.listening === true;
    const { stats } = this.service;
    const address = running ? adapter.address : hostPort(this.options.host, this.options.settings.port);
    return serverInfo(this.kind, running, address, this.startTime, {
      active_connections: running ? this.service.connections : 0,
      total_requests: stats.sessions,
      messages_received: stats.messagesIn,
      messages_sent: stats.messagesOut,
    }, { library: this.backend, http_version: '1.1' });
  }

  /** GET /__mock/websocket: the server, its settings and what each path saw. */
  details(): Record<string, unknown> {
    const { settings } = this.service;
    return {
      server: this.info(),
      library: this.adapter?.library ?? null,
      settings: {
        replay_file: settings.replayFile ?? null,
        routes: settings.routes.map((route) => route.path),
        max_connections: settings.maxConnections,
        message_timeout: settings.messageTimeoutMs,
        heartbeat_interval: settings.heartbeatIntervalMs,
        max_message_bytes: settings.maxMessageBytes,
        max_buffered_bytes: settings.maxBufferedBytes,
      },
      paths: this.service.stats.byPath(),
    };
  }
}
