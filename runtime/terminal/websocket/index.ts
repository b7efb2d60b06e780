/**
 * What answers WebSocket connections, whatever the server library: sessions (counting, recording,
 * latency, templates), the behaviours that play on them (echo, replay scripts, template answers),
 * the routes that choose one per path, recorded sessions under core.fixtures.dir, and statistics.
 */
export { echo } from './echo.js';
export { MESSAGE_TIMEOUT_CLOSE, compileScript, scriptPlayer, type CompiledScript } from './script-player.js';
export { UNMATCHED_CLOSE, messageAnswers, type CompiledAnswers } from './message-answers.js';
export type { WsHandshake, WsPeer } from './peer.js';
export { WsRecordings } from './recordings.js';
export type { WsAnswerSpec, WsBinarySpec, WsRouteSpec } from './route-spec.js';
export { WsRoutes, loadScript, type WsTarget } from './routes.js';
export { WsSession, type WsBehaviour, type WsSessionOptions, type WsSessionReport, type WsTape } from './session.js';
export type { WsSessionLimits } from './session-limits.js';
export { WsStats, type WsPathStats } from './ws-stats.js';
export { UPSTREAM_FAILED_CLOSE, upstreamRelay } from './upstream-relay.js';
