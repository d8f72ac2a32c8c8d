// The hosted page's first paint: the order the element would draw first (its header and order summary), as HTML in a
// declarative shadow root of <pay-checkout>, styled by the element's own stylesheet. It shows before the script has
// run, and without JavaScript; the element clears it as it renders into the same root (pay-checkout.ts,
// createRenderRoot), in the same task, so no frame shows neither. The markup follows the element's templates
// (views/parts.ts `header`, views/order.ts `orderView` and `summary`), words and figures from its catalog and
// formatters: test/e2e/first-paint.test.ts measures the summary's box before and after the element takes over.
// Every merchant string goes through hono's html`` (escaped); the stylesheet is constant text, allowed by its hash.
import { createHash } from 'node:crypto';
import { html, raw } from 'hono/html';
import { catalogs } from '../../checkout/i18n/catalogs.js';
import { format, formatVnd, locales, type Locale, type MessageKey, type Params } from '../../checkout/i18n/index.js';
import { later } from '../../checkout/i18n/later.js';
import { styles } from '../../checkout/pay-checkout/pay-checkout.styles.js';
import { creditOf, screenOf } from '../../checkout/pay-checkout/state.js';
import type { CheckoutView } from '../../contract/checkout.js';
import { isWebUrl } from '../../contract/rules.js';

/**
 * What the server's copy adds to the element's rules: both forms of the summary are written, the one of a phone's
 * window (the element's COMPACT_MEDIA, pay-checkout.ts: lines folded, heading for screen readers) and the other, and
 * the window shows one; the language switch keeps its place but shows only once the element can switch.
 */
const SERVER_CSS =
  '.wide,.narrow{display:contents}@media (max-width: 480px){.wide{display:none}}@media not all and (max-width: 480px){.narrow{display:none}}' +
  "[part='language-switch']{visibility:hidden}";

/** The element's stylesheet (comments out, white space collapsed: it has no strings) and the server's rules. */
const SUMMARY_CSS =
  [styles]
    .flat()
    .map((sheet) => sheet.cssText)
    .join('')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ') + SERVER_CSS;

/** The CSP source that allows SUMMARY_CSS. */
export const SUMMARY_CSS_HASH = `'sha256-${createHash('sha256').update(SUMMARY_CSS).digest('base64')}'`;

/**
 * The declarative shadow root for <pay-checkout embedded="false">, or nothing when the element's first screen for
 * this view is not the order (a payment open, paid, expired: screenOf, state.ts), which the page then leaves to it.
 */
export function summaryShadowRoot(view: CheckoutView, locale: Locale): string {
  if (screenOf(view, view.payment ?? null, undefined).name !== 'order') return '';
  const t = (key: MessageKey, params?: Params) => format(locale, key, params);
  const vnd = (amount: number) => formatVnd(locale, amount);
  const merchant = view.merchant_details;
  const logo = merchant.logo && isWebUrl(merchant.logo) ? merchant.logo : undefined;
  const badge = view.environment === 'sandbox' ? html` <span part="badge">${t('sandbox')}</span>` : '';
  const subtotal = view.order_details.reduce((sum, line) => sum + line.price * line.quantity, 0);
  const count = view.order_details.reduce((sum, line) => sum + line.quantity, 0);
  const credit = creditOf(view);
  const description = html`<p class="muted">${view.description ?? ''}</p>`;
  const summary = (open: boolean) => html`<h2 tabindex="-1"${open ? '' : raw(' class="compact-heading"')}>${t('orderSummary')}</h2>
<div part="summary">
${open ? description : ''}
<details part="details"${open ? raw(' open') : ''}>
<summary>${t('orderDetails', { count })}</summary>
${open ? '' : description}
<ul class="lines">
${view.order_details.map(
  (line) => html`<li part="line">
${line.image && isWebUrl(line.image) ? html`<img src="${line.image}" alt="" width="48" height="48" loading="lazy" referrerpolicy="no-referrer">` : ''}
<span class="line-text"><span class="line-name">${line.name}</span>
<span class="muted">${t('lineQuantity', { quantity: line.quantity, price: vnd(line.price) })}</span></span>
<span class="amount">${vnd(line.price * line.quantity)}</span>
</li>
`,
)}</ul>
<dl class="totals">
<div><dt>${t('subtotal')}</dt><dd>${vnd(subtotal)}</dd></div>
${merchant.promo_discount ? html`<div><dt>${merchant.promo_code ? t('promo', { code: merchant.promo_code }) : t('discount')}</dt><dd>−${vnd(merchant.promo_discount)}</dd></div>` : ''}
${merchant.shipping_charges ? html`<div><dt>${t('shipping')}</dt><dd>${vnd(merchant.shipping_charges)}</dd></div>` : ''}
</dl>
</details>
<dl class="totals">
<div part="total"><dt>${t('total')}</dt><dd>${vnd(view.amount)}</dd></div>
</dl>
${credit
  ? html`<dl part="credit" class="totals credit" data-received-vnd="${credit.received}" data-left-vnd="${credit.left}">
<div><dt>${later(locale, 'creditReceived')}</dt><dd>${vnd(credit.received)}</dd></div>
<div><dt>${later(locale, 'creditLeft')}</dt><dd>${vnd(credit.left)}</dd></div>
</dl>`
  : ''}
</div>`;
  // String(): no value above is a promise, so hono's html`` has the whole text already.
  return String(html`<template shadowrootmode="open"><style>${raw(SUMMARY_CSS)}</style><div class="page"><div part="card" class="card" lang="${locale}">
<div part="header">
${logo ? html`<img src="${logo}" alt="" width="40" height="40" referrerpolicy="no-referrer">` : ''}
<h1 class="merchant">${merchant.name || t('checkout')}<span class="order-id">${t('order', { order: view.merchant_order_id })}${badge}</span></h1>
${locales.filter((other) => other !== locale).map((other) => html`<button part="language-switch" class="link-button" type="button" lang="${other}" tabindex="-1" disabled>${format(other, 'language')}</button>`)}
</div>
<div class="wide">${summary(true)}</div><div class="narrow">${summary(false)}</div>
<noscript><p part="error">${catalogs[locale].hosted.noScript}</p></noscript>
</div></div></template>`);
}
