export { createDispatch, type Dispatch, type DispatchOptions, type Router, type TrafficRecorder } from './dispatch.js';
export { RequestChain } from './request-chain.js';
export { SLOTS, type Slot } from './slots.js';
export { afterNext, checkStage, type Next, type Stage, type StageContext, type StageFactory, type StageSettings } from './stage.js';
export { CALL_STAGES, createStages, OVER_HTTP_STAGES, STAGES } from './stages/index.js';
