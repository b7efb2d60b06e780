import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { WebhookMeta } from '../../common/contract/index.js';
import { MockError } from '../../common/errors.js';
import { signWebhook, webhookKey } from '../drift/webhooks/index.js';
import type { DeliveryResult, Outbound } from './outbound.js';
import { applyParameters } from './parameters.js';
import { refusalOf } from './send.js';

/** One entry of callbacks.webhooks.schedules. */
export interface WebhookSchedule {
  webhook: string;
  url: string;
  everyMs: number;
  body?: unknown;
}

/** The webhooks of the build being served, and the generators of their parameters' values (by webhook, then parameter). */
export interface ServedWebhooks {
  webhooks: readonly WebhookMeta[];
  values: ReadonlyArray<ReadonlyArray<(() => unknown) | null>>;
}

/** Why a webhook cannot be sent as asked: the admin API's 400 or 404. */
export class WebhookRequestError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

/**
 * OpenAPI 3.1 `webhooks`: sent on demand (POST /__mock/webhooks/{name}/send) and by schedules,
 * with the description's example body (or a sample of its schema) unless one is given, signed per
 * Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature) when callbacks.webhooks.secret
 * is set.
 */
export class WebhookSender {
  private readonly key: Buffer | undefined;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly outbound: Outbound,
    /** The webhooks of the build being served (a restart swaps it). */
    private readonly served: () => ServedWebhooks,
    secret: string | undefined,
    private readonly logger: Logger,
  ) {
    this.key = secret === undefined ? undefined : webhookKey(secret);
  }

  names(): string[] {
    return this.served().webhooks.map((w) => w.name);
  }

  /** Checks what can be checked before sending (the webhook, the URL, the allowlist), then sends; resolves with the outcome. */
  async send(name: string, target: string, body: unknown, via: 'admin' | 'schedule'): Promise<DeliveryResult> {
    const { webhooks, values } = this.served();
    const index = webhooks.findIndex((w) => w.name === name);
    const webhook = webhooks[index];
    if (webhook === undefined) {
      const known = this.names();
      throw new WebhookRequestError(404, `no webhook named ${JSON.stringify(name)} in the served descriptions${known.length === 0 ? ' (they declare none)' : `; known: ${known.join(', ')}`}`);
    }
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      throw new WebhookRequestError(400, `url ${JSON.stringify(target.slice(0, 200))} is not an absolute http(s) URL such as http://localhost:4000/hooks`);
    }
    const refusal = refusalOf(url, this.outbound.allowlist);
    if (refusal !== undefined && via === 'admin') {
      this.outbound.refuse(webhook.method, url.href, { kind: 'webhook', name, via }, refusal);
      throw new WebhookRequestError(400, `url ${JSON.stringify(`${url.protocol}//${url.host}`)}: ${refusal}`);
    }
    const value = body === undefined ? webhook.body : body;
    const text = value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
    const headers: Record<string, string> = { 'user-agent': 'mock-webhooks' };
    applyParameters(url, headers, webhook.parameters ?? [], values[index]);
    if (text !== '') headers['content-type'] = webhook.contentType ?? 'application/json';
    if (this.key !== undefined) {
      const id = `msg_${randomUUID()}`;
      const timestamp = Math.floor(Date.now() / 1000);
      headers['webhook-id'] = id;
      headers['webhook-timestamp'] = String(timestamp);
      headers['webhook-signature'] = signWebhook(this.key, id, timestamp, text);
    }
    // a webhook sent on demand goes now; callbacks.delay_ms is for callbacks
    return this.outbound.deliver({ method: webhook.method, url, headers, body: text === '' ? undefined : text }, { kind: 'webhook', name, via }, 0);
  }

  /** Starts the schedules: each sends its webhook every everyMs, the first after everyMs. Throws MOCK_ERR_CONFIG_INVALID for a webhook the descriptions do not declare. */
  schedule(schedules: readonly WebhookSchedule[]): void {
    const known = this.names();
    for (const [i, entry] of schedules.entries()) {
      if (!known.includes(entry.webhook)) {
        const listed = known.length === 0 ? 'they declare none' : `known: ${known.join(', ')}`;
        throw new MockError(
          'MOCK_ERR_CONFIG_INVALID',
          `mock.yaml: callbacks.webhooks.schedules[${i}].webhook: no webhook named ${JSON.stringify(entry.webhook)} in the served descriptions (${listed})`,
        );
      }
    }
    for (const entry of schedules) {
      const timer = setInterval(() => {
        this.send(entry.webhook, entry.url, entry.body, 'schedule').catch((e: Error) => this.logger.warn(`callbacks.webhooks.schedules: ${e.message}`));
      }, entry.everyMs);
      timer.unref();
      this.timers.push(timer);
    }
  }

  close(): void {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
  }
}
