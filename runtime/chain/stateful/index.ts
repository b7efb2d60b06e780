/**
 * State machines (core.stateful; docs/stateful.md): each machine keeps one state per resource id,
 * moved by requests that match its transitions (method and path_pattern) and by timed transitions
 * on the process's clock, applied lazily when a resource is read. The stage `stateful` (spec step
 * 2) asks the service about requests; the admin API (`/__mock/state…`) lists, reads, sets and
 * resets states. States live behind StateStore: in memory by default (under a byte budget, the
 * least recently used forgotten past it), a shared store later.
 */
export { checkStateful } from './check.js';
export type { ResourceIdExtract, StateConfig, StateMachineConfig, StatefulOptions, TransitionConfig } from './config.js';
export { compileExtractor, type Extractor, type IdSource } from './extractor.js';
export { Machine, describeExit, type TransitionView } from './machine.js';
export { DEFAULT_STATE_STORE_MB, StateStore, StateTooLarge, stateBudget, type StateRecord } from './state-store.js';
export { StatefulService, type ResourceView, type StateConflict, type StatefulMatch, type StatefulResult } from './stateful-service.js';
export { settle, type TimedTransition } from './timed-transitions.js';
