import type { Logger } from 'pino';
import type { TemplateRuntime } from '../../../common/contract/index.js';
import { chance, type ChaosState } from '../../chain/chaos/index.js';
import { problem, type Answer } from '../../chain/exchange/index.js';
import type { LiveState } from '../../chain/settings/index.js';
import type { FixtureStore } from '../../chain/fixtures/index.js';
import { upstreamTarget } from '../../chain/proxy/index.js';
import type { RequestLog } from '../../control/logging/index.js';
import { createTemplateRuntime } from '../../template/index.js';
import { WsRecordings, WsRoutes, WsSession, WsStats, scriptPlayer, upstreamRelay, type WsBehaviour, type WsHandshake, type WsPeer, type WsSessionReport } from '../../terminal/websocket/index.js';
import type { WebSocketOptions } from './ws-options.js';

/** What an adapter does with an upgrade request: accept it, answer it over HTTP, or drop the connection (chaos). */
export type Admission = { accept: true } | { accept: false; answer: Answer } | { accept: false; drop: true };

/** What an adapter tells the service about an accepted connection. */
export interface WsConnection {
  /** `data` may be the library's memory, valid only during the call. */
  received(data: Uint8Array, binary: boolean): void;
  pong(): void;
  closed(code: number, reason: string): void;
}

export interface WsServiceOptions {
  settings: WebSocketOptions;
  live: LiveState;
  requestLog: RequestLog;
  logger: Logger;
  seed?: number;
  fixtures?: FixtureStore;
}

/**
 * What the libraries may take in before the service sees a message and closes with 1009: uWS cuts
 * a larger one off without a close frame (1006), so its limit sits above max_message_bytes, bounded.
 */
export const libraryMessageLimit = (maxMessageBytes: number): number => maxMessageBytes + Math.min(maxMessageBytes, 16 * 1024 * 1024);

/**
 * The WebSocket server whatever its library: admits upgrades (websocket.max_connections, chaos
 * connection errors), opens a session per connection with the behaviour its path gets (a recorded
 * session when replaying, a route, websocket.replay_file, else an echo), keeps peers alive with
 * pings (websocket.heartbeat_interval: a peer that has not answered the last ping is dropped), and
 * records each session as it goes, and logs and counts it when it ends.
 */
