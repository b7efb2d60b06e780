// The load generator behind `mock bench`, `mock bench-chunked` and `mock bench-pipeline`: request
// plans and bodies in the main thread, load in piscina worker threads over raw keep-alive sockets,
// hdr-histogram latencies merged across workers, JSON and text reports.
export { runBench, type BenchFlags } from './bench.js';
export { runChunkedBench, CHUNKED_METHODS, type ChunkedFlags } from './chunked.js';
export { runPipelineBench, type PipelineFlags } from './pipeline.js';
export { PIPELINE_CONTENT_TYPES } from './bodies.js';
export { SCENARIOS, SCENARIO_DESCRIPTIONS, type Scenario } from './scenarios.js';
export type { LoadReport } from './session.js';
export { EXPORT_FORMATS } from './locust-export.js';
