import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import type { BuildOptions } from '../../../compiler/index.js';
import type { CaptureAnalyzer } from '../../../runtime/index.js';

/**
 * Runs `use` with an analyser of a build of the descriptions alone (no custom routes, into a
 * temporary folder removed after): the server's own router and validators, in enforce mode, so
 * that what the running mock would refuse is what drifts.
 */
export async function withAnalyzer<T>(options: BuildOptions, use: (analyzer: CaptureAnalyzer) => Promise<T>): Promise<T> {
  const { loadBuild, Engine, CaptureAnalyzer } = await import('../../../runtime/index.js');
  const { build } = await import('../../../compiler/index.js');
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'mock-analyze-'));
  try {
    const built = await build({ ...options, routes: [], routeRules: [], outDir, name: 'analyze' });
    const validation = { mode: 'enforce' as const, aggregate_errors: true, validate_responses: false, status_code: 400, overrides: {} };
    const engine = new Engine(await loadBuild(built.dir), { validation, templateExpand: false, logger: pino({ level: 'silent' }) });
    return await use(new CaptureAnalyzer(engine));
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
