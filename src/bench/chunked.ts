// `mock bench-chunked`: requests whose bodies go out with Transfer-Encoding: chunked.
import { MockError } from '../../common/errors.js';
import type { IrOperation, JsonSchema } from '../../compiler/index.js';
import { allowedRefs } from '../cli/allow-ref.js';
import { createRequestFactory, loadIr } from '../requests/index.js';
import { filler, padJson, sizedBody } from './bodies.js';
import { parseHeaders, setHeader } from './plan.js';
import type { ChunkedTask } from './protocol.js';
import type { TargetJob } from './runner.js';
import { commonOptions, defaultWorkers, parseErrorRate, parseRate, runSession, type CommonLoadFlags, type LoadReport } from './session.js';
import { resolveTargets, type Target } from './targets.js';

export const CHUNKED_METHODS = ['POST', 'PUT', 'PATCH'] as const;

export interface ChunkedFlags extends CommonLoadFlags {
  target?: string;
  'targets-file'?: string;
  method: (typeof CHUNKED_METHODS)[number];
  concurrency: number;
  'chunk-size-bytes': number;
  'total-size-bytes': number;
  'chunk-interval-ms': number;
  header?: string[];
  rps?: string;
  cps?: string;
  spec?: string;
  'allow-ref'?: string[];
  endpoint?: string;
  'max-concurrency': number;
  'max-error-rate'?: string;
  insecure?: boolean;
  seed?: number;
}

export interface ChunkedRequest {
  method: string;
  /** Path after the target's prefix ('' for the target URL itself). */
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  /** The operation the body comes from, with --spec. */
  operation?: string;
}

const isJson = (contentType: string | undefined): boolean => contentType !== undefined && /[/+]json\b/i.test(contentType);

/** The request every slot sends: path, headers, and a body of exactly --total-size-bytes. */
export async function chunkedRequest(flags: ChunkedFlags, cwd: string): Promise<ChunkedRequest> {
  const size = flags['total-size-bytes'];
  const headers = parseHeaders(flags.header ?? [], '--header');
  const userType = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  if (flags.spec === undefined) {
    if (flags.endpoint !== undefined) throw new MockError('MOCK_ERR_FLAG_INVALID', '--endpoint needs --spec (the operation is looked up in the description)');
    const contentType = userType ?? 'application/octet-stream';
    setHeader(headers, 'content-type', contentType);
    const body = isJson(contentType) ? sizedBody('json', size, '--total-size-bytes').body : filler(size);
    return { method: flags.method, path: '', headers, body: Buffer.from(body, 'latin1') };
  }

  const ir = await loadIr([{ source: flags.spec }], cwd, 'bench', allowedRefs(flags['allow-ref'], cwd));
  const factory = createRequestFactory(ir.definitions, flags.seed);
  const op = pickOperation(ir.operations, flags.endpoint, flags.method, flags.spec);
  const planned = factory.valid(op);
  const json = jsonContent(op);
  const contentType = userType ?? json?.mediaType ?? planned.headers['content-type'] ?? 'application/octet-stream';
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries(planned.headers)) setHeader(merged, name, value);
  for (const [name, value] of Object.entries(headers)) setHeader(merged, name, value);
  setHeader(merged, 'content-type', contentType);
  let body: string;
  if (isJson(contentType)) body = json ? padJson(factory.value(json.schema), size, '--total-size-bytes') : sizedBody('json', size, '--total-size-bytes').body;
  else body = filler(size);
  return { method: flags.method, path: planned.path, headers: merged, body: Buffer.from(body, 'latin1'), operation: op.key };
}

function jsonContent(op: IrOperation): { mediaType: string; schema: JsonSchema } | undefined {
  const content = op.requestBody?.contents.find((c) => c.schema !== undefined && isJson(c.mediaType));
  return content ? { mediaType: content.mediaType, schema: content.schema as JsonSchema } : undefined;
}

