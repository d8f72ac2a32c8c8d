// Waiting for an answer over HTTP that no event announces (a token refused once a NOTIFY arrived, a payout signed in
// the gateway's next round): ask again until it comes, with a short pause between asks, never in place of the answer.
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks until `done` holds for the answer (at most `ms`): the answer, and how long it took. */
export async function until<T>(ask: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  for (;;) {
    const value = await ask();
    const waited = performance.now() - started;
    if (done(value) || waited > ms) return { value, ms: waited };
    await pause(20);
  }
}

/**
 * Asks until `ok` holds for the answer, every 100 ms (an ask may open a payment, and the gateway limits how often a
 * client does), and fails the test saying `what` it still was after `withinMs`.
 */
export async function eventually<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, withinMs = 15_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${withinMs} ms`);
    await pause(100);
  }
}
