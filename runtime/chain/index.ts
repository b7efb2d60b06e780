export { RequestChain } from './request-chain.js';
export { SLOTS, type Slot } from './slots.js';
export { afterNext, checkStage, type Next, type Stage } from './stage.js';
export {
  bulkheadStage,
  circuitBreakerStage,
  connectionLimitStage,
  corsStage,
  faultInjectionStage,
  faultsStage,
  packetLossStage,
  rateLimitStage,
  routeChaosStage,
  sandboxStage,
  trafficShapingStage,
  latencyStage, mocksStage, overridesStage, proxyStage, securityStage, tokenEndpointStage, type CorsOptions, type MockTemplates } from './stages/index.js';
