export { RequestChain } from './request-chain.js';
export { SLOTS, type Slot } from './slots.js';
export { afterNext, checkStage, type Next, type Stage } from './stage.js';
export { corsStage, faultsStage, latencyStage, mocksStage, overridesStage, proxyStage, securityStage, tokenEndpointStage, type CorsOptions, type MockTemplates } from './stages/index.js';
