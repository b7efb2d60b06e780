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
  const load = await loadUws();
  if (load.ok) return new UwsWebSocketAdapter(service);
  if (backend === 'uws') {
    throw new MockError('MOCK_ERR_HTTP_BACKEND_UNAVAILABLE', `server.http_backend is uws, but ${load.reason}: set it to auto or node to serve WebSocket with the ws package`);
  }
  logger.info(`${load.reason}: serving WebSocket with node:http and the ws package`);
  return new NodeWebSocketAdapter(service);
}
