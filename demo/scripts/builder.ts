// The demo page: a payment-link builder (every field of seed 2.1), the created link as a merchant would send it,
// the <pay-checkout> element showing it, and the test wallet that pays it.
import { html, nothing, render, type TemplateResult } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import QRCode from 'qrcode';
import type { PaymentLinkResponse, Problem } from '../../src/contract/index.js';
import { api, ApiError } from './lib/api.js';
import { showSession } from './lib/session.js';
import { checkbox, copyText, fieldId, formatVnd, input, type InputOptions } from './lib/ui.js';
import { newOrderId, sampleFlags, sampleLines, sampleValues, type LineDraft } from './sample-order.js';
import { decodeCanvas } from './wallet/decode.js';
import { WalletPanel } from './wallet/wallet-panel.js';

interface FieldDef {
  path: string;
  label: string;
  type?: InputOptions['type'];
  required?: boolean;
  hint?: string;
  autocomplete?: string;
}

/** Fields sent as JSON numbers when they read as one; anything else is sent as typed, for the gateway to name. */
const NUMERIC = new Set(['amount', 'expiry_hours', 'merchant_details.promo_discount', 'merchant_details.shipping_charges']);

const ORDER: FieldDef[] = [
  { path: 'merchant_order_id', label: 'Order id (merchant_order_id)', required: true, hint: 'One active or paid link per order: a new id is drawn after each link.' },
  { path: 'description', label: 'Description', required: true },
  { path: 'currency', label: 'Currency', required: true, hint: 'The crypto channel takes VND only: try USD to see the gateway refuse it.' },
  { path: 'country_code', label: 'Country code' },
  { path: 'expiry_hours', label: 'Expires after (hours)', type: 'number', required: true },
];

const MERCHANT: FieldDef[] = [
  { path: 'merchant_details.name', label: 'Shop name' },
  { path: 'merchant_details.logo', label: 'Logo URL', type: 'url' },
  { path: 'merchant_details.back_url', label: 'Back URL', type: 'url', hint: 'Where the checkout\u2019s Back button goes (if shown).' },
  { path: 'merchant_details.promo_code', label: 'Promo code' },
  { path: 'merchant_details.promo_discount', label: 'Promo discount (VND)', type: 'number' },
  { path: 'merchant_details.shipping_charges', label: 'Shipping charges (VND)', type: 'number' },
];

const ADDRESS: [string, string, string][] = [
  ['line_1', 'Address line 1', 'address-line1'],
  ['line_2', 'Address line 2', 'address-line2'],
  ['city', 'City', 'address-level2'],
  ['state', 'District / state', 'address-level1'],
  ['postal_code', 'Postal code', 'postal-code'],
  ['country_code', 'Country code', 'off'],
  ['locale', 'Locale', 'off'],
];

const party = (kind: 'billing' | 'shipping'): FieldDef[] => [
  { path: `${kind}_details.${kind}_name`, label: 'Name', autocomplete: 'name' },
  { path: `${kind}_details.${kind}_email`, label: 'E-mail', type: 'email', autocomplete: 'email' },
  { path: `${kind}_details.${kind}_phone`, label: 'Phone', type: 'tel', autocomplete: 'tel' },
  ...ADDRESS.map(([name, label, autocomplete]) => ({ path: `${kind}_details.${kind}_address.${name}`, label, autocomplete })),
];

const REDIRECTS: FieldDef[] = [
  { path: 'success_url', label: 'Success URL', type: 'url', required: true },
  { path: 'failure_url', label: 'Failure URL', type: 'url', required: true },
];

const FLAGS: { path: keyof typeof sampleFlags; label: string; hint: string }[] = [
  { path: 'show_shipping_details', label: 'Show shipping details', hint: 'The checkout shows the shipping address.' },
  { path: 'show_back_button', label: 'Show back button', hint: 'A Back button to the back URL.' },
  { path: 'default_guest_checkout', label: 'Guest checkout by default', hint: 'The contact form opens empty instead of showing the billing details.' },
  { path: 'is_checkout_embed', label: 'Embedded checkout', hint: 'An inline card rather than the full hosted page (the demo always embeds it beside the form).' },
];

