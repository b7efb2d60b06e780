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
  /** The description documents streamed answers: read answers of sequential media types item by item. */
  streams: boolean;
  /** Keep a sample of the plain answers (status, content type, body) for the main thread to validate. */
  sampleAnswers: boolean;
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
  /** Answers of a sequential media type (SSE, JSON Lines …), when there were any. */
  stream?: StreamResult;
  /** A uniform sample of the plain answers (reservoir), validated in the main thread; when sampled. */
  answers?: SampledAnswer[];
}

/** What one worker read of the streamed answers of one operation. */
export interface StreamResult {
  /** Streamed answers, counted among the responses. */
  answers: number;
  /** Of those, the ones still open when the run ended: the load generator closed them. */
  cut: number;
  /** Items read (complete ones). */
  items: number;
  /** Time from the request to the first complete item (compressed base64 histogram, microseconds). */
  firstItem: string | null;
  /** A uniform sample of the items read (reservoir), validated in the main thread. */
  sample: SampledItem[];
}

export interface SampledItem {
  status: number;
  contentType: string;
  item: string;
}

/** One plain answer kept for validation. */
export interface SampledAnswer {
  status: number;
  /** '' when the answer had none. */
  contentType: string;
  /** The body as UTF-8 text; null when it was not kept (`unkept` says why: over MAX_SAMPLED_BODY_BYTES, or the worker's sample budget spent). */
  body: string | null;
  unkept?: string;
  /** The answer could have no body (HEAD, 204, 304). */
  bodiless: boolean;
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
