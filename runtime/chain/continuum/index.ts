/**
 * The reality continuum (spec "Reality continuum", `reality_continuum`): answers blended from the
 * mock and a real upstream by a ratio.
 *
 * - config.ts: the configuration, the wire names of the merge strategies (`field_level`,
 *   `weighted`, `body_blend`) and the checks mock.yaml and the admin API share.
 * - schedule.ts: the time schedule's ratio on the virtual clock (linear, exponential and sigmoid
 *   curves; the time_based ramp, the scheduled steps).
 * - state.ts: the live state (on/off, manual, route, group, schedule and default ratios, in that
 *   precedence; the seeded draws), which the admin API steers and the stage reads.
 * - merge.ts: field_level and body_blend merges of two JSON values, pure functions over a draw.
 * - blend.ts: one answer from the two sources: which to ask, the fallbacks, the blend.
 *
 * The stage is runtime/chain/stages/continuum.ts; the endpoints /__mock/continuum/*.
 */
export { CURVES, DEFAULT_CONTINUUM, MERGE_STRATEGIES, NEEDS_UPSTREAM, checkContinuum, checkSchedule, type ContinuumConfig, type ContinuumRoute, type Curve, type MergeStrategy, type TimeSchedule, type TransitionMode } from './config.js';
export { CURVE_SHAPES, readSchedule, scheduleRatio, type Schedule } from './schedule.js';
export { ContinuumState, type ContinuumOptions, type RatioLevel, type RatioView } from './state.js';
export { bodyBlendMerge, fieldLevelMerge, type Draw } from './merge.js';
export { continuumAnswer, type BlendSettings, type ContinuumSources, type Source } from './blend.js';
