export { createMcpServer, runMcp } from './server.js';
