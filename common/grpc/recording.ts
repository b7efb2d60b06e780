import path from 'node:path';
import { GRPC, grpcStatusName } from '../grpc-status.js';
import { jsonSyntaxError } from '../json-syntax.js';

/**
 * A recorded gRPC call (docs/grpc.md, "Recording and replay"): one JSON Lines file per call under
 * `<core.fixtures.dir>/grpc/<package.Service>/<Method>/call-0001.jsonl`. The first line says what
 * was called (`{"method", "mode", "metadata", "recorded_at"}`, credentials redacted), then every
 * message in the order it went (`{"ts", "dir": "in"|"out", "message"}`: ms from the call's start,
 * the message in proto3 JSON), then how the call ended (`{"ts", "status", "code", "message",
 * "trailers", "details"}`). Shared by the gRPC server (recording, replay) and `mock validate-fixtures`.
 */
export const GRPC_FIXTURES = 'grpc';
export const CALL_PREFIX = 'call';

export const GRPC_MODES = ['unary', 'server_streaming', 'client_streaming', 'bidi_streaming'] as const;
export type GrpcMode = (typeof GRPC_MODES)[number];

export interface GrpcRecordingHead {
  /** `package.Service/Method`. */
  method: string;
  mode: GrpcMode;
  /** Request metadata: text values by lower-case key, binary (`-bin`) ones as base64; credentials `[redacted]`. */
  metadata: Record<string, string | string[]>;
  recorded_at?: string;
}

export interface GrpcFrame {
  ts: number;
  dir: 'in' | 'out';
  /** proto3 JSON. */
  message: unknown;
}

export interface GrpcEnd {
  ts: number;
  /** The status name: OK, NOT_FOUND, … */
  status: string;
  code: number;
  message: string;
  trailers?: Record<string, string>;
  /** google.rpc.Status as sent in grpc-status-details-bin, base64. */
  details?: string;
}

export interface GrpcRecording {
  head: GrpcRecordingHead;
  frames: Array<GrpcFrame & { line: number }>;
  end: GrpcEnd & { line: number };
}

export interface RecordingProblem {
  line: number;
  message: string;
}

/** The folder of a method's recorded calls: `grpc/helloworld.Greeter/SayHello`. */
export function callFolder(fixturesDir: string, method: string): string {
  const slash = method.indexOf('/');
  return path.join(fixturesDir, GRPC_FIXTURES, safeName(method.slice(0, slash)), safeName(method.slice(slash + 1)));
}

/** The first line of a recording: what was called. Each line ends with a newline, fields in the documented order. */
export const recordingHeadLine = (head: GrpcRecordingHead): string =>
  `${JSON.stringify({ method: head.method, mode: head.mode, metadata: head.metadata, ...(head.recorded_at === undefined ? {} : { recorded_at: head.recorded_at }) })}\n`;

/** One message's line. */
export const recordingFrameLine = ({ ts, dir, message }: GrpcFrame): string => `${JSON.stringify({ ts, dir, message })}\n`;

/** The last line: how the call ended. */
export const recordingEndLine = (end: GrpcEnd): string =>
  `${JSON.stringify({
    ts: end.ts,
    status: end.status,
    code: end.code,
    message: end.message,
    ...(end.trailers === undefined || Object.keys(end.trailers).length === 0 ? {} : { trailers: end.trailers }),
    ...(end.details === undefined ? {} : { details: end.details }),
  })}\n`;

/** `file:line: reason`, as start-up and `mock validate-fixtures` report a problem. */
export const recordingProblemLine = (file: string, problem: RecordingProblem): string => `${file}:${problem.line}: ${problem.message}`;

const METHOD = /^[A-Za-z_][\w.]*\/[A-Za-z_]\w*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Reads a recorded call (JSON Lines, blank lines skipped) and checks its form: every malformed
 * line is a problem (line and reason). The recording is returned only when there are none. The
 * messages are not checked against their types here (that needs the build: the server does it).
 */
export function parseRecording(text: string): { recording?: GrpcRecording; problems: RecordingProblem[] } {
  const problems: RecordingProblem[] = [];
  const lines: Array<{ line: number; value: unknown }> = [];
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return;
    try {
      lines.push({ line: index + 1, value: JSON.parse(raw) as unknown });
    } catch (e) {
      problems.push({ line: index + 1, message: `is not JSON (${jsonSyntaxError(e)})` });
    }
  });
  if (lines.length === 0) {
    if (problems.length === 0) problems.push({ line: 1, message: 'the recording is empty; its first line is {"method": "package.Service/Method", "mode": "unary", "metadata": {}}' });
    return { problems };
  }
  const [first, ...rest] = lines;
  const head = readHead(first.value, first.line, problems);
  const frames: GrpcRecording['frames'] = [];
  let end: GrpcRecording['end'] | undefined;
  let previousTs = 0;
  for (const { line, value } of rest) {
    const problem = (message: string): void => void problems.push({ line, message });
    if (!isObject(value)) {
      problem('is not a JSON object');
      continue;
    }
    if (end !== undefined) {
      problem(`comes after the end of the call (line ${end.line}); the status line is the last`);
      continue;
    }
    const ts = value.ts;
    if (typeof ts !== 'number' || !Number.isFinite(ts) || ts < 0) {
      problem('ts: must be a number of milliseconds from the start of the call, 0 or more');
      continue;
    }
    if (ts < previousTs) problem(`ts: ${ts} is earlier than the line before (${previousTs}); lines are in the order they happened`);
    previousTs = Math.max(previousTs, ts);
    if ('status' in value || 'code' in value) {
      const read = readEnd(value, line, problems);
      if (read !== undefined) end = { ...read, line };
      continue;
    }
    if (value.dir !== 'in' && value.dir !== 'out') {
      problem('dir: must be "in" (from the client) or "out" (from the server); the last line is the status {"ts", "status", "code", "message"}');
      continue;
    }
    if (!('message' in value) || value.message === undefined) {
      problem('message: is required (the message in proto3 JSON)');
      continue;
    }
    frames.push({ ts, dir: value.dir, message: value.message, line });
  }
  const last = lines[lines.length - 1].line;
  if (end === undefined && lines.length > 0 && !problems.some((p) => p.line === last)) problems.push({ line: last, message: 'the call has no end: the last line is its status {"ts", "status": "OK", "code": 0, "message": "OK"}' });
  if (head !== undefined && end !== undefined) checkMode(head.mode, frames, end, problems);
  problems.sort((a, b) => a.line - b.line);
  if (problems.length > 0 || head === undefined || end === undefined) return { problems };
  return { recording: { head, frames, end }, problems };
}

