export { createLogger } from './logger.js';
