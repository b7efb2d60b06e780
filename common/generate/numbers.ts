import type { NumberPrimitives } from '../contract/index.js';
import type { Random } from './random.js';

const ATTEMPTS = 10;
/** Multiples tried in order when random ones keep failing the division (0.07 fails it often). */
const SCAN = 1000;

export function numberPrimitives(random: Random): NumberPrimitives {
  const { int, next } = random;
  return {
    int,
    float(min, max) {
      const value = min + next() * (max - min);
      const cents = Math.round(value * 100) / 100;
      return cents >= min && cents <= max ? cents : value;
    },
    multiple(kMin, kMax, step, of = step) {
      // Validators test that value / of is an integer; float products such as 3 * 0.1 fail
      // that, so look for a k whose value survives the round trip: a few at random, then in turn.
      const value = (k: number) => Number((k * step).toPrecision(15));
      const fits = (k: number) => Number.isInteger(value(k) / of);
      for (let i = 0; i < ATTEMPTS; i++) {
        const k = int(kMin, kMax);
        if (fits(k)) return value(k);
      }
      const start = int(kMin, kMax);
      const span = Math.min(kMax - kMin + 1, SCAN);
      for (let i = 0; i < span; i++) {
        const k = kMin + ((start - kMin + i) % (kMax - kMin + 1));
        if (fits(k)) return value(k);
      }
      return value(kMin);
    },
    bool: () => next() < 0.5,
  };
}
