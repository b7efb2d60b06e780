import { randomUUID } from 'node:crypto';
import { MockError } from '../../../common/errors.js';
import { WarningGate } from '../../../common/warning-gate.js';
import { Debouncer, type Burst } from './debounce.js';
import type { DriftObservation, WebhookEventName } from './observation.js';
import type { WebhookPayload } from './payload.js';
import { postJson, type PostOutcome } from './post.js';
import { BASE_DELAY_MS, MAX_ATTEMPTS, retryDelay, retryable } from './retry.js';
import { checkWebhookSecret, signWebhook, webhookKey } from './signature.js';
import { checkWebhookUrl, displayUrl } from './target.js';

/** One entry of contract_diff.webhooks. */
export interface WebhookTarget {
  url: string;
  events: readonly WebhookEventName[];
  secret?: string;
}

/** Where delivery outcomes go: pino's logger fits. Never given a secret. */
export interface WebhookLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface DriftWebhooksOptions {
  webhooks: readonly WebhookTarget[];
  /** contract_diff.webhook_allow_private. */
  allowPrivate?: boolean;
  log: WebhookLog;
  /** The debounce window (default 2 s). */
  debounceMs?: number;
  /** Open debounce windows plus events waiting for delivery, across webhooks (default 1000); past it new ones are dropped and counted. */
  maxPending?: number;
  /** First retry's delay before jitter (default 500 ms), doubling each attempt. */
  baseDelayMs?: number;
  /** Attempts per event, the first included (default 5). */
  maxAttempts?: number;
  /** One attempt's limit (default 10 s). */
  timeoutMs?: number;
}

export interface WebhookStats {
  pending: number;
  delivered: number;
  failed: number;
  dropped: number;
}

interface Receiver {
  url: URL;
  shown: string;
  events: ReadonlySet<WebhookEventName>;
  key?: Buffer;
  queue: WebhookPayload[];
  busy: boolean;
}

const DEFAULTS = { debounceMs: 2000, maxPending: 1000, timeoutMs: 10_000 };

/**
 * contract_diff.webhooks: mismatches the analysis reports become `mismatch` and `high_severity`
 * events POSTed to each webhook subscribed, debounced, signed per Standard Webhooks and retried
 * with back-off (docs/contract-diff-webhooks.md). notify() never blocks nor throws: the request
 * path that reports a mismatch goes on at once, and what cannot be kept is dropped and counted.
 * Each webhook receives one event per burst: `high_severity` for a mismatch of severity high when
 * it subscribes to it, else `mismatch` when it subscribes to that. A command that ends calls
 * flush() then close(); a server calls close() when it stops.
 */
export class DriftWebhooks {
  private readonly receivers: Receiver[];
  private readonly debouncer: Debouncer;
  private readonly settings: Required<Omit<DriftWebhooksOptions, 'webhooks' | 'log'>>;
  private readonly dropWarnings: WarningGate;
  private readonly waits = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  private readonly stop = new AbortController();
  private readonly idle: Array<() => void> = [];
  private queued = 0;
  private delivered = 0;
  private failed = 0;
  private dropped = 0;
  private closed = false;

  /** Throws MockError MOCK_ERR_CONFIG_INVALID naming the entry (contract_diff.webhooks[i].url) whose URL or secret cannot be used. */
  constructor(private readonly options: DriftWebhooksOptions) {
    this.settings = {
      allowPrivate: options.allowPrivate ?? false,
      debounceMs: options.debounceMs ?? DEFAULTS.debounceMs,
      maxPending: options.maxPending ?? DEFAULTS.maxPending,
      baseDelayMs: options.baseDelayMs ?? BASE_DELAY_MS,
      maxAttempts: options.maxAttempts ?? MAX_ATTEMPTS,
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    };
    const problems = checkWebhooks(options.webhooks, this.settings.allowPrivate);
    if (problems.length > 0) throw new MockError('MOCK_ERR_CONFIG_INVALID', problems[0]);
    this.receivers = options.webhooks.map((webhook) => ({
      url: new URL(webhook.url),
      shown: displayUrl(new URL(webhook.url)),
      events: new Set(webhook.events),
      ...(webhook.secret === undefined ? {} : { key: webhookKey(webhook.secret) }),
      queue: [],
      busy: false,
    }));
    this.debouncer = new Debouncer(this.settings.debounceMs, (burst) => this.dispatch(burst));
    this.dropWarnings = new WarningGate((message) => options.log.warn(message));
  }

  /** Reports what one capture showed; returns at once. */
  notify(observation: DriftObservation, now = new Date()): void {
    if (this.closed || this.receivers.length === 0) return;
    for (const mismatch of observation.mismatches) {
      if (!this.receivers.some((receiver) => eventFor(receiver, mismatch.severity) !== undefined)) continue;
      if (!this.debouncer.add(observation, mismatch, now, () => this.pending < this.settings.maxPending)) this.drop();
    }
  }

