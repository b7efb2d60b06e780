import { problem, type Answer } from '../exchange/index.js';
import type { MergeStrategy } from './config.js';
import { bodyBlendMerge, fieldLevelMerge, type Draw } from './merge.js';

/** Where a continuum answer came from: the X-Mock-Source header. */
export type Source = 'mock' | 'upstream' | 'blend';

export interface ContinuumSources {
  /** The mock's own answer. */
  mock(): Answer | Promise<Answer>;
  /** The upstream's answer (the proxy's 502/504 when it fails). */
  upstream(): Promise<Answer>;
}

export interface BlendSettings {
  /** The share of the upstream, 0..1. */
  ratio: number;
  strategy: MergeStrategy;
  draw: Draw;
  /** Whether a blended answer is valid against its documented response (always true where nothing is documented). */
  valid(answer: Answer): boolean;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const decoder = new TextDecoder();

/** A source answered: any status below 400 (a 404 of the mock for a path the description lacks is a failure). */
const succeeded = (answer: Answer): boolean => answer.status < 400;

/**
 * One continuum answer. With `weighted`, or at ratio 0 or 1, one source is drawn (the upstream
 * with probability = ratio) and asked; if it fails, the other is. Otherwise both are asked at
 * once: both succeed → their blend when both bodies are JSON (their head — status and headers —
 * drawn like one field; a blend that breaks its documented schema gives way to the source with
 * the larger share), else one of the two drawn whole; one succeeds → that one; both fail →
 * MOCK_ERR_CONTINUUM_FAILED (502).
 */
export async function continuumAnswer(sources: ContinuumSources, settings: BlendSettings): Promise<{ answer: Answer; source: Source }> {
  const { ratio, strategy, draw } = settings;
  if (strategy === 'weighted' || ratio <= 0 || ratio >= 1) {
    const first: 'mock' | 'upstream' = draw() < ratio ? 'upstream' : 'mock';
    const second = first === 'mock' ? 'upstream' : 'mock';
    const firstAnswer = await sources[first]();
    if (succeeded(firstAnswer)) return { answer: firstAnswer, source: first };
    const secondAnswer = await sources[second]();
    if (succeeded(secondAnswer)) return { answer: secondAnswer, source: second };
    return { answer: bothFailed(first === 'mock' ? firstAnswer : secondAnswer, first === 'mock' ? secondAnswer : firstAnswer), source: 'mock' };
  }
  const [mock, upstream] = await Promise.all([sources.mock(), sources.upstream()]);
  if (!succeeded(mock)) return succeeded(upstream) ? { answer: upstream, source: 'upstream' } : { answer: bothFailed(mock, upstream), source: 'mock' };
  if (!succeeded(upstream)) return { answer: mock, source: 'mock' };
  const mockJson = jsonBody(mock);
  const upstreamJson = jsonBody(upstream);
  if (mockJson === undefined || upstreamJson === undefined) return draw() < ratio ? { answer: upstream, source: 'upstream' } : { answer: mock, source: 'mock' };
  const merged = (strategy === 'body_blend' ? bodyBlendMerge : fieldLevelMerge)(mockJson.value, upstreamJson.value, ratio, draw);
  const head = draw() < ratio ? upstream : mock;
  const blended: Answer = { status: head.status, headers: head.headers, body: JSON.stringify(merged), source: 'continuum' };
  if (settings.valid(blended)) return { answer: blended, source: 'blend' };
  return ratio >= 0.5 ? { answer: upstream, source: 'upstream' } : { answer: mock, source: 'mock' };
}

/** The parsed body of a JSON answer; undefined when it is not JSON. */
function jsonBody(answer: Answer): { value: unknown } | undefined {
  const type = answer.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  if (type === undefined || !JSON_TYPE.test(type)) return undefined;
  try {
    return { value: JSON.parse(typeof answer.body === 'string' ? answer.body : decoder.decode(answer.body)) };
  } catch {
    return undefined;
  }
}

function bothFailed(mock: Answer, upstream: Answer): Answer {
  const described = (answer: Answer): string => (answer.code === undefined ? String(answer.status) : `${answer.status} (${answer.code}${answer.error === undefined ? '' : `: ${answer.error}`})`);
  return problem('MOCK_ERR_CONTINUUM_FAILED', { mock: described(mock), upstream: described(upstream) }, { logged: true });
}
