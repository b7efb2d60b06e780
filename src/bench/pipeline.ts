// `mock bench-pipeline`: HTTP/1.1 pipelining over raw sockets.
import { MockError } from '../../common/errors.js';
import { redactUrlCredentials } from '../../common/redacted.js';
import { sizedBody, type PipelineContentType } from './bodies.js';
import { parseHeaders, setHeader } from './plan.js';
import type { PipelineTask } from './protocol.js';
import type { TargetJob } from './runner.js';
import { commonOptions, defaultWorkers, parseErrorRate, runSession, type CommonLoadFlags, type LoadReport } from './session.js';
import { parseTarget } from './targets.js';
import { parseSize } from './units.js';

export interface PipelineFlags extends CommonLoadFlags {
  target: string;
  method: string;
  'content-type': PipelineContentType;
  'body-size': string;
  'pipeline-depth': number;
  connections: number;
  header?: string[];
  'max-error-rate'?: string;
}

const NO_BODY = new Set(['GET', 'HEAD']);

/** The one request every connection repeats. */
export function pipelineRequest(flags: PipelineFlags, target: ReturnType<typeof parseTarget>): Buffer {
  const method = flags.method.toUpperCase();
  if (!/^[A-Z]+$/.test(method)) throw new MockError('MOCK_ERR_FLAG_INVALID', `--method: not an HTTP method: ${JSON.stringify(flags.method)}`);
  const headers: Record<string, string> = {};
  let body = '';
  if (!NO_BODY.has(method)) {
    const sized = sizedBody(flags['content-type'], parseSize(flags['body-size'], '--body-size'), '--body-size');
    body = sized.body;
    setHeader(headers, 'content-type', sized.contentType);
  }
  for (const [name, value] of Object.entries(parseHeaders(flags.header ?? [], '--header'))) setHeader(headers, name, value);
  const lines = [`${method} ${target.prefix || '/'} HTTP/1.1`, `host: ${target.host}`];
  for (const [name, value] of Object.entries(headers)) {
    if (/^(host|content-length|transfer-encoding|connection)$/i.test(name)) continue;
    lines.push(`${name}: ${value.replace(/[\r\n]+/g, ' ')}`);
  }
  if (!NO_BODY.has(method)) lines.push(`content-length: ${Buffer.byteLength(body)}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`, 'latin1');
}

export async function runPipelineBench(flags: PipelineFlags, cwd = process.cwd()): Promise<LoadReport> {
  const common = commonOptions(flags, cwd);
  const maxErrorRate = parseErrorRate(flags['max-error-rate']);
  const target = parseTarget(flags.target, false);
  if (target.endpoint.protocol !== 'http:') {
    throw new MockError('MOCK_ERR_FLAG_INVALID', `--target: pipelining runs over plain http:// only, got ${JSON.stringify(redactUrlCredentials(flags.target))}`);
  }
  const request = pipelineRequest(flags, target);
  const method = flags.method.toUpperCase();
  const workers = Math.min(flags.workers ?? defaultWorkers(flags.connections), flags.connections);
  const job: TargetJob = {
    name: target.url,
    workers,
    task: (worker, count, shared, durationMs): PipelineTask => ({
      kind: 'pipeline',
      worker,
      workers: count,
      endpoint: target.endpoint,
      durationMs,
      timeoutMs: common.timeoutMs,
      rps: 0,
      cps: 0,
      shared,
      connections: flags.connections,
      depth: flags['pipeline-depth'],
      request,
      bodiless: method === 'HEAD',
    }),
  };
  return runSession([job], {
    command: 'bench-pipeline',
    durationMs: common.durationMs,
    rounds: common.rounds,
    untilMs: common.untilMs,
    repeatForMs: common.repeatForMs,
    keepRounds: common.keepRounds,
    maxConcurrency: 1,
    workers,
    json: common.json,
    output: common.output,
    maxErrorRate,
    operations: [{ key: `${method} ${target.prefix || '/'}`, method, path: target.prefix || '/' }],
    withOperations: false,
    unit: 'connections',
    settings: {
      method,
      contentType: NO_BODY.has(method) ? undefined : flags['content-type'],
      bodySizeBytes: NO_BODY.has(method) ? 0 : parseSize(flags['body-size'], '--body-size'),
      connections: flags.connections,
      pipelineDepth: flags['pipeline-depth'],
      durationSeconds: common.durationMs / 1000,
      workers,
      ...(maxErrorRate !== undefined ? { maxErrorRate } : {}),
    },
  });
}
