// Refunds of crypto payments go back on chain: from the payment's address to the address that paid it,
// the share of the crypto amount that the refunded VND is of the order. The transaction hash is the psp_refund_id.
// Sandbox trigger: a refund whose refund_reason is SANDBOX_FAIL fails, so testers can see refund.failed.
import { conflict } from '../http/problem.js';
import type { Chain } from './chain.js';
import type { Payments } from './payments.js';
import type { RefundSender } from './refunds.js';

export const SANDBOX_FAIL = 'SANDBOX_FAIL';

export function chainRefunds(payments: Payments, chain: Chain): RefundSender {
  return {
    async send(tx, order, request) {
      if (request.refund_reason === SANDBOX_FAIL) return { refund_status: 'FAILED', psp_refund_id: null };
      const payment = await payments.paidPayment(tx, order.payment_link_ref);
      if (!payment) throw conflict('The order was not paid through the crypto checkout, so there is nothing to send back.');
      const atomic = (BigInt(payment.amount_atomic) * BigInt(request.amount)) / BigInt(payment.amount_vnd);
      const hash = await chain.broadcast(tx, {
        network: payment.network,
        asset: payment.asset,
        from: payment.address,
        to: payment.payer,
        amount: atomic,
      });
      return { refund_status: 'SUCCESS', psp_refund_id: hash };
    },
  };
}
