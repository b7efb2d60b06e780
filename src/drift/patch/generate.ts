import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { parse } from 'yaml';
import { MockError } from '../../../common/errors.js';
import type { BuildOptions } from '../../../compiler/index.js';
import type { CorrectionPatch } from '../../../runtime/index.js';
import { readCaptures } from '../analyze/index.js';

export interface GenerateOptions {
  /** What to build (the description alone, --allow-ref), as `mock contract-diff analyze` builds it. */
  build: BuildOptions;
  /** --request-path, absolute, and as shown in messages. */
  requestPath: string;
  shown: string;
}

/**
 * `mock contract-diff generate-patch`: the captures analysed as `analyze` does (the server's own
 * router and validators), then the JSON Patch that makes the description accept them, aimed at
 * the description file itself (its $refs, its paths as written).
 */
export async function generateCorrection(options: GenerateOptions): Promise<CorrectionPatch> {
  const [spec] = options.build.specs;
  if (options.build.specs.length !== 1 || /^https?:\/\//i.test(spec.source)) {
    throw new MockError('MOCK_ERR_FLAG_INVALID', '--spec: generate-patch corrects one local description file; pass --spec <file> (download a URL first: mock contract-sync)', 2);
  }
  const document = readDocument(path.resolve(options.build.cwd, spec.source), spec.source);
  const { loadBuild, Engine, CaptureAnalyzer, PatchBuilder, readCapture } = await import('../../../runtime/index.js');
  const { build } = await import('../../../compiler/index.js');
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'mock-patch-'));
  try {
    const built = await build({ ...options.build, routes: [], routeRules: [], outDir, name: 'patch' });
    const validation = { mode: 'enforce' as const, aggregate_errors: true, validate_responses: false, status_code: 400, overrides: {} };
    const engine = new Engine(await loadBuild(built.dir), { validation, templateExpand: false, logger: pino({ level: 'silent' }) });
    const analyzer = new CaptureAnalyzer(engine);
    const builder = new PatchBuilder(document, engine.build.specs[0]?.basePath ?? '');
    for await (const capture of readCaptures(options.requestPath, options.shown, readCapture)) builder.add(capture, analyzer.analyze(capture));
    return builder.patch();
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

function readDocument(file: string, shown: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new MockError('MOCK_ERR_SPEC_NOT_FOUND', `--spec ${shown}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); pass an existing file`, 2);
  }
  const document: unknown = parse(text, { maxAliasCount: 1000 });
  if (document === null || typeof document !== 'object' || Array.isArray(document)) throw new MockError('MOCK_ERR_SPEC_INVALID', `--spec ${shown}: not an OpenAPI or Swagger document`, 2);
  return document as Record<string, unknown>;
}
