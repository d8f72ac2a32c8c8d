// The web-test-runner side of the browser suite: a real sandbox gateway per browser, and the server commands
// that need secrets or the gateway's insides (sign a link, pay from the test wallet, mine, restart, move time).
// Tests reach them with executeServerCommand (test/checkout/helpers/server.ts is the typed browser side).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { serve, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import type { Middleware } from '@web/dev-server-core';
import type { TestRunnerPlugin } from '@web/test-runner';
import { build } from 'esbuild';
import { Hono } from 'hono';
import type { AssetCode, CheckoutView, Network, PaymentLinkInput } from '../../src/contract/index.js';
import { MerchantClient } from '../../src/merchant/index.js';
import type { Clock } from '../../src/sandbox/clock.js';
import { loadConfig, type GatewayConfig } from '../../src/sandbox/config.js';
import { createApp } from '../../src/sandbox/app.js';
import { createServices, type Services } from '../../src/sandbox/services.js';
import { ethereumOn, startTestChain, type TestChain } from './anvil.js';
import { checkoutApi, sandboxApi } from './checkout.js';
import { sampleLink } from './gateway.js';

/** The header of the strict-CSP page (README: the element needs no unsafe-inline, no unsafe-eval). */
export const STRICT_CSP = "default-src 'self'; img-src 'self' data: https:";

/** Real time plus whatever the tests add: quotes stay in step with the browser's clock until a test jumps ahead. */
class SteppingClock implements Clock {
  #offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.#offsetMs);
  }
  advance(ms: number): void {
    this.#offsetMs += ms;
  }
}

const ROOT = new URL('../../', import.meta.url).pathname;

