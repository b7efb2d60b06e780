import type { Logger } from 'pino';
import { WarningGate } from '../../../common/warning-gate.js';
import { chatCompletion } from '../../drift/explain/index.js';
import type { Store, StoreBudget } from '../../store/index.js';
import type { Description } from '../description.js';
import type { Answer, Exchange, Validated } from '../exchange/index.js';
import type { AiOperation, AiOptions } from './ai-options.js';
import type { ExampleSource } from './examples.js';
import { AI_SYSTEM_PROMPT, aiPrompt, jsonOfAnswer } from './prompt.js';
import { requestShape, shapeKey, type RequestShape } from './request-shape.js';

/** The ai-answers store's budget: model answers by request shape, the least recently used forgotten (asked again). */
export function aiAnswersBudget(maxBytes: number): StoreBudget<string> {
  return {
    maxBytes,
    past: 'evict',
    setting: 'ai.cache_max_mb',
    forgotten: 'the AI answers',
    afterwards: ', which the model is asked for again',
    sizeOf: (key, value) => 2 * (key.length + value.length) + 64,
  };
}

/**
 * Answers written by a model (docs/ai.md): asked once per request shape (operation, parameters,
 * body hash), within the time-out, checked against the documented response with the build's
 * validators, and kept in the ai-answers store. Undefined whenever the model gives no valid
 * answer in time: the request then gets the ordinary generated answer.
 */
export class AiAnswers {
  private readonly asking = new Map<string, Promise<string | undefined>>();
  private readonly warnings: WarningGate;

  constructor(
    private readonly options: AiOptions,
    private readonly cache: Store<string>,
    private readonly engine: () => Description,
    logger: Logger,
    private readonly examples?: ExampleSource,
  ) {
    this.warnings = new WarningGate((message) => logger.warn(message));
  }

  /** The operation the model answers for a route key, when it covers it. */
  operationOf(key: string): AiOperation | undefined {
    return Object.hasOwn(this.options.operations, key) ? this.options.operations[key] : undefined;
  }

  async answer(ex: Exchange, operation: AiOperation, index: number, checked: Validated): Promise<Answer | undefined> {
    const shape = requestShape(ex, checked);
    const key = shapeKey(operation.key, shape);
    const cached = await this.cache.get(key);
    if (cached !== undefined) return answerOf(operation, cached);
    let pending = this.asking.get(key);
    if (pending === undefined) {
      pending = this.ask(operation, index, shape, key).finally(() => this.asking.delete(key));
      this.asking.set(key, pending);
    }
    const body = await pending;
    return body === undefined ? undefined : answerOf(operation, body);
  }

  private async ask(operation: AiOperation, index: number, shape: RequestShape, key: string): Promise<string | undefined> {
    const { endpoint, model, timeoutMs } = this.options;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let content: string;
    try {
      const examples = this.examples === undefined || this.options.ragExamples === 0 ? [] : await this.examples(operation.key, this.options.ragExamples).catch(() => []);
      content = await chatCompletion(
        endpoint,
        model,
        [
          { role: 'system', content: AI_SYSTEM_PROMPT },
          { role: 'user', content: aiPrompt(operation, shape, examples) },
        ],
        controller.signal,
      );
    } catch (e) {
      this.fallBack(operation, controller.signal.aborted ? `no answer within ${timeoutMs} ms` : (e as Error).message);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
    const value = jsonOfAnswer(content);
    if (value === undefined) return this.fallBack(operation, 'the answer is not JSON');
    const body = JSON.stringify(value);
    const { issues } = this.engine().checkAnswer(index, operation.status, operation.contentType, Buffer.from(body));
    if (issues.length > 0) return this.fallBack(operation, `the answer breaks the response schema (${issues[0].name || 'body'}: ${issues[0].message})`);
    await this.cache.set(key, body);
    return body;
  }

  private fallBack(operation: AiOperation, why: string): undefined {
    this.warnings.warn(`ai: ${operation.key} answered by the generator: ${this.options.endpoint.shown} ${why}`);
    return undefined;
  }
}

function answerOf(operation: AiOperation, body: string): Answer {
  return {
    status: operation.status,
    headers: [
      ['content-type', operation.contentType],
      ['x-mock-source', 'ai'],
    ],
    body,
    source: 'ai',
  };
}
