// Small pieces the portal's pages share: status pills, coins, amounts in crypto, hashes. All lit-html: every value
// is text.
import { html, nothing, type TemplateResult } from 'lit';
import type { AssetCode, MerchantPayment, Network, PaymentStatus } from '../../../src/contract/index.js';
import { formatDate } from '../lib/ui.js';
import { groupDecimal, pageLanguage } from '../lib/vnd.js';
import { networkName } from './networks.js';

const PAYMENT_LABELS: Record<PaymentStatus, string> = {
  awaiting_payment: 'awaiting payment',
  confirming: 'confirming',
  underpaid: 'underpaid',
  paid: 'paid',
  expired: 'expired',
  paid_late: 'paid late (held)',
};

export const paymentLabel = (payment: Pick<MerchantPayment, 'status' | 'overpaid'>) => `${PAYMENT_LABELS[payment.status]}${payment.overpaid ? ', overpaid' : ''}`;

export function paymentPill(payment: Pick<MerchantPayment, 'status' | 'overpaid'>): TemplateResult {
  return html`<span class="pill ${payment.status}" data-payment-status=${payment.status} data-overpaid=${String(payment.overpaid)}>${paymentLabel(payment)}</span>`;
}

/** `USDT · Ethereum Sepolia`: a coin on its network, by the gateway's name for it. */
export const coin = (asset: AssetCode, network: Network) => `${asset} · ${networkName(network)}`;

/** What arrived of what was asked: "13.73 USDT", or "6.87 of 13.73 USDT" while it differs. */
export function cryptoReceived(payment: MerchantPayment): string {
  const { received_crypto: received, amount_crypto: asked, asset } = payment;
  if (received === '0') return `${asked} ${asset} asked`;
  return received === asked ? `${asked} ${asset}` : `${received} of ${asked} ${asset}`;
}

/** A long hash or address, shortened for a table; the whole of it in the title and for copying. */
export const short = (value: string) => (value.length > 22 ? `${value.slice(0, 10)}…${value.slice(-8)}` : value);

/** A plain decimal with the thousands grouped as a Vietnamese reader groups them ("3.456,94"). */
/** VND per unit, from its decimal string, as the page writes VND: "26.218,25 ₫ per USDT", "₫26,218.25 per USDT". */
export function formatRate(rate: string, asset: AssetCode): string {
  return pageLanguage() === 'vi' ? `${groupDecimal(rate)} ₫ per ${asset}` : `₫${groupDecimal(rate)} per ${asset}`;
}

/**
 * Where a quote's rate came from, folded under the rate: the market rate less the spread, then each leg's median and
 * every source's price with its time, used or left out and why.
 */
export function rateProvenance(payment: MerchantPayment): TemplateResult | typeof nothing {
  const provenance = payment.rate_provenance;
  if (!provenance) return nothing;
  return html`<details class="provenance small" data-rate-provenance>
    <summary>Where this rate came from</summary>
    <p>Market ${formatRate(provenance.market_rate, payment.asset)}, less a ${provenance.spread_bps / 100}% spread; quoted ${formatDate(provenance.made_at)}.</p>
    ${provenance.legs.map(
      (leg) => html`<div data-rate-leg=${leg.pair}>
        <strong>${leg.pair} ${groupDecimal(leg.rate)}</strong>: the median of ${leg.sources.filter((s) => s.used).length} (at least ${leg.quorum} needed)
        <ul>
          ${leg.sources.map(
            (s) => html`<li data-rate-source=${s.source} data-used=${String(s.used)}>
              ${s.source}: ${groupDecimal(s.value)} as of ${formatDate(s.at)}${s.left_out === 'stale' ? ' · left out: too old' : s.left_out === 'outlier' ? ` · left out: more than ${leg.max_deviation_bps / 100}% from the median` : ''}
            </li>`,
          )}
        </ul>
      </div>`,
    )}
  </details>`;
}
