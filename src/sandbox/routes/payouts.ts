// The merchant's payout wallets (docs/api.md, "Payout wallets"), behind a Bearer token: where its refunds on a node's
// network are paid from, what each holds, and the daily cap they go out within.
import { PayoutWallets } from '../../contract/index.js';
import type { Services } from '../services.js';
import { route, type RouteGroup } from './route.js';

export const payoutRoutes: RouteGroup<Pick<Services, 'payouts'>> = {
  routes: [
    route(
      'get',
      '/api/payouts/wallets',
      {
        tag: 'Merchant',
        summary: "Your payout wallet on each network watched on a node (its address, its path from the operator's seed, its balances) and your daily cap",
        auth: 'bearer',
        ok: { 200: PayoutWallets },
      },
      ({ payouts }) =>
        async (c) =>
          c.json(await payouts.wallets(c.var.merchantId), 200),
    ),
  ],
};