const CHECKOUT_EVENTS = ['pay-checkout-ready', 'pay-checkout-status', 'pay-checkout-success', 'pay-checkout-failure', 'pay-checkout-back', 'pay-checkout-error'];

const origin = location.origin;
const state = {
  values: sampleValues(origin),
  lines: sampleLines(origin),
  flags: { ...sampleFlags },
  /** Empty while the amount follows the order; the tester's own figure once they type one. */
  amount: '',
  errors: new Map<string, string>(),
  problem: undefined as Problem | undefined,
  submitting: false,
  link: undefined as PaymentLinkResponse | undefined,
  elementError: '',
  copied: '',
  events: [] as { type: string; text: string }[],
};

const asNumber = (text: string): number | string => (/^-?\d+$/.test(text.trim()) ? Number(text.trim()) : text.trim());

/** Σ price × quantity − promo + shipping, as the gateway checks it; undefined while a figure is not a whole number. */
function orderTotal(): number | undefined {
  const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined);
  let total = 0;
  for (const line of state.lines) {
    const price = whole(line.price);
    const quantity = whole(line.quantity);
    if (price === undefined || quantity === undefined) return undefined;
    total += price * quantity;
  }
  const promo = whole(state.values['merchant_details.promo_discount'] || '0');
  const shipping = whole(state.values['merchant_details.shipping_charges'] || '0');
  return promo === undefined || shipping === undefined ? undefined : total - promo + shipping;
}

const amountText = () => state.amount || String(orderTotal() ?? '');

/** The request body as a merchant's server would send it (the demo's server adds svc_key and the signature). */
function toRequest(): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [path, raw] of Object.entries(state.values)) {
    if (raw.trim() === '') continue;
    setPath(body, path, NUMERIC.has(path) ? asNumber(raw) : raw.trim());
  }
  body.amount = asNumber(amountText());
  body.order_details = state.lines.map((line) => ({
    id: line.id.trim(),
    name: line.name.trim(),
    price: asNumber(line.price),
    quantity: asNumber(line.quantity),
    ...(line.image.trim() && { image: line.image.trim() }),
  }));
  Object.assign(body, state.flags);
  return body;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[keys.at(-1)!] = value;
}

async function submit(event: Event): Promise<void> {
  event.preventDefault();
  state.submitting = true;
  state.errors.clear();
  state.problem = undefined;
  update();
  try {
    state.link = await api<PaymentLinkResponse>('/demo/api/links', { body: toRequest() });
    state.events = [];
    state.values.merchant_order_id = newOrderId();
    update();
    document.getElementById('result-title')?.focus();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    state.problem = error.problem;
    for (const e of error.fieldErrors) state.errors.set(e.path, state.errors.has(e.path) ? `${state.errors.get(e.path)}; ${e.message}` : e.message);
    update();
    document.getElementById('form-problem')?.focus();
  } finally {
    state.submitting = false;
    update();
  }
}

function field(def: FieldDef): TemplateResult {
  return input({
    ...def,
    value: state.values[def.path] ?? '',
    error: state.errors.get(def.path),
    inputmode: def.type === 'number' ? 'numeric' : undefined,
    type: def.type === 'number' ? 'text' : def.type,
    onInput: (value) => {
      state.values[def.path] = value;
      update();
    },
  });
}

function lineRow(line: LineDraft, index: number): TemplateResult {
  const set = (key: keyof LineDraft) => (value: string) => {
    line[key] = value;
    update();
  };
  const path = (key: string) => `order_details.${index}.${key}`;
  const cell = (key: keyof LineDraft, label: string, extra: Partial<InputOptions> = {}) =>
    input({ path: path(key), label, value: line[key], error: state.errors.get(path(key)), onInput: set(key), ...extra });
  return html`<fieldset class="line">
    <legend>Line ${index + 1}</legend>
    <div class="grid line-grid">
      ${cell('id', 'Item id', { required: true })} ${cell('name', 'Name', { required: true })}
      ${cell('price', 'Unit price (VND)', { required: true, inputmode: 'numeric' })}
      ${cell('quantity', 'Quantity', { required: true, inputmode: 'numeric' })} ${cell('image', 'Image URL', { type: 'url' })}
    </div>
    <button
      type="button"
      class="link-button"
      ?disabled=${state.lines.length === 1}
      @click=${() => {
        state.lines.splice(index, 1);
        update();
      }}
    >
      Remove line ${index + 1}
    </button>
  </fieldset>`;
}

