// What the main thread sends a worker (one task per worker and target) and what comes back.
import type { Scenario } from './scenarios.js';

export interface Endpoint {
  protocol: 'http:' | 'https:';
  hostname: string;
  port: number;
  /** --insecure: https without certificate checks. */
  insecure: boolean;
}

interface BaseTask {
  /** This worker's index among the `workers` that run the target. */
  worker: number;
  workers: number;
  endpoint: Endpoint;
  durationMs: number;
  /** A request without a complete response after this long is an ETIMEDOUT error. */
  timeoutMs: number;
  /** This worker's share of --rps (0: no cap). */
  rps: number;
  /** This worker's share of --cps (0: no cap). */
  cps: number;
  /** Progress and stop flag, see progress.ts. */
  shared: SharedArrayBuffer;
}

/** One request of the plan, serialised for the wire. */
export interface WireRequest {
  operation: number;
  bytes: Uint8Array;
  /** HEAD: the response has no body. */
  bodiless: boolean;
}

/** `mock bench`: closed-loop virtual users, one keep-alive connection each. */
export interface HttpTask extends BaseTask {
  kind: 'http';
  /** Peak virtual users of the target (all workers); this worker runs ids ≡ worker (mod workers). */
  vus: number;
  scenario: Scenario;
  requests: WireRequest[];
  operations: number;
}

/** `mock bench-chunked`: each slot sends one chunked request at a time on its own connection. */
export interface ChunkedTask extends BaseTask {
  kind: 'chunked';
  concurrency: number;
  /** Request line and headers, ending in the blank line. */
  head: Uint8Array;
  body: Uint8Array;
  chunkSize: number;
  intervalMs: number;
}

/** `mock bench-pipeline`: `depth` requests in flight on each connection. */
export interface PipelineTask extends BaseTask {
  kind: 'pipeline';
  connections: number;
  depth: number;
  request: Uint8Array;
  bodiless: boolean;
}

export type Task = HttpTask | ChunkedTask | PipelineTask;

export interface OperationResult {
  /** Responses received (any status). */
  responses: number;
  /** Latency histogram of the responses (compressed base64, microseconds). */
  histogram: string | null;
  statuses: Record<string, number>;
  /** Network and protocol errors by code (ECONNREFUSED, ECONNRESET, ETIMEDOUT, EPROTO …). */
  errors: Record<string, number>;
}

export interface WorkerResult {
  /** Epoch milliseconds the worker started sending. */
  startedAt: number;
  /** From the first request to the end of sending (the stop, or the end of the duration). */
  elapsedMs: number;
  /** Index-aligned with the target's operations. */
  operations: OperationResult[];
  /** Per second of the run: responses, errors, active virtual users at the end of that second. */
  timeline: { responses: number[]; errors: number[]; active: number[] };
  /** TCP/TLS connections opened. */
  connections: number;
  /** Stopped before the duration was over (SIGINT). */
  interrupted: boolean;
}
