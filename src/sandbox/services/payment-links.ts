// Payment links (seed 2.1, 2.7, DESIGN.md section 3): the rules a link must meet, and its creation.
import { orderTotal, type PaymentLinkRequest, type PaymentLinkResponse } from '../../contract/index.js';
import type { Clock } from '../clock.js';
import { invalid } from '../errors.js';
import { randomToken } from '../secrets.js';
import { isUniqueViolation, type Database, type Sql } from '../storage/database.js';
import { liveLinkConflict, type HeldFunds } from './held-funds.js';
import { idempotent, type IdempotencyScope } from './idempotency.js';
import type { Merchant } from './merchants.js';

export class PaymentLinks {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly checkoutUrl: string,
    private readonly heldFunds: HeldFunds,
  ) {}

  async create(
    merchant: Merchant,
    request: PaymentLinkRequest,
    idempotency: Omit<IdempotencyScope, 'merchantId'>,
  ): Promise<{ value: PaymentLinkResponse; replayed: boolean }> {
    checkRules(request);
    return idempotent(this.db, { ...idempotency, merchantId: merchant.merchant_id }, (tx) => this.insert(tx, merchant, request));
  }

  private async insert(tx: Sql, merchant: Merchant, request: PaymentLinkRequest): Promise<PaymentLinkResponse> {
    const now = this.clock.now();
    const { svc_key: _key, signature_hash: _signature, ...stored } = request;
    const link = { ...stored, currency: 'VND', country_code: request.country_code?.toUpperCase() };
    const ref = randomToken('pl', 16);
    // Earlier links of the order, brought up to date under lock: one past its expiry no longer blocks a new one.
    const order = await this.heldFunds.lockOrder(tx, merchant.merchant_id, request.merchant_order_id);
    await this.heldFunds.replaceLinks(tx, order, request.merchant_order_id);
    try {
      await tx.query(
        `INSERT INTO payment_links (payment_link_ref, merchant_id, merchant_order_id, status, amount, currency, request, expires_at, created_at)
         VALUES ($1, $2, $3, 'active', $4, 'VND', $5, $6, $7)`,
        [ref, merchant.merchant_id, request.merchant_order_id, request.amount, JSON.stringify(link), new Date(now.getTime() + request.expiry_hours * 3_600_000), now],
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw liveLinkConflict(request.merchant_order_id);
      }
      throw error;
    }
    return { payment_link_ref: ref, payment_link: paymentLinkUrl(this.checkoutUrl, ref) };
  }
}

/** `payment_link` (seed 2.7): `{checkout_url}?ref=<payment_link_ref>`. */
export function paymentLinkUrl(checkoutUrl: string, ref: string): string {
  const url = new URL(checkoutUrl);
  url.searchParams.set('ref', ref);
  return url.toString();
}

/** The rules that span fields; each failure names the field. */
function checkRules(request: PaymentLinkRequest): void {
  if (request.source !== 'api') {
    throw invalid('Links created through the API must have source "api".', [{ path: 'source', message: 'must be api for API calls' }]);
  }
  if (request.currency.toUpperCase() !== 'VND') {
    throw invalid(`The crypto channel (PROVIDER_CRYPTO) takes VND only; ${request.currency} cannot be paid through it.`, [
      { path: 'currency', message: 'must be VND: the crypto channel supports only VND' },
    ]);
  }
  const total = orderTotal(request);
  if (total !== request.amount) {
    throw invalid(
      `amount is ${request.amount} VND but the order adds up to ${total} VND (sum of price × quantity, minus promo_discount, plus shipping_charges).`,
      [{ path: 'amount', message: `must equal the order total ${total} VND, not ${request.amount}` }],
    );
  }
}
