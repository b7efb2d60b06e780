import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { MockError } from '../../../common/errors.js';
import type { BuildOptions } from '../../../compiler/index.js';
import type { CorrectionPatch } from '../../../runtime/index.js';
import { readCaptures, withAnalyzer } from '../analyze/index.js';

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
  const { PatchBuilder, readCapture } = await import('../../../runtime/index.js');
  return withAnalyzer(options.build, async (analyzer) => {
    const builder = new PatchBuilder(document, analyzer.basePaths[0] ?? '');
    for await (const capture of readCaptures(options.requestPath, options.shown, readCapture)) builder.add(capture, analyzer.analyze(capture));
    return builder.patch();
  });
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
