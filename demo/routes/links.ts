// The builder's and the transactions page's server side: a link signed with the sandbox merchant's key, and the
// merchant's links, a page at a time or every one of them as CSV.
import { Hono } from 'hono';
import type { PaymentLinkInput } from '../../src/contract/index.js';
import type { PaymentLinkQuery } from '../../src/merchant/index.js';
import { ProblemError, readJsonObject } from '../gateway-internals.js';
import type { SessionEnv } from '../session.js';
import { transactionsCsv } from '../transactions-csv.js';

/** What the read API's list takes, as the portal's transactions page passes it on (the gateway checks each). */
const LIST_PARAMETERS = ['q', 'status', 'asset', 'network', 'created_from', 'created_before', 'held', 'refunded', 'sort', 'include_total', 'limit', 'cursor'] as const;

export function linkRoutes(): Hono<SessionEnv> {
  const app = new Hono<SessionEnv>();

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
  return app;
}
