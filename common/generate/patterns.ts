import type { CompiledPattern, PatternPrimitives } from '../contract/index.js';
import { linearOrAny } from '../patterns/index.js';
import { RandExp } from '../randexp.js';
import type { Random } from './random.js';

const ATTEMPTS = 10;
/** randexp costs ~20 µs a string: after this many distinct draws per pattern, reuse them. */
const POOL_SIZE = 64;

export function patternPrimitives(random: Random): PatternPrimitives {
  const fits = (compiled: CompiledPattern, value: string, min: number, max: number) =>
    value.length >= min && value.length <= max && compiled.matches(value);

  const pools = new WeakMap<CompiledPattern, Map<string, string[]>>();
  const pattern = (compiled: CompiledPattern, min: number, max: number): string => {
    let byBounds = pools.get(compiled);
    if (byBounds === undefined) pools.set(compiled, (byBounds = new Map()));
    const key = `${min}:${max}`;
    let pool = byBounds.get(key);
    if (pool === undefined) byBounds.set(key, (pool = []));
    if (pool.length >= POOL_SIZE) return random.pick(pool);
    const value = draw(compiled, min, max);
    pool.push(value);
    return value;
  };
  const draw = (compiled: CompiledPattern, min: number, max: number): string => {
    let value = '';
    for (let i = 0; i < ATTEMPTS; i++) {
      value = compiled.generator.gen();
      if (fits(compiled, value, min, max)) return value;
      // Repeating the last character keeps `\d+`-like tails matching when too short.
      const fitted =
        value.length > max
          ? value.slice(0, max)
          : value + (value.charAt(value.length - 1) || 'a').repeat(Math.max(0, min - value.length));
      if (fits(compiled, fitted, min, max)) return fitted;
    }
    return value;
  };

  return {
    compilePattern(source, max) {
      const generator = new RandExp(source);
      generator.max = max;
      generator.randInt = random.int;
      // drawn values are checked in linear time: a backtracking test of a padded draw can take seconds
      return { generator, matches: linearOrAny(source) };
    },
    pattern,
    patternOr: (compiled, value, min, max) =>
      fits(compiled, value, min, max) ? value : pattern(compiled, min, max),
  };
}
