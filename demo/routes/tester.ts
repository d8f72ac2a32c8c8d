// The sandbox's shortcut for a tester: the customer's claim of a refund, made with the test wallet's address on the
// refund's network, through the gateway's own claim page (the form a customer would post).
import { Hono } from 'hono';
import { ProblemError } from '../gateway-internals.js';
import type { SessionEnv } from '../session.js';

export function testerRoutes(): Hono<SessionEnv> {
  const app = new Hono<SessionEnv>();
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
  return app;
}
