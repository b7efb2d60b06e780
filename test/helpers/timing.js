// Timing without absolute limits ("under 50 ms" fails on a loaded two-core CI machine): a test
// compares two runs it measures itself, which the load slows alike.
//
//   t.ok(growth((n) => glob.test('a'.repeat(n)), 4_000, 32_000) < 8 * 3, 'linear in the input');

/**
 * How many times longer work(large) takes than work(small): each timed `runs` times, alternately
 * (the load of the moment falls on both), after a warm-up run (the JIT), and compared at their
 * fastest, the runs the scheduler and the GC disturbed least. About large / small for work linear
 * in the size, its square for quadratic work; exponential work never finishes the warm-up.
 */
export function growth(work, small, large, runs = 21) {
  work(small);
  work(large);
  const time = (size) => {
    const started = performance.now();
    work(size);
    return performance.now() - started;
  };
  let fastestSmall = Infinity;
  let fastestLarge = Infinity;
  for (let i = 0; i < runs; i++) {
    fastestSmall = Math.min(fastestSmall, time(small));
    fastestLarge = Math.min(fastestLarge, time(large));
  }
  return fastestLarge / fastestSmall;
}
