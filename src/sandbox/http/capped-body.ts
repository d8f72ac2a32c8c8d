// A body from outside (a rate feed, a node) read within a bound: a peer that sends more than it may, or breaks off,
// ends the read at once, and the connection is closed.

/** Why a capped read failed: too big, out of time (the signal), or broken off. */
export type CappedReadFailure = 'size' | 'time-limit' | 'broken';

/** The body, read until its end or until it holds more than `maxBytes`; `fail` makes the error thrown. */
export async function readCapped(response: Response, maxBytes: number, signal: AbortSignal, fail: (why: CappedReadFailure) => Error): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw fail('size');
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  let tooBig = false;
  try {
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      size += chunk.value.byteLength;
      if (size > maxBytes) {
        tooBig = true;
        await reader!.cancel().catch(() => undefined);
        break;
      }
      chunks.push(chunk.value);
    }
  } catch {
    throw fail(signal.aborted ? 'time-limit' : 'broken');
  }
  if (tooBig) throw fail('size');
  return Buffer.concat(chunks);
}