  stats(): WebhookStats {
    return { pending: this.pending, delivered: this.delivered, failed: this.failed, dropped: this.dropped };
  }

  /** Ends the debounce windows now and resolves once every event is delivered or given up. */
  async flush(): Promise<void> {
    this.debouncer.flush();
    if (this.queued === 0 || this.closed) return;
    await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  /** Stops: open windows and waiting events are dropped, attempts under way cut off, retries waiting abandoned. */
  close(): void {
    this.closed = true;
    this.stop.abort();
    this.debouncer.clear();
    for (const resolve of this.idle.splice(0)) resolve();
    for (const wait of this.waits) {
      clearTimeout(wait.timer);
      wait.resolve();
    }
  }

  private get pending(): number {
    return this.debouncer.size + this.queued;
  }

  private drop(): void {
    this.dropped++;
    this.dropWarnings.warn(`contract-diff webhooks: ${this.settings.maxPending} events pending, new ones dropped (${this.dropped} so far)`);
  }

  private dispatch(burst: Burst): void {
    for (const receiver of this.receivers) {
      const type = eventFor(receiver, burst.mismatch.severity);
      if (type === undefined) continue;
      if (this.pending >= this.settings.maxPending) {
        this.drop();
        continue;
      }
      receiver.queue.push({ type, id: `msg_${randomUUID().replaceAll('-', '')}`, timestamp: new Date().toISOString(), data: burst });
      this.queued++;
      void this.drain(receiver);
    }
  }

  /** One event at a time per webhook, in order. */
  private async drain(receiver: Receiver): Promise<void> {
    if (receiver.busy) return;
    receiver.busy = true;
    for (let event = receiver.queue.shift(); event !== undefined && !this.closed; event = receiver.queue.shift()) {
      await this.deliver(receiver, event);
      this.queued--;
    }
    receiver.busy = false;
    if (this.queued === 0 || this.closed) for (const resolve of this.idle.splice(0)) resolve();
  }

  private async deliver(receiver: Receiver, event: WebhookPayload): Promise<void> {
    const body = JSON.stringify(event);
    const what = `contract-diff webhook ${event.type} ${event.id} to ${receiver.shown}`;
    let outcome: PostOutcome = { error: 'not sent', refused: false };
    let attempt = 0;
    while (attempt < this.settings.maxAttempts && !this.closed) {
      attempt++;
      outcome = await postJson(receiver.url, this.headers(receiver, event.id, body), body, { timeoutMs: this.settings.timeoutMs, allowPrivate: this.settings.allowPrivate, signal: this.stop.signal });
      if ('status' in outcome && outcome.status >= 200 && outcome.status < 300) {
        this.delivered++;
        this.options.log.info(`${what}: delivered (${outcome.status}, attempt ${attempt} of ${this.settings.maxAttempts})`);
        return;
      }
      const again = 'status' in outcome ? retryable(outcome.status) : !outcome.refused;
      if (!again || attempt >= this.settings.maxAttempts) break;
      await this.wait(retryDelay(attempt, 'status' in outcome ? outcome.retryAfter : undefined, this.settings.baseDelayMs));
    }
    if (this.closed) return;
    this.failed++;
    const why = 'status' in outcome ? `answered ${outcome.status}` : outcome.error;
    this.options.log.warn(`${what}: not delivered, ${why} (${attempt} attempt${attempt === 1 ? '' : 's'})`);
  }

  private headers(receiver: Receiver, id: string, body: string): Record<string, string> {
    const timestamp = Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'user-agent': 'mock-contract-diff' };
    if (receiver.key !== undefined) headers['webhook-signature'] = signWebhook(receiver.key, id, timestamp, body);
    return headers;
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const entry = { timer: setTimeout(() => (this.waits.delete(entry), resolve()), ms), resolve };
      this.waits.add(entry);
    });
  }
}

function eventFor(receiver: Receiver, severity: string): WebhookEventName | undefined {
  if (severity === 'high' && receiver.events.has('high_severity')) return 'high_severity';
  return receiver.events.has('mismatch') ? 'mismatch' : undefined;
}

/** Every problem of contract_diff.webhooks the schema cannot state, as `key: text` lines: URLs the sender refuses, secrets it cannot read. */
export function checkWebhooks(webhooks: readonly WebhookTarget[], allowPrivate: boolean, key = 'contract_diff.webhooks'): string[] {
  return webhooks.flatMap((webhook, i) => {
    const url = checkWebhookUrl(webhook.url, allowPrivate);
    const secret = webhook.secret === undefined ? undefined : checkWebhookSecret(webhook.secret);
    return [...(url === undefined ? [] : [`${key}[${i}].url: ${url}`]), ...(secret === undefined ? [] : [`${key}[${i}].secret: ${secret}`])];
  });
}
