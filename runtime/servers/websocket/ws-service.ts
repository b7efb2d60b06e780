import type { Logger } from 'pino';
import type { TemplateRuntime } from '../../../common/contract/index.js';
import { createDispatch, createStages, RequestChain, type Dispatch, type ProtocolPart, type TrafficRecorder } from '../../chain/index.js';
import { problem, type Answer, type Exchange } from '../../chain/exchange/index.js';
import type { LiveState } from '../../chain/settings/index.js';
import type { FixtureStore } from '../../chain/fixtures/index.js';
import { upstreamTarget } from '../../chain/proxy/index.js';
import type { RequestLog } from '../../control/logging/index.js';
import { createTemplateRuntime, type TemplatePlugins } from '../../template/index.js';
import { WsRecordings, WsRoutes, WsSession, WsStats, scriptPlayer, upstreamRelay, type CompiledScript, type WsBehaviour, type WsPeer, type WsSessionReport } from '../../terminal/websocket/index.js';
import { handshakeOf } from './handshake.js';
import type { WebSocketOptions } from './ws-options.js';
import { WsRouter } from './ws-router.js';
import { andThen } from '../../store/index.js';

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
  /** The traffic statistics every server's exchanges are counted in (/__mock/stats, the metrics). */
  stats?: TrafficRecorder;
  logger: Logger;
  seed?: number;
  fixtures?: FixtureStore;
  /** Answers the scripts' {{plugin:…}} tokens (mock.yaml plugins). */
  plugins?: TemplatePlugins;
}

/** The admission terminal's answer: the chain lets the upgrade through, the adapter completes the handshake. */
const ADMITTED: Answer = Object.freeze({ status: 101, headers: [], body: '', source: 'script' }) as Answer;

/** Whether the chain's answer to an upgrade admits it (the latency it holds becomes the session's, per message). */
export const admits = (answer: Answer): boolean => answer.status === 101 && answer.delivery?.end === undefined;

/** A session's part of its request-log entry, set when it ended. */
function describeSession(ex: Exchange): ProtocolPart | undefined {
  const session = ex.keptLocals?.websocket;
  return session === undefined ? undefined : { websocket: session.log, sentBytes: session.bytesOut };
}

/**
 * What the libraries may take in before the service sees a message and closes with 1009: uWS cuts
 * a larger one off without a close frame (1006), so its limit sits above max_message_bytes, bounded.
 */
export const libraryMessageLimit = (maxMessageBytes: number): number => maxMessageBytes + Math.min(maxMessageBytes, 16 * 1024 * 1024);

/**
 * The WebSocket server whatever its library: each upgrade is one exchange through the chain's
 * upgrade stages (the protective ones, with websocket.max_connections as the connection limit;
 * latency; faults), answered by the admission terminal; an admitted upgrade opens a session with
 * the behaviour its path gets (a recorded session when replaying, a route, websocket.replay_file,
 * else an echo), kept alive with pings (websocket.heartbeat_interval: a peer that has not answered
 * the last ping is dropped) and recorded as it goes. The exchange is written (request log, traffic
 * statistics, the stages' hooks) once: when its refusal is, or when its session ends.
 */
