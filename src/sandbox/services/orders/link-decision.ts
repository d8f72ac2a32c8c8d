// What a merchant decides about one of its links after making it (held-payments.ts accepts a held payment,
// link-cancels.ts cancels the link): taken once per Idempotency-Key in one transaction (each decision locks the order
// first), and answered with the link as it is now, a replay too.
import type { PaymentLinkResource } from '../../../contract/index.js';
import type { Clock } from '../../clock.js';
import type { Sql } from '../../storage/database.js';
import type { Idempotency, IdempotencyScope } from '../merchant/idempotency.js';
import type { MerchantLinks } from '../merchant/merchant-links.js';
import type { Reconciler } from '../payments/reconciler.js';
import type { Orders } from './orders.js';

export abstract class LinkDecision {
  constructor(
    protected readonly clock: Clock,
    protected readonly orders: Orders,
    protected readonly reconciler: Reconciler,
    private readonly merchantLinks: MerchantLinks,
    private readonly idempotency: Idempotency,
  ) {}

  /** Runs `decide` (which answers the ref of the link it decided on) once per key, then reads that link. */
  protected async decideOnce(
    merchantId: string,
    idempotency: Omit<IdempotencyScope, 'merchantId'>,
    decide: (tx: Sql) => Promise<string>,
  ): Promise<{ value: PaymentLinkResource; replayed: boolean }> {
    const { value, replayed } = await this.idempotency.run({ ...idempotency, merchantId }, async (tx) => ({ payment_link_ref: await decide(tx) }));
    return { value: await this.merchantLinks.get(merchantId, value.payment_link_ref), replayed };
  }
}
