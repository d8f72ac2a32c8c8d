// Crypto payments of a link: opening one (one-time address, locked quote), re-quoting after expiry,
// and reconciling each with what the chain shows. Every status change happens in reconcileRow(), in a transaction.
// Inside a transaction every query goes through its `tx`: PGlite runs one connection, so `this.db` would wait forever.
import type { HDKey } from '@scure/bip32';
import {
  ASSETS,
  findAsset,
  type CheckoutView,
  type OpenPaymentRequest,
  type Payment,
  type PaymentLinkRequest,
  type PaymentStatus,
} from '../../contract/index.js';
import { signRedirect } from '../../merchant/redirect.js';
import { deriveAddress } from '../chain/addresses.js';
import { applySpread, formatAtomic, quoteAtomic, vndForAtomic } from '../chain/amounts.js';
import { paymentUri } from '../chain/uri.js';
import type { Clock } from '../clock.js';
import type { PaymentSettings } from '../config.js';
import { conflict, notFound, ProblemError, unprocessable } from '../http/problem.js';
import { randomToken } from '../secrets.js';
import { one, type Database, type Sql } from '../storage/database.js';
import type { Chain } from './chain.js';
import type { Merchants } from './merchants.js';
import type { PaymentEvents } from './payment-events.js';
import { paymentState } from './payment-state.js';
import type { MerchantEventSink } from './webhooks.js';

interface LinkRow {
  payment_link_ref: string;
  merchant_id: string;
  merchant_order_id: string;
  status: 'active' | 'paid' | 'expired';
  amount: number;
  request: Omit<PaymentLinkRequest, 'svc_key' | 'signature_hash'>;
  expires_at: Date;
}

export interface PaymentRow {
  payment_id: string;
  payment_link_ref: string;
  status: PaymentStatus;
  overpaid: boolean;
  asset: Payment['asset'];
  network: Payment['network'];
  address: string;
  amount_atomic: string;
  amount_vnd: number;
  rate: string;
  quote_expires_at: Date;
  confirmations_required: number;
  created_at: Date;
}

const OPEN_STATUSES: readonly PaymentStatus[] = ['awaiting_payment', 'confirming', 'underpaid'];
const LINK_COLUMNS = 'payment_link_ref, merchant_id, merchant_order_id, status, amount, request, expires_at';

