import type { BuildOptions } from '../../../compiler/index.js';
import type { AnalysisReport, CaptureAnalysis } from '../../../runtime/index.js';
import { withAnalyzer } from './analyzer.js';
import { readCaptures, sourceKind } from './sources.js';

export interface AnalyzeOptions {
  /** What to build (the descriptions, their folder, --allow-ref); built without custom routes into a temporary folder. */
  build: BuildOptions;
  /** --request-path, absolute. */
  requestPath: string;
  /** How the path is shown in messages. */
  shown: string;
  /** Told of each HAR entry left out because its URL is not HTTP (data:, blob:, an extension's). */
  skipped?: (protocol: string) => void;
  /** Told of each capture's analysis (contract_diff.webhooks listen). */
  observe?: (analysis: CaptureAnalysis) => void;
}

/**
 * `mock contract-diff analyze`: captures held against a build of the descriptions alone, with the
 * server's own router and validators (runtime/contract-diff), folded into one report.
 */
export async function analyzeCaptures(options: AnalyzeOptions): Promise<AnalysisReport> {
  // a wrong --request-path fails at once, before a build
  sourceKind(options.requestPath, options.shown);
  const { Aggregate, readCapture } = await import('../../../runtime/index.js');
  return withAnalyzer(options.build, async (analyzer) => {
    const aggregate = new Aggregate(analyzer.basePaths);
    for await (const capture of readCaptures(options.requestPath, options.shown, readCapture, options.skipped)) {
      const analysis = analyzer.analyze(capture);
      options.observe?.(analysis);
      aggregate.add(analysis);
    }
    return aggregate.report();
  });
}
