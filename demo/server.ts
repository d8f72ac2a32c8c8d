// The demo's server side. It plays the merchant's server: it holds the sandbox credentials and talks to the
// gateway only through the merchant SDK, so no secret ever reaches a browser. It also serves the built pages.
// The portal (the builder, transactions, webhooks) is the merchant's: its pages and API need a session
// (demo/session.ts), and act as the merchant signed in.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context } from 'hono';
import { except } from 'hono/combine';
import type { CreateRefundRequest, PaymentLinkInput, PaymentLinkResource, PayoutWallets, Problem, RefundResource, WebhookDelivery, WebhookEvent, WebhookTestEvent } from '../src/contract/index.js';
import type { MerchantClient, PaymentLinkQuery } from '../src/merchant/client.js';
import { PayCheckoutApiError } from '../src/merchant/errors.js';
import { verifyRedirect } from '../src/merchant/redirect.js';
import { verifyWebhook, WEBHOOK_SIGNATURE_HEADER } from '../src/merchant/webhook.js';
import { ClientSecretRollRequest, MERCHANT_DISABLED, object, SECRET_REPLACED, text } from '../src/contract/index.js';
import type { Environment } from '../src/contract/rules.js';
import type { MerchantCredentials } from '../src/sandbox/config.js';
import { readJsonObject } from '../src/sandbox/http/body.js';
import { badRequest, parseWith, ProblemError, unauthorized } from '../src/sandbox/http/problem.js';
// Where the demo's own receiver listens; the webhooks page offers it as an endpoint, and the gateway takes it.
import { DEMO_RECEIVER_PATH } from '../src/sandbox/services/webhooks/targets.js';
import { otherEnvironmentRefusal } from '../src/sandbox/services/merchant/credentials.js';
import { transactionsCsv } from './transactions-csv.js';
import { fromThisMachine, ownPagesOnly, requireSession, sessionView, Sessions, type Session, type SessionEnv } from './session.js';

export interface DemoOptions {
  /** The gateway's (GATEWAY_ENV): a credential or session of the other one is refused, naming it. */
  environment: Environment;
  /** The sandbox merchant: the demo signs its links, checks its redirects and its webhooks with these. */
  sandbox: MerchantCredentials;
  /** The SDK for a merchant's credentials (for `npm start`, the gateway in the same process). */
  clientFor(credentials: Omit<MerchantCredentials, 'name'>): MerchantClient;
  /** Counts a sign-in of a merchant whose secret was right; throws a 429 past LIMIT_SIGN_INS_PER_MERCHANT_PER_MINUTE. */
  countSignIn(clientId: string): Promise<void>;
  /** Whether the sandbox merchant may sign in without its secret (from this machine only): SANDBOX_SECRETLESS_SIGN_IN. */
  secretlessSignIn?: boolean;
  /** The built pages (`vite build --config demo/vite.config.ts`). */
  distDir: string;
  sessions?: Sessions;
}

/** The same policy as the hosted checkout page: nothing inline, nothing from another origin but https images. */
export const DEMO_CSP = "default-src 'self'; img-src 'self' data: https:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** The pages, and whether each is the merchant's (behind the sign-in) or anyone's. */
const PAGES: Record<string, { file: string; merchant: boolean }> = {
  '/': { file: 'index.html', merchant: true },
  '/portal': { file: 'portal.html', merchant: true },
  '/portal/orders/:order_id': { file: 'portal.html', merchant: true },
  '/webhooks': { file: 'webhooks.html', merchant: true },
  '/signin': { file: 'signin.html', merchant: false },
  '/wallet': { file: 'wallet.html', merchant: false },
  '/success': { file: 'success.html', merchant: false },
  '/failure': { file: 'failure.html', merchant: false },
};

/** The demo's API routes that need no session: the success and failure pages' redirect check (it changes nothing). */
const PUBLIC_API = ['/demo/api/redirects/verify'];

const SignIn = object({ client_id: text(200, 1), client_secret: text(200, 1) });

/** How many deliveries the receiver remembers (in memory: a restart forgets them). */
const RECEIPTS_KEPT = 50;

/** What the read API's list takes, as the portal's transactions page passes it on (the gateway checks each). */
const LIST_PARAMETERS = ['q', 'status', 'asset', 'network', 'created_from', 'created_before', 'held', 'refunded', 'sort', 'include_total', 'limit', 'cursor'] as const;

