// The order: its lines and totals, the shipping details, the contact, the method and asset, and the Pay button.
import { html, nothing, type TemplateResult } from 'lit';
import type { CheckoutMethod, CheckoutView } from '../../../contract/checkout.js';
import { isWebUrl } from '../../../contract/rules.js';
import { assetKey, contactRequired, creditOf, findMethod, methodKey, type Contact, type ContactErrors, type ContactField, type Failure } from '../state.js';
import { backButton, heading, type Ui } from './parts.js';
import { errorLine } from './occasional.js';

export interface OrderForm {
  contact: Contact;
  contactOpen: boolean;
  invalid: ContactErrors;
  methodKey: string;
  assetKey: string;
  /** A payment is being opened. */
  busy: boolean;
  /** Why opening the payment failed. */
  actionError: Failure | undefined;
  /** A phone's screen: the order's lines start folded, so that the total and the Pay button are on the first screen. */
  compact: boolean;
  /** What closed quotes received, under the total (the later chunk's views/credit.ts); none before any. */
  credit: TemplateResult | typeof nothing | undefined;
}

export interface OrderActions {
  onPay: (event: SubmitEvent) => void;
  onContactInput: (field: ContactField, value: string) => void;
  onEditContact: () => void;
  onMethod: (key: string) => void;
  onAsset: (key: string) => void;
  onBack: () => void;
}

export function orderView(ui: Ui, view: CheckoutView, form: OrderForm, actions: OrderActions): TemplateResult {
  return html`${heading(ui.t('orderSummary'), form.compact ? 'compact-heading' : undefined)} ${summary(ui, view, !form.compact, form.credit)}
    ${view.show_shipping_details && view.shipping_details ? shipping(ui, view.shipping_details) : nothing}
    <form novalidate @submit=${actions.onPay}>
      ${contact(ui, view, form, actions)} ${methods(ui, view, form, actions)} ${form.actionError ? errorLine(ui, form.actionError) : nothing}
      <!-- Busy, the button stays enabled (aria-disabled): a disabled button drops the keyboard focus to the page. -->
      <button
        part="pay-button"
        class="primary"
        type="submit"
        ?disabled=${!form.assetKey}
        aria-disabled=${form.busy ? 'true' : 'false'}
        aria-busy=${form.busy ? 'true' : 'false'}
      >
        ${ui.t('pay', { amount: ui.vnd(creditOf(view)?.left ?? view.amount) })}
      </button>
    </form>
    ${backButton(ui, view, actions.onBack)}`;
}

function summary(ui: Ui, view: CheckoutView, open: boolean, credit: OrderForm['credit']): TemplateResult {
  const merchant = view.merchant_details;
  const subtotal = view.order_details.reduce((sum, line) => sum + line.price * line.quantity, 0);
  const count = view.order_details.reduce((sum, line) => sum + line.quantity, 0);
  // Lit sets `open` once: a customer who unfolds the lines keeps them unfolded across renders.
  // On a phone the description folds with the lines: the total and the Pay button keep the first screen.
  const description = html`<p class="muted">${view.description}</p>`;
  return html`<div part="summary">
    ${open ? description : nothing}
    <details part="details" ?open=${open}>
    <summary>${ui.t('orderDetails', { count })}</summary>
    ${open ? nothing : description}
    <ul class="lines">
      ${view.order_details.map(
        (line) => html`<li part="line">
          ${line.image && isWebUrl(line.image) ? html`<img src=${line.image} alt="" width="48" height="48" loading="lazy" referrerpolicy="no-referrer" />` : nothing}
          <span class="line-text"
            ><span class="line-name">${line.name}</span>
            <span class="muted">${ui.t('lineQuantity', { quantity: line.quantity, price: ui.vnd(line.price) })}</span></span
          >
          <span class="amount">${ui.vnd(line.price * line.quantity)}</span>
        </li>`,
      )}
    </ul>
    <dl class="totals">
      <div><dt>${ui.t('subtotal')}</dt><dd>${ui.vnd(subtotal)}</dd></div>
      ${merchant.promo_discount
        ? html`<div>
            <dt>${merchant.promo_code ? ui.t('promo', { code: merchant.promo_code }) : ui.t('discount')}</dt>
            <dd>−${ui.vnd(merchant.promo_discount)}</dd>
          </div>`
        : nothing}
      ${merchant.shipping_charges ? html`<div><dt>${ui.t('shipping')}</dt><dd>${ui.vnd(merchant.shipping_charges)}</dd></div>` : nothing}
    </dl>
    </details>
    <dl class="totals">
      <div part="total"><dt>${ui.t('total')}</dt><dd>${ui.vnd(view.amount)}</dd></div>
    </dl>
    ${credit ?? nothing}
  </div>`;
}

