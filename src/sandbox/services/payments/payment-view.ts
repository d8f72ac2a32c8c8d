// A payment as the element and the merchant see it, from its row, its derived state and the chain's transfers.
import type { Payment } from '../../../contract/index.js';
import { signRedirect } from '../../../merchant/redirect.js';
import { formatAtomic } from '../../../codecs/amounts.js';
import { paymentUri } from '../../../codecs/uri.js';
import type { Networks } from '../../chains/networks.js';
import type { Sql } from '../../storage/database.js';
import type { TransferRow } from '../../storage/link-facts.js';
import type { LinkRow, PaymentRow } from '../../storage/payments.js';
import type { PaymentState } from './payment-state.js';

/** Where the client secret that keys a merchant's redirect signatures comes from (merchant/merchants.ts). */
export interface SigningSecrets {
  clientSecret(sql: Sql, merchantId: string): Promise<string>;
}

export class PaymentView {
  constructor(
    private readonly networks: Networks,
    private readonly secrets: SigningSecrets,
  ) {}

  async render(sql: Sql, link: LinkRow, row: PaymentRow, state: PaymentState, transfers: readonly TransferRow[]): Promise<Payment> {
    const { decimals } = this.networks.asset(row.asset, row.network);
    const amount = BigInt(row.amount_atomic);
    // Once something has arrived, the QR asks only for the rest, at the same address.
    const asked = state.received > 0n && state.remaining > 0n ? state.remaining : amount;
    return {
      payment_id: row.payment_id,
      status: row.status,
      overpaid: row.overpaid,
      asset: row.asset,
      network: row.network,
      address: row.address,
      amount_crypto: formatAtomic(amount, decimals),
      amount_vnd: row.amount_vnd,
      rate: row.rate,
      quote_expires_at: row.quote_expires_at.toISOString(),
      payment_uri: paymentUri(this.networks.of(row.network), { asset: row.asset, address: row.address, atomic: asked }),
      confirmations_required: row.confirmations_required,
      received_crypto: formatAtomic(state.received, decimals),
      remaining_crypto: formatAtomic(state.remaining, decimals),
      remaining_vnd: Number(state.remaining_vnd),
      held_vnd: row.held_vnd,
      credited_vnd: Number(state.credited_vnd),
      transactions: transfers.map((t) => ({
        tx_hash: t.tx_hash,
        amount_crypto: formatAtomic(BigInt(t.amount_atomic), decimals),
        confirmations: t.confirmations ?? 0,
        seen_at: t.seen_at.toISOString(),
        confirmed_at: t.confirmed_at?.toISOString() ?? null,
      })),
      success_redirect_url: row.status === 'paid' ? await this.redirectUrl(sql, link, link.request.success_url, 'paid') : null,
      paid_at: row.paid_at?.toISOString() ?? null,
      superseded_at: state.superseded_at?.toISOString() ?? null,
      accepted_at: row.accepted_at?.toISOString() ?? null,
      reorged_at: row.reorged_at?.toISOString() ?? null,
      created_at: row.created_at.toISOString(),
    };
  }

  /** The secret that signs the merchant's redirects: its client secret. */
  signingSecret(sql: Sql, merchantId: string): Promise<string> {
    return this.secrets.clientSecret(sql, merchantId);
  }

  /** The merchant's URL with the redirect parameters and their signature (README, "How to know an order is paid"). */
  async redirectUrl(sql: Sql, link: LinkRow, url: string, status: string): Promise<string> {
    const secret = await this.signingSecret(sql, link.merchant_id);
    return signRedirect(url, { payment_link_ref: link.payment_link_ref, merchant_order_id: link.merchant_order_id, status }, secret);
  }
}
