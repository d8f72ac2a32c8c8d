// Refunds of crypto payments go back on chain: from the payment's address to the address that paid it, the share
// of what arrived there that the refunded VND is of the order. The transaction hash is the psp_refund_id.
// Shares are cumulative (what all refunds so far are owed, less what was already sent), so rounding down never
// strands dust: the refund that completes the order sends exactly what is left at the address.
// Sandbox trigger: a refund whose refund_reason is SANDBOX_FAIL fails, so testers can see refund.failed.
import { conflict, unprocessable } from '../http/problem.js';
import type { Chain } from './chain.js';
import type { Payments } from './payments.js';
import type { RefundSender } from './refunds.js';

export const SANDBOX_FAIL = 'SANDBOX_FAIL';

export function chainRefunds(payments: Payments, chain: Chain): RefundSender {
  return {
    async send(tx, order, request, refundedBefore) {
      if (request.refund_reason === SANDBOX_FAIL) return { refund_status: 'FAILED', psp_refund_id: null };
      const payment = await payments.paidPayment(tx, order.payment_link_ref);
      if (!payment) throw conflict('The order was not paid through the crypto checkout, so there is nothing to send back.');
      const { received, network, asset, address } = payment;
      const vnd = BigInt(payment.amount_vnd);
      const sent = received - (await chain.balance(tx, network, asset, address));
      const atomic = (received * BigInt(refundedBefore + request.amount)) / vnd - sent;
      if (atomic <= 0n) {
        // The least VND whose cumulative share reaches one more atomic unit than was sent.
        const least = ((sent + 1n) * vnd + received - 1n) / received - BigInt(refundedBefore);
        throw unprocessable(`${request.amount} VND is less than the smallest amount of ${asset} the chain can send back.`, [
          { path: 'amount', message: `must be at least ${least} VND for this order: less is not one unit of ${asset}` },
        ]);
      }
      const hash = await chain.broadcast(tx, { network, asset, from: address, to: payment.payer, amount: atomic });
      return { refund_status: 'SUCCESS', psp_refund_id: hash };
    },
  };
}
