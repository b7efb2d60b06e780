import { closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { pino, type DestinationStream, type Logger } from 'pino';
import pretty, { type PrettyOptions } from 'pino-pretty';
import { MockError } from '../../common/errors.js';
import { compiledModule } from '../../common/package-root.js';
import { jsonLineForTerminal } from '../../common/terminal-text.js';
import type { FileTransportOptions } from './file-transport.js';

/**
 * `logging.*`. `file`, `max_size_mb` and `max_files` are optional here so that a configuration
 * without them (older schema, embedding code) gets the spec's defaults.
 */
export interface LoggerOptions {
  level: 'error' | 'warn' | 'info' | 'debug' | 'trace';
  format: 'text' | 'json';
  /** `stdout` (default), `stderr`, or a file path (relative: to the working directory). */
  file?: string;
  /** Rotate the file at this size. Default 10. */
  max_size_mb?: number;
  /** Files kept, the live one included. Default 5. */
  max_files?: number;
}

export const LOGGING_DEFAULTS = { file: 'stdout', max_size_mb: 10, max_files: 5 } as const;

const MB = 1024 * 1024;
/** Log output held for a slow reader of stdout or stderr before lines are dropped. */
const STDOUT_BACKLOG = 16 * MB;
/** How long shutdown waits for the log worker to write what it holds. */
const CLOSE_TIMEOUT_MS = 5_000;

/** How each logger's destination is flushed and closed at shutdown. */
const closers = new WeakMap<Logger, () => Promise<void>>();

/**
 * The server's logger. Nothing here writes on the request path:
 * - to stdout/stderr: pino's asynchronous sonic-boom destination (writes are batched and done by
 *   libuv, never blocking the event loop); `text` lines are formatted by pino-pretty on the main
 *   thread: request lines are capped (logging.request_lines_per_second), so that costs little,
 *   and it saves the worker thread a transport needs (about 12 MB of memory);
 * - any `file`: a pino worker-thread transport (the rotating file writer in ./file-transport.ts),
 *   so file I/O and rotation run off the main thread.
 * Call `closeLogger` at shutdown so that what is buffered is written.
 */
export function createLogger(options: LoggerOptions): Logger {
  const level = options.level;
  const file = options.file ?? LOGGING_DEFAULTS.file;
  const fd = file === 'stdout' ? 1 : file === 'stderr' ? 2 : undefined;
  // Text lines show a request as its message (`GET /v1/pets 200 3ms`), so the request log entry
  // is dropped before pino serialises it: no JSON work on the request path for a field the pretty
  // printer would discard. JSON lines carry it whole.
  // Request data reaches messages and fields (paths, names, headers): its control characters are
  // shown as escapes, so no line can act on the terminal that shows it (common/terminal-text.ts).
  const hooks = { streamWrite: jsonLineForTerminal };
  const pinoOptions = options.format === 'text' ? { level, hooks, serializers: { request: dropped } } : { level, hooks };

  if (fd !== undefined) {
    // what the reader of stdout has not taken yet is held up to STDOUT_BACKLOG, then dropped: a pipe
    // nobody reads must not grow the server without bound (sonic-boom's maxLength)
    const destination = pino.destination({ dest: fd, sync: false, maxLength: STDOUT_BACKLOG });
    if (options.format === 'json') {
      const logger = pino(pinoOptions, destination);
      closers.set(logger, () => endAndWait(destination, destination));
      return logger;
    }
    const tty = (fd === 1 ? process.stdout : process.stderr).isTTY === true;
    const lines = pretty({ ...prettyOptions('HH:MM:ss.l'), colorize: tty, destination });
    const logger = pino(pinoOptions, lines);
    closers.set(logger, () => endAndWait(lines, destination));
    return logger;
  }

  const absolute = path.resolve(file);
  assertWritable(absolute);
  const transportOptions: FileTransportOptions = {
    file: absolute,
    maxSizeBytes: (options.max_size_mb ?? LOGGING_DEFAULTS.max_size_mb) * MB,
    maxFiles: options.max_files ?? LOGGING_DEFAULTS.max_files,
    pretty: options.format === 'text' ? { ...prettyOptions('yyyy-mm-dd HH:MM:ss.l'), colorize: false } : undefined,
  };
  const transport: DestinationStream & NodeJS.EventEmitter & { end(): void } = pino.transport({
    target: compiledModule('src/logging/file-transport.js'),
    options: transportOptions,
  });
  // a failing destination (disk full, file removed) must not take the server down
  transport.on('error', (e: Error) => process.stderr.write(`mock: logging to ${file} failed: ${e.message}\n`));
  const logger = pino(pinoOptions, transport);
  closers.set(logger, () => endAndWait(transport, transport));
  return logger;
}

const dropped = (): undefined => undefined;

/**
 * Writes out what the logger holds and closes its destination (stdout and stderr stay open). The
 * logger is silent afterwards rather than throwing. Safe to call more than once.
 */
export async function closeLogger(logger: Logger): Promise<void> {
  const close = closers.get(logger);
  closers.delete(logger);
  if (close === undefined) return;
  logger.level = 'silent';
  await close();
}

/**
 * Text lines: `[12:00:00.123] INFO: GET /v1/pets 200 3ms`. Fields whose message already tells them
 * (a request line's entry, a second's summary counts, the signal a shutdown names) are for the json format: pino-pretty would
 * repeat them on lines of their own under every such message. Other fields (a warning's validation
 * errors or refused credentials, an error's stack) follow their message, as they explain it.
 */
function prettyOptions(time: string): PrettyOptions {
  return { ignore: 'pid,hostname,request,requests_not_shown,statuses,lines_per_second,signal', translateTime: `SYS:${time}`, singleLine: false };
}

/**
 * Ends what the logger writes to (a sonic-boom, pino-pretty in front of one, or a worker
 * transport), resolving once `last` has written what it held and closed (or after a timeout).
 */
function endAndWait(first: NodeJS.EventEmitter & { end(): void }, last: NodeJS.EventEmitter): Promise<void> {
  return new Promise<void>((resolve) => {
    // not unref'd: pino's worker thread is, so this timer is what keeps the process alive until it is done
    const timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
    last.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    first.end();
  });
}

/** Fails at start, in one line, rather than losing every log line later. */
function assertWritable(file: string): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    closeSync(openSync(file, 'a'));
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new MockError('MOCK_ERR_CONFIG_INVALID', `logging.file: cannot write ${file} (${reason}); choose another path or fix the directory's permissions`);
  }
}
