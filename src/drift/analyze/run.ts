import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import type { BuildOptions } from '../../../compiler/index.js';
import type { AnalysisReport, CaptureAnalysis } from '../../../runtime/index.js';
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
  const { loadBuild, Engine, CaptureAnalyzer, Aggregate, readCapture } = await import('../../../runtime/index.js');
  const { build } = await import('../../../compiler/index.js');
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'mock-analyze-'));
  try {
    const built = await build({ ...options.build, routes: [], routeRules: [], outDir, name: 'analyze' });
    const validation = { mode: 'enforce' as const, aggregate_errors: true, validate_responses: false, status_code: 400, overrides: {} };
    const engine = new Engine(await loadBuild(built.dir), { validation, templateExpand: false, logger: pino({ level: 'silent' }) });
    const analyzer = new CaptureAnalyzer(engine);
    const aggregate = new Aggregate(analyzer.basePaths);
    for await (const capture of readCaptures(options.requestPath, options.shown, readCapture, options.skipped)) {
      const analysis = analyzer.analyze(capture);
      options.observe?.(analysis);
      aggregate.add(analysis);
    }
    return aggregate.report();
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