function readHead(value: unknown, line: number, problems: RecordingProblem[]): GrpcRecordingHead | undefined {
  const problem = (message: string): undefined => void problems.push({ line, message });
  if (!isObject(value)) return problem('is not a JSON object; the first line says what was called: {"method": "package.Service/Method", "mode": "unary", "metadata": {}}');
  const { method, mode, metadata, recorded_at } = value;
  if (typeof method !== 'string' || !METHOD.test(method)) return problem(`method: must be package.Service/Method${typeof method === 'string' ? `, not ${JSON.stringify(method)}` : ''}`);
  if (!GRPC_MODES.includes(mode as GrpcMode)) return problem(`mode: must be one of ${GRPC_MODES.join(', ')}`);
  if (metadata !== undefined && (!isObject(metadata) || !Object.values(metadata).every((v) => typeof v === 'string' || (Array.isArray(v) && v.every((s) => typeof s === 'string'))))) {
    return problem('metadata: must be an object of text values (or lists of them)');
  }
  if (recorded_at !== undefined && (typeof recorded_at !== 'string' || Number.isNaN(Date.parse(recorded_at)))) return problem('recorded_at: must be an ISO 8601 time');
  return { method, mode: mode as GrpcMode, metadata: (metadata ?? {}) as GrpcRecordingHead['metadata'], ...(recorded_at === undefined ? {} : { recorded_at: recorded_at as string }) };
}

function readEnd(value: Record<string, unknown>, line: number, problems: RecordingProblem[]): GrpcEnd | undefined {
  const problem = (message: string): undefined => void problems.push({ line, message });
  const { ts, code, status, message, trailers, details } = value;
  if (typeof code !== 'number' || !Number.isInteger(code) || code < 0 || code > 16) return problem('code: must be a gRPC status code, 0 to 16');
  if (status !== undefined && status !== grpcStatusName(code)) return problem(`status: ${JSON.stringify(status)} is not the name of code ${code} (${grpcStatusName(code)})`);
  if (message !== undefined && typeof message !== 'string') return problem('message: must be text');
  if (trailers !== undefined && (!isObject(trailers) || !Object.values(trailers).every((v) => typeof v === 'string'))) return problem('trailers: must be an object of text values');
  if (details !== undefined && (typeof details !== 'string' || !BASE64.test(details))) return problem('details: must be base64 (a serialized google.rpc.Status)');
  if (details !== undefined && code === GRPC.OK) return problem('details: only a failed call has error details');
  return {
    ts: ts as number,
    status: grpcStatusName(code),
    code,
    message: (message as string | undefined) ?? '',
    ...(trailers === undefined ? {} : { trailers: trailers as Record<string, string> }),
    ...(details === undefined ? {} : { details: details as string }),
  };
}

/** What each mode allows: one request message for unary and server streaming, one answer for unary and client streaming. */
function checkMode(mode: GrpcMode, frames: GrpcRecording['frames'], end: GrpcRecording['end'], problems: RecordingProblem[]): void {
  const ins = frames.filter((f) => f.dir === 'in');
  const outs = frames.filter((f) => f.dir === 'out');
  const single = mode === 'unary' || mode === 'server_streaming';
  if (single && ins.length !== 1) problems.push({ line: ins[1]?.line ?? end.line, message: `a ${mode} call has exactly one "in" message (its request), not ${ins.length}` });
  if ((mode === 'unary' || mode === 'client_streaming') && outs.length > (end.code === GRPC.OK ? 1 : 0)) {
    problems.push({ line: outs[end.code === GRPC.OK ? 1 : 0].line, message: `a ${mode} call answers ${end.code === GRPC.OK ? 'one "out" message' : 'no message when it fails'}` });
  }
  if ((mode === 'unary' || mode === 'client_streaming') && end.code === GRPC.OK && outs.length === 0) problems.push({ line: end.line, message: `a ${mode} call that ends OK answers one "out" message` });
  if (single && ins.length === 1 && outs.length > 0 && outs[0].line < ins[0].line) problems.push({ line: outs[0].line, message: `a ${mode} call answers after its request: the "in" line comes first` });
  if (mode === 'client_streaming' && outs.length > 0 && ins.length > 0 && outs[0].line < ins[ins.length - 1].line) problems.push({ line: outs[0].line, message: 'a client_streaming call answers after the last "in" message' });
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_');
}
