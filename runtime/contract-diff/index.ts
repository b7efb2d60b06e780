/**
 * Contract drift of traffic: captured requests (and their answers) held against an OpenAPI
 * description with the server's own router and validators, their mismatches grouped across
 * captures with recommendations. The admin API and `mock contract-diff analyze` share it.
 */
export { readCapture, type Capture, type CapturedResponse } from './capture.js';
export { CaptureAnalyzer, type CaptureAnalysis } from './analyze.js';
export { MISMATCH_TYPES, SEVERITY, type Mismatch, type MismatchLocation, type MismatchType, type Severity } from './mismatch.js';
export { Aggregate, MAX_GROUPS, type AnalysisReport, type MismatchGroup, type Recommendation } from './aggregate.js';
export { MIN_SAMPLE } from './recommend.js';
export { CaptureLog, capturesBudget, type StoredCapture } from './capture-log.js';
export { PatchBuilder, type CorrectionPatch, type PatchOp } from './patch/index.js';
export { LiveCheck, MAX_VIOLATIONS_BYTES, VIOLATIONS_HEADER, violationsHeader } from './live-check.js';
export type { DriftListener, DriftReport } from './listener.js';
