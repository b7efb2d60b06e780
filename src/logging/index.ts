export { LOGGING_DEFAULTS, closeLogger, createLogger, type LoggerOptions } from './logger.js';
