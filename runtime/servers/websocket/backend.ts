import { MockError } from '../../../common/errors.js';
import type { HttpBackend } from '../../serve-options.js';
import { loadUws } from '../uws/index.js';
import { NodeWebSocketAdapter } from './node-adapter.js';
import { UwsWebSocketAdapter } from './uws-adapter.js';
import type { WsService } from './ws-service.js';

/**
 * The library server.http_backend asks for, as for the HTTP mock: uWebSockets.js where its addon
 * loads (`auto`, `uws`), else node:http with the `ws` package, with one info line saying why.
 */
export async function createWebSocketAdapter(backend: HttpBackend | undefined, service: WsService, logger: { info(message: string): void }): Promise<UwsWebSocketAdapter | NodeWebSocketAdapter> {
  if (backend === 'node') return new NodeWebSocketAdapter(service);
  // uWebSockets.js never asks for client certificates: websocket.tls client_auth needs node:https
  const clientAuth = service.settings.tls?.clientAuth ?? 'none';
  if (clientAuth !== 'none') {
    if (backend === 'uws') throw new MockError('MOCK_ERR_HTTP_BACKEND_UNAVAILABLE', `server.http_backend is uws, but client_auth ${clientAuth} of the WebSocket server's TLS needs node:https (uWebSockets.js does not ask for client certificates): set server.http_backend to auto or node`);
    logger.info(`WebSocket TLS client_auth ${clientAuth}: serving WebSocket with node:https and the ws package, which ask for client certificates`);
    return new NodeWebSocketAdapter(service);
  }
  const load = await loadUws();
  if (load.ok) return new UwsWebSocketAdapter(service);
  if (backend === 'uws') {
    throw new MockError('MOCK_ERR_HTTP_BACKEND_UNAVAILABLE', `server.http_backend is uws, but ${load.reason}: set it to auto or node to serve WebSocket with the ws package`);
  }
  logger.info(`${load.reason}: serving WebSocket with node:http and the ws package`);
  return new NodeWebSocketAdapter(service);
}
