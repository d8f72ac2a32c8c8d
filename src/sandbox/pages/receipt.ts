// The receipt page (GET /receipt?ref=…): what the customer sent for an order and where each transaction can be looked
// up, in the link's language (its words: each catalog's `receipt` part, checkout/i18n/locales/), to open again, print
// or save as a PDF. Plain HTML with one inline stylesheet and no script: it prints as it shows, and hono/html escapes
// every value the merchant or the chain gave. It fits a 320 px phone (values wrap rather than widen the page) with
// links of 44 × 44 CSS px (test/e2e/receipt-phone.test.ts).
import { html } from 'hono/html';
import { catalogs } from '../../checkout/i18n/catalogs.js';
import { isIn, OPEN_PAYMENT_STATUSES, type CheckoutView, type Payment } from '../../contract/index.js';
import { transactionUrl } from '../../contract/explorer.js';
import { page, pageCsp, pageFormats, pageLanguage, type PageLanguage } from './page.js';

const CSS = `:root{color-scheme:light dark;font:16px/1.5 system-ui,sans-serif}body{margin:0 auto;max-width:40rem;padding:1.5rem 1rem}
h1{font-size:1.4rem;margin:0 0 .25rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0}
dt{color:GrayText}dd{margin:0;text-align:end;min-width:0;overflow-wrap:anywhere}section{border-top:1px solid GrayText;padding-top:.5rem}
code{font-size:.85rem;overflow-wrap:anywhere}.total{font-size:1.2rem;font-weight:600}.hint{color:GrayText;font-size:.9rem}
a{display:inline-flex;align-items:center;min-height:44px;min-width:44px}.mark{display:inline-grid;place-items:center;width:1.5rem;height:1.5rem;
margin-inline-end:.375rem;border-radius:50%;background:#15803d;color:#fff;font-weight:600;vertical-align:-.3rem}
@media print{:root{color-scheme:light}.hint{display:none}a{color:inherit;text-decoration:none}section{break-inside:avoid}}`;

/** What the page may do: show its one inline stylesheet, and nothing else (no script, no form, no request). */
export const RECEIPT_CSP = pageCsp(CSS, "'none'");

/** The page's language: the one asked for, else the link's billing locale, else the browser's. */
export function receiptLanguage(asked: string | undefined, view: CheckoutView | undefined, acceptLanguage: string | undefined): PageLanguage {
  return pageLanguage(asked, view?.billing_details?.billing_address?.locale, acceptLanguage);
}

export function receiptPage(lang: PageLanguage, view: CheckoutView, payments: readonly Payment[]) {
  const w = catalogs[lang].receipt;
  const { vnd, decimal: crypto, time } = pageFormats(lang);
  const explorerOf = (p: Payment) => view.methods.flatMap((m) => m.assets).find((a) => a.asset === p.asset && a.network === p.network);
  const link = (url: string | undefined) => (url ? html`<br><a href="${url}" rel="noreferrer">${w.explorer}</a>` : '');
  const paid = view.status === 'paid';
  // Seen so far, confirmed or not: what the closed quotes received, and what the open one has of its amount.
  const open = view.payment && isIn(OPEN_PAYMENT_STATUSES, view.payment.status) ? view.payment : undefined;
  const received = paid ? view.amount : view.received_vnd + (open ? open.amount_vnd - open.remaining_vnd : 0);
  return page(
    lang,
    w.title,
    html`<header>
<h1>${w.title}</h1>
<p>${paid ? html`<span class="mark" data-mark="paid" aria-hidden="true">✓</span>${w.paid}` : w.unpaid}</p>
</header>
<dl>
<dt>${w.merchant}</dt><dd>${view.merchant_details.name ?? ''}</dd>
<dt>${w.order}</dt><dd>${view.merchant_order_id}</dd>
<dt>${w.total}</dt><dd class="total">${vnd(view.amount)}</dd>
<dt>${w.received}</dt><dd>${vnd(received)}</dd>
${paid ? '' : html`<dt>${w.left}</dt><dd>${vnd(view.amount - received)}</dd>`}
</dl>
${payments.map((p) => {
  const asset = explorerOf(p);
  return html`<section>
<h2>${p.asset} · ${asset?.network_name ?? p.network}: ${w[`status_${p.status}`]}</h2>
<dl>
<dt>${w.sent}</dt><dd>${crypto(p.received_crypto)} ${p.asset}</dd>
<dt>${w.rate}</dt><dd>${vnd(p.rate)} / ${p.asset}</dd>
${p.credited_vnd ? html`<dt>${w.counts}</dt><dd>${vnd(p.credited_vnd)}</dd>` : ''}
${p.held_vnd ? html`<dt>${w.held}</dt><dd>${vnd(p.held_vnd)}</dd>` : ''}
</dl>
${p.transactions.map(
  (t) => html`<p>${w.transaction} ${time(t.seen_at)} · ${crypto(t.amount_crypto)} ${p.asset} · ${w.confirmations}: ${t.confirmations}<br>
<code>${t.tx_hash}</code>${link(transactionUrl(asset?.explorer_tx_url, t.tx_hash))}</p>`,
)}
</section>`;
})}
<p class="hint">${w.print}</p>`,
    CSS,
  );
}

/** An unknown or malformed ref: the page says so, in the browser's language. */
export function missingReceiptPage(lang: PageLanguage) {
  const w = catalogs[lang].receipt;
  return page(lang, w.title, html`<h1>${w.title}</h1><p>${w.missing}</p>`, CSS);
}
