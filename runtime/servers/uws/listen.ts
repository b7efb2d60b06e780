import net from 'node:net';
import { MockError } from '../../../common/errors.js';
import { uws, type TemplatedApp, type us_listen_socket } from './uws.js';

/** uWS's LIBUS_LISTEN_EXCLUSIVE_PORT (a const enum its typings do not export as a value). */
const EXCLUSIVE_PORT = 1;

/** LIBUS_LISTEN_DEFAULT: SO_REUSEPORT, so that the workers of `mock serve --workers` listen on one port and the kernel spreads connections over them. */
const SHARED_PORT = 0;

let listenOptions = EXCLUSIVE_PORT;

/** This process is one worker of several on the same ports (mock serve --workers): from now on its servers bind with SO_REUSEPORT. */
export function sharePorts(): void {
  listenOptions = SHARED_PORT;
}

/** Binds the app; a refused bind is explained (port in use, or not permitted) in one line. */
export async function listen(app: TemplatedApp, host: string, port: number, flagHint: string): Promise<{ socket: us_listen_socket; port: number }> {
  // exclusive unless told otherwise: by default uWS sets SO_REUSEPORT and a second server would silently share the port
  const listenExclusive = app.listen as unknown as (h: string, p: number, options: number, cb: (token: us_listen_socket | false) => void) => void;
  const socket = await new Promise<us_listen_socket | false>((resolve) => listenExclusive.call(app, host, port, listenOptions, resolve));
  if (socket) return { socket, port: uws().us_socket_local_port(socket as never) };
  const reason = await probe(host, port);
  if (reason === 'EADDRINUSE') {
    throw new MockError('MOCK_ERR_PORT_IN_USE', `port ${port} on ${host} is already in use (stop the other process or choose another port with ${flagHint})`);
  }
  throw new MockError('MOCK_ERR_LISTEN', `cannot listen on ${host}:${port}${reason ? ` (${reason})` : ''}; check the address or choose another port with ${flagHint}`);
}

/** Asks the OS why the bind failed; uWS only says that it did. */
function probe(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', (e: NodeJS.ErrnoException) => resolve(e.code));
    server.listen(port, host, () => server.close(() => resolve(undefined)));
  });
}
