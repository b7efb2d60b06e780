import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { isMockError } from '../../../../common/errors.js';
import { Aggregate, CaptureAnalyzer, PatchBuilder, readCapture, type AnalysisReport, type CaptureAnalysis, type CaptureLog, type StoredCapture } from '../../../contract-diff/index.js';
import type { Engine } from '../../../terminal/openapi/index.js';
import type { AdminContext } from '../context.js';
import { AdminError, ok } from '../envelope.js';
import { resolveInside } from '../project-files.js';
import type { AdminCall, AdminRoute } from '../router.js';
import { serversOf } from '../server-control.js';
import { wholeNumber } from '../query-number.js';

const LISTING = 'GET /__mock/contract-diff/captures lists them';
/** Captures one upload may carry. */
const MAX_UPLOAD = 1000;
/** Captures one analysis of the newest may cover. */
const MAX_ANALYZE = 10_000;

function logOf(ctx: AdminContext): CaptureLog {
  if (ctx.contractDiff === undefined) throw new AdminError(404, 'contract-diff captures are kept by mock serve only');
  return ctx.contractDiff;
}

/**
 * The description an analysis holds captures against: the served one. A spec_path names it (as
 * mock serve was given it, relative to the project); any other path is refused without being
 * read, so that the endpoint never tells anything of a file the server does not serve.
 */
function analyzerOf(call: AdminCall): CaptureAnalyzer {
  const engine = serversOf(call.ctx.registry).engine() as Engine | undefined;
  if (engine === undefined || engine.build.operations.length === 0) throw new AdminError(409, 'no OpenAPI description is served: start mock serve with --spec to analyse captures');
  const body = call.json();
  if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) throw new AdminError(400, 'the body must be {} or {"spec_path": "<the served description>"}');
  const given = (body as { spec_path?: unknown } | undefined)?.spec_path;
  if (given === undefined || given === null || given === '') return new CaptureAnalyzer(engine);
  const { projectDir } = call.ctx;
  const served = serversOf(call.ctx.registry).specPath;
  const resolved = resolveInside(projectDir, given, 'spec_path');
  if (served === null || real(path.resolve(projectDir, served)) !== real(resolved)) {
    const shown = served === null ? 'none' : path.relative(projectDir, path.resolve(projectDir, served));
    throw new AdminError(400, `spec_path: only the served description (${shown}) is analysed against here; leave spec_path out, or run mock contract-diff analyze --spec ${String(given)} for another`);
  }
  return new CaptureAnalyzer(engine);
}

