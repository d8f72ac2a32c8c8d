// Runs the gateway on a port: the services, the app, the listening socket, and a stop within a bound
// (docs/operations.md, "Stop"): not ready at once, event streams ended with a retry hint, no new connections, the
// requests under way finished, the watcher's round and the webhook sends finished or released, then storage closed.
import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import { serve, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Hono } from 'hono';
import { createApp } from './app.js';
import { urlHost, type GatewayConfig } from './config.js';
import { answerClientErrors } from './http/client-errors.js';
import { createServices, type ServiceOptions, type Services } from './services.js';

export interface RunningGateway {
  gateway: Services;
  url: string;
  /** Stops; `delayMs` (SHUTDOWN_DELAY_MS on SIGTERM) keeps answering, not ready, for a load balancer to notice. */
  close(options?: { delayMs?: number }): Promise<void>;
}

export interface StartOptions extends ServiceOptions {
  /** Adds routes beside the gateway's own on the same port (the demo); `app.fetch` reaches the gateway in process. */
  mount?: (app: Hono, services: Services) => void;
}

/** The part of the stop's bound kept for the services and the database once requests are done (or cut). */
const SERVICES_MS = 1_500;
/** How long a stopping server waits, once no request is under way, for one more on a connection it has accepted. */
const LINGER_MS = 200;
const DEFAULT_SHUTDOWN_MS = 10_000;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());

/** Starts the gateway on `config.port` (0: any free port) and resolves once it listens. */
export async function startGateway(config: GatewayConfig, options: StartOptions = {}): Promise<RunningGateway> {
  const gateway = await createServices(config, options);
  const app = createApp(gateway);
  options.mount?.(app, gateway);
  // Requests not yet answered in full; an event stream counts only until its response starts.
  const underWay = new Set<ServerResponse>();
  let drained: (() => void) | undefined;
  let stopping = false;
  const fetch = async (request: Request, env: HttpBindings | Http2Bindings) => {
    const outgoing = env.outgoing as ServerResponse;
    underWay.add(outgoing);
    // A stopping process tells each client to open its next connection elsewhere.
    if (stopping) outgoing.setHeader('Connection', 'close');
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      underWay.delete(outgoing);
      if (underWay.size === 0) drained?.();
    };
    try {
      const response = await app.fetch(request, env);
      // The answer is written after this returns: the request is over when the socket has it all (or is gone).
      if (response === RESPONSE_ALREADY_SENT) finish();
      else outgoing.once('close', finish);
      return response;
    } catch (error) {
      finish();
      throw error;
    }
  };
  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const s = serve({ fetch, port: config.port, hostname: config.host }, () => resolve(s as Server));
      s.once('error', (error) => reject(listenError(error as NodeJS.ErrnoException, config)));
    });
  } catch (error) {
    await gateway.close();
    throw error;
  }
  answerClientErrors(server);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const bound = config.shutdown?.timeoutMs ?? DEFAULT_SHUTDOWN_MS;
  return {
    gateway,
    url: `http://${urlHost(config.host)}:${port}`,
    async close({ delayMs = 0 } = {}) {
      const deadline = Date.now() + bound;
      gateway.health.stop();
      gateway.eventStreams.endAll();
      await pause(Math.min(delayMs, deadline - SERVICES_MS - Date.now()));
      stopping = true;
      for (const response of underWay) if (!response.headersSent) response.setHeader('Connection', 'close');
      // Stops accepting but, unlike http.Server's close, leaves idle connections open: one just accepted may carry a
      // request not yet read, which is then answered (with Connection: close) instead of reset.
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      // Requests under way finish (a refund mid-transaction commits or rolls back, never half-run), and those that
      // arrive meanwhile on open connections too, until none has come for a moment.
      const until = deadline - SERVICES_MS;
      do {
        if (underWay.size > 0) {
          await new Promise<void>((resolve) => {
            drained = resolve;
            void pause(until - Date.now()).then(resolve);
          });
        }
        await pause(Math.min(LINGER_MS, until - Date.now()));
      } while (underWay.size > 0 && Date.now() < until);
      server.closeAllConnections();
      await closed;
      await gateway.close(deadline);
    },
  };
}

/** What an operator reads when the port cannot be had. */
function listenError(error: NodeJS.ErrnoException, config: GatewayConfig): Error {
  const where = `PORT ${config.port} on HOST ${config.host}`;
  const said: Record<string, string> = {
    EADDRINUSE: `${where} is in use by another process: stop it, or set PORT to a free port`,
    EACCES: `${where} needs privileges this process lacks: set PORT above 1023`,
    EADDRNOTAVAIL: `HOST ${config.host} is not an address of this machine`,
  };
  return new Error(said[error.code ?? ''] ?? `cannot listen on ${where}: ${error.message}`, { cause: error });
}
