// Polling instead of fixed sleeps: a loaded CI machine runs timers late, so a test waits for the
// state it expects (bounded) rather than for a guess at how long it takes.

/** Resolves with check()'s first truthy value; rejects naming `what` after `ms`. */
export async function until(check, ms = 10_000, what = 'condition') {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
