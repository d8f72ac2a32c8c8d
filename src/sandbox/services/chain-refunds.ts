// Refunds of crypto payments go back on chain: from the payment's address to the address that paid it, the share of
// its confirmed money that the refunded VND is of what the payment holds. The transaction hash is the psp_refund_id.
// Shares are cumulative (what all refunds of the payment so far are owed, less what was already sent), so rounding
// down never strands dust: the refund that completes it sends exactly what is left of its confirmed money.
// Sandbox trigger: a refund whose refund_reason is SANDBOX_FAIL fails, so testers can see refund.failed.
import { leastRefundVnd, refundAtomic } from '../chain/amounts.js';
import { invalid } from '../errors.js';
import type { Chain } from './chain.js';
import type { RefundSender } from './refunds.js';

export const SANDBOX_FAIL = 'SANDBOX_FAIL';

export function chainRefunds(chain: Chain): RefundSender {
  return {
    async send(tx, { payment, state, refunded, payer }, amount, request) {
      if (request.refund_reason === SANDBOX_FAIL) return { refund_status: 'FAILED', psp_refund_id: null };
      const { network, asset, address } = payment;
      const { confirmed, value_vnd: value } = state;
      const sent = await chain.sentFrom(tx, network, asset, address);
      const atomic = refundAtomic(confirmed, value, BigInt(refunded), BigInt(amount), sent);
      if (atomic <= 0n) {
        const least = leastRefundVnd(confirmed, value, BigInt(refunded), sent);
        throw invalid(`${amount} VND is less than the smallest amount of ${asset} the chain can send back.`, [
          { path: 'amount', message: `must be at least ${least} VND for this order: less is not one unit of ${asset}` },
        ]);
      }
      const hash = await chain.broadcast(tx, { network, asset, from: address, to: payer, amount: atomic });
      return { refund_status: 'SUCCESS', psp_refund_id: hash };
    },
  };
}