/** An order as the portal's order page shows it (GET /demo/api/orders/{order_id}). */
export interface OrderView {
  merchant_order_id: string;
  /** Every link of the order, newest first. */
  payment_links: PaymentLinkResource[];
  /** What the whole order still holds (the refund list's amountToRefund). */
  amountToRefund: number;
  /** Every refund of the order as the merchant sees it (coins, rate, destination, history, note), oldest first. */
  refunds: RefundResource[];
  /** Deliveries about the order's links to each of the merchant's endpoints, newest first. */
  deliveries: (WebhookDelivery & { endpoint_url: string })[];
  /** The merchant's payout wallets, which its refunds on a node's network leave, and its daily cap. */
  payout_wallets: PayoutWallets;
}

/** One delivery as the demo's receiver saw it. */
export interface WebhookReceipt {
  received_at: string;
  /** From the body; for a delivery that does not verify, whatever the body claimed (or null). */
  event_id: string | null;
  type: string | null;
  merchant_order_id: string | null;
  verified: boolean;
  /** The endpoint whose secret signed it. */
  endpoint_id: string | null;
  /** Why it did not verify. */
  reason: string | null;
}

export function demoRoutes(options: DemoOptions): Hono<SessionEnv> {
  const sessions = options.sessions ?? new Sessions(options.environment);
  // The sandbox merchant's credentials as this process last knew them: a roll from the portal changes its secret.
  let sandbox = options.sandbox;
  let sandboxClient = options.clientFor(sandbox);
  const app = new Hono<SessionEnv>();

  // Gateway errors go to the page as the gateway sent them (status and problem details), so it can show them by field.
  app.onError((error, c) => {
    if (!(error instanceof PayCheckoutApiError)) throw error;
    // The session's secret no longer gets a token (rolled, or changed at a restart), or the operator disabled the
    // merchant: the session ends with it.
    const session = c.get('session') as Session | undefined;
    if (error.status === 401 && session) {
      sessions.end(c, session);
      throw unauthorized(disabledMerchant(error) ? MERCHANT_DISABLED : 'Sign in again: the merchant\'s client secret changed, which ended this session.');
    }
    const problem: Problem = error.problem ?? { title: 'Error', status: error.status, detail: error.message };
    const retryAfter = error.retryAfterMs === undefined ? undefined : { 'Retry-After': String(Math.ceil(error.retryAfterMs / 1000)) };
    return c.body(JSON.stringify(problem), error.status as 400, { ...retryAfter, 'Content-Type': 'application/problem+json' });
  });

  // Signing in: the form's credentials, or (from this machine only) the sandbox merchant's in one click.
  const secretless = (c: Context<SessionEnv>) => options.secretlessSignIn === true && fromThisMachine(c);
  app.get('/demo/sign-in', (c) => c.json({ sandbox_sign_in: secretless(c), signed_in: sessions.of(c) !== undefined }));
  app.post('/demo/sign-in', ownPagesOnly(), async (c) => {
    const body = await readJsonObject(c);
    let credentials: Omit<MerchantCredentials, 'name'>;
    if (body.sandbox === true) {
      if (!secretless(c)) {
        throw new ProblemError(
          403,
          'Signing in as the sandbox merchant without its secret is on only when SANDBOX_SECRETLESS_SIGN_IN=1, and then for this machine only, at a loopback address, not through a proxy.',
        );
      }
      credentials = sandbox;
    } else {
      const { client_id, client_secret } = parseWith(SignIn, body);
      // Before the gateway is asked, which would answer the same, and which the catch below would turn into a mismatch.
      const refusal = otherEnvironmentRefusal(client_id, options.environment, 'client_id') ?? otherEnvironmentRefusal(client_secret, options.environment, 'client_secret');
      if (refusal) throw unauthorized(refusal);
      credentials = { clientId: client_id, clientSecret: client_secret, merchantKey: client_id === sandbox.clientId ? sandbox.merchantKey : '' };
    }
    const client = options.clientFor(credentials);
    try {
      await client.issueToken();
    } catch (error) {
      // A 429 (too many wrong secrets) goes to the page as the gateway said it, with when to try again; so does the
      // secret a roll replaced, which is no mistyping.
      if (
        error instanceof PayCheckoutApiError &&
        error.status < 500 &&
        error.status !== 429 &&
        error.oauthError?.error_description !== SECRET_REPLACED &&
        !disabledMerchant(error)
      ) {
        throw unauthorized('The client id and client secret do not match a merchant.');
      }
      throw error;
    }
    await options.countSignIn(credentials.clientId);
    return c.json(sessionView(sessions.start(c, { clientId: credentials.clientId, sandbox: credentials.clientId === sandbox.clientId, client })));
  });

  app.use('/demo/api/*', except(PUBLIC_API, requireSession(sessions), ownPagesOnly()));

  app.get('/demo/api/session', (c) => c.json(sessionView(c.get('session'))));
  app.delete('/demo/api/session', (c) => {
    sessions.end(c, c.get('session'));
    return c.body(null, 204);
  });

  // A new client secret, shown once. This session goes on with it; every other session of the merchant, here or in
  // another process, ends when the old secret does (now, or after the grace): its next call to the gateway is a 401.
  app.post('/demo/api/client-secret/roll', async (c) => {
    const session = c.get('session');
    const { expires_in } = parseWith(ClientSecretRollRequest, await readJsonObject(c, { optional: true }));
    const rolled = await session.client.rollClientSecret(expires_in === undefined ? {} : { expiresIn: expires_in });
    if (session.sandbox) {
      sandbox = { ...sandbox, clientSecret: rolled.client_secret };
      sandboxClient = options.clientFor(sandbox);
    }
    return c.json(rolled, 200, { 'Cache-Control': 'no-store' });
  });

  app.post('/demo/api/links', async (c) => {
    const session = c.get('session');
    if (!session.sandbox) throw new ProblemError(403, 'The demo signs links with the sandbox merchant\'s key only: sign in as the sandbox merchant to build one.');
    // The page sends the link as a merchant's server would build it; svc_key and signature_hash are the SDK's to add.
    const { svc_key: _key, signature_hash: _signature, ...input } = await readJsonObject(c);
    return c.json(await session.client.createPaymentLink(input as unknown as PaymentLinkInput), 201);
  });

  app.get('/demo/api/transactions', async (c) => {
    const query = Object.fromEntries(LIST_PARAMETERS.flatMap((name) => (c.req.query(name) === undefined ? [] : [[name, c.req.query(name)]])));
    return c.json(await c.get('session').client.listPaymentLinks(query as PaymentLinkQuery));
  });

  // The same filters as the list, every page of it, streamed: an export of 100,000 links holds one page in memory.
  app.get('/demo/api/transactions.csv', (c) => {
    const query = Object.fromEntries(LIST_PARAMETERS.flatMap((name) => (name === 'limit' || name === 'cursor' || name === 'include_total' || c.req.query(name) === undefined ? [] : [[name, c.req.query(name)]])));
    const lines = transactionsCsv(c.get('session').client.eachPaymentLink({ ...(query as PaymentLinkQuery), limit: 200 }));
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await lines.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      },
      async cancel() {
        await lines.return(undefined);
      },
    });
    return c.body(body, 200, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="transactions.csv"' });
  });

  app.get('/demo/api/orders/:order_id', async (c) => {
    const { client } = c.get('session');
    const orderId = c.req.param('order_id');
    const [links, refunds, endpoints, payoutWallets] = await Promise.all([
      client.findPaymentLinks(orderId),
      client.listRefunds(orderId),
      client.listWebhookEndpoints(),
      client.getPayoutWallets(),
    ]);
    const deliveries = await Promise.all(
      endpoints.flatMap((endpoint) =>
        links.map(async (link) =>
          (await client.getWebhookDeliveries(endpoint.endpoint_id, { paymentLinkRef: link.payment_link_ref })).map((d) => ({ ...d, endpoint_url: endpoint.url })),
        ),
      ),
    );
    const view: OrderView = {
      merchant_order_id: orderId,
      payment_links: links,
      amountToRefund: refunds.amountToRefund,
      refunds: refunds.refunds,
      deliveries: deliveries.flat().sort((a, b) => b.delivery_id - a.delivery_id),
      payout_wallets: payoutWallets,
    };
    return c.json(view);
  });

  app.post('/demo/api/payment-links/:ref/cancel', async (c) => c.json(await c.get('session').client.cancelPaymentLink(c.req.param('ref'))));

  app.post('/demo/api/payments/:payment_id/accept', async (c) => c.json(await c.get('session').client.acceptPayment(c.req.param('payment_id'))));

  app.get('/demo/api/orders/:order_id/refunds', async (c) => c.json(await c.get('session').client.getRefunds(c.req.param('order_id'))));

  app.post('/demo/api/orders/:order_id/refunds', async (c) => {
    const body = await readJsonObject(c);
    // The gateway validates with the same contract schema the portal page checked before sending, and replays a
    // refund sent again under the page's Idempotency-Key (one per showing of the refund form).
    const idempotencyKey = c.req.header('Idempotency-Key');
    return c.json(await c.get('session').client.createRefund(c.req.param('order_id'), body as unknown as CreateRefundRequest, { idempotencyKey }), 201);
  });

  app.post('/demo/api/refunds/:refund_id/cancel', async (c) => {
    const { reason } = await readJsonObject(c, { optional: true });
    return c.json(await c.get('session').client.cancelRefund(c.req.param('refund_id'), typeof reason === 'string' && reason ? { reason } : {}));
  });

  app.post('/demo/api/refunds/:refund_id/retry', async (c) => c.json(await c.get('session').client.retryRefund(c.req.param('refund_id')), 201));

  // The sandbox's shortcut for a tester: the customer's claim, made with the test wallet's address on the refund's
  // network, through the gateway's own claim page (the form a customer would post).
  app.post('/demo/api/refunds/:refund_id/claim-with-test-wallet', async (c) => {
    const { client } = c.get('session');
    const refund = await client.getRefund(c.req.param('refund_id'));
    if (!refund.claim_url) throw new ProblemError(409, 'This refund goes to the address that paid: there is nothing to claim.');
    const wallet = (await (await fetch(new URL('/sandbox/wallet', refund.claim_url))).json()) as { addresses: Record<string, string> };
    const address = wallet.addresses[refund.network];
    if (!address) throw new ProblemError(409, `The test wallet has no address on ${refund.network}.`);
    const claimed = await fetch(refund.claim_url, { method: 'POST', body: new URLSearchParams({ address, confirm: 'yes' }) });
    if (!claimed.ok) throw new ProblemError(claimed.status, `The claim page answered ${claimed.status}: the refund is ${refund.refund_status}${refund.failure_reason ? ` (${refund.failure_reason})` : ''}.`);
    return c.json(await client.getRefund(refund.refund_id));
  });

  app.post('/demo/api/redirects/verify', async (c) => {
    const { url } = await readJsonObject(c);
    if (typeof url !== 'string' || !URL.canParse(url)) throw badRequest('url must be the address the browser was sent to.');
    return c.json({ verified: (await verifyRedirect(url, sandbox.clientSecret)) !== undefined });
  });

  webhookRoutes(app, () => sandboxClient);

  app.use(
    '/demo/assets/*',
    serveStatic({
      root: options.distDir,
      rewriteRequestPath: (path) => path.replace(/^\/demo/, ''),
      onFound: (_path, c) => void c.header('Cache-Control', 'public, max-age=31536000, immutable'),
    }),
  );
  app.use('/demo/*', serveStatic({ root: options.distDir, rewriteRequestPath: (path) => path.replace(/^\/demo/, '') }));

  for (const [path, { file, merchant }] of Object.entries(PAGES)) {
    app.get(path, (c) => {
      // The merchant's pages go to the sign-in first, which comes back here.
      if (merchant && !sessions.of(c)) return c.redirect(`/signin?next=${encodeURIComponent(c.req.path)}`, 303);
      return page(c, join(options.distDir, file));
    });
  }
  return app;
}

