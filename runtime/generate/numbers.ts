import type { NumberPrimitives } from '../../common/contract/index.js';
import type { Random } from './random.js';

const ATTEMPTS = 10;

export function numberPrimitives(random: Random): NumberPrimitives {
  const { int, next } = random;
  return {
    int,
    float(min, max) {
      const value = min + next() * (max - min);
      const cents = Math.round(value * 100) / 100;
      return cents >= min && cents <= max ? cents : value;
    },
    multiple(kMin, kMax, step) {
      // Validators test that value / step is an integer; float products such as 3 * 0.1
      // fail that, so try a few k until one survives the round trip.
      for (let i = 0; i < ATTEMPTS; i++) {
        const value = Number((int(kMin, kMax) * step).toPrecision(15));
        if (Number.isInteger(value / step)) return value;
      }
      return Number((kMin * step).toPrecision(15));
    },
    bool: () => next() < 0.5,
  };
}
