// The demo's server side. It plays the merchant's server: it holds the sandbox credentials and talks to the
// gateway only through the merchant SDK, so no secret ever reaches a browser. It also serves the built pages.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context } from 'hono';
import type { CreateRefundRequest, PaymentLinkInput, Problem, WebhookEvent } from '../src/contract/index.js';
import type { MerchantClient } from '../src/merchant/client.js';
import { PayCheckoutApiError } from '../src/merchant/errors.js';
import { verifyRedirect } from '../src/merchant/redirect.js';
import { verifyWebhook, WEBHOOK_SIGNATURE_HEADER } from '../src/merchant/webhook.js';
import { readJsonObject } from '../src/sandbox/http/body.js';
import { badRequest } from '../src/sandbox/http/problem.js';

export interface DemoOptions {
  /** The SDK, signed in as the sandbox merchant. */
  client: MerchantClient;
  /** The sandbox merchant's client secret: it keys the redirect signatures the success and failure pages check. */
  clientSecret: string;
  /** The built pages (`vite build --config demo/vite.config.ts`). */
  distDir: string;
}

/** The same policy as the hosted checkout page: nothing inline, nothing from another origin but https images. */
export const DEMO_CSP = "default-src 'self'; img-src 'self' data: https:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const PAGES: Record<string, string> = {
  '/': 'index.html',
  '/wallet': 'wallet.html',
  '/success': 'success.html',
  '/failure': 'failure.html',
  '/portal': 'portal.html',
  '/webhooks': 'webhooks.html',
};

/** Where the demo's own receiver listens; the webhooks page offers it as an endpoint. */
const RECEIVER_PATH = '/demo/webhook-receiver';
/** How many deliveries the receiver remembers (in memory: a restart forgets them). */
const RECEIPTS_KEPT = 50;

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

export function demoRoutes(options: DemoOptions): Hono {
  const { client } = options;
  const app = new Hono();

  // Gateway errors go to the page as the gateway sent them (status and problem details), so it can show them by field.
  app.onError((error, c) => {
    if (!(error instanceof PayCheckoutApiError)) throw error;
    const problem: Problem = error.problem ?? { title: 'Error', status: error.status, detail: error.message };
    return c.body(JSON.stringify(problem), error.status as 400, { 'Content-Type': 'application/problem+json' });
  });

  app.post('/demo/api/links', async (c) => {
    // The page sends the link as a merchant's server would build it; svc_key and signature_hash are the SDK's to add.
    const { svc_key: _key, signature_hash: _signature, ...input } = await readJsonObject(c);
    return c.json(await client.createPaymentLink(input as unknown as PaymentLinkInput), 201);
  });

  app.get('/demo/api/transactions', async (c) => c.json({ payment_links: await client.listPaymentLinks({ limit: 50 }) }));

  app.get('/demo/api/orders/:order_id/refunds', async (c) => c.json(await client.getRefunds(c.req.param('order_id'))));

  app.post('/demo/api/orders/:order_id/refunds', async (c) => {
    const body = await readJsonObject(c);
    // The gateway validates with the same contract schema the portal page checked before sending.
    return c.json(await client.createRefund(c.req.param('order_id'), body as unknown as CreateRefundRequest), 201);
  });

  app.post('/demo/api/redirects/verify', async (c) => {
    const { url } = await readJsonObject(c);
    if (typeof url !== 'string' || !URL.canParse(url)) throw badRequest('url must be the address the browser was sent to.');
    return c.json({ verified: (await verifyRedirect(url, options.clientSecret)) !== undefined });
  });

  webhookRoutes(app, client);

  app.use(
    '/demo/assets/*',
    serveStatic({
      root: options.distDir,
      rewriteRequestPath: (path) => path.replace(/^\/demo/, ''),
      onFound: (_path, c) => void c.header('Cache-Control', 'public, max-age=31536000, immutable'),
    }),
  );
  app.use('/demo/*', serveStatic({ root: options.distDir, rewriteRequestPath: (path) => path.replace(/^\/demo/, '') }));

  for (const [path, file] of Object.entries(PAGES)) app.get(path, (c) => page(c, join(options.distDir, file)));
  return app;
}

async function page(c: Context, file: string): Promise<Response> {
  let html: string;
  try {
    html = await readFile(file, 'utf8');
  } catch {
    return c.text('The demo is not built yet: run `npm run build` (npm start does it for you).', 503);
  }
  return c.html(html, 200, { 'Content-Security-Policy': DEMO_CSP, 'Cache-Control': 'no-cache', 'Referrer-Policy': 'no-referrer' });
}

/**
 * The webhooks page's server side (endpoints, delivery logs, redelivery, all through the SDK), and a receiver that
 * checks each delivery as a merchant's server would. The page shows the signing secrets, as a merchant dashboard does.
 */
function webhookRoutes(app: Hono, client: MerchantClient): void {
  const receipts: WebhookReceipt[] = [];

  app.get('/demo/api/webhooks/endpoints', async (c) => c.json({ endpoints: await client.listWebhookEndpoints() }));
  app.post('/demo/api/webhooks/endpoints', async (c) => {
    const { url } = await readJsonObject(c);
    // Passed on as sent: the gateway's 422 names the field and the rule, and the page shows it there.
    return c.json(await client.addWebhookEndpoint(url as string), 201);
  });
  app.delete('/demo/api/webhooks/endpoints/:endpoint_id', async (c) => {
    await client.removeWebhookEndpoint(c.req.param('endpoint_id'));
    return c.body(null, 204);
  });
  app.get('/demo/api/webhooks/endpoints/:endpoint_id/deliveries', async (c) =>
    c.json({ deliveries: await client.getWebhookDeliveries(c.req.param('endpoint_id')) }),
  );
  app.post('/demo/api/webhooks/deliveries/:delivery_id/redeliver', async (c) => {
    const id = c.req.param('delivery_id');
    if (!/^[0-9]{1,15}$/.test(id)) throw badRequest('delivery_id must be a whole number.');
    return c.json(await client.redeliverWebhook(Number(id)));
  });
  app.get('/demo/api/webhooks/receiver', (c) => c.json({ receipts }));

  app.post(RECEIVER_PATH, async (c) => {
    // The raw body, before any parsing: the signature covers its exact bytes.
    const body = await c.req.text();
    const header = c.req.header(WEBHOOK_SIGNATURE_HEADER);
    let event: WebhookEvent | undefined;
    let endpointId: string | null = null;
    let reason = 'the merchant has no webhook endpoint, so no secret to check it with';
    for (const endpoint of await client.listWebhookEndpoints()) {
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
