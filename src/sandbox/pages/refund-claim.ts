// The refund claim page (GET /refunds/claim?token=…): what comes back, in VND and in the coin at the refund's rate,
// on which network, and one form asking for the customer's address there (with a confirmation box), in the link's
// language. After the claim it shows where the payout stands. Plain HTML with one inline stylesheet and no script;
// hono/html escapes every value the merchant, the customer or the chain gave.
import { html } from 'hono/html';
import { catalogs } from '../../checkout/i18n/catalogs.js';
import { fill, locales, type Params } from '../../checkout/i18n/index.js';
import type { FieldError } from '../../contract/index.js';
import type { NetworkFamily } from '../../codecs/addresses.js';
import type { Family } from '../../codecs/families/family.js';
import { FAMILIES, FAMILY_NAMES } from '../../codecs/families/index.js';
import { addressProblem, type RefundClaim } from '../services/orders/refund-claims.js';
import { page, pageCsp, pageFormats, type PageLanguage } from './page.js';

const CSS = `:root{color-scheme:light dark;font:16px/1.5 system-ui,sans-serif}body{margin:0 auto;max-width:36rem;padding:1.5rem 1rem}
h1{font-size:1.4rem;margin:0 0 .5rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:1rem 0}dt{color:GrayText}
dd{margin:0;text-align:end;overflow-wrap:anywhere}.total{font-size:1.2rem;font-weight:600}.note{color:GrayText;font-size:.9rem}
.warn{border-left:4px solid #c80;padding:.25rem .75rem}form{display:grid;gap:.75rem;margin-top:1rem}label{font-weight:600}
input[type=text]{font:inherit;font-family:ui-monospace,monospace;padding:.5rem;width:100%;box-sizing:border-box}
.check{display:flex;gap:.5rem;align-items:flex-start;font-weight:400}.error{color:#c00}button{font:inherit;padding:.6rem 1rem}
code{overflow-wrap:anywhere}`;

/** What the page may do: its one stylesheet, and post its form to the gateway itself; no script, no other request. */
export const CLAIM_CSP = pageCsp(CSS, "'self'");

/**
 * The languages the page is written in: the registry's (its words are each catalog's `claim` part), as far as every
 * network family names its addresses in them (codecs/families/, `addressName`); any other gets it in English.
 */
export type ClaimLanguage = PageLanguage & keyof Family['addressName'];
export const CLAIM_LANGUAGES = locales.filter((lang): lang is ClaimLanguage => FAMILY_NAMES.every((family) => lang in FAMILIES[family].addressName));

/** The claim page: the form while the refund waits for an address (with `errors` and the address given, after a refused try), else its state. */
export function claimPage(lang: ClaimLanguage, claim: RefundClaim, token: string, tried?: { address: string; errors: FieldError[] }) {
  const w = catalogs[lang].claim;
  const t = (key: keyof typeof w, params: Params) => fill(w[key], params);
  const { refund, network, label } = claim;
  const format = pageFormats(lang);
  const { vnd, time } = format;
  const coins = (amount: string) => `${format.decimal(amount)} ${refund.asset}`;
  const refused = (path: string) => tried?.errors.some((e) => e.path === path) ?? false;
  const open = refund.refund_status === 'PENDING' && refund.destination === null;
  // Worded here, in the page's language, from what is wrong (the API's messages are English).
  // A well-formed address refused is one of the gateway's own (RefundClaims.claim).
  const problem = refused('address') ? (addressProblem(network.family, tried!.address.trim()) ?? { kind: 'gateway' as const }) : undefined;
  const name = (family: NetworkFamily) => FAMILIES[family].addressName[lang];
  const addressError =
    problem && `${w.fieldAddress}: ${t(`address_${problem.kind}`, { network: network.name, own: name(network.family), other: problem.kind === 'other_network' ? name(problem.family) : '' })}`;
  const confirmError = refused('confirm') ? `${w.fieldConfirm}: ${w.confirmWrong}` : undefined;
  return page(
    lang,
    w.title,
    html`<h1>${w.title}</h1>
<p>${t('intro', { merchant: refund.merchant_name ?? '' })}</p>
<dl>
<dt>${w.amount}</dt><dd class="total" data-amount-vnd="${refund.amount}">${vnd(refund.amount)}</dd>
<dt>${w.coins}</dt><dd data-amount-crypto="${claim.amount_crypto}">${coins(claim.amount_crypto)}</dd>
<dt>${w.network}</dt><dd>${label}</dd>
<dt>${w.rate}</dt><dd>${t('rateRule', { received: coins(claim.payment_received_crypto), value: vnd(refund.basis_vnd) })}</dd>
${open && refund.claim_expires_at ? html`<dt>${w.expires}</dt><dd>${time(refund.claim_expires_at)}</dd>` : ''}
${refund.destination ? html`<dt>${w.to}</dt><dd><code>${refund.destination}</code></dd>` : ''}
${refund.psp_refund_id ? html`<dt>${w.transaction}</dt><dd><code>${refund.psp_refund_id}</code></dd>` : ''}
</dl>
${
  open
    ? html`<p class="warn">${t('warning', { asset: refund.asset, network: network.name })}</p>
${tried ? html`<p class="error" role="alert">${w.problem}</p>` : ''}
<form method="post" action="${`/refunds/claim?token=${encodeURIComponent(token)}`}">
<label for="address">${t('address', { network: network.name })}</label>
<input type="text" id="address" name="address" required autocomplete="off" spellcheck="false" value="${tried?.address ?? ''}"
 aria-describedby="address-hint${addressError ? ' address-error' : ''}"${addressError ? html` aria-invalid="true"` : ''}>
<span id="address-hint" class="note">${w.exchange}</span>
${addressError ? html`<span id="address-error" class="error">${addressError}</span>` : ''}
<label class="check"><input type="checkbox" name="confirm" value="yes" required${confirmError ? html` aria-invalid="true" aria-describedby="confirm-error"` : ''}> ${t('confirm', { network: network.name })}</label>
${confirmError ? html`<span id="confirm-error" class="error">${confirmError}</span>` : ''}
<button type="submit">${w.submit}</button>
</form>`
    : refund.refund_status === 'SUCCESS'
      ? html`<p data-refund-state="SUCCESS">${w.done}</p>`
      : refund.refund_status === 'FAILED'
        ? html`<p data-refund-state="FAILED">${w.failed}: ${refund.failure_reason ?? ''}. ${w.ask}</p>`
        : html`<p data-refund-state="PENDING">${refund.psp_refund_id ? w.sent : w.waiting}</p>`
}`,
    CSS,
  );
}

/** An unknown token: the page says so, in the browser's language. */
export function missingClaimPage(lang: ClaimLanguage) {
  const w = catalogs[lang].claim;
  return page(lang, w.title, html`<h1>${w.title}</h1><p>${w.missing}</p>`, CSS);
}