/** Bundles one browser entry into a single ES module, as the dev server would not (strict CSP page, CommonJS packages). */
async function bundle(stdin: string): Promise<string> {
  const result = await build({
    stdin: { contents: stdin, resolveDir: ROOT, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['production'],
    // package.json's sideEffects describes the published files; the test pages are imported for their effects.
    ignoreAnnotations: true,
    tsconfig: join(ROOT, 'tsconfig.json'),
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/**
 * A gateway for one browser: its own PGlite folder (data outlives a restart), its own clock, timers off so
 * tests drive every block. Restarting keeps the port, so the element's next request finds it again.
 */
class BrowserGateway {
  readonly clock = new SteppingClock();
  readonly #dataDir = mkdtempSync(join(tmpdir(), 'pay-checkout-wtr-'));
  readonly #config: GatewayConfig;
  #running: { gateway: Services; server: Server } | undefined;
  /** Every request that reached the gateway, as `METHOD /path` (a CORS preflight shows as OPTIONS). */
  readonly requests: string[] = [];
  #starting: Promise<void> | undefined;

  /** `networks`: the gateway's networks when not the sandbox's simulated ones (Ethereum on an anvil node). */
  constructor(port: number, networks?: GatewayConfig['networks']) {
    const config = loadConfig({});
    // Every component test's browser is one client address, opening payments and streams for the whole run.
    const limits = { ...config.limits, opensPerClientPerMinute: 1_000_000, opensPerLinkPerMinute: 1_000_000, streamsPerClient: 1_000_000, streamsPerLink: 1_000_000 };
    this.#config = { ...config, limits, networks: networks ?? config.networks, port, dataDir: this.#dataDir, checkoutUrl: `http://localhost:${port}/checkout` };
  }

  get url(): string {
    return `http://localhost:${this.#config.port}`;
  }

  /** Whether it is serving now (a stopped one has no services to call). */
  get running(): boolean {
    return this.#running !== undefined;
  }

  get gateway(): Services {
    if (!this.#running) throw new Error('the test gateway is stopped: run the start-gateway command first');
    return this.#running.gateway;
  }

  /** Starts once; later calls wait for the same start. */
  start(): Promise<void> {
    this.#starting ??= this.#start().catch((error: unknown) => {
      this.#starting = undefined;
      throw error;
    });
    return this.#starting;
  }

  async #start(): Promise<void> {
    const gateway = await createServices(this.#config, { clock: this.clock, watch: false });
    const app = createApp(gateway);
    // The gateway's event streams write to Node's response, which it finds in the bindings.
    const fetch = (request: Request, env: HttpBindings | Http2Bindings) => {
      const { pathname } = new URL(request.url);
      this.requests.push(`${request.method} ${pathname}`);
      return pathname.startsWith('/__test/') ? testPages.fetch(request) : app.fetch(request, env);
    };
    const server = await new Promise<Server>((resolve) => {
      const s = serve({ fetch, port: this.#config.port }, () => resolve(s as Server));
    });
    this.#running = { gateway, server };
  }

  async stop(): Promise<void> {
    await this.#starting;
    const running = this.#running;
    this.#running = undefined;
    this.#starting = undefined;
    if (!running) return;
    // Open event streams would hold the server open: end them first (the element sees its stream drop).
    running.server.closeAllConnections();
    await new Promise<void>((resolve) => running.server.close(() => resolve()));
    await running.gateway.close();
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.#dataDir, { recursive: true, force: true });
  }

  client(): MerchantClient {
    const { clientId, clientSecret, merchantKey } = this.#config.sandboxMerchant;
    return new MerchantClient({ baseUrl: this.url, clientId, clientSecret, merchantKey });
  }
}

/** Pages the gateway's origin serves for tests only: the element under a strict CSP, on the API's own origin. */
let cspBundle: Promise<string> | undefined;
const testPages = new Hono()
  .get('/__test/csp.html', (c) =>
    c.html(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Strict CSP</title>' +
        '<script type="module" src="/__test/csp-page.js"></script></head><body></body></html>',
      200,
      { 'Content-Security-Policy': STRICT_CSP },
    ),
  )
  .get('/__test/csp-page.js', async (c) => {
    cspBundle ??= bundle("import './test/checkout/helpers/csp-page.ts';");
    return c.body(await cspBundle, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Content-Security-Policy': STRICT_CSP });
  });

/** CommonJS packages the browser code imports (any of their files): served as one ES module each, with named exports. */
const isCommonjs = (spec: string) => /^jsqr(\/[\w./-]+)?$/.test(spec) && !spec.includes('..');
const require = createRequire(import.meta.url);
const commonjsBundles = new Map<string, Promise<string>>();

function commonjsModule(name: string): Promise<string> {
  let found = commonjsBundles.get(name);
  // Named exports as node sees them: a CommonJS module's exports are only known once it runs.
  if (!found) {
    const exported = require(name) as Record<string, unknown> | ((...args: unknown[]) => unknown);
    const names = typeof exported === 'object' ? Object.keys(exported).filter((k) => /^[A-Za-z_$][\w$]*$/.test(k) && k !== 'default') : [];
    const named = names.length ? `export const { ${names.join(', ')} } = m;` : '';
    found = bundle(`import m from '${name}'; export default m; ${named}`);
    commonjsBundles.set(name, found);
  }
  return found;
}

/** A port free now; the gateway keeps it across restarts, so the element's next request finds it again. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function fail(what: string, status: number, body: unknown): never {
  throw new Error(`${what}: the gateway answered ${status} ${JSON.stringify(body)}`);
}

/** Checkout views the stub API answers with (on the test server's own origin), keyed by their ref. */
const stubViews = new Map<string, CheckoutView>();

export interface PayPayload {
  address: string;
  asset: AssetCode;
  network: Network;
  amount: string;
}

/**
 * A gateway watching Ethereum on an anvil node of its own, for the browser-wallet tests: the stand-in wallet's
 * requests reach the node through the `wallet-rpc` command, and anvil's unlocked accounts sign.
 */
interface AnvilGateway {
  chain: TestChain;
  gateway: BrowserGateway;
  /** Follows the node every second, as the gateway's own timers would. */
  keepSeen: NodeJS.Timeout;
}

/**
 * A node's network unseen for 5 s takes no payments (services/chains/chain-facts.ts, staleAfterMs), and with three
 * engines at once a page can take longer than that from the link to its pay button: the gateway follows its node on
 * its own meanwhile. Blocks come only from the tests.
 */
const FOLLOW_EVERY_MS = 1_000;

/** `browsers`: the config's launchers, whose gateways start with the server rather than on their first command. */
export function gatewayPlugin(browsers: readonly object[] = []): TestRunnerPlugin {
  // Started on a browser's first wallet command only: most test files never need a node.
  const anvilGateways = new Map<unknown, Promise<AnvilGateway>>();
  const anvilFor = (browser: unknown): Promise<AnvilGateway> => {
    let found = anvilGateways.get(browser);
    if (!found) {
      found = Promise.all([freePort(), startTestChain()]).then(async ([port, chain]) => {
        const gateway = new BrowserGateway(port, ethereumOn(chain, { ETHEREUM_WALLET_RPC_URL: chain.rpcUrl }));
        await gateway.start();
        // follow() never rejects; a gateway stopped meanwhile (dispose) has nothing to follow.
        const keepSeen = setInterval(() => gateway.running && void gateway.gateway.watcher.follow('ETHEREUM'), FOLLOW_EVERY_MS);
        return { chain, gateway, keepSeen };
      });
      anvilGateways.set(browser, found);
    }
    return found;
  };
  const anvilCommands: Record<string, (a: AnvilGateway, payload: never) => Promise<unknown>> = {
    'anvil-gateway-url': async (a) => a.gateway.url,
    // The gateway follows the node first: with its timers off, a network it has not followed lately takes no payments.
    'anvil-create-link': async (a, overrides: Partial<PaymentLinkInput> | undefined) => {
      await a.gateway.gateway.watcher.follow('ETHEREUM');
      return a.gateway.client().createPaymentLink(sampleLink(overrides ?? {}));
    },
    'anvil-account': async (a) => a.chain.customer,
    'anvil-chain-id': async (a) => a.chain.node.chainId,
    // One JSON-RPC call to the node, as a wallet would make it: its result, or its error ({code, message}).
    'wallet-rpc': async (a, { method, params }: { method: string; params?: unknown[] }) => {
      const response = await fetch(a.chain.rpcUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: params ?? [] }) });
      const answer = (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
      await a.gateway.gateway.watcher.follow('ETHEREUM');
      return answer.error ? { error: answer.error } : { result: answer.result ?? null };
    },
    // Blocks on the node, then the gateway follows them (its timers are off: every step is the test's).
    'anvil-mine': async (a, { blocks }: { blocks: number }) => {
      await a.chain.client.mine({ blocks });
      await a.gateway.gateway.watcher.follow('ETHEREUM');
      return true;
    },
  };
  // One gateway per browser launcher: a restart in one engine's resilience test never touches another's run.
  const gateways = new Map<unknown, Promise<BrowserGateway>>();
  // Started on a browser's first command (also when several arrive at once); after that only start-gateway starts it.
  const gatewayFor = (browser: unknown): Promise<BrowserGateway> => {
    let found = gateways.get(browser);
    if (!found) {
      found = freePort().then(async (port) => {
        const g = new BrowserGateway(port);
        await g.start();
        return g;
      });
      gateways.set(browser, found);
    }
    return found;
  };

  const commands: Record<string, (g: BrowserGateway, payload: never) => Promise<unknown>> = {
    'gateway-url': async (g) => g.url,
    'create-link': async (g, overrides: Partial<PaymentLinkInput> | undefined) => g.client().createPaymentLink(sampleLink(overrides ?? {})),
    // The merchant cancels the link (POST /api/paymentLink/{ref}/cancel through the SDK).
    'cancel-link': async (g, { payment_link_ref }: { payment_link_ref: string }) => g.client().cancelPaymentLink(payment_link_ref),
    pay: async (g, { address, asset, network, amount }: PayPayload) => {
      const { status, body } = await sandboxApi(g.url).transfer(address, asset, network, amount);
      return status === 201 ? body : fail('pay', status, body);
    },
    mine: async (g, { blocks, network }: { blocks: number; network?: Network }) => {
      const { status, body } = await sandboxApi(g.url).mine(blocks, network);
      return status === 200 ? body : fail('mine', status, body);
    },
    'expire-quote': async (g, { payment_id }: { payment_id: string }) => {
      const { status, body } = await sandboxApi(g.url).expireQuote(payment_id);
      return status === 200 ? body : fail('expire-quote', status, body);
    },
    'count-payments': async (g, { payment_link_ref }: { payment_link_ref: string }) => {
      const rows = await g.gateway.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE payment_link_ref = $1', [payment_link_ref]);
      return rows[0]?.n ?? 0;
    },
    'open-payment': async (g, { payment_link_ref, asset, network }: { payment_link_ref: string; asset: AssetCode; network: Network }) => {
      const { status, body } = await checkoutApi(g.url, payment_link_ref).open(asset, network);
      return status < 300 ? body : fail('open-payment', status, body);
    },
    'requests-for': async (g, { payment_link_ref }: { payment_link_ref: string }) => g.requests.filter((line) => line.includes(`/${payment_link_ref}`)),
    'advance-clock': async (g, { ms }: { ms: number }) => {
      g.clock.advance(ms);
      return g.clock.now().toISOString();
    },
    'stop-gateway': async (g) => g.stop(),
    // wtr gives a command 20 s to answer, and a restart took longer at a load of 16: the command answers within 10 s
    // whether the gateway is up (true) or still starting (false), and the browser asks again (startGateway()).
    'start-gateway': async (g) => Promise.race([g.start().then(() => true), delay(10_000, false)]),
    'stub-checkout': async (_g, { view }: { view: CheckoutView }) => {
      stubViews.set(view.payment_link_ref, view);
      return true;
    },
  };

  return {
    name: 'pay-checkout-gateway',
    resolveImport({ source }) {
      if (isCommonjs(source)) return `/__commonjs/${source}`;
      return undefined;
    },
    async serve(context) {
      const commonjs = /^\/__commonjs\/(.+)$/.exec(context.path)?.[1];
      if (commonjs && isCommonjs(commonjs)) return { body: await commonjsModule(commonjs), type: 'js' };
      // A gateway that is slow to answer, so the loading view can be looked at: `slow_…` refs answer after 5 s.
      if (context.path.startsWith('/api/checkout/slow_')) {
        await new Promise((resolve) => setTimeout(resolve, 5_000));
        return { status: 404, body: '{"title":"Not Found","status":404}', type: 'json' };
      }
      const stub = /^\/api\/checkout\/([^/]+)(\/events)?$/.exec(context.path);
      const view = stub && stubViews.get(decodeURIComponent(stub[1]!));
      // A stub's event stream says nothing and asks the browser not to come back soon.
      if (view && stub[2]) return { body: 'retry: 600000\n\n', type: 'text/event-stream', headers: { 'Cache-Control': 'no-store' } };
      if (view) return { body: JSON.stringify(view), type: 'json', headers: { 'Cache-Control': 'no-store' } };
      return undefined;
    },
    async executeCommand({ command, payload, session }) {
      const onNode = anvilCommands[command];
      if (onNode) return (await onNode(await anvilFor(session.browser), payload as never)) ?? true;
      const run = commands[command];
      if (!run) return undefined;
      // wtr takes null or undefined for "not my command": a command with nothing to say answers true.
      return (await run(await gatewayFor(session.browser), payload as never)) ?? true;
    },
    serverStart() {
      // Each engine's gateway starts (PGlite takes seconds) while the browsers launch; a failure shows on the first command.
      for (const browser of browsers) gatewayFor(browser).catch(() => undefined);
    },
    async serverStop() {
      // A gateway that never started has nothing to close.
      await Promise.all([...gateways.values()].map((g) => g.then((running) => running.dispose(), () => undefined)));
      await Promise.all(
        [...anvilGateways.values()].map((a) =>
          a.then(
            async ({ chain, gateway, keepSeen }) => {
              clearInterval(keepSeen);
              await gateway.dispose();
              await chain.stop();
            },
            () => undefined,
          ),
        ),
      );
    },
  };
}

/**
 * A stub link refuses every payment, in the gateway's words (its problem details are English). A middleware, not
 * the plugin's serve hook, which always answers 200.
 */
export const stubRefusals: Middleware = async (context, next) => {
  const stub = /^\/api\/checkout\/([^/]+)\/payments$/.exec(context.path);
  if (context.method !== 'POST' || !stub || !stubViews.has(decodeURIComponent(stub[1]!))) return next();
  context.status = 409;
  context.type = 'application/problem+json';
  context.body = JSON.stringify({ type: 'about:blank', title: 'Conflict', status: 409, detail: 'This payment link already has funds on another asset.' });
};
