import { MockError } from '../../../common/errors.js';
import type { HttpBackend, HttpVersion } from '../../serve-options.js';
import { Http2Adapter } from './http2-server.js';
import { NodeHttpAdapter } from './node-server.js';
import { UwsHttpAdapter, type HttpAdapterOptions } from './server.js';
import { loadUws } from '../uws/index.js';

/**
 * What node:http costs against uWebSockets.js on the mock's own routes: `npm run bench:http`'s
 * `node:` rows against the uWS rows of the same run (0.35x to 0.41x on examples/petstore.yaml,
 * docs/backends.md); the config schema says the same.
 */
export const NODE_HTTP_THROUGHPUT = 'about 0.4x the throughput';

/** The fallback is said once per process, however many HTTP servers (the mock, GraphQL) fall back. */
let fallbackSaid = false;
let certificateNoteSaid = false;

/**
 * The adapter server.http_version and server.http_backend ask for: HTTP/2 is node:http2's. `auto` (or none) is uWebSockets.js where its addon
 * loads and node:http where it does not, with one info line saying why and what it costs;
 * `uws` where the addon does not load is a one-line error saying the same.
 */
export async function createHttpAdapter(
  backend: HttpBackend | undefined,
  options: HttpAdapterOptions,
  logger: { info(message: string): void },
  version: HttpVersion = '1.1',
): Promise<UwsHttpAdapter | NodeHttpAdapter | Http2Adapter> {
  // uWebSockets.js has no HTTP/2
  if (version === '2') return new Http2Adapter(options);
  if (backend === 'node') return new NodeHttpAdapter(options);
  // uWebSockets.js never shows a client's certificate: the mutualTLS scheme and certificate conditions need node:https
  if (options.tls !== undefined && options.tls.clientAuth !== 'none') {
    if (backend === 'uws')
      throw new MockError(
        'MOCK_ERR_HTTP_BACKEND_UNAVAILABLE',
        `server.http_backend is uws, but server.tls.client_auth ${options.tls.clientAuth} needs node:https (uWebSockets.js does not show client certificates): set server.http_backend to auto or node`,
      );
    if (!certificateNoteSaid) logger.info(`server.tls.client_auth ${options.tls.clientAuth}: serving with node:https, which shows client certificates (${NODE_HTTP_THROUGHPUT} of uWebSockets.js)`);
    certificateNoteSaid = true;
    return new NodeHttpAdapter(options);
  }
  const load = await loadUws();
  if (load.ok) return new UwsHttpAdapter(options);
  const elsewhere = load.alternatives === '' ? '' : `Node ${load.alternatives} serves with uWS`;
  if (backend === 'uws') {
    throw new MockError(
      'MOCK_ERR_HTTP_BACKEND_UNAVAILABLE',
      `server.http_backend is uws, but ${load.reason}: set it to auto or node to serve with node:http (${NODE_HTTP_THROUGHPUT})${elsewhere === '' ? '' : `, or run mock on Node ${load.alternatives}`}`,
    );
  }
  if (!fallbackSaid) logger.info(`${load.reason}: serving with node:http, ${NODE_HTTP_THROUGHPUT}${elsewhere === '' ? '' : `; ${elsewhere}`}`);
  fallbackSaid = true;
  return new NodeHttpAdapter(options);
}
