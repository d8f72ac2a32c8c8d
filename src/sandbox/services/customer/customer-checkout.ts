// The customer's side of a link: its view, and opening a payment (a one-time address and a locked quote).
// A new quote is always a new payment at a new address, for what the order still lacks: money that reached an old
// quote in time keeps that quote's rate, and coins that reach it later are held for the merchant
// (docs/payment-lifecycle.md, "Credit across quotes").
import { isIn, OPEN_PAYMENT_STATUSES, type CheckoutAsset, type CheckoutView, type Environment, type OpenPaymentRequest, type Payment } from '../../../contract/index.js';
import { quoteAtomic, quoteStep } from '../../../codecs/amounts.js';
import { assetFields, type AssetInfo, type NetworkConfig, type Networks } from '../../chains/networks.js';
import type { Clock } from '../../clock.js';
import type { LimitSettings, PaymentSettings } from '../../config.js';
import { conflict, gone, invalid, notFound, tooMany, unavailable } from '../../errors.js';
import { readCursor } from '../../storage/chain-facts.js';
import { randomToken } from '../../secrets.js';
import type { Database, Sql } from '../../storage/database.js';
import { parseLinkFacts, parseLinkRecordFacts, type LinkRows } from '../../storage/link-facts.js';
import { insertPayment, type LinkRecord, type LinkRow, type PaymentRow } from '../../storage/payments.js';
import { staleAfterMs } from '../chains/chain-facts.js';
import type { ReceivingKeys } from '../merchant/receiving-keys.js';
import { DerivedAnswers } from '../payments/derived-answers.js';
import type { PaymentView } from '../payments/payment-view.js';
import { LinkReader, type LinkSnapshot } from '../payments/link-reader.js';
import type { Reconciler } from '../payments/reconciler.js';
import type { RateLimits } from '../operations/rate-limits.js';
import type { RateBook } from '../rates/rate-book.js';


/** An asset as the customer chooses it. */
function checkoutAsset(network: NetworkConfig, info: AssetInfo, available: boolean): CheckoutAsset {
  return {
    ...assetFields(info),
    network: info.network,
    network_name: network.name,
    testnet: network.testnet,
    chain_id: network.chain_id ?? null,
    explorer_url: network.explorer_url ?? null,
    explorer_tx_url: network.explorer_tx_url ?? null,
    available,
    wallet_rpc_url: network.source.kind === 'node' ? (network.source.walletRpcUrl ?? null) : null,
    withdrawal_fee: info.withdrawal_fee ?? null,
  };
}

const withRequest = ({ link, ...facts }: LinkRows<LinkRecord>, request: LinkRow['request']): LinkRows => ({ ...facts, link: { ...link, request } });

/** How many links' views a process keeps rendered (services/payments/derived-answers.ts); each is a few KB. */
const VIEWS_KEPT = 1_000;

/** Whether the operator disabled a link's merchant (merchant/merchants.ts): its links open no new payment. */
export interface MerchantStanding {
  disabled(sql: Sql, merchantId: string): Promise<boolean>;
}

/** Opening a payment on a disabled merchant's link: the element shows it, and its view offers no asset. */
const NO_LONGER_AVAILABLE = 'This payment link is no longer available: the merchant takes no new payments through it.';

interface KeptView {
  /** The view as UTF-8 JSON, encoded once: a socket takes it as it is. */
  json: Buffer<ArrayBuffer>;
  /** The assets that had no rate (joined): they are offered as unavailable. */
  unrated: string;
  merchantId: string;
  /** Whether the merchant was disabled: every asset of its view is unavailable then. */
  disabled: boolean;
  /** The signing secret its redirect URLs were signed with. */
  secret: string;
  /** The link's request, which never changes: its facts are read without it while it is kept here. */
  request: LinkRow['request'];
  /** The families of the merchant's receiving keys it offered coins in (live; empty in the sandbox, which offers all). */
  families: string;
}

