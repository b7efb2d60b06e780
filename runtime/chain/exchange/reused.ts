import type { Answer } from './answer.js';

const reused = new WeakSet<Answer>();

/**
 * Marks an answer given again and again, unchanged, as one object (a documented example without
 * per-request parts, an entry of response.caching): a server adapter may keep what it derives from
 * it (the head it writes) instead of deriving it on every request. Nothing may change such an
 * answer; stages that adjust answers copy them.
 */
export function reusedAnswer<T extends Answer>(answer: T): T {
  reused.add(answer);
  return answer;
}

export const isReused = (answer: Answer): boolean => reused.has(answer);