function problemBox(): TemplateResult | typeof nothing {
  const problem = state.problem;
  if (!problem) return nothing;
  return html`<div class="problem" id="form-problem" tabindex="-1" role="alert">
    <p><strong>The gateway refused the link (${problem.status}).</strong> ${problem.detail ?? problem.title}</p>
    ${problem.errors?.length
      ? html`<ul>
          ${problem.errors.map((e) => html`<li><a href="#${fieldId(e.path)}">${e.path}</a>: ${e.message}</li>`)}
        </ul>`
      : nothing}
  </div>`;
}

function builder(): TemplateResult {
  const total = orderTotal();
  const amountError = state.errors.get('amount');
  return html`<form class="builder" novalidate @submit=${submit} aria-describedby="builder-note">
    <p id="builder-note" class="muted">Fields marked <span aria-hidden="true">*</span><span class="visually-hidden">required</span> are required by the gateway.</p>
    ${problemBox()}
    <fieldset>
      <legend>Order</legend>
      <div class="grid">${ORDER.map(field)}</div>
    </fieldset>

    <fieldset>
      <legend>Order lines</legend>
      ${state.lines.map(lineRow)}
      <button
        type="button"
        class="secondary"
        @click=${() => {
          state.lines.push({ id: `SKU-${state.lines.length + 1}`, name: '', price: '', quantity: '1', image: '' });
          update();
        }}
      >
        Add a line
      </button>
    </fieldset>

    <fieldset>
      <legend>Merchant details</legend>
      <div class="grid">${MERCHANT.map(field)}</div>
    </fieldset>

    <fieldset>
      <legend>Amount</legend>
      ${input({
        path: 'amount',
        label: 'Amount (VND)',
        required: true,
        inputmode: 'numeric',
        value: amountText(),
        error: amountError,
        hint: `The order adds up to ${total === undefined ? '—' : formatVnd(total)} (lines − promo + shipping). Change it to see the gateway's 422.`,
        onInput: (value) => {
          state.amount = value;
          update();
        },
      })}
      ${state.amount
        ? html`<button
            type="button"
            class="link-button"
            @click=${() => {
              state.amount = '';
              update();
            }}
          >
            Use the order total again
          </button>`
        : nothing}
    </fieldset>

    <fieldset>
      <legend>Billing details</legend>
      <div class="grid">${party('billing').map(field)}</div>
    </fieldset>

    <fieldset>
      <legend>Shipping details</legend>
      <div class="grid">${party('shipping').map(field)}</div>
    </fieldset>

    <fieldset>
      <legend>Checkout display</legend>
      ${FLAGS.map((f) =>
        checkbox({
          ...f,
          checked: state.flags[f.path],
          onChange: (checked) => {
            state.flags[f.path] = checked;
            update();
          },
        }),
      )}
    </fieldset>

    <fieldset>
      <legend>Redirects</legend>
      <div class="grid">${REDIRECTS.map(field)}</div>
    </fieldset>

    <div class="submit-row">
      <button type="submit" class="primary" ?disabled=${state.submitting}>${state.submitting ? 'Creating…' : 'Create payment link'}</button>
    </div>
  </form>`;
}

function result(): TemplateResult {
  const link = state.link;
  if (!link) {
    return html`<section class="card placeholder" aria-labelledby="result-title">
      <h2 id="result-title" tabindex="-1">Checkout</h2>
      <p class="muted">Create a link: the checkout shows here, as it would on a merchant's page.</p>
    </section>`;
  }
  const snippet = `<script type="module" src="${origin}/pay-checkout.js"></script>\n<pay-checkout payment-link-ref="${link.payment_link_ref}"></pay-checkout>`;
  return html`<section class="card" aria-labelledby="result-title">
    <h2 id="result-title" tabindex="-1">Payment link created</h2>
    <p>Reference <code class="mono" data-ref>${link.payment_link_ref}</code></p>
    <div class="share">
      <canvas id="link-qr" role="img" aria-label="QR code of the payment link ${link.payment_link}"></canvas>
      <div>
        <p class="small-heading">Send it to the customer by e-mail, SMS or chat:</p>
        <p><a class="mono wrap" href=${link.payment_link} data-payment-link>${link.payment_link}</a></p>
        <div class="buttons">
          <button type="button" class="secondary" data-copy-link @click=${() => copy(link.payment_link, 'Payment link copied.')}>Copy link</button>
          <a class="button primary" href=${link.payment_link} target="_blank" rel="noopener" data-open-hosted>Open the hosted page</a>
        </div>
        <p class="status" role="status">${state.copied}</p>
      </div>
    </div>
    <details>
      <summary>Or embed it on your page</summary>
      <pre><code>${snippet}</code></pre>
      <button type="button" class="secondary" @click=${() => copy(snippet, 'Snippet copied.')}>Copy snippet</button>
    </details>
    ${state.elementError ? html`<p class="error-box" role="alert">${state.elementError}</p>` : nothing}
    <div class="element-frame">
      ${keyed(link.payment_link_ref, html`<pay-checkout payment-link-ref=${link.payment_link_ref} embedded></pay-checkout>`)}
    </div>
    <details class="events">
      <summary>Events from the element (${state.events.length})</summary>
      <ol>
        ${state.events.map((e) => html`<li><code>${e.type}</code> ${e.text}</li>`)}
      </ol>
    </details>
  </section>`;
}

async function copy(text: string, done: string): Promise<void> {
  state.copied = (await copyText(text)) ? done : 'The browser refused the clipboard here: select the text and copy it.';
  update();
}

let drawnQr = '';
function update(): void {
  render(builder(), document.getElementById('builder')!);
  render(result(), document.getElementById('result')!);
  const canvas = document.getElementById('link-qr') as HTMLCanvasElement | null;
  if (canvas && state.link && drawnQr !== state.link.payment_link) {
    drawnQr = state.link.payment_link;
    void QRCode.toCanvas(canvas, state.link.payment_link, { width: 168, margin: 2, errorCorrectionLevel: 'M' });
  }
}

/** What an element event says, in a line. */
function summarize(event: Event): string {
  const detail = (event as Event & { detail?: Record<string, unknown> }).detail ?? {};
  const payment = detail.payment as { status?: string } | undefined;
  const view = detail.view as { status?: string } | undefined;
  return [payment?.status && `payment ${payment.status}`, view?.status && `link ${view.status}`, detail.reason, detail.code, detail.message, detail.url]
    .filter(Boolean)
    .join(' · ');
}

/** The checkout as a merchant's page loads it: one script tag from the gateway. */
function loadElement(): Promise<void> {
  if (customElements.get('pay-checkout')) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.type = 'module';
    script.src = '/pay-checkout.js';
    script.onload = () => resolve();
    script.onerror = () => reject(new Error('The checkout script /pay-checkout.js did not load: run `npm run build` and restart.'));
    document.head.append(script);
  });
}

const resultHost = document.getElementById('result')!;
for (const type of CHECKOUT_EVENTS) {
  resultHost.addEventListener(type, (event) => {
    state.events.push({ type, text: summarize(event) });
    update();
  });
}

const wallet = new WalletPanel(document.getElementById('wallet')!, {
  scanControls: (panel) => html`<button
      type="button"
      class="primary"
      data-scan-checkout
      @click=${() => {
        const qr = document.querySelector('pay-checkout')?.shadowRoot?.querySelector('[part~="qr"]');
        const text = qr instanceof HTMLCanvasElement ? decodeCanvas(qr) : undefined;
        if (text) panel.accept(text);
        else panel.fail('No payment QR to read: create a link and choose a coin in the checkout first.');
      }}
    >
      Scan the checkout's QR
    </button>
    <p class="hint">Reads the QR the checkout beside the form draws, the way a phone's camera would.</p>`,
});

update();
void wallet.start();
loadElement().catch((error: Error) => {
  state.elementError = error.message;
  update();
});
void showSession();
