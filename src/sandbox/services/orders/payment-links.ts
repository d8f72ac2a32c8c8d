// Payment links (docs/api.md, "Create a payment link"): the rules a link must meet, and its creation.
import { orderTotal, type PaymentLinkRequest, type PaymentLinkResponse } from '../../../contract/index.js';
import type { Clock } from '../../clock.js';
import { invalid } from '../../errors.js';
import { randomToken } from '../../secrets.js';
import { isUniqueViolation, type Database, type Sql } from '../../storage/database.js';
import type { KeyedAnswer } from '../../storage/idempotency.js';
import { insertFirstLinkOfOrder, insertLink, type NewLink } from '../../storage/payments.js';
import { liveLinkConflict, type Orders } from './orders.js';
import type { Idempotency, IdempotencyScope } from '../merchant/idempotency.js';
import { paymentLinkUrl } from '../merchant/merchant-links.js';
import type { Merchant } from '../merchant/merchants.js';

export class PaymentLinks {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly checkoutUrl: string,
    private readonly orders: Orders,
    private readonly idempotency: Idempotency,
  ) {}

  async create(
    merchant: Merchant,
    request: PaymentLinkRequest,
    idempotency: Omit<IdempotencyScope, 'merchantId'>,
  ): Promise<{ value: PaymentLinkResponse; replayed: boolean }> {
    checkRules(request);
    const now = this.clock.now();
    const { svc_key: _key, signature_hash: _signature, ...stored } = request;
    const link: NewLink = {
      payment_link_ref: randomToken('pl', 16),
      merchant_id: merchant.merchant_id,
      merchant_order_id: request.merchant_order_id,
      amount: request.amount,
      request: { ...stored, currency: 'VND', country_code: request.country_code?.toUpperCase() },
      expires_at: new Date(now.getTime() + request.expiry_hours * 3_600_000),
      created_at: now,
    };
    const value = { payment_link_ref: link.payment_link_ref, payment_link: paymentLinkUrl(this.checkoutUrl, link.payment_link_ref) };
    // Most links are an order's first: one statement (the key's answer written with it), no transaction. An order with
    // earlier links, a key used before, or a race for either takes the long way, which tells them apart.
    return this.idempotency.run(
      { ...idempotency, merchantId: merchant.merchant_id },
      async (tx) => {
        if (!(await refusingSecondLiveLink(link, () => insertFirstLinkOfOrder(tx, link)))) await this.insertReplacing(tx, link);
        return value;
      },
      { answer: value, run: (keyed) => this.insertFirst(link, keyed) },
    );
  }

  private async insertFirst(link: NewLink, answer: KeyedAnswer | undefined): Promise<boolean> {
    try {
      return await insertFirstLinkOfOrder(this.db, link, answer);
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Earlier links of the order, brought up to date under lock: one past its expiry no longer blocks a new one. */
  private async insertReplacing(tx: Sql, link: NewLink): Promise<void> {
    const order = await this.orders.lockOrder(tx, link.merchant_id, link.merchant_order_id);
    await this.orders.replaceLinks(tx, order, link.merchant_order_id);
    await refusingSecondLiveLink(link, () => insertLink(tx, link));
  }
}

/** Two creations for one order at once: the unique index lets one through, the other is a 409. */
async function refusingSecondLiveLink<T>(link: NewLink, insert: () => Promise<T>): Promise<T> {
  try {
    return await insert();
  } catch (error) {
    if (isUniqueViolation(error)) throw liveLinkConflict(link.merchant_order_id);
    throw error;
  }
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
