import type { Logger } from 'pino';

const REPORT = 'mock keeps serving; this is a bug of mock: please report it with the request that caused it';

/**
 * The last resort of `mock serve`: every handler of every server answers what it throws from the
 * error catalogue, but one that slips through must not end the process and every server in it
 * (one request to one port would take down all of them). It is logged, with its stack, and the
 * servers go on. Only the CLI installs it: code embedding the SDK keeps its own policy.
 */
export function keepServing(logger: Logger): void {
  process.on('unhandledRejection', (reason: unknown) => logger.error({ err: reason }, `a promise was rejected and nothing handled it; ${REPORT}`));
  process.on('uncaughtException', (error: Error) => logger.error({ err: error }, `an exception was thrown and nothing caught it; ${REPORT}`));
}