export class Payments {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly chain: Chain,
    private readonly events: PaymentEvents,
    private readonly merchants: Merchants,
    private readonly settings: PaymentSettings,
    private readonly root: HDKey,
    private readonly merchantEvents: MerchantEventSink,
  ) {}

  /** GET /api/checkout/{ref}: the customer's view of the link. */
  async view(ref: string): Promise<CheckoutView> {
    return this.db.transaction(async (tx) => {
      const link = await this.link(tx, ref, false);
      const latest = await one<PaymentRow>(tx, 'SELECT * FROM payments WHERE payment_link_ref = $1 ORDER BY seq DESC LIMIT 1', [ref]);
      const payment = latest ? await this.render(tx, latest, link) : null;
      const r = link.request;
      return {
        payment_link_ref: link.payment_link_ref,
        status: link.status,
        expires_at: link.expires_at.toISOString(),
        merchant_order_id: link.merchant_order_id,
        description: r.description,
        amount: link.amount,
        currency: 'VND',
        order_details: r.order_details,
        merchant_details: r.merchant_details ?? {},
        billing_details: r.billing_details,
        shipping_details: r.show_shipping_details ? r.shipping_details : undefined,
        show_shipping_details: r.show_shipping_details ?? false,
        show_back_button: r.show_back_button ?? false,
        default_guest_checkout: r.default_guest_checkout ?? false,
        is_checkout_embed: r.is_checkout_embed ?? false,
        methods: [
          {
            pmt_channel: 'PROVIDER',
            pmt_method: 'PROVIDER_CRYPTO',
            assets: ASSETS.map(({ asset, network, decimals, label }) => ({ asset, network, decimals, label })),
          },
        ],
        payment,
        failure_redirect_url: await this.redirectUrl(tx, link, r.failure_url, link.status === 'expired' ? 'expired' : 'cancelled'),
        sandbox: true,
      };
    });
  }

  /** POST /api/checkout/{ref}/payments: the open payment in this asset, a new quote after expiry, or a new payment. */
  async open(ref: string, request: OpenPaymentRequest): Promise<{ payment: Payment; created: boolean }> {
    const asset = findAsset(request.asset, request.network);
    if (!asset) {
      throw unprocessable(`${request.asset} is not offered on ${request.network}.`, [
        { path: 'network', message: `must be a network that carries ${request.asset}` },
      ]);
    }
    return this.db.transaction(async (tx) => {
      const link = await this.link(tx, ref, true);
      if (link.status === 'paid') throw conflict('This payment link has already been paid.');
      if (link.status === 'expired') throw new ProblemError(410, 'This payment link has expired.');
      const latest = await one<PaymentRow>(tx, 'SELECT * FROM payments WHERE payment_link_ref = $1 ORDER BY seq DESC LIMIT 1 FOR UPDATE', [ref]);
      const current = latest && (await this.reconcileRow(tx, latest, link));
      const sameAsset = current && current.asset === asset.asset && current.network === asset.network;
      if (current && OPEN_STATUSES.includes(current.status)) {
        if (sameAsset) return { payment: await this.render(tx, current, link), created: false };
        if (current.status !== 'awaiting_payment' || (await this.receivedAtomic(tx, current)) > 0n) {
          throw conflict(`The open ${current.asset} payment has already received funds; finish it in ${current.asset} on ${current.network}.`);
        }
        // The customer switched assets before sending anything: the unused quote ends here.
        await this.setStatus(tx, current, 'expired', link);
      }
      if (current?.status === 'paid') throw conflict('This payment link has already been paid.');
      if (current?.status === 'paid_late') throw conflict('A late payment for this link is being held for the merchant.');
      if (current?.status === 'expired' && sameAsset) return { payment: await this.requote(tx, current, link), created: false };
      return { payment: await this.create(tx, link, asset.asset, asset.network, request.customer), created: true };
    });
  }

  /** GET /api/checkout/{ref}/payments/{id}. */
  async get(ref: string, paymentId: string): Promise<Payment> {
    return this.db.transaction(async (tx) => {
      const link = await this.link(tx, ref, false);
      const row = await one<PaymentRow>(tx, 'SELECT * FROM payments WHERE payment_id = $1 AND payment_link_ref = $2', [paymentId, ref]);
      if (!row) throw notFound(`There is no payment ${paymentId} for this link.`);
      return this.render(tx, row, link);
    });
  }

  /** 404 unless the link exists: what an event stream checks before it opens, without rendering the view. */
  async assertLink(ref: string): Promise<void> {
    if (!(await one(this.db, 'SELECT 1 FROM payment_links WHERE payment_link_ref = $1', [ref]))) throw notFound('There is no payment link with this reference.');
  }

  /** Brings every payment that pays into `address` up to date with the chain. */
  async reconcileAddress(address: string): Promise<void> {
    const rows = await this.db.query<{ payment_id: string }>('SELECT payment_id FROM payments WHERE address = $1', [address]);
    for (const row of rows) await this.reconcile(row.payment_id);
  }

  /**
   * After new blocks: the payments whose transfers are still gaining confirmations. A block changes no other
   * payment (an open quote without transfers runs out on the clock, in expireDue), so only these are read.
   */
  async reconcileNetwork(network: Payment['network']): Promise<void> {
    const tip = await this.chain.tip(this.db, network);
    const rows = await this.db.query<{ payment_id: string }>(
      `SELECT DISTINCT p.payment_id FROM chain_transactions t JOIN payments p ON p.address = t.to_address AND p.network = t.network
       WHERE t.network = $1 AND (t.block_height IS NULL OR t.block_height > $2 - p.confirmations_required - 1)`,
      [network, tip],
    );
    await this.reconcileEach(rows);
  }

  /**
   * One transaction per payment, yielding between them: PGlite runs in this thread, and a long batch would
   * otherwise hold every request and event stream of the process until it ends.
   */
  private async reconcileEach(rows: { payment_id: string }[]): Promise<void> {
    for (const row of rows) {
      await this.reconcile(row.payment_id);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Quotes and links whose time has run out. */
  async expireDue(): Promise<void> {
    const now = this.clock.now();
    const due = await this.db.query<{ payment_link_ref: string }>(`SELECT payment_link_ref FROM payment_links WHERE status = 'active' AND expires_at <= $1`, [now]);
    for (const { payment_link_ref } of due) await this.db.transaction((tx) => this.link(tx, payment_link_ref, true));
    const rows = await this.db.query<{ payment_id: string }>(
      `SELECT payment_id FROM payments WHERE status IN ('awaiting_payment', 'underpaid') AND quote_expires_at <= $1`,
      [now],
    );
    await this.reconcileEach(rows);
  }

  /**
   * Sandbox: ends a payment's quote now, so testers reach expiry and late payment without waiting. The payment is
   * named by its id, or by its address (the latest payment there) for the test wallet, which knows only the QR.
   */
  async expireQuoteNow(target: { payment_id: string } | { address: string }): Promise<Payment> {
    return this.db.transaction(async (tx) => {
      const row = await one<PaymentRow>(
        tx,
        'payment_id' in target
          ? 'SELECT * FROM payments WHERE payment_id = $1 FOR UPDATE'
          : 'SELECT * FROM payments WHERE address = $1 ORDER BY seq DESC LIMIT 1 FOR UPDATE',
        ['payment_id' in target ? target.payment_id : target.address],
      );
      if (!row) throw notFound('payment_id' in target ? `There is no payment ${target.payment_id}.` : 'No payment pays into this address.');
      const link = await this.link(tx, row.payment_link_ref, true);
      const now = this.clock.now();
      if (row.quote_expires_at.getTime() > now.getTime()) {
        await tx.query('UPDATE payments SET quote_expires_at = $2 WHERE payment_id = $1', [row.payment_id, now]);
        row.quote_expires_at = now;
      }
      return this.render(tx, await this.reconcileRow(tx, row, link), link);
    });
  }

  async reconcile(paymentId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const row = await one<PaymentRow>(tx, 'SELECT * FROM payments WHERE payment_id = $1 FOR UPDATE', [paymentId]);
      if (row) await this.reconcileRow(tx, row, await this.link(tx, row.payment_link_ref, true));
    });
  }

  /** Every payment of a link, oldest first, as the element sees them. */
  async ofLink(sql: Sql, ref: string): Promise<Payment[]> {
    const link = await this.link(sql, ref, false);
    const rows = await sql.query<PaymentRow>('SELECT * FROM payments WHERE payment_link_ref = $1 ORDER BY seq', [ref]);
    const rendered: Payment[] = [];
    for (const row of rows) rendered.push(await this.render(sql, row, link));
    return rendered;
  }

  /** The paid payment of a link, for refunds: where the money sits, who sent it and how much arrived. */
  async paidPayment(sql: Sql, ref: string): Promise<(PaymentRow & { payer: string; received: bigint }) | undefined> {
    const row = await one<PaymentRow>(sql, `SELECT * FROM payments WHERE payment_link_ref = $1 AND status = 'paid'`, [ref]);
    if (!row) return undefined;
    const transfers = await this.chain.transactionsTo(sql, row.network, row.address);
    const received = transfers.reduce((sum, t) => sum + t.amount, 0n);
    return transfers[0] && { ...row, payer: transfers[0].from_address, received };
  }

  /** The one place a status changes: from the chain's facts, with an event when what the customer sees changed. */
  private async reconcileRow(tx: Sql, row: PaymentRow, link: LinkRow): Promise<PaymentRow> {
    const transfers = await this.chain.transactionsTo(tx, row.network, row.address);
    const state = paymentState(
      { ...row, amount_atomic: BigInt(row.amount_atomic), transfers },
      this.clock.now(),
      this.settings.toleranceBps,
    );
    const next: PaymentRow = { ...row, status: state.status, overpaid: state.overpaid };
    if (next.status !== row.status || next.overpaid !== row.overpaid) {
      await tx.query('UPDATE payments SET status = $2, overpaid = $3, paid_at = $4 WHERE payment_id = $1', [
        row.payment_id,
        next.status,
        next.overpaid,
        next.status === 'paid' || next.status === 'paid_late' ? this.clock.now() : null,
      ]);
      if (next.status === 'paid') await this.markLinkPaid(tx, link);
      if (next.status !== 'awaiting_payment') {
        await this.merchantEvents.emit(tx, { merchantId: link.merchant_id, type: `payment.${next.status}`, ref: link.payment_link_ref, paymentId: row.payment_id });
      }
    }
    await this.recordIfChanged(tx, next, link);
    return next;
  }

  private async setStatus(tx: Sql, row: PaymentRow, status: 'expired', link: LinkRow): Promise<void> {
    await tx.query('UPDATE payments SET status = $2 WHERE payment_id = $1', [row.payment_id, status]);
    await this.recordIfChanged(tx, { ...row, status }, link);
    await this.merchantEvents.emit(tx, { merchantId: link.merchant_id, type: 'payment.expired', ref: link.payment_link_ref, paymentId: row.payment_id });
  }

  private async markLinkPaid(tx: Sql, link: LinkRow): Promise<void> {
    // A link that expired while its payment confirmed is paid all the same, unless the order has moved on to another link.
    await tx.query(
      `UPDATE payment_links l SET status = 'paid', paid_at = $2 WHERE l.payment_link_ref = $1 AND l.status <> 'paid'
         AND NOT EXISTS (SELECT 1 FROM payment_links o WHERE o.merchant_id = l.merchant_id AND o.merchant_order_id = l.merchant_order_id
                         AND o.payment_link_ref <> l.payment_link_ref AND o.status IN ('active', 'paid'))`,
      [link.payment_link_ref, this.clock.now()],
    );
    link.status = 'paid';
  }

  private async recordIfChanged(tx: Sql, row: PaymentRow, link: LinkRow): Promise<void> {
    const payment = await this.render(tx, row, link);
    const last = await this.events.last(tx, row.payment_id);
    if (!last || JSON.stringify(last) !== JSON.stringify(payment)) await this.events.record(tx, link.payment_link_ref, payment);
  }

  private async create(tx: Sql, link: LinkRow, asset: Payment['asset'], network: Payment['network'], customer: unknown): Promise<Payment> {
    const info = findAsset(asset, network)!;
    const index = (await one<{ index: number }>(tx, `SELECT nextval('payment_address_index')::bigint AS index`))!.index;
    const rate = applySpread(this.settings.rates[asset], this.settings.spreadBps);
    const row: PaymentRow = {
      payment_id: randomToken('pay', 12),
      payment_link_ref: link.payment_link_ref,
      status: 'awaiting_payment',
      overpaid: false,
      asset,
      network,
      address: deriveAddress(this.root, network, index),
      amount_atomic: quoteAtomic(BigInt(link.amount), rate, info.decimals).toString(),
      amount_vnd: link.amount,
      rate,
      quote_expires_at: this.quoteExpiry(link),
      confirmations_required: this.settings.networks[network].confirmations,
      created_at: this.clock.now(),
    };
    await tx.query(
      `INSERT INTO payments (payment_id, payment_link_ref, status, asset, network, address, address_index, amount_atomic, amount_vnd, rate,
         quote_expires_at, confirmations_required, customer, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [
        row.payment_id,
        row.payment_link_ref,
        row.status,
        asset,
        network,
        row.address,
        index,
        row.amount_atomic,
        row.amount_vnd,
        rate,
        row.quote_expires_at,
        row.confirmations_required,
        customer === undefined ? null : JSON.stringify(customer),
        row.created_at,
      ],
    );
    await this.recordIfChanged(tx, row, link);
    return this.render(tx, row, link);
  }

  /** A new quote for an expired payment, at the same address: what was already received counts at the old rate. */
  private async requote(tx: Sql, row: PaymentRow, link: LinkRow): Promise<Payment> {
    const { decimals } = findAsset(row.asset, row.network)!;
    const received = await this.receivedAtomic(tx, row);
    const coveredVnd = vndForAtomic(received, row.rate, decimals);
    const rate = applySpread(this.settings.rates[row.asset], this.settings.spreadBps);
    const leftVnd = BigInt(row.amount_vnd) - coveredVnd;
    const amount = received + (leftVnd > 0n ? quoteAtomic(leftVnd, rate, decimals) : 0n);
    const next: PaymentRow = { ...row, status: 'awaiting_payment', rate, amount_atomic: amount.toString(), quote_expires_at: this.quoteExpiry(link) };
    await tx.query('UPDATE payments SET rate = $2, amount_atomic = $3, quote_expires_at = $4, status = $5 WHERE payment_id = $1', [
      row.payment_id,
      rate,
      next.amount_atomic,
      next.quote_expires_at,
      next.status,
    ]);
    return this.render(tx, await this.reconcileRow(tx, next, link), link);
  }

  private quoteExpiry(link: LinkRow): Date {
    const ttl = this.clock.now().getTime() + this.settings.quoteTtlSeconds * 1000;
    return new Date(Math.min(ttl, link.expires_at.getTime()));
  }

  private async receivedAtomic(tx: Sql, row: PaymentRow): Promise<bigint> {
    const transfers = await this.chain.transactionsTo(tx, row.network, row.address);
    return transfers.reduce((sum, t) => sum + t.amount, 0n);
  }

  /** The link, with its time-based expiry applied; 404 when there is no such link. */
  private async link(tx: Sql, ref: string, lock: boolean): Promise<LinkRow> {
    const link = await one<LinkRow>(tx, `SELECT ${LINK_COLUMNS} FROM payment_links WHERE payment_link_ref = $1 ${lock ? 'FOR UPDATE' : ''}`, [ref]);
    if (!link) throw notFound('There is no payment link with this reference.');
    if (link.status === 'active' && link.expires_at.getTime() <= this.clock.now().getTime()) {
      const expired = await tx.query(`UPDATE payment_links SET status = 'expired' WHERE payment_link_ref = $1 AND status = 'active' RETURNING 1`, [ref]);
      link.status = 'expired';
      if (expired.length) await this.merchantEvents.emit(tx, { merchantId: link.merchant_id, type: 'payment_link.expired', ref });
    }
    return link;
  }

  private async redirectUrl(sql: Sql, link: LinkRow, url: string, status: string): Promise<string> {
    const secret = await this.merchants.clientSecret(sql, link.merchant_id);
    return signRedirect(url, { payment_link_ref: link.payment_link_ref, merchant_order_id: link.merchant_order_id, status }, secret);
  }

  /** The payment as the element sees it. */
  private async render(tx: Sql, row: PaymentRow, link: LinkRow): Promise<Payment> {
    const { decimals } = findAsset(row.asset, row.network)!;
    const transfers = await this.chain.transactionsTo(tx, row.network, row.address);
    const amount = BigInt(row.amount_atomic);
    const state = paymentState({ ...row, amount_atomic: amount, transfers }, this.clock.now(), this.settings.toleranceBps);
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
      payment_uri: paymentUri({ asset: row.asset, network: row.network, address: row.address, atomic: asked }),
      confirmations_required: row.confirmations_required,
      received_crypto: formatAtomic(state.received, decimals),
      remaining_crypto: formatAtomic(state.remaining, decimals),
      transactions: transfers.map((t) => ({ tx_hash: t.tx_hash, amount_crypto: formatAtomic(t.amount, decimals), confirmations: t.confirmations })),
      success_redirect_url: row.status === 'paid' ? await this.redirectUrl(tx, link, link.request.success_url, 'paid') : null,
      created_at: row.created_at.toISOString(),
    };
  }
}
