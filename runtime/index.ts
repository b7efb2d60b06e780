import type { RunningServer, ServeOptions } from './options.js';
import { Engine, loadBuild } from './engine/index.js';
import { createHttpApp, listen, uWS } from './http/index.js';
import { RequestLog } from './logging/index.js';

export type { RunningServer, ServeOptions, ValidationMode, ValidationOptions } from './options.js';
export { Engine, loadBuild } from './engine/index.js';
export { RequestLog, RequestLogEntry, type RequestLogEntryJson, type RequestLogFilter } from './logging/index.js';

/** Loads a build and serves it on uWebSockets.js. */
export async function startHttpServer(options: ServeOptions): Promise<RunningServer & { operations: number; engine: Engine }> {
  const build = await loadBuild(options.buildDir);
  const engine = new Engine(build, {
    validation: options.validation,
    templateExpand: options.templateExpand,
    seed: options.seed,
    logger: options.logger,
  });
  const requestLog = options.requestLog ?? new RequestLog({ logger: options.logger });
  const app = createHttpApp({ engine, maxBodyBytes: options.maxBodyBytes, logger: options.logger, requestLog });
  const { socket, port } = await listen(app, options.host, options.port, '--http-port');
  return {
    host: options.host,
    port,
    operations: build.operations.length,
    engine,
    requestLog,
    close: async () => {
      uWS.us_listen_socket_close(socket);
    },
  };
}
