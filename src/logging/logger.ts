import { pino, type Logger } from 'pino';
import type { LoggingConfig } from '../config/index.js';

/**
 * The server's logger. `text` is pretty-printed by pino-pretty in a worker thread, so formatting
 * stays off the request path; `json` writes pino's lines as they are.
 */
export function createLogger(options: LoggingConfig): Logger {
  if (options.format === 'json') return pino({ level: options.level });
  const transport = pino.transport({
    target: 'pino-pretty',
    options: { colorize: process.stdout.isTTY === true, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss.l' },
  });
  return pino({ level: options.level }, transport);
}
