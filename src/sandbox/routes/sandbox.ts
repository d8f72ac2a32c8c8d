// Sandbox-only endpoints: the test wallet, the simulated chain and shortcuts through time, so testers can script
// every path and tests never sleep (docs/payment-lifecycle.md, "Sandbox controls").
import { Hono } from 'hono';
import { MineRequest, WalletTransferRequest } from '../../contract/index.js';
import type { Services } from '../services.js';
import { readJsonObject } from '../http/body.js';
import { openCors } from '../http/cors.js';
import { jsonText } from '../http/json-text.js';
import { parseWith } from '../http/problem.js';

export function sandboxRoutes({ wallet, sandboxControls, customerCheckout: checkout }: Pick<Services, 'wallet' | 'sandboxControls' | 'customerCheckout'>): Hono {
  return new Hono()
    .use(openCors({ allowHeaders: ['Content-Type'] }))
    .get('/wallet', async (c) => c.json({ addresses: wallet.addresses, balances: await wallet.balances() }))
    .post('/wallet/faucet', async (c) => c.json({ addresses: wallet.addresses, balances: await wallet.faucet() }))
    .post('/wallet/transfers', async (c) => c.json(await wallet.transfer(parseWith(WalletTransferRequest, await readJsonObject(c))), 201))
    .post('/payments/:payment_id/expire-quote', async (c) => c.json(await sandboxControls.expireQuote({ payment_id: c.req.param('payment_id') })))
    // The wallet knows only what the QR says (an address), so it reaches a payment's quote by that address.
    .post('/addresses/:address/expire-quote', async (c) => c.json(await sandboxControls.expireQuote({ address: c.req.param('address') })))
    .post('/payment-links/:ref/expire', async (c) => {
      await sandboxControls.expireLink(c.req.param('ref'));
      return jsonText(c, await checkout.linkView(c.req.param('ref')));
    })
    .get('/chain', async (c) => c.json(await sandboxControls.chainState()))
    .post('/chain/mine', async (c) => {
      const { blocks, network } = parseWith(MineRequest, await readJsonObject(c, { optional: true }));
      return c.json({ tips: await sandboxControls.mine(blocks, network) });
    });
}
