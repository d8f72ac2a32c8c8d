// The demo's webhook receiver, which checks each delivery as a merchant's server would (with the SDK's
// verifyWebhook and the sandbox merchant's endpoint secrets), and what it received, for the webhooks page.
import { Hono } from 'hono';
import type { WebhookEvent, WebhookTestEvent } from '../../src/contract/index.js';
import { verifyWebhook, WEBHOOK_SIGNATURE_HEADER } from '../../src/merchant/index.js';
import { badRequest, DEMO_RECEIVER_PATH } from '../gateway-internals.js';
import type { SandboxMerchant } from '../sandbox-merchant.js';
import type { SessionEnv } from '../session.js';

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

export function receiverRoutes(sandbox: SandboxMerchant): Hono<SessionEnv> {
  const app = new Hono<SessionEnv>();
  const receipts: WebhookReceipt[] = [];

  // The receiver checks deliveries with the sandbox merchant's secrets: what it got is that merchant's to see.
  app.get('/demo/api/webhooks/receiver', (c) => c.json({ receipts: c.get('session').sandbox ? receipts : [] }));

  app.post(DEMO_RECEIVER_PATH, async (c) => {
    // The raw body, before any parsing: the signature covers its exact bytes.
    const body = await c.req.text();
    const header = c.req.header(WEBHOOK_SIGNATURE_HEADER);
    let event: WebhookEvent | WebhookTestEvent | undefined;
    let endpointId: string | null = null;
    let reason = 'the merchant has no webhook endpoint, so no secret to check it with';
    for (const endpoint of await sandbox.client.listWebhookEndpoints()) {
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
  return app;
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