export class WsService {
  readonly stats = new WsStats();
  private readonly routes: WsRoutes;
  private readonly recordings: WsRecordings | undefined;
  private readonly templates: TemplateRuntime;
  private readonly sessions = new Set<WsSession>();
  private pending = 0;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly options: WsServiceOptions) {
    const { settings, fixtures, logger, live } = options;
    this.routes = WsRoutes.compile(settings.routes, settings.replayFile);
    this.recordings = fixtures === undefined ? undefined : new WsRecordings(fixtures.dir, fixtures.settings.maxRecordingBytes, logger);
    this.templates = createTemplateRuntime({ seed: options.seed, now: live.clock.read });
  }

  get settings(): WebSocketOptions {
    return this.options.settings;
  }

  /** Connections open now, and upgrades accepted but not open yet. */
  get connections(): number {
    return this.sessions.size + this.pending;
  }

  /** Number of replay scripts loaded (routes and websocket.replay_file). */
  get scripts(): number {
    return this.routes.scripts;
  }

  admit(handshake: WsHandshake): Admission {
    const { settings, live } = this.options;
    if (this.connections >= settings.maxConnections) return this.refused(handshake, problem('MOCK_ERR_WS_CONNECTION_LIMIT', { max: settings.maxConnections }, { logged: true }));
    const chaos = connectionChaos(live.chaos, handshake);
    if (chaos !== undefined) return 'drop' in chaos ? chaos : this.refused(handshake, chaos.answer);
    if (this.escapesUpstream(handshake)) return this.refused(handshake, problem('MOCK_ERR_PROXY_DOT_SEGMENT', { path: handshake.path }, { logged: true }));
    this.pending++;
    return { accept: true };
  }

  /** An admitted upgrade that never opened (the client left during the handshake). */
  abandoned(): void {
    this.pending--;
  }

  open(peer: WsPeer, handshake: WsHandshake): WsConnection {
    this.pending--;
    const target = this.routes.find(handshake.path);
    const store = this.options.fixtures?.settings;
    const replayed = store?.replay === true ? this.recordings?.take(handshake.path) : undefined;
    const behaviour: WsBehaviour = replayed !== undefined ? scriptPlayer(replayed) : (this.relay(target.claimed) ?? target.behaviour());
    const { settings } = this.options;
    const session = new WsSession(peer, behaviour, {
      handshake,
      pathKey: target.pathKey,
      params: target.params,
      limits: { messageTimeoutMs: settings.messageTimeoutMs, maxBufferedBytes: settings.maxBufferedBytes },
      templates: this.templates,
      latency: () => this.latency(),
      tape: store?.record === true && replayed === undefined ? this.recordings?.start(handshake.path) : undefined,
      onEnd: (report) => this.ended(session, report),
    });
    this.sessions.add(session);
    this.stats.opened(target.pathKey);
    this.startHeartbeat();
    // what a behaviour throws ends its session with 1011, logged; it never reaches the server's event loop
    const failed = (e: unknown): void => {
      this.options.logger.error({ err: e, path: handshake.path }, 'WebSocket session failed');
      session.fail(1011, 'the mock failed to answer; see its log');
    };
    try {
      session.start();
    } catch (e) {
      failed(e);
    }
    return {
      received: (data, binary) => {
        const bytes = data.byteLength;
        if (bytes > settings.maxMessageBytes) session.fail(1009, `a message of ${bytes} bytes is larger than websocket.max_message_bytes (${settings.maxMessageBytes})`);
        else {
          try {
            session.receivedFrame(data, binary);
          } catch (e) {
            failed(e);
          }
        }
      },
      pong: () => {
        session.alive = true;
      },
      closed: (code, reason) => session.closed(code, reason),
    };
  }

  /**
   * Paths no route claims go to the upstream while the proxy is on (proxy.enabled, --proxy-target,
   * the admin API): proxy.upstream_url with its scheme made ws(s), the usual way to record a real
   * API's WebSocket sessions.
   */
  private relay(claimed: boolean): WsBehaviour | undefined {
    const { proxy } = this.options.live;
    if (claimed || !proxy.enabled || proxy.upstream_url === null) return undefined;
    return upstreamRelay(proxy.upstream_url, proxy.timeout_seconds * 1000);
  }

  /**
   * An upgrade the relay would take to the upstream, on a path with dot segments: refused with the
   * HTTP proxy's 400 before the handshake completes, so the client sees why (a path joined to the
   * upstream's must not climb out of it). Routes and recorded sessions that would play instead
   * answer it as they answer any path.
   */
  private escapesUpstream(handshake: WsHandshake): boolean {
    const { proxy } = this.options.live;
    if (!proxy.enabled || proxy.upstream_url === null || upstreamTarget(proxy.upstream_url, handshake.path, '') !== undefined) return false;
    if (this.routes.find(handshake.path).claimed) return false;
    return !(this.options.fixtures?.settings.replay === true && this.recordings?.has(handshake.path) === true);
  }

  /** Stops the heartbeat (the server is closing, or no session is left). */
  close(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  /** Resolves once every recorded session is on disk (WsRecordings.close); sessions still open are saved as they stand. */
  closeRecordings(): Promise<void> {
    return this.recordings?.close() ?? Promise.resolve();
  }

  private ended(session: WsSession, report: WsSessionReport): void {
    this.sessions.delete(session);
    if (this.sessions.size === 0) this.close();
    this.stats.ended(report);
    const { handshake } = report;
    this.options.requestLog.record({
      method: 'GET',
      path: handshake.path,
      status: 101,
      source: report.source,
      durationMs: report.durationMs,
      client: handshake.client,
      headers: handshake.headers,
      responseBytes: report.bytesOut,
      error: report.error,
      websocket: {
        messages_in: report.messagesIn,
        messages_out: report.messagesOut,
        close_code: report.closeCode,
        close_reason: report.closeReason,
        played: report.behaviour,
      },
    });
  }

  /** Upgrades answered over HTTP are requests of the log too. */
  private refused(handshake: WsHandshake, answer: Answer): Admission {
    const responseBytes = typeof answer.body === 'string' ? Buffer.byteLength(answer.body) : answer.body.byteLength;
    this.options.requestLog.record({ method: 'GET', path: handshake.path, status: answer.status, source: answer.source, durationMs: 0, client: handshake.client, headers: handshake.headers, responseBytes, error: answer.error ?? null });
    return { accept: false, answer };
  }

  /** Latency chaos per outgoing message: the global latency (admin API, chaos profiles), drawn from the chaos generator. */
  private latency(): number {
    const { live } = this.options;
    const { enabled, base_ms, jitter_ms, probability } = live.latency;
    if (!enabled) return 0;
    const { chaos } = live;
    if (probability !== undefined && !chance(chaos.random, probability)) return 0;
    const ms = base_ms + (jitter_ms > 0 ? Math.round(chaos.random.next() * jitter_ms) : 0);
    if (ms > 0) chaos.counters.add('latency');
    return ms;
  }

  private startHeartbeat(): void {
    const every = this.options.settings.heartbeatIntervalMs;
    if (every <= 0 || this.heartbeat !== undefined) return;
    this.heartbeat = setInterval(() => {
      for (const session of this.sessions) {
        // one the mock is closing ends by itself (uWS at once, ws after its grace period)
        if (!session.open) continue;
        if (!session.alive) {
          session.terminate(`no pong within websocket.heartbeat_interval (${every} ms): the peer is gone`);
          continue;
        }
        session.alive = false;
        session.ping();
      }
    }, every);
    this.heartbeat.unref();
  }
}

/** observability.chaos.fault_injection's connection errors, for the upgrades its request_matcher selects. */
function connectionChaos(chaos: ChaosState, handshake: WsHandshake): { accept: false; answer: Answer } | { accept: false; drop: true } | undefined {
  if (!chaos.active('fault_injection')) return undefined;
  const s = chaos.settings.fault_injection;
  if (!s.connection_errors || !chaos.machines.matches({ client: handshake.client, headers: handshake.headers, bodyBytes: 0, chunked: false, json: undefined })) return undefined;
  if (!chance(chaos.random, s.connection_error_probability)) return undefined;
  if (s.connection_error_kind !== 'http_503') {
    chaos.counters.add(s.connection_error_kind);
    return { accept: false, drop: true };
  }
  chaos.counters.add('connection_error');
  const why = `connection_error_probability ${s.connection_error_probability}`;
  const answer = problem('MOCK_ERR_CHAOS_CONNECTION', { why }, { headers: [['x-mock-fault', 'connection_error;kind=http_503']], logged: true });
  return { accept: false, answer };
}
