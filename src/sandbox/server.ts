// Runs the gateway on a port: the services, the app, the listening socket, and a stop that lets requests under way
// finish before storage closes.
import type { Server } from 'node:http';
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
  close(): Promise<void>;
}

export interface StartOptions extends ServiceOptions {
  /** Adds routes beside the gateway's own on the same port (the demo); `app.fetch` reaches the gateway in process. */
  mount?: (app: Hono, services: Services) => void;
}

/** How long a stopping gateway lets requests under way finish before it closes the database under them. */
const DRAIN_MS = 5_000;

/** Starts the gateway on `config.port` (0: any free port) and resolves once it listens. */
export async function startGateway(config: GatewayConfig, options: StartOptions = {}): Promise<RunningGateway> {
  const gateway = await createServices(config, options);
  const app = createApp(gateway);
  options.mount?.(app, gateway);
  // Requests not yet answered in full; an event stream counts only until its response starts.
  let underWay = 0;
  let drained: (() => void) | undefined;
  const fetch = async (request: Request, env: HttpBindings | Http2Bindings) => {
    underWay++;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      if (--underWay === 0) drained?.();
    };
    try {
      const response = await app.fetch(request, env);
      // The answer is written after this returns: the request is over when the socket has it all (or is gone).
      if (response === RESPONSE_ALREADY_SENT) finish();
      else env.outgoing.once('close', finish);
      return response;
    } catch (error) {
      finish();
      throw error;
    }
  };
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch, port: config.port, hostname: config.host }, () => resolve(s as Server));
  });
  answerClientErrors(server);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    gateway,
    url: `http://${urlHost(config.host)}:${port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // No new requests; those under way finish (a refund mid-transaction commits or rolls back, never half-run).
      if (underWay > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve;
          setTimeout(resolve, DRAIN_MS).unref();
        });
      }
      // Open event streams would hold the server open: end them.
      server.closeAllConnections();
      await closed;
      await gateway.close();
    },
  };
}
