// <link-builder>: a payment-link form with every field of the request, prefilled with a realistic order, whose amount
// follows the lines; the gateway's refusals land next to the fields they name. The create button rides along at the
// bottom of the screen, with the total, wherever the form is scrolled.
import { html, nothing, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import type { PaymentLinkResponse } from '../../../src/contract/index.js';
import { api } from '../lib/api.js';
import { LightElement } from '../lib/light-element.js';
import { SubmitController } from '../lib/submit-controller.js';
import { checkbox, formatVnd, input, type InputOptions } from '../lib/ui.js';
import { FLAGS, linkRequest, MERCHANT, ORDER, orderTotal, party, REDIRECTS, type FieldDef, type Flags } from './link-form.js';
import { newOrderId, sampleFlags, sampleLines, sampleValues, type LineDraft } from './sample-order.js';

/** A link the gateway created. */
export class LinkCreatedEvent extends Event {
  constructor(readonly link: PaymentLinkResponse) {
    super('link-created', { bubbles: true, composed: true });
  }
}

declare global {
  interface HTMLElementEventMap {
    'link-created': LinkCreatedEvent;
  }
}

/**
 * @summary The payment-link builder. @fires link-created
 */
export class LinkBuilder extends LightElement {
  @state() private values = sampleValues(location.origin);
  @state() private lines: LineDraft[] = sampleLines(location.origin);
  @state() private flags: Flags = { ...sampleFlags };
  /** Empty while the amount follows the order; the tester's own figure once they type one. */
  @state() private amount = '';
  readonly #form = new SubmitController(this, { problemId: 'form-problem', subject: 'the link' });

  #total = () => orderTotal(this.lines, this.values);
  #amountText = () => this.amount || String(this.#total() ?? '');

  async #submit(event: Event): Promise<void> {
    event.preventDefault();
    const link = await this.#form.submit(() => api<PaymentLinkResponse>('/demo/api/links', { body: linkRequest(this.values, this.lines, this.flags, this.#amountText()) }));
    if (!link) return;
    this.values = { ...this.values, merchant_order_id: newOrderId() };
    this.dispatchEvent(new LinkCreatedEvent(link));
  }

  #setValue(path: string, value: string): void {
    this.values = { ...this.values, [path]: value };
    this.#form.changed(path);
    // The promo and shipping figures make the total, which the amount follows.
    if (path.startsWith('merchant_details.')) this.#form.changed('amount');
  }

  #field = (def: FieldDef): TemplateResult =>
    input({
      ...def,
      value: this.values[def.path] ?? '',
      error: this.#form.error(def.path),
      inputmode: def.type === 'number' ? 'numeric' : undefined,
      type: def.type === 'number' ? 'text' : def.type,
      onInput: (value) => this.#setValue(def.path, value),
    });

  #setLine(index: number, key: keyof LineDraft, value: string): void {
    this.lines = this.lines.map((line, i) => (i === index ? { ...line, [key]: value } : line));
    this.#form.changed(`order_details.${index}.${key}`);
    this.#form.changed('amount');
  }

  #lineRow(line: LineDraft, index: number): TemplateResult {
    const path = (key: string) => `order_details.${index}.${key}`;
    const cell = (key: keyof LineDraft, label: string, extra: Partial<InputOptions> = {}) =>
      input({ path: path(key), label, value: line[key], error: this.#form.error(path(key)), onInput: (v) => this.#setLine(index, key, v), ...extra });
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
        ?disabled=${this.lines.length === 1}
        @click=${() => {
          this.lines = this.lines.filter((_, i) => i !== index);
          this.#form.changed('order_details');
        }}
      >
        Remove line ${index + 1}
      </button>
    </fieldset>`;
  }

  protected override render(): TemplateResult {
    const total = this.#total();
    return html`<form class="builder" novalidate @submit=${this.#submit} aria-describedby="builder-note">
      <p id="builder-note" class="muted">
        Fields marked <span aria-hidden="true">*</span><span class="visually-hidden">required</span> are required by the gateway. Everything is
        filled in: change what you want to try, then create the link.
      </p>
      ${this.#form.problemBox()}
      <fieldset>
        <legend>Order</legend>
        <div class="grid">${ORDER.map(this.#field)}</div>
      </fieldset>

      <fieldset>
        <legend>Order lines</legend>
        ${this.lines.map((line, i) => this.#lineRow(line, i))}
        <button type="button" class="secondary" @click=${() => (this.lines = [...this.lines, { id: `SKU-${this.lines.length + 1}`, name: '', price: '', quantity: '1', image: '' }])}>
          Add a line
        </button>
      </fieldset>

      <fieldset>
        <legend>Merchant details</legend>
        <div class="grid">${MERCHANT.map(this.#field)}</div>
      </fieldset>

      <fieldset>
        <legend>Amount</legend>
        ${input({
          path: 'amount',
          label: 'Amount (VND)',
          required: true,
          inputmode: 'numeric',
          value: this.#amountText(),
          error: this.#form.error('amount'),
          hint: `The order adds up to ${total === undefined ? '—' : formatVnd(total)} (lines − promo + shipping). Change it to see the gateway's 422.`,
          onInput: (value) => ((this.amount = value), this.#form.changed('amount')),
        })}
        ${this.amount ? html`<button type="button" class="link-button" @click=${() => ((this.amount = ''), this.#form.changed('amount'))}>Use the order total again</button>` : nothing}
      </fieldset>

      <fieldset>
        <legend>Billing details</legend>
        <div class="grid">${party('billing').map(this.#field)}</div>
      </fieldset>

      <fieldset>
        <legend>Shipping details</legend>
        <div class="grid">${party('shipping').map(this.#field)}</div>
      </fieldset>

      <fieldset>
        <legend>Checkout display</legend>
        ${FLAGS.map((f) => checkbox({ ...f, checked: this.flags[f.path], onChange: (checked) => (this.flags = { ...this.flags, [f.path]: checked }) }))}
      </fieldset>

      <fieldset>
        <legend>Redirects</legend>
        <div class="grid">${REDIRECTS.map(this.#field)}</div>
      </fieldset>

      <div class="submit-bar">
        <span>Total <strong data-total>${/^\d+$/.test(this.#amountText()) ? formatVnd(Number(this.#amountText())) : '—'}</strong> · order <span class="mono">${this.values.merchant_order_id}</span></span>
        <button type="submit" class="primary" ?disabled=${this.#form.pending}>${this.#form.pending ? 'Creating…' : 'Create payment link'}</button>
      </div>
    </form>`;
  }
}
