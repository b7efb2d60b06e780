export { corsStage, type CorsOptions } from './cors.js';
export { faultsStage } from './faults.js';
export { latencyStage } from './latency.js';
export { mocksStage, type MockTemplates } from './mocks.js';
export { overridesStage } from './overrides.js';
export { proxyStage } from './proxy.js';
export { securityStage } from './security.js';
export { tokenEndpointStage } from './token-endpoint.js';
