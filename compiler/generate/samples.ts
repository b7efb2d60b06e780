/** Emitted generator code run at build time, on the runtime's own primitives, to look at its values. */
import { createGenRuntime } from '../../common/generate/index.js';
import type { Generate } from '../../common/contract/index.js';

/** Fixed, so that what the build decides from samples is the same on every build. */
const SEED = 20_201_212;
const NOW = Date.UTC(2024, 0, 1);

/**
 * The generator functions `names` of `declarations` (JavaScript from declarations('js')),
 * bound to a freshly seeded runtime.
 */
export function loadGenerators(declarations: string, names: readonly string[]): Generate[] {
  const g = createGenRuntime({ seed: SEED, now: () => NOW });
  return new Function('g', `${declarations}\nreturn [${names.join(', ')}];`)(g) as Generate[];
}

/** `count` values of `generate` at each depth of `depths` (a throw gives a value no typed schema accepts). */
export function sample(generate: Generate, count: number, depths: readonly number[] = [0]): unknown[] {
  const values: unknown[] = [];
  for (const depth of depths) {
    for (let i = 0; i < count; i++) {
      try {
        values.push(generate(depth));
      } catch {
        values.push(UNGENERATABLE);
      }
    }
  }
  return values;
}

/** Stands for a value whose generation threw. */
const UNGENERATABLE = Symbol('ungeneratable');