export class CustomerCheckout {
  readonly #views = new DerivedAnswers<KeptView>(VIEWS_KEPT);

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly networks: Networks,
    private readonly settings: PaymentSettings,
    private readonly rates: RateBook,
    private readonly receivingKeys: ReceivingKeys,
    private readonly reader: LinkReader,
    private readonly reconciler: Reconciler,
    private readonly view: PaymentView,
    /** The receipt page beside the hosted checkout page (routes/receipt.ts): `{checkout_url}` with `receipt` for its last segment. */
    private readonly receiptPage: URL,
    private readonly limits: Pick<LimitSettings, 'paymentsPerLink' | 'opensPerLinkPerMinute' | 'opensPerClientPerMinute'>,
    private readonly rateLimits: RateLimits,
    /** The gateway's GATEWAY_ENV, which every view carries: the element marks the sandbox's test coins by it. */
    private readonly environment: Environment,
    private readonly standing: MerchantStanding,
  ) {}

  /**
   * GET /api/checkout/{ref}: the customer's view of the link, as UTF-8 JSON. A view rendered before is served again
   * while the link's facts, the time window they hold in and the merchant's signing secret are the same.
   */
  async linkView(ref: string): Promise<Buffer<ArrayBuffer>> {
    // A link's request never changes: while the link's last view is kept, its facts are read without it.
    const request = this.#views.last(ref)?.request;
    const facts = await this.reader.readFacts(this.db, ref, { request: request === undefined });
    // The assets without a rate now are among what the view is derived from: compared on their own, not joined to the
    // facts (a copy of them per request).
    const noRate = this.rates.unavailable(this.clock.now());
    const unrated = noRate.join(',');
    const kept = this.#views.get(ref, facts, this.clock.now().getTime());
    if (
      kept &&
      kept.unrated === unrated &&
      kept.secret === (await this.view.signingSecret(this.db, kept.merchantId)) &&
      kept.families === (await this.#familiesOf(kept.merchantId)) &&
      kept.disabled === (await this.standing.disabled(this.db, kept.merchantId))
    ) {
      return kept.json;
    }
    const { snapshot, reconciled } = await this.current(ref, request === undefined ? parseLinkFacts(facts) : withRequest(parseLinkRecordFacts(facts), request));
    const merchantId = snapshot.link.merchant_id;
    // Read before rendering: a secret changed in between makes the next request render again, never the reverse.
    const secret = await this.view.signingSecret(this.db, merchantId);
    const families = await this.#familiesOf(merchantId);
    const disabled = await this.standing.disabled(this.db, merchantId);
    const json = Buffer.from(JSON.stringify(await this.viewOf(snapshot, noRate, disabled)));
    const answer = { json, unrated, merchantId, secret, disabled, request: snapshot.link.request, families };
    if (!reconciled) this.#views.set(ref, facts, answer, { from: this.clock.now().getTime(), until: snapshot.derived.stable_until });
    return json;
  }

  /** The view; a `disabled` merchant's offers no asset (its payments already open are shown as they go on). */
  private async viewOf(snapshot: LinkSnapshot, noRate = this.rates.unavailable(this.clock.now()), disabled = false): Promise<CheckoutView> {
    const { link } = snapshot;
    const r = link.request;
    const latest = snapshot.payments.length - 1;
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
          assets: this.#assets(snapshot.available, noRate, await this.receivingKeys.families(this.db, link.merchant_id), disabled),
        },
      ],
      payment: latest >= 0 ? await this.render(this.db, snapshot, latest) : null,
      received_vnd: Number(snapshot.states.reduce((sum, state) => (isIn(OPEN_PAYMENT_STATUSES, state.status) ? sum : sum + state.covered_vnd), 0n)),
      receipt_url: [...snapshot.transfers.values()].some((transfers) => transfers.length) ? this.#receiptUrl(link.payment_link_ref) : null,
      failure_redirect_url: await this.view.redirectUrl(this.db, link, r.failure_url, link.status === 'expired' ? 'expired' : 'cancelled'),
      tolerance_bps: this.settings.toleranceBps,
      environment: this.environment,
      sandbox: this.environment === 'sandbox',
    };
  }

  #receiptUrl(ref: string): string {
    const url = new URL(this.receiptPage);
    url.searchParams.set('ref', ref);
    return url.toString();
  }

  /** GET /receipt: the link's view and every payment that money reached, oldest first. */
  async receipt(ref: string): Promise<{ view: CheckoutView; payments: Payment[] }> {
    const { snapshot } = await this.current(ref, parseLinkFacts(await this.reader.readFacts(this.db, ref)));
    const payments = await Promise.all(snapshot.payments.map((_, index) => this.render(this.db, snapshot, index)));
    const disabled = await this.standing.disabled(this.db, snapshot.link.merchant_id);
    return { view: await this.viewOf(snapshot, undefined, disabled), payments: payments.filter((p) => p.transactions.length) };
  }

  /** The families a view offered coins in, as a key of the kept view: set-xpub adds one. */
  async #familiesOf(merchantId: string): Promise<string> {
    return [...((await this.receivingKeys.families(this.db, merchantId)) ?? [])].sort().join(',');
  }

  /**
   * Every configured asset the merchant can receive (`families`: those of its keys; undefined: all), each available
   * while its network can be seen and its rate can be had, and its merchant is not `disabled`. A coin the merchant has
   * no key for is not offered at all, rather than shown unavailable: it will not become available by trying again.
   */
  #assets(available: readonly string[] = [], noRate: readonly string[] = [], families?: ReadonlySet<string>, disabled = false): CheckoutAsset[] {
    const offered = this.networks.assets.filter((info) => !families || families.has(this.networks.of(info.network).family));
    return offered.map((info) => {
      const network = this.networks.of(info.network);
      const seen = network.source.kind === 'simulated' || available.includes(network.id);
      return checkoutAsset(network, info, !disabled && seen && !noRate.includes(info.asset));
    });
  }

  /** GET /api/checkout/{ref}/payments/{payment_id}. */
  async payment(ref: string, paymentId: string): Promise<Payment> {
    const { snapshot } = await this.current(ref, parseLinkFacts(await this.reader.readFacts(this.db, ref)));
    const index = snapshot.payments.findIndex((p) => p.payment_id === paymentId);
    if (index < 0) throw notFound(`There is no payment ${paymentId} for this link.`);
    return this.render(this.db, snapshot, index);
  }

  /** Whether there is such a link (404 otherwise): checked before an event stream opens. */
  async assertLink(ref: string): Promise<void> {
    await this.reader.read(this.db, ref);
  }

  /**
   * POST /api/checkout/{ref}/payments: the open payment in this asset, or a new payment. Opening one in another
   * asset, or after a quote ran out, supersedes the last: its quote closes at once, and what reaches it later is held.
   * A request from a `client` address counts against the opens a minute of that address and of the link, reopening
   * the payment already open included: each open is a transaction that locks and reconciles the link, so a flood of
   * reopenings is work too (`npm run soak:abuse` floods it).
   */
  async open(ref: string, request: OpenPaymentRequest, client?: string): Promise<{ payment: Payment; created: boolean }> {
    const asset = this.#offered(request);
    if (client !== undefined) {
      const refusal = 'Too many payments opened';
      await this.rateLimits.take(`open:client:${client}`, { limit: this.limits.opensPerClientPerMinute, windowSeconds: 60, refusal: `${refusal} from this address.` });
      await this.rateLimits.take(`open:link:${ref}`, { limit: this.limits.opensPerLinkPerMinute, windowSeconds: 60, refusal: `${refusal} on this link.` });
    }
    return this.db.transaction(async (tx) => {
      let snapshot = await this.reconciler.reconcile(tx, ref);
      const { link, payments, states } = snapshot;
      if (link.status === 'paid') throw conflict('This payment link has already been paid.');
      if (link.status === 'expired') throw gone('This payment link has expired.');
      if (link.status === 'cancelled') throw gone('This payment link was cancelled by the merchant.');
      // Money that arrived in full after its quote ran out waits for the merchant; paying again would pay twice. (A
      // payment complete in time and credited in full is not late: the order lacks only what earlier quotes lost.)
      const lateInFull = (p: PaymentRow, i: number) => p.status === 'expired' && states[i]!.remaining === 0n && states[i]!.credited_vnd < BigInt(p.amount_vnd);
      if (payments.some((p, i) => p.status === 'paid_late' || lateInFull(p, i))) {
        throw conflict('A full payment for this link arrived after its quote ran out and is held for the merchant, who will accept or return it.');
      }
      const last = payments.length - 1;
      const current = payments[last];
      if (current && isIn(OPEN_PAYMENT_STATUSES, current.status) && current.asset === asset.asset && current.network === asset.network) {
        return { payment: await this.render(tx, snapshot, last), created: false };
      }
      // A disabled merchant's link takes no new payment; the one already open (above) is followed to its end.
      if (await this.standing.disabled(tx, link.merchant_id)) throw conflict(NO_LONGER_AVAILABLE);
      // What reached the link's quotes in time keeps its VND: the new quote asks only for the rest.
      const rest = link.amount - Number(snapshot.derived.covered_vnd);
      if (rest <= 0) throw conflict('What was sent for this order already covers it; it is waiting for its confirmations.');
      // Each payment is an address to watch and a row every reconcile of the link reads: a link has a bounded number.
      if (payments.length >= this.limits.paymentsPerLink) {
        throw tooMany(
          `This link has had ${payments.length} payments, the most one link takes: pay the one still open, or ask the merchant for a new link.`,
          (link.expires_at.getTime() - this.clock.now().getTime()) / 1000,
        );
      }
      await this.#assertAvailable(tx, this.networks.of(asset.network));
      // From the prices the rate feed last wrote: a source that hangs never delays this (a 503 naming the asset without a rate).
      const locked = this.rates.lock(asset.asset, this.clock.now());
      // The new payment closes the last one's quote at once (it is newer); both are written before this commits.
      const ttlSeconds = link.request.sandbox_quote_ttl_seconds ?? this.settings.quoteTtlSeconds;
      const { row, accountKey } = await this.quote(tx, link, rest, ttlSeconds, asset, locked.rate, request.customer);
      await insertPayment(tx, row, locked.provenance, accountKey);
      snapshot = await this.reconciler.reconcile(tx, ref);
      return { payment: await this.render(tx, snapshot, snapshot.payments.length - 1), created: true };
    });
  }

  /** The asset the request names, when the gateway takes it; a 422 naming the field otherwise. */
  #offered({ asset, network }: OpenPaymentRequest): AssetInfo {
    const info = this.networks.find(asset, network);
    if (info) return info;
    if (!this.networks.get(network)) {
      throw invalid(`${network} is not a network this gateway takes.`, [{ path: 'network', message: `must be one of ${this.networks.ids.join(', ')}` }]);
    }
    const codes = [...new Set(this.networks.assets.map((a) => a.asset))];
    // An asset no network carries is the asset's fault, not the network's.
    if (!codes.includes(asset)) throw invalid(`${asset} is not an asset this gateway takes.`, [{ path: 'asset', message: `must be one of ${codes.join(', ')}` }]);
    throw invalid(`${asset} is not offered on ${network}.`, [{ path: 'network', message: `must be a network that carries ${asset}` }]);
  }

  /**
   * A node's network takes new payments only while the gateway sees it: a quote on a chain it cannot watch could run
   * out unseen. Read from the database, so opening a payment never waits on a node.
   */
  async #assertAvailable(tx: Sql, network: NetworkConfig): Promise<void> {
    const stale = staleAfterMs(network);
    if (stale === undefined) return;
    const cursor = await readCursor(tx, network.id);
    if (cursor?.synced_at && this.clock.now().getTime() - cursor.synced_at.getTime() <= stale) return;
    throw unavailable(`${network.name} (${network.id}) cannot be reached right now, so no payment opens on it; choose another coin, or try again shortly.`);
  }

  private async quote(
    tx: Sql,
    link: LinkRecord,
    amountVnd: number,
    ttlSeconds: number,
    info: AssetInfo,
    rate: string,
    customer: unknown,
  ): Promise<{ row: PaymentRow; accountKey: string | null }> {
    const { asset, network, decimals, quote_decimals } = info;
    const { address, address_index, account_key } = await this.receivingKeys.next(tx, link.merchant_id, this.networks.of(network).family, network);
    const now = this.clock.now();
    const row: PaymentRow = {
      payment_id: randomToken('pay', 12),
      payment_link_ref: link.payment_link_ref,
      status: 'awaiting_payment',
      overpaid: false,
      asset,
      network,
      address,
      address_index,
      amount_atomic: quoteAtomic(BigInt(amountVnd), rate, decimals, quoteStep(decimals, quote_decimals)).toString(),
      amount_vnd: amountVnd,
      rate,
      // Never locked past the link's expiry.
      quote_expires_at: new Date(Math.min(now.getTime() + ttlSeconds * 1000, link.expires_at.getTime())),
      confirmations_required: this.networks.of(network).confirmations,
      customer,
      accepted_at: null,
      paid_at: null,
      held_vnd: 0,
      unsettled: true,
      reorged_at: null,
      known_until: null,
      created_at: now,
    };
    return { row, accountKey: account_key };
  }

  /**
   * The link as its facts derive it; when time alone has moved it on (a link or quote ran out), reconciled first, and
   * then it is no longer what these facts say.
   */
  private async current(ref: string, facts: LinkRows): Promise<{ snapshot: LinkSnapshot; reconciled: boolean }> {
    const snapshot = this.reader.derive(facts);
    if (!LinkReader.timeHasPassed(snapshot)) return { snapshot, reconciled: false };
    return { snapshot: await this.db.transaction((tx) => this.reconciler.reconcile(tx, ref)), reconciled: true };
  }

  private render(sql: Sql, snapshot: LinkSnapshot, index: number): Promise<Payment> {
    const row = snapshot.payments[index]!;
    return this.view.render(sql, snapshot.link, row, snapshot.states[index]!, snapshot.transfers.get(row.payment_id) ?? []);
  }
}