/** The path with its symlinks resolved, as given when it does not exist. */
function real(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

async function storedOf(call: AdminCall): Promise<StoredCapture> {
  const { id } = call.params;
  if (!/^[0-9a-z]{13,40}$/.test(id)) throw new AdminError(400, `capture id: expected the id an upload answered with (${LISTING}), got "${id}"`);
  const stored = await logOf(call.ctx).get(id);
  if (stored === undefined) throw new AdminError(404, `no capture ${id} (${LISTING}; the oldest are forgotten past 32 MB)`);
  return stored;
}

/** Captures analysed between two turns of the event loop: a large analysis never stalls the mock's answers for long. */
const BATCH = 250;

async function analyzed(call: AdminCall, captures: StoredCapture[]): Promise<AnalysisReport> {
  const analyzer = analyzerOf(call);
  const aggregate = new Aggregate(analyzer.basePaths);
  for (let i = 0; i < captures.length; i++) {
    if (i > 0 && i % BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
    const stored = captures[i];
    aggregate.add(told(call, analyzer.analyze({ ...stored.capture, id: stored.id })));
  }
  const report = aggregate.report();
  logOf(call.ctx).counted(report, Date.now());
  return report;
}

async function analyzeOne(call: AdminCall): Promise<ReturnType<typeof ok>> {
  const stored = await storedOf(call);
  const analyzer = analyzerOf(call);
  const analysis = told(call, analyzer.analyze({ ...stored.capture, id: stored.id }));
  const aggregate = new Aggregate(analyzer.basePaths);
  aggregate.add(analysis);
  const report = aggregate.report();
  logOf(call.ctx).counted(report, Date.now());
  return ok({ capture_id: stored.id, operation: analysis.operation, mismatches: analysis.mismatches, recommendations: report.recommendations });
}

/** An analysis that found drift goes to contract_diff.webhooks. */
function told(call: AdminCall, analysis: CaptureAnalysis): CaptureAnalysis {
  const { capture_id, method, path: requested, operation, mismatches } = analysis;
  if (mismatches.length > 0) call.ctx.driftListener?.({ capture_id: capture_id ?? '', method, path: requested, operation: operation ?? undefined, mismatches });
  return analysis;
}

/** The correction patch of one capture (docs/contract-diff.md, "Correction patches"), aimed at the served description's file. */
async function patchOne(call: AdminCall): Promise<ReturnType<typeof ok>> {
  const stored = await storedOf(call);
  const analyzer = analyzerOf(call);
  const analysis = analyzer.analyze({ ...stored.capture, id: stored.id });
  const builder = new PatchBuilder(servedDocument(call), analyzer.basePaths[0] ?? '');
  builder.add(stored.capture, analysis);
  const { operations, notes } = builder.patch();
  return ok({ capture_id: stored.id, operation: analysis.operation, mismatches: analysis.mismatches, patch: operations, notes });
}

/** The served description as its file holds it ($refs and all): what a patch's pointers point into. */
function servedDocument(call: AdminCall): Record<string, unknown> {
  const served = serversOf(call.ctx.registry).specPath;
  if (served === null || /^https?:\/\//i.test(served)) {
    throw new AdminError(409, 'the served description is not a local file: a patch points into the file it corrects (run mock contract-diff generate-patch --spec <file>)');
  }
  const document: unknown = parse(readFileSync(path.resolve(call.ctx.projectDir, served), 'utf8'), { maxAliasCount: 1000 });
  if (document === null || typeof document !== 'object' || Array.isArray(document)) throw new AdminError(409, `the served description ${served} no longer reads as a document`);
  return document as Record<string, unknown>;
}

function uploaded(value: unknown, where: string): ReturnType<typeof readCapture> {
  try {
    return readCapture(value, where);
  } catch (e) {
    if (isMockError(e)) throw new AdminError(400, e.message);
    throw e;
  }
}

/** Contract drift of traffic (docs/contract-diff-analysis.md): captures uploaded, listed, read and analysed against the served description. */
export const contractDiffRoutes: AdminRoute[] = [
  {
    method: 'POST',
    path: 'contract-diff/upload',
    handler: async (call) => {
      const body = call.json();
      if (body === undefined) throw new AdminError(400, 'the body must be a captured request {method, path, headers, query_params, body, response} or a list of them');
      const list = Array.isArray(body) ? body : [body];
      if (list.length === 0 || list.length > MAX_UPLOAD) throw new AdminError(400, `a list of captures must hold 1 to ${MAX_UPLOAD}, got ${list.length}`);
      const captures = list.map((one, i) => uploaded(one, Array.isArray(body) ? `capture ${i + 1}` : 'the capture'));
      const log = logOf(call.ctx);
      const now = Date.now();
      const stored: StoredCapture[] = [];
      for (const capture of captures) stored.push(await log.add(capture, 'upload', now));
      return ok(Array.isArray(body) ? { ids: stored.map((s) => s.id), count: stored.length } : stored[0], 201);
    },
  },
  {
    method: 'GET',
    path: 'contract-diff/captures',
    handler: async ({ ctx, query }) => {
      const limit = wholeNumber(query, 'limit', 50, 1, 1000);
      const offset = wholeNumber(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
      const { captures, total } = await logOf(ctx).page(limit, offset);
      return ok({ captures, total, limit, offset });
    },
  },
  { method: 'GET', path: 'contract-diff/captures/{id}', handler: async (call) => ok(await storedOf(call)) },
  { method: 'POST', path: 'contract-diff/captures/{id}/analyze', handler: analyzeOne },
  { method: 'POST', path: 'contract-diff/captures/{id}/patch', handler: patchOne },
  { method: 'POST', path: 'contract-diff/analyze/{id}', handler: analyzeOne },
  {
    method: 'POST',
    path: 'contract-diff/analyze',
    handler: async (call) => {
      const limit = wholeNumber(call.query, 'limit', 100, 1, MAX_ANALYZE);
      const { captures } = await logOf(call.ctx).page(limit, 0);
      return ok(await analyzed(call, captures));
    },
  },
  { method: 'GET', path: 'contract-diff/statistics', handler: ({ ctx }) => ok(logOf(ctx).statistics()) },
];
