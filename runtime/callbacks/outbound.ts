import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { CallbackLog } from '../../common/request-log.js';
import type { RequestRecord } from '../chain/exchange/index.js';
import { displayUrl, retryDelay, retryable } from '../drift/webhooks/index.js';
import type { CallbackDelay } from './delays.js';
import { HostAllowlist } from './host-allowlist.js';
import { attempt, type AttemptOutcome, type OutgoingRequest } from './send.js';

/** mock.yaml `callbacks`, read once. */
export interface CallbackSettings {
  allowedHosts: readonly string[];
  /** Wait before the first attempt. */
  delayMs: number;
  /** Attempts after the first, on a network error, a 5xx or a 429. */
  retries: number;
  /** The first retry waits about this long, each next one twice as long (with jitter; Retry-After wins). */
  retryDelayMs: number;
  timeoutMs: number;
  /** callbacks.delays: OpenAPI callbacks' own delays, ahead of their x-mock-delay-ms and delayMs. */
  delays?: readonly CallbackDelay[];
}

/** Where outcomes are kept: the request log (runtime/control/logging RequestLog fits). */
export interface OutcomeLog {
  record(record: RequestRecord): void;
}

/** What a delivery came to, as the request log and the admin API show it. */
export interface DeliveryResult extends CallbackLog {
  /** The last answer's status; 0 when none came. */
  status: number;
  /** Why it failed or was refused; null when delivered. */
  error: string | null;
}

/** Sends no more than this many at once: a burst of requests must not make the mock a flood. */
const MAX_IN_FLIGHT = 64;

/**
 * Sends callbacks and webhooks: after a delay, with retries, to allowed hosts only, each outcome
 * written to the request log (source `callback`) and, when not delivered, to the log.
 */
export class Outbound {
  readonly allowlist: HostAllowlist;
  private inFlight = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    readonly settings: CallbackSettings,
    private readonly log: OutcomeLog | undefined,
    private readonly logger: Logger,
  ) {
    this.allowlist = new HostAllowlist(settings.allowedHosts);
  }

  /** Delivers `request` (its URL already checked to parse), resolving once done; never rejects. */
  async deliver(request: OutgoingRequest, about: Omit<CallbackLog, 'outcome' | 'attempts' | 'url'>, delayMs = this.settings.delayMs): Promise<DeliveryResult> {
    const started = performance.now();
    const url = displayUrl(request.url);
    if (this.inFlight >= MAX_IN_FLIGHT) return this.done(request, { ...about, url, outcome: 'refused', attempts: 0, status: 0, error: `more than ${MAX_IN_FLIGHT} callbacks in flight` }, started);
    this.inFlight++;
    try {
      if (delayMs > 0) await this.wait(delayMs);
      let outcome: AttemptOutcome = { error: 'the server is closing', refused: true };
      let attempts = 0;
      for (let tries = this.settings.retries + 1; attempts < tries && !this.closed;) {
        attempts++;
        outcome = await attempt(request, this.allowlist, this.settings.timeoutMs);
        const again = 'status' in outcome ? retryable(outcome.status) : !outcome.refused;
        if (!again || attempts >= tries) break;
        await this.wait(retryDelay(attempts, 'status' in outcome ? outcome.retryAfter : undefined, this.settings.retryDelayMs));
      }
      const result: DeliveryResult =
        'status' in outcome
          ? { ...about, url, outcome: outcome.status < 300 ? 'delivered' : 'failed', attempts, status: outcome.status, error: outcome.status < 300 ? null : `answered ${outcome.status}` }
          : { ...about, url, outcome: outcome.refused ? 'refused' : 'failed', attempts: outcome.refused ? 0 : attempts, status: 0, error: outcome.error };
      return this.done(request, result, started);
    } finally {
      this.inFlight--;
    }
  }

  /** A request not sent at all (its URL did not evaluate to one), kept as refused. */
  refuse(method: string, shownUrl: string, about: Omit<CallbackLog, 'outcome' | 'attempts' | 'url'>, error: string): DeliveryResult {
    const result: DeliveryResult = { ...about, url: shownUrl, outcome: 'refused', attempts: 0, status: 0, error };
    this.keep(method, '', result, undefined, {}, 0);
    return result;
  }

  /** A callback whose URL the exchange did not give: not a refusal, so only a debug line. */
  skip(about: Omit<CallbackLog, 'outcome' | 'attempts' | 'url'>, why: string): void {
    this.logger.debug(`${about.kind} ${about.name} not sent: ${why}`);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private done(request: OutgoingRequest, result: DeliveryResult, started: number): DeliveryResult {
    this.keep(request.method, request.url.pathname, result, request.body, request.headers, performance.now() - started);
    return result;
  }

  private keep(method: string, path: string, result: DeliveryResult, body: string | undefined, headers: Record<string, string>, durationMs: number): void {
    if (result.outcome !== 'delivered') this.logger.warn(`${result.kind} ${result.name} to ${result.url} ${result.outcome}: ${result.error}`);
    const { status, error, ...callback } = result;
    this.log?.record({
      method,
      path: path === '' ? result.url : path,
      status,
      source: 'callback',
      durationMs,
      client: '',
      headers,
      responseBytes: 0,
      error,
      requestBody: body === undefined ? undefined : Buffer.from(body),
      callback,
    });
  }

  /** Resolves after `ms`; a server that closes meanwhile drops what waits. */
  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      timer.unref();
      this.timers.add(timer);
    });
  }
}
