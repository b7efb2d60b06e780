export { createDispatch, type Dispatch, type DispatchOptions, type ProtocolPart, type RequestLogWriter, type Router, type TrafficRecorder } from './dispatch.js';
export type { Description } from './description.js';
export { RequestChain } from './request-chain.js';
export { SLOTS, type Slot } from './slots.js';
export { afterNext, checkStage, defineStage, type ExchangeKind, type Next, type Stage, type StageBody, type StageContext, type StageDeclaration, type StageFactory, type StageSettings, type TenantQuota } from './stage.js';
export { createStages } from './stages/index.js';
