export { analyzeCaptures, type AnalyzeOptions } from './run.js';
export { failsOn, formatReport, type ReportFormat } from './report.js';
export { readCaptures, sourceKind, type SourceKind } from './sources.js';
export { explainReport } from './explain.js';
export { withAnalyzer } from './analyzer.js';