/** The shipping details, compact: who and how to reach them on one line, the address on the next. */
function shipping(ui: Ui, details: NonNullable<CheckoutView['shipping_details']>): TemplateResult {
  const address = details.shipping_address;
  const who = [details.shipping_name, details.shipping_phone, details.shipping_email].filter(Boolean).join(' · ');
  const where = [address?.line_1, address?.line_2, address?.state, address?.city, address?.postal_code, address?.country_code && ui.region(address.country_code)]
    .filter(Boolean)
    .join(', ');
  return html`<section part="shipping" aria-labelledby="shipping-title">
    <h3 id="shipping-title">${ui.t('shippingTo')}</h3>
    <address>${who ? html`<div>${who}</div>` : nothing}${where ? html`<div class="muted">${where}</div>` : nothing}</address>
  </section>`;
}

function contact(ui: Ui, view: CheckoutView, form: OrderForm, actions: OrderActions): TemplateResult {
  if (!form.contactOpen) {
    const billing = view.billing_details;
    return html`<fieldset part="contact">
      <legend>${ui.t('contact')}</legend>
      <div class="contact-card">
        <address>
          ${billing?.billing_name ? html`<div>${billing.billing_name}</div>` : nothing}
          <div class="muted">${[billing?.billing_email, billing?.billing_phone].filter(Boolean).join(' · ')}</div>
        </address>
        <button type="button" class="link-button" @click=${actions.onEditContact} aria-label=${`${ui.t('edit')}: ${ui.t('contact')}`}>${ui.t('edit')}</button>
      </div>
    </fieldset>`;
  }
  const onInput = (event: InputEvent) => {
    const input = event.target as HTMLInputElement;
    actions.onContactInput(input.name as ContactField, input.value);
  };
  const field = (name: ContactField, type: 'text' | 'email' | 'tel', autocomplete: 'name' | 'email' | 'tel', required: boolean) => {
    const error = form.invalid[name];
    return html`<div class="field">
      <label for="contact-${name}">${ui.t(name)}</label>
      <input
        id="contact-${name}"
        name=${name}
        type=${type}
        autocomplete=${autocomplete}
        ?required=${required}
        maxlength=${name === 'email' ? 254 : name === 'phone' ? 32 : 200}
        .value=${form.contact[name]}
        aria-invalid=${error ? 'true' : 'false'}
        aria-describedby=${error ? `contact-${name}-error` : nothing}
        @input=${onInput}
      />
      ${error ? html`<p id="contact-${name}-error" class="field-error">${ui.t(error)}</p>` : nothing}
    </div>`;
  };
  const required = contactRequired(view);
  return html`<fieldset part="contact">
    <legend>${ui.t(required ? 'contact' : 'contactOptional')}</legend>
    ${field('name', 'text', 'name', required)} ${field('email', 'email', 'email', required)} ${field('phone', 'tel', 'tel', false)}
  </fieldset>`;
}

/** The method (shown only when the link offers more than one) and the asset, as cards. */
function methods(ui: Ui, view: CheckoutView, form: OrderForm, actions: OrderActions): TemplateResult {
  const method = findMethod(view, form.methodKey);
  const value = (event: Event) => (event.target as HTMLInputElement).value;
  const onAsset = (event: Event) => actions.onAsset(value(event));
  if (view.methods.length === 1) return html`<div part="methods">${method ? assets(ui, method, form, onAsset) : nothing}</div>`;
  return html`<fieldset part="methods">
    <legend>${ui.t('method')}</legend>
    ${view.methods.map(
      (m) => html`<label class="choice">
        <input type="radio" name="method" .value=${methodKey(m)} .checked=${methodKey(m) === form.methodKey} @change=${(e: Event) => actions.onMethod(value(e))} />
        ${ui.t('methodCrypto')}
      </label>`,
    )}
    ${method ? assets(ui, method, form, onAsset) : nothing}
  </fieldset>`;
}

// The card names the coin, then its token standard and network on a line that wraps (a name like "USDT · TRC-20" on one
// unbreakable line ran past a card two to a row); the payment view says where it is a test network, where it matters. An asset whose
// network the gateway cannot see takes no payment: it cannot be picked, and says so beside its network.
function assets(ui: Ui, method: CheckoutMethod, form: OrderForm, onChange: (event: Event) => void): TemplateResult {
  return html`<fieldset class="assets">
    <legend>${ui.t('asset')}</legend>
    ${method.assets.map((a) => {
      const network = ui.t('network', { name: a.network_name }) + (a.available ? '' : ` · ${ui.t('unavailable')}`);
      return html`<label class="choice asset" part="asset-option">
        <input type="radio" name="asset" .value=${assetKey(a)} .checked=${assetKey(a) === form.assetKey} .disabled=${!a.available} @change=${onChange} />
        <span class="asset-text"><span class="asset-name">${a.asset}</span> <span class="muted">${a.token_standard ? `${a.token_standard} · ` : ''}${network}</span></span>
      </label>`;
    })}
  </fieldset>`;
}
