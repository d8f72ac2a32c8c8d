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
