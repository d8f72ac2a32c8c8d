// How responsive a gateway stays under load: plain GETs, one after another, each on a fresh connection.
import { get } from 'node:http';

export const PROBE_GAP_MS = 100;
const PROBE_TIMEOUT_MS = 30_000;

/** One GET on a fresh connection (no keep-alive to race a stalled server's idle timer); its time, or why it failed. */
function probe(url: string): Promise<number | string> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const request = get(url, { agent: false, timeout: PROBE_TIMEOUT_MS }, (response) => {
      response.resume();
      response.on('end', () => resolve(performance.now() - t0));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (error) => resolve(error.message));
  });
}

export interface Probes {
  times: number[];
  failures: string[];
}

/** Probes `url` every PROBE_GAP_MS while `going()` says so (each probe bounded by PROBE_TIMEOUT_MS). */
export async function probeWhile(url: string, going: () => boolean): Promise<Probes> {
  const times: number[] = [];
  const failures: string[] = [];
  while (going()) {
    const result = await probe(url);
    if (typeof result === 'number') times.push(result);
    else failures.push(result);
    await new Promise((r) => setTimeout(r, PROBE_GAP_MS));
  }
  return { times, failures };
}

export function probeFor(url: string, ms: number): Promise<Probes> {
  const end = performance.now() + ms;
  return probeWhile(url, () => performance.now() < end);
}

/** A route no gateway has: its answer needs the event loop and nothing else. */
export const NO_ROUTE = '/bench-no-such-route';
