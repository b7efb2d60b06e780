import { MockError } from '../../../common/errors.js';
import { hostPort } from '../../chain/exchange/index.js';
import { listen } from './listen.js';
import { loadUws, uws, type TemplatedApp, type us_listen_socket } from './uws.js';

/** The listening side every uWS adapter has: loads the addon, builds the app, binds, unbinds. */
export class UwsListener {
  private socket: us_listen_socket | undefined;
  private host = '';
  private boundPort = 0;

  /** `app` is built only once the addon has loaded; a refused bind is a one-line MockError naming `flag`. */
  async listen(app: () => TemplatedApp, host: string, port: number, flag: string): Promise<void> {
    const load = await loadUws();
    if (!load.ok) throw new MockError('MOCK_ERR_HTTP_BACKEND_UNAVAILABLE', `${load.reason}: serve with node:http (server.http_backend: node) instead`);
    const bound = await listen(app(), host, port, flag);
    this.socket = bound.socket;
    this.host = host;
    this.boundPort = bound.port;
  }

  /** Stops accepting; open connections stay until their adapter ends them. */
  close(): void {
    const socket = this.socket;
    this.socket = undefined;
    if (socket !== undefined) uws().us_listen_socket_close(socket);
  }

  get listening(): boolean {
    return this.socket !== undefined;
  }

  get port(): number {
    return this.boundPort;
  }

  get address(): string {
    return hostPort(this.host, this.boundPort);
  }
}