/** --endpoint (path as written or as mounted; --method preferred), else the first operation with a JSON request body (--method preferred). */
function pickOperation(operations: IrOperation[], endpoint: string | undefined, method: string, spec: string): IrOperation {
  if (endpoint !== undefined) {
    const onPath = operations.filter((op) => op.path === endpoint || op.specPath === endpoint);
    const op = onPath.find((o) => o.method === method) ?? onPath.find((o) => jsonContent(o)) ?? onPath[0];
    if (!op) throw new MockError('MOCK_ERR_FLAG_INVALID', `--endpoint: ${spec} has no path ${endpoint} (give it as written in the description, e.g. /pets, or as mounted, e.g. /v1/pets)`);
    return op;
  }
  const withJson = operations.filter((op) => jsonContent(op));
  const op = withJson.find((o) => o.method === method) ?? withJson[0];
  if (!op) throw new MockError('MOCK_ERR_FLAG_INVALID', `--spec: ${spec} has no operation with a JSON request body (pass --endpoint, or leave --spec out)`);
  return op;
}

/** Request line and headers (ending in the blank line) for a chunked body. */
export function chunkedHead(request: ChunkedRequest, target: Target): Buffer {
  const lines = [`${request.method} ${target.prefix}${request.path || (target.prefix ? '' : '/')} HTTP/1.1`, `host: ${target.host}`, 'transfer-encoding: chunked'];
  for (const [name, value] of Object.entries(request.headers)) {
    if (/^(host|content-length|transfer-encoding|connection)$/i.test(name)) continue;
    lines.push(`${name}: ${value.replace(/[\r\n]+/g, ' ')}`);
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

export async function runChunkedBench(flags: ChunkedFlags, cwd = process.cwd()): Promise<LoadReport> {
  const common = commonOptions(flags, cwd);
  const rps = parseRate(flags.rps, '--rps');
  const cps = parseRate(flags.cps, '--cps');
  const maxErrorRate = parseErrorRate(flags['max-error-rate']);
  const targets = resolveTargets(flags.target, flags['targets-file'], flags.insecure ?? false, cwd);
  const request = await chunkedRequest(flags, cwd);
  const workers = Math.min(flags.workers ?? defaultWorkers(flags.concurrency), flags.concurrency);
  const jobs: TargetJob[] = targets.map((target) => {
    const head = chunkedHead(request, target);
    return {
      name: target.url,
      workers,
      task: (worker, count, shared, durationMs): ChunkedTask => ({
        kind: 'chunked',
        worker,
        workers: count,
        endpoint: target.endpoint,
        durationMs,
        timeoutMs: common.timeoutMs,
        rps: rps / count,
        cps: cps / count,
        shared,
        concurrency: flags.concurrency,
        head,
        body: request.body,
        chunkSize: flags['chunk-size-bytes'],
        intervalMs: flags['chunk-interval-ms'],
      }),
    };
  });
  const operation = request.operation ?? `${request.method} ${request.path || '/'}`;
  return runSession(jobs, {
    command: 'bench-chunked',
    durationMs: common.durationMs,
    rounds: common.rounds,
    untilMs: common.untilMs,
    repeatForMs: common.repeatForMs,
    keepRounds: common.keepRounds,
    maxConcurrency: flags['max-concurrency'],
    workers,
    json: common.json,
    output: common.output,
    maxErrorRate,
    operations: [{ key: operation, method: request.method, path: request.path || '/' }],
    withOperations: false,
    unit: 'slots',
    settings: {
      method: request.method,
      ...(request.operation ? { operation: request.operation } : {}),
      contentType: Object.entries(request.headers).find(([n]) => n.toLowerCase() === 'content-type')?.[1],
      concurrency: flags.concurrency,
      durationSeconds: common.durationMs / 1000,
      chunkSizeBytes: flags['chunk-size-bytes'],
      totalSizeBytes: flags['total-size-bytes'],
      chunkIntervalMs: flags['chunk-interval-ms'],
      chunksPerRequest: Math.ceil(flags['total-size-bytes'] / flags['chunk-size-bytes']),
      ...(rps ? { rps } : {}),
      ...(cps ? { cps } : {}),
      workers,
      ...(maxErrorRate !== undefined ? { maxErrorRate } : {}),
    },
  });
}
