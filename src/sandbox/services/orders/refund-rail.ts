// Refunds of crypto payments go back on chain: from the payment's address to the address that paid it, the share of
// its confirmed money that the refunded VND is of what the payment holds. The transaction hash is the psp_refund_id.
// Shares are cumulative (what all refunds of the payment so far are owed, less what was already sent), so rounding
// down never strands dust: the refund that completes it sends exactly what is left of its confirmed money.
// On a simulated network the coins move in the refund's own transaction. On a node's network they wait (PENDING) for
// a payout that signs and broadcasts them, which is not part of the gateway yet.
// Sandbox trigger: a refund whose refund_reason is SANDBOX_FAIL fails, so testers can see refund.failed.
import { leastRefundVnd, refundAtomic } from '../../../codecs/amounts.js';
import type { Chains } from '../../chains/chains.js';
import { invalid } from '../../errors.js';
import { atomicRefunded } from '../../storage/refunds.js';
import type { RefundSender } from './refunds.js';

export const SANDBOX_FAIL = 'SANDBOX_FAIL';

export function refundRail(chains: Chains): RefundSender {
  return {
    async send(tx, { payment, state, refunded, payer }, amount, request) {
      if (request.refund_reason === SANDBOX_FAIL) return { refund_status: 'FAILED', psp_refund_id: null, amount_atomic: null };
      const { network, asset, address } = payment;
      const { confirmed, value_vnd: value } = state;
      const sent = await atomicRefunded(tx, payment.payment_id);
      const atomic = refundAtomic(confirmed, value, BigInt(refunded), BigInt(amount), sent);
      if (atomic <= 0n) {
        const least = leastRefundVnd(confirmed, value, BigInt(refunded), sent);
        throw invalid(`${amount} VND is less than the smallest amount of ${asset} the chain can send back.`, [
          { path: 'amount', message: `must be at least ${least} VND for this order: less is not one unit of ${asset}` },
        ]);
      }
      const simulator = chains.simulated(network);
      if (!simulator) return { refund_status: 'PENDING', psp_refund_id: null, amount_atomic: atomic };
      const hash = await simulator.broadcast(tx, address, payer, asset, atomic);
      return { refund_status: 'SUCCESS', psp_refund_id: hash, amount_atomic: atomic };
    },
  };
}
