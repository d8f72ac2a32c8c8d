// Server-Sent Events written straight to Node's response: a stream costs its socket, one listener and one entry in a
// set, not a web stream with its promises and closures (10,000 open streams fit in one process). One timer sends
// every stream's keep-alive comment. A stopping process ends its streams with a retry hint, as a whole stream: the
// browser's EventSource reconnects (with Last-Event-ID) and the load balancer sends it to another process.
import type { ServerResponse } from 'node:http';
import type { LimitSettings } from '../config.js';
import { tooMany } from '../errors.js';

/** A comment line this often keeps proxies and load balancers from closing an idle stream. */
const HEARTBEAT_MS = 15_000;
/** Streams ended by a stop are told to come back after this, jittered up to twice, so they do not all return at once. */
const RECONNECT_MS = 500;

export interface EventStream {
  /** False when the stream was ended as it opened (the process is stopping): nothing is to be sent on it. */
  readonly live: boolean;
  /** Writes one event (nothing once the client is gone). */
  send(event: string, id: string, data: string): void;
  /** Calls `listener` once the client is gone or the server ended the stream: at once if it already is. */
  onClose(listener: () => void): void;
  /** Ends the stream from the server's side. */
  end(): void;
}

/** A stream refused for a limit is told to come back after this long (docs/security.md, "Limits"). */
const REFUSED_RETRY_SECONDS = 30;

export class EventStreams {
  readonly #open = new Set<ServerResponse>();
  /** Streams open now, by client address and by link: each is a socket and a descriptor until the client leaves. */
  readonly #byClient = new Map<string, number>();
  readonly #byLink = new Map<string, number>();
  #heartbeat: NodeJS.Timeout | undefined;
  #stopping = false;

  constructor(private readonly limits: Pick<LimitSettings, 'streamsPerClient' | 'streamsPerLink' | 'streams'>) {}

  /** Streams open now. */
  get size(): number {
    return this.#open.size;
  }

  /** Ends every open stream with a retry hint, and from now on each new one as soon as it opens. */
  endAll(): void {
    this.#stopping = true;
    for (const response of this.#open) endWithRetry(response);
  }

  /**
   * Starts an event stream on `response`, with `headers` beside the stream's own, counted against the limits of its
   * client address and its link: a 429 (thrown before anything is written) past any of them.
   */
  open(response: ServerResponse, counted: { client: string; link: string }, headers: Record<string, string> = {}, retryMs = 2000): EventStream {
    const [client, link] = [this.#byClient.get(counted.client) ?? 0, this.#byLink.get(counted.link) ?? 0];
    const refusal =
      client >= this.limits.streamsPerClient ? `${client} event streams are open from this address, the most one address may hold.`
      : link >= this.limits.streamsPerLink ? `${link} event streams are open on this link, the most one link may have.`
      : this.#open.size >= this.limits.streams ? 'This process holds as many event streams as it takes.'
      : undefined;
    if (refusal) throw tooMany(`${refusal} Close one, or try again later.`, REFUSED_RETRY_SECONDS);
    count(this.#byClient, counted.client, 1);
    count(this.#byLink, counted.link, 1);
    response.once('close', () => {
      count(this.#byClient, counted.client, -1);
      count(this.#byLink, counted.link, -1);
    });
    response.writeHead(200, {
      ...headers,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-store',
      // A stopping process's stream ends at once, and its connection with it: the client's next one goes elsewhere.
      Connection: this.#stopping ? 'close' : 'keep-alive',
      // Proxies that buffer (nginx) would hold events back.
      'X-Accel-Buffering': 'no',
    });
    response.write(`retry: ${retryMs}\n\n`);
    if (this.#stopping) endWithRetry(response);
    else this.#open.add(response);
    this.#heartbeat ??= setInterval(() => {
      for (const open of this.#open) open.write(': keep-alive\n\n');
    }, HEARTBEAT_MS).unref();
    response.once('close', () => {
      this.#open.delete(response);
      if (this.#open.size === 0) {
        clearInterval(this.#heartbeat);
        this.#heartbeat = undefined;
      }
    });
    return {
      live: !this.#stopping,
      send: (event, id, data) => {
        if (!response.destroyed) response.write(`event: ${event}\nid: ${id}\ndata: ${data}\n\n`);
      },
      onClose: (listener) => (response.destroyed || response.closed ? listener() : response.once('close', listener)),
      end: () => response.end(),
    };
  }
}

function count(counts: Map<string, number>, key: string, by: 1 | -1): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}

function endWithRetry(response: ServerResponse): void {
  response.end(`retry: ${Math.round(RECONNECT_MS * (1 + Math.random()))}\n\n`);
}