export class WsService {
  readonly stats = new WsStats();
  private readonly routes: WsRoutes;
  private readonly router: WsRouter;
  private readonly dispatch: Dispatch;
  private readonly recordings: WsRecordings | undefined;
  private readonly templates: TemplateRuntime;
  private readonly sessions = new Set<WsSession>();
  private pending = 0;
  /** The recorded session an admitted upgrade replays, chosen by the admission terminal. */
  private readonly replays = new WeakMap<Exchange, CompiledScript>();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly options: WsServiceOptions) {
    const { settings, fixtures, logger, live } = options;
    this.routes = WsRoutes.compile(settings.routes, settings.replayFile);
    const router = (this.router = new WsRouter(this.routes, settings.routes.map((route) => route.path)));
    this.recordings = fixtures === undefined ? undefined : new WsRecordings(fixtures.dir, fixtures.settings.maxRecordingBytes, logger, (key) => fixtures.advance(key), fixtures.waiting);
    this.templates = createTemplateRuntime({ seed: options.seed, now: live.clock.read, plugins: options.plugins });
    const stages = createStages(
      {
        live,
        logger,
        // the connection the upgrade came on counts too, as an HTTP request's does
        openConnections: () => this.connections + 1,
        settings: { maxBodyBytes: 0, maxConnections: settings.maxConnections, connectionLimitProblem: 'MOCK_ERR_WS_CONNECTION_LIMIT' },
      },
      'upgrade',
    );
    const chain = new RequestChain(stages, (ex) => this.admission(ex));
    chain.setRoutes(router.routes);
    this.dispatch = createDispatch({ router: () => router, chain, maxBodyBytes: 0, logger, requestLog: options.requestLog, stats: options.stats, describe: describeSession });
  }

  get settings(): WebSocketOptions {
    return this.options.settings;
  }

  /** Connections open now, and upgrades admitted but not open yet. */
  get connections(): number {
    return this.sessions.size + this.pending;
  }

  /** Number of replay scripts loaded (routes and websocket.replay_file). */
  get scripts(): number {
    return this.routes.scripts;
  }

  /** Runs an upgrade through the chain. Admitted, it counts as a connection until its session ends or it never opens. Never rejects. */
  admit(ex: Exchange): Answer | Promise<Answer> {
    const answer = this.dispatch.answer(ex);
    return answer instanceof Promise ? answer.then((a) => this.counted(a)) : this.counted(answer);
  }

  private counted(answer: Answer): Answer {
    if (admits(answer)) this.pending++;
    return answer;
  }

  /** An upgrade answered over HTTP (or dropped), once written: logged and counted as every exchange. */
  refused(ex: Exchange, answer: Answer): void {
    this.dispatch.written(ex, answer);
  }

  /** An admitted upgrade that never opened (the client left during the handshake). */
  abandoned(ex: Exchange, admitted: Answer): void {
    this.pending--;
    this.dispatch.written(ex, { ...admitted, status: 0, delivery: undefined, error: 'the client left before the handshake completed' });
  }

  /** The chain's terminal: admits what no stage refused, but for an upgrade the relay may not take to the upstream. */
  private admission(ex: Exchange): Answer | Promise<Answer> {
    if (this.escapesUpstream(ex)) return problem('MOCK_ERR_PROXY_DOT_SEGMENT', { path: ex.path }, { logged: true });
    if (this.options.fixtures?.settings.replay !== true || this.recordings === undefined) return ADMITTED;
    // the recorded session to replay is chosen as the upgrade is admitted: the store answers the position now or later, the session opens at once
    return andThen(this.recordings.take(ex.path), (script) => {
      if (script !== undefined) this.replays.set(ex, script);
      return ADMITTED;
    });
  }

  /** `admitted`: the chain's answer; the latency it holds is held before every message the session sends. */
  open(peer: WsPeer, ex: Exchange, admitted: Answer): WsConnection {
    this.pending--;
    ex.answeredAt = performance.now();
    const handshake = handshakeOf(ex);
    const target = this.router.targetOf(ex);
    const replayed = this.replays.get(ex);
    const behaviour: WsBehaviour = replayed !== undefined ? scriptPlayer(replayed) : (this.relay(target.claimed) ?? target.behaviour());
    const { settings } = this.options;
    const hold = admitted.delivery?.holdMs ?? 0;
    const session = new WsSession(peer, behaviour, {
      handshake,
      pathKey: target.pathKey,
      params: target.params,
      limits: { messageTimeoutMs: settings.messageTimeoutMs, maxBufferedBytes: settings.maxBufferedBytes },
      templates: this.templates,
      latency: () => hold,
      tape: this.options.fixtures?.settings.record === true && replayed === undefined ? this.recordings?.start(handshake.path) : undefined,
      onEnd: (report) => this.ended(session, ex, admitted, report),
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
  private escapesUpstream(ex: Exchange): boolean {
    const { proxy } = this.options.live;
    if (!proxy.enabled || proxy.upstream_url === null || upstreamTarget(proxy.upstream_url, ex.path, '') !== undefined) return false;
    if (this.router.targetOf(ex).claimed) return false;
    return !(this.options.fixtures?.settings.replay === true && this.recordings?.has(ex.path) === true);
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

  private ended(session: WsSession, ex: Exchange, admitted: Answer, report: WsSessionReport): void {
    this.sessions.delete(session);
    if (this.sessions.size === 0) this.close();
    this.stats.ended(report);
    ex.locals.websocket = {
      log: { messages_in: report.messagesIn, messages_out: report.messagesOut, close_code: report.closeCode, close_reason: report.closeReason, played: report.behaviour },
      bytesOut: report.bytesOut,
    };
    this.dispatch.written(ex, { ...admitted, source: report.source, delivery: undefined, error: report.error ?? undefined });
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
