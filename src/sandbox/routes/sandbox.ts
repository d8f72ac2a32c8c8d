// Sandbox-only endpoints: the test wallet, the simulated chain and shortcuts through time, so testers can script
// every path and tests never sleep (docs/payment-lifecycle.md, "Sandbox controls").
import {
  ChainState,
  CheckoutView,
  MineRequest,
  MineResponse,
  Payment,
  WalletState,
  WalletTransferRequest,
  WalletTransferResponse,
} from '../../contract/index.js';
import type { Services } from '../services.js';
import { builtFile } from '../http/built-file.js';
import { openCors } from '../http/cors.js';
import { jsonText } from '../http/json-text.js';
import { TESTER_PANEL_SCRIPT } from '../paths.js';
import { builtFileAnswers, route, type RouteGroup } from './route.js';

export const sandboxRoutes: RouteGroup<Pick<Services, 'wallet' | 'sandboxControls' | 'customerCheckout'>> = {
  use: ['/sandbox/*', openCors({ allowHeaders: ['Content-Type'] })],
  routes: [
    // The hosted checkout page places it beside the element (routes/assets.ts): the sandbox's controls, on the sandbox only.
    route(
      'get',
      '/sandbox/tester-panel.js',
      {
        tag: 'Sandbox',
        summary: "The tester panel the hosted checkout page shows beside the element: pay, mine, expire, on the checkout's payment",
        ...builtFileAnswers('text/javascript', 'dist/sandbox/tester-panel.js; gzip when accepted; an ETag.'),
      },
      () => builtFile(TESTER_PANEL_SCRIPT, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' }),
    ),
    route(
      'get',
      '/sandbox/wallet',
      { tag: 'Sandbox', summary: "The test wallet's addresses and balances", ok: { 200: WalletState } },
      ({ wallet }) =>
        async (c) =>
          c.json(await wallet.state()),
    ),
    route(
      'post',
      '/sandbox/wallet/faucet',
      { tag: 'Sandbox', summary: 'Top the test wallet up', ok: { 200: WalletState } },
      ({ wallet }) =>
        async (c) =>
          c.json(await wallet.faucet()),
    ),
    route(
      'post',
      '/sandbox/wallet/transfers',
      { tag: 'Sandbox', summary: 'The test wallet sends', body: WalletTransferRequest, ok: { 201: WalletTransferResponse }, errors: [422] },
      ({ wallet }) =>
        async (c, { body }) =>
          c.json(await wallet.transfer(body), 201),
    ),
    route(
      'get',
      '/sandbox/chain',
      { tag: 'Sandbox', summary: 'Every network as the gateway follows it: simulated or on a node, its tip, whether it can be seen', ok: { 200: ChainState } },
      ({ sandboxControls }) =>
        async (c) =>
          c.json(await sandboxControls.chainState()),
    ),
    route(
      'post',
      '/sandbox/chain/mine',
      { tag: 'Sandbox', summary: 'Mine blocks now', body: MineRequest, read: { optional: true }, ok: { 200: MineResponse }, errors: [422] },
      ({ sandboxControls }) =>
        async (c, { body }) =>
          c.json({ tips: await sandboxControls.mine(body.blocks, body.network) }),
    ),
    route(
      'post',
      '/sandbox/payments/{payment_id}/expire-quote',
      { tag: 'Sandbox', summary: "End a payment's quote now", ok: { 200: Payment }, errors: [404] },
      ({ sandboxControls }) =>
        async (c) =>
          c.json(await sandboxControls.expireQuote({ payment_id: c.req.param('payment_id') })),
    ),
    // The wallet knows only what the QR says (an address), so it reaches a payment's quote by that address.
    route(
      'post',
      '/sandbox/addresses/{address}/expire-quote',
      {
        tag: 'Sandbox',
        summary: 'End the quote of the latest payment to an address now (what the wallet knows from a QR)',
        ok: { 204: null },
        errors: [404],
      },
      // No body: an on-chain address is public, and the payment would name its link's ref, the customer's bearer secret.
      ({ sandboxControls }) =>
        async (c) => {
          await sandboxControls.expireQuote({ address: c.req.param('address') });
          return c.body(null, 204);
        },
    ),
    route(
      'post',
      '/sandbox/payment-links/{ref}/expire',
      { tag: 'Sandbox', summary: 'Let a payment link run out now', ok: { 200: CheckoutView }, errors: [404] },
      ({ sandboxControls, customerCheckout: checkout }) =>
        async (c) => {
          await sandboxControls.expireLink(c.req.param('ref'));
          return jsonText(c, await checkout.linkView(c.req.param('ref')));
        },
    ),
  ],
};
