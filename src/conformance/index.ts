/**
 * `mock bench --conformance` and `--conformance-self-test`: probes every operation of a
 * description with one valid request and negative probes per category (SPEC "Conformance
 * self-test probes"), and writes a JSON report, an HTML report and a definite-issues file.
 */
export type { ConformanceOptions } from './options.js';
export { runConformance } from './run.js';
export type { ConformanceReport, ProbeResult, Summary } from './report.js';
export type { Verdict } from './probe.js';
export { AnswerValidator } from './answer-check.js';
export type { AnswerCheck } from './response-check.js';
export { checkStream, isStreamed, StreamItemValidator, type StreamCheck } from './stream-check.js';
