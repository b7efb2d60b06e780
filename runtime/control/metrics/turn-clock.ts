let cached = 0;
let fresh = false;

function expire(): void {
  fresh = false;
}

/**
 * `Date.now()`, read at most once per event-loop turn. A busy server answers many requests in one
 * turn, and a clock read costs a call into C++ plus a boxed number each time; a last-request time
 * does not need to be finer than the turn that wrote it.
 */
export function turnClock(): number {
  if (!fresh) {
    cached = Date.now();
    fresh = true;
    setImmediate(expire);
  }
  return cached;
}
