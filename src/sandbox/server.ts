// Runs the gateway on a port: the services, the app, the listening socket, and a stop within a bound
// (docs/operations.md, "Stop"): not ready at once, event streams ended with a retry hint, no new connections, the
// requests under way finished, the watcher's round and the webhook sends finished or released, then storage closed.
import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { serve, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono } from 'hono';
import { createApp } from './app.js';
import { urlHost, type GatewayConfig } from './config.js';
import { answerClientErrors } from './http/client-errors.js';
import { ProblemError, problemResponse } from './http/problem.js';
import { log } from './logging.js';
import { metricsHandler } from './routes/operations.js';
import { createServices, type ServiceOptions, type Services } from './services.js';

export interface RunningGateway {
  gateway: Services;
  url: string;
  /** The listener of /metrics alone, when METRICS_PORT gives it one. */
  metricsUrl?: string;
  /** Stops; `delayMs` (SHUTDOWN_DELAY_MS on SIGTERM) keeps answering, not ready, for a load balancer to notice. */
  close(options?: { delayMs?: number }): Promise<void>;
}

export interface StartOptions extends ServiceOptions {
  /** Adds routes beside the gateway's own on the same port (the demo); `app.fetch` reaches the gateway in process. */
  mount?: (app: Hono, services: Services) => void;
}

/** The part of the stop's bound kept for the services and the database once requests are done (or cut). */
const SERVICES_MS = 1_500;
/**
 * A stopping server closes a connection once it has carried no request for this long: not one whose request is on its
 * way but not yet read (a loaded process reads late), which would be reset.
 */
const IDLE_MS = 1_000;
const POLL_MS = 50;
const DEFAULT_SHUTDOWN_MS = 10_000;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());

/** Starts the gateway on `config.port` (0: any free port) and resolves once it listens. */
/** How long a request's headers and body may take to arrive. */
const REQUEST_TIMEOUT_MS = 10_000;

export async function startGateway(config: GatewayConfig, options: StartOptions = {}): Promise<RunningGateway> {
  const gateway = await createServices(config, options);
  const app = createApp(gateway);
  options.mount?.(app, gateway);
  // Requests not yet answered in full; an event stream counts only until its response starts.
  const underWay = new Set<ServerResponse>();
  /**
   * Each open connection: when it last connected or finished a request (Infinity while it carries one), and how many
   * bytes it had read then. Bytes read since mean a request on its way in, however late the process parses it.
   */
  const lastActive = new Map<Socket, { at: number; read: number }>();
  const mark = (socket: Socket, at: number) => lastActive.set(socket, { at, read: socket.bytesRead });
  let stopping = false;
  const fetch = async (request: Request, env: HttpBindings | Http2Bindings) => {
    const outgoing = env.outgoing as ServerResponse;
    const { socket } = env.incoming;
    underWay.add(outgoing);
    mark(socket, Infinity);
    // A stopping process tells each client to open its next connection elsewhere.
    if (stopping) outgoing.setHeader('Connection', 'close');
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      underWay.delete(outgoing);
      if (lastActive.has(socket)) mark(socket, Date.now());
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
      // A request (headers and body) must arrive within REQUEST_TIMEOUT_MS, checked every second: a client that trickles
      // a body holds its socket seconds, not Node's default 300 s (docs/security.md, "Limits"). Event streams are answers,
      // so no limit of this kind ends them.
      const serverOptions = { requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 1_000 };
      const s = serve({ fetch, port: config.port, hostname: config.host, serverOptions }, () => resolve(s as Server));
      s.once('error', (error) => reject(listenError(error as NodeJS.ErrnoException, config)));
      s.on('connection', (socket: Socket) => {
        mark(socket, Date.now());
        socket.once('close', () => lastActive.delete(socket));
      });
    });
  } catch (error) {
    await gateway.close();
    throw error;
  }
  answerClientErrors(server);
  let metricsServer: Server | undefined;
  try {
    metricsServer = config.metrics?.port === undefined ? undefined : await listenForMetrics(gateway, config, config.metrics.port);
  } catch (error) {
    server.close();
    await gateway.close();
    throw error;
  }
  const bound = config.shutdown?.timeoutMs ?? DEFAULT_SHUTDOWN_MS;
  return {
    gateway,
    url: `http://${urlHost(config.host)}:${portOf(server, config.port)}`,
    metricsUrl: metricsServer && `http://${urlHost(config.host)}:${portOf(metricsServer, config.metrics!.port!)}/metrics`,
    async close({ delayMs = 0 } = {}) {
      const deadline = Date.now() + bound;
      // A scrape is no request under way: the metrics listener goes at once.
      metricsServer?.close();
      metricsServer?.closeAllConnections();
      gateway.health.stop();
      gateway.eventStreams.endAll();
      await pause(Math.min(delayMs, deadline - SERVICES_MS - Date.now()));
      stopping = true;
      for (const response of underWay) if (!response.headersSent) response.setHeader('Connection', 'close');
      // Stops accepting but, unlike http.Server's close, leaves idle connections open: one just accepted may carry a
      // request not yet read, which is then answered (with Connection: close) instead of reset.
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      // Requests under way finish (a refund mid-transaction commits or rolls back, never half-run), and those that
      // arrive meanwhile on open connections too; each connection closes after its answer, or once it has been idle.
      const until = deadline - SERVICES_MS;
      for (let now = Date.now(); lastActive.size > 0 && now < until; now = Date.now()) {
        for (const [socket, { at, read }] of lastActive) if (now - at >= IDLE_MS && socket.bytesRead === read) socket.destroy();
        await pause(Math.min(POLL_MS, until - now));
        // After the poll phase: bytes that came while the process was busy are read before the next look.
        await new Promise(setImmediate);
      }
      server.closeAllConnections();
      await closed;
      await gateway.close(deadline);
    },
  };
}

const portOf = (server: Server, configured: number): number => {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : configured;
};

/**
 * /metrics alone, on METRICS_PORT (docs/operations.md, "Metrics"): a port the operator keeps from the customers (a
 * firewall, a private network), so the main port can be public with no figure of any merchant on it.
 */
async function listenForMetrics(gateway: Services, config: GatewayConfig, port: number): Promise<Server> {
  const app = new Hono();
  app.get('/metrics', metricsHandler(gateway, true));
  app.notFound((c) => problemResponse(c, new ProblemError(404, `Only GET /metrics is served on METRICS_PORT, not ${c.req.method} ${c.req.path}.`)));
  app.onError((error, c) => {
    log.error({ err: error }, 'metrics: a scrape failed');
    return problemResponse(c, new ProblemError(500, 'The gateway failed to read its metrics.'));
  });
  return new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port, hostname: config.host }, () => resolve(s as Server));
    s.once('error', (error) => reject(listenError(error as NodeJS.ErrnoException, { ...config, port }, 'METRICS_PORT')));
  });
}

/** What an operator reads when the port cannot be had. */
function listenError(error: NodeJS.ErrnoException, config: GatewayConfig, name = 'PORT'): Error {
  const where = `${name} ${config.port} on HOST ${config.host}`;
  const said: Record<string, string> = {
    EADDRINUSE: `${where} is in use by another process: stop it, or set ${name} to a free port`,
    EACCES: `${where} needs privileges this process lacks: set ${name} above 1023`,
    EADDRNOTAVAIL: `HOST ${config.host} is not an address of this machine`,
  };
  return new Error(said[error.code ?? ''] ?? `cannot listen on ${where}: ${error.message}`, { cause: error });
}