async function page(c: Context, file: string): Promise<Response> {
  let html: string;
  try {
    html = await readFile(file, 'utf8');
  } catch {
    return c.text('The demo is not built yet: run `npm run build` (npm start does it for you).', 503);
  }
  // same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` on the pages' own POSTs, which
  // the portal could then not tell from another site's.
  return c.html(html, 200, { 'Content-Security-Policy': DEMO_CSP, 'Cache-Control': 'no-cache', 'Referrer-Policy': 'same-origin' });
}

/**
 * The webhooks page's server side (endpoints, delivery logs, redelivery, all through the SDK), and a receiver that
 * checks each delivery as a merchant's server would. The page shows the signing secrets, as a merchant dashboard does.
 */
function webhookRoutes(app: Hono<SessionEnv>, sandboxClient: () => MerchantClient): void {
  const receipts: WebhookReceipt[] = [];
  const client = (c: Context<SessionEnv>) => c.get('session').client;

  app.get('/demo/api/webhooks/endpoints', async (c) => c.json({ endpoints: await client(c).listWebhookEndpoints() }));
  app.post('/demo/api/webhooks/endpoints', async (c) => {
    const { url } = await readJsonObject(c);
    // Passed on as sent: the gateway's 422 names the field and the rule, and the page shows it there.
    return c.json(await client(c).addWebhookEndpoint(url as string), 201);
  });
  app.delete('/demo/api/webhooks/endpoints/:endpoint_id', async (c) => {
    await client(c).removeWebhookEndpoint(c.req.param('endpoint_id'));
    return c.body(null, 204);
  });
  app.get('/demo/api/webhooks/endpoints/:endpoint_id/deliveries', async (c) =>
    c.json({ deliveries: await client(c).getWebhookDeliveries(c.req.param('endpoint_id')) }),
  );
  app.post('/demo/api/webhooks/endpoints/:endpoint_id/test', async (c) => c.json(await client(c).sendTestWebhook(c.req.param('endpoint_id')), 201));
  app.get('/demo/api/webhooks/deliveries/:delivery_id', async (c) => c.json(await client(c).getWebhookDelivery(deliveryIdOf(c))));
  app.post('/demo/api/webhooks/deliveries/:delivery_id/redeliver', async (c) => c.json(await client(c).redeliverWebhook(deliveryIdOf(c))));
  // The receiver checks deliveries with the sandbox merchant's secrets: what it got is that merchant's to see.
  app.get('/demo/api/webhooks/receiver', (c) => c.json({ receipts: c.get('session').sandbox ? receipts : [] }));

  app.post(DEMO_RECEIVER_PATH, async (c) => {
    // The raw body, before any parsing: the signature covers its exact bytes.
    const body = await c.req.text();
    const header = c.req.header(WEBHOOK_SIGNATURE_HEADER);
    let event: WebhookEvent | WebhookTestEvent | undefined;
    let endpointId: string | null = null;
    let reason = 'the merchant has no webhook endpoint, so no secret to check it with';
    for (const endpoint of await sandboxClient().listWebhookEndpoints()) {
      try {
        event = await verifyWebhook(body, header, endpoint.secret);
        endpointId = endpoint.endpoint_id;
        break;
      } catch (error) {
        reason = error instanceof Error ? error.message : String(error);
      }
    }
    const claimed = claimedEvent(body);
    receipts.unshift({
      received_at: new Date().toISOString(),
      event_id: claimed.id,
      type: claimed.type,
      merchant_order_id: claimed.merchant_order_id,
      verified: event !== undefined,
      endpoint_id: endpointId,
      reason: event ? null : reason,
    });
    receipts.length = Math.min(receipts.length, RECEIPTS_KEPT);
    // As a merchant's server should: refuse what does not verify, so the gateway's log shows it.
    if (!event) throw badRequest(`The delivery does not verify: ${reason}.`);
    return c.json({ received: event.id });
  });
}

/** The gateway refused a disabled merchant's token (a problem) or credentials (the token endpoint's answer). */
const disabledMerchant = (error: PayCheckoutApiError) => error.problem?.detail === MERCHANT_DISABLED || error.oauthError?.error_description === MERCHANT_DISABLED;

function deliveryIdOf(c: Context): number {
  const id = c.req.param('delivery_id') ?? '';
  if (!/^[0-9]{1,15}$/.test(id)) throw badRequest('delivery_id must be a whole number.');
  return Number(id);
}

/** What a body says it is, kept short: shown as text, and trusted only once its signature verifies. */
function claimedEvent(body: string): { id: string | null; type: string | null; merchant_order_id: string | null } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const field = (value: unknown) => (typeof value === 'string' ? value.slice(0, 120) : null);
  const object = (value: unknown) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});
  const event = object(parsed);
  return { id: field(event.id), type: field(event.type), merchant_order_id: field(object(object(event.data).payment_link).merchant_order_id) };
}
