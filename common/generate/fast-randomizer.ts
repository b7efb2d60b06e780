import type { Randomizer } from '@faker-js/faker';

/**
 * sfc32, a small fast counter PRNG, as faker's randomizer. Faker's default Mersenne Twister costs
 * about 100 ns a draw, which dominated generated responses; this is a few nanoseconds. Seeded
 * through splitmix32 so nearby seeds give unrelated streams.
 */
export function createFastRandomizer(seed: number = Math.floor(Math.random() * 2 ** 32)): Randomizer {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  const reseed = (value: number | number[]): void => {
    let s = (Array.isArray(value) ? value.reduce((x, y) => (x * 31 + y) | 0, 0) : value) >>> 0;
    const splitmix = (): number => {
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    a = splitmix();
    b = splitmix();
    c = splitmix();
    d = splitmix();
  };
  reseed(seed);
  return {
    next(): number {
      const t = (((a + b) | 0) + d) | 0;
      d = (d + 1) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (c << 21) | (c >>> 11);
      c = (c + t) | 0;
      return (t >>> 0) / 4294967296;
    },
    seed: reseed,
  };
}
