// The refund form (POST /api/refund/createRefund/{order_id}), as a modal dialog: which payment's money goes back, partial or full, the amount,
// where it goes (the customer's claim link, or the address that paid), a reason from a list or in the merchant's
// words, a note; before anything is sent it says what the customer gets back (the crypto amount and coin at the
// refund's rate, docs/payment-lifecycle.md "Which coins a refund returns"). Checked with the contract's own schema,
// then sent through the demo's server, which calls the gateway with the merchant's token.
import { html, nothing, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import { CreateRefundRequest, fieldErrors, type RefundDestination, type RefundList } from '../../../src/contract/index.js';
import { api } from '../lib/api.js';
import { LightElement } from '../lib/light-element.js';
import { SubmitController } from '../lib/submit-controller.js';
import { fieldId, formatVnd, input, select } from '../lib/ui.js';
import { groupVnd, parseVnd, vndRule } from '../lib/vnd.js';
import { RefundedEvent, type RefundRequest } from './events.js';
import { holdings, refundPreview, type Holding } from './money.js';
import { decimalsOf } from './networks.js';
import { coin } from './views.js';

/** The reasons merchants give most; "Other" takes the merchant's own words. */
export const REFUND_REASONS = [
  'Customer asked for a refund',
  'Goods damaged in delivery',
  'Wrong or missing item',
  'Order cancelled',
  'Paid after the quote expired',
  'Overpaid: returning the excess',
  'Paid twice',
] as const;
const OTHER = 'other';

interface Draft {
  payment_id: string;
  refund_type: 'partial' | 'full';
  send_to: RefundDestination;
  amount: string;
  /** One of REFUND_REASONS, OTHER, or '' before a choice. */
  reason_choice: string;
  reason_text: string;
  description: string;
}

/**
 * @summary The refund form of an order: open(request) shows it; a `refunded` event follows a refund the gateway took.
 */
export class RefundDialog extends LightElement {
  @state() private request: RefundRequest | undefined;
  @state() private draft: Draft = blankDraft();
  /**
   * One refund per showing of the form: sent with every submit of it, so a second click, or a submit again after an
   * answer that was lost, replays the first refund instead of making another.
   */
  #idempotencyKey = '';
  readonly #form = new SubmitController(this, { problemId: 'refund-problem', subject: 'the refund', fieldPrefix: 'refund.' });

  /** Opens the form for an order's links, starting from a payment, amount and reason when the page knows them. */
  open(request: RefundRequest): void {
    const sources = holdings(request.links).filter((h) => h.left > 0);
    const source = sources.find((h) => h.payment.payment_id === request.paymentId) ?? sources[0];
    const reason = request.reason ?? '';
    this.request = request;
    // getRandomValues, not randomUUID: the portal may be served over plain http to another machine (HOST=0.0.0.0).
    this.#idempotencyKey = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
    this.draft = {
      ...blankDraft(),
      payment_id: source?.payment.payment_id ?? '',
      amount: request.amount === undefined ? '' : groupVnd(request.amount),
      reason_choice: reason === '' || (REFUND_REASONS as readonly string[]).includes(reason) ? reason : OTHER,
      reason_text: (REFUND_REASONS as readonly string[]).includes(reason) ? '' : reason,
    };
    this.#form.reset();
    void this.updateComplete.then(() => {
      this.#dialog().showModal();
      this.querySelector<HTMLElement>(`#${fieldId(request.amount === undefined ? 'refund.amount' : 'refund.description')}`)?.focus();
    });
  }

  #dialog = () => this.querySelector('dialog')!;

  #sources(): Holding[] {
    return this.request ? holdings(this.request.links).filter((h) => h.left > 0) : [];
  }

  #source(): Holding | undefined {
    return this.#sources().find((h) => h.payment.payment_id === this.draft.payment_id);
  }

  #set<K extends keyof Draft>(key: K, value: Draft[K], path: string = key): void {
    this.draft = { ...this.draft, [key]: value };
    this.#form.changed(path);
    // Full is exactly what is left of the chosen payment: the amount follows it.
    const source = this.#source();
    if (this.draft.refund_type === 'full' && source && this.#amount() !== source.left) {
      this.draft = { ...this.draft, amount: groupVnd(source.left) };
      this.#form.changed('amount');
    }
  }

  /** The amount typed, read as the page's language writes VND (`100.000` in Vietnamese, `100,000` in English). */
  #amount(): number | undefined {
    return parseVnd(this.draft.amount);
  }

  /** The request the gateway takes; numbers only where the text is one, so the schema names the rest. */
  #refundRequest(): Record<string, unknown> {
    return {
      amount: this.#amount() ?? this.draft.amount.trim(),
      channel: 'PROVIDER',
      description: this.draft.description.trim(),
      refund_type: this.draft.refund_type,
      send_to: this.draft.send_to,
      refund_reason: (this.draft.reason_choice === OTHER ? this.draft.reason_text : this.draft.reason_choice).trim(),
      ...(this.draft.payment_id && { payment_id: this.draft.payment_id }),
    };
  }

  async #submit(event: Event): Promise<void> {
    event.preventDefault();
    const request = this.request;
    if (!request) return;
    const checked = CreateRefundRequest.safeParse(this.#refundRequest());
    // The amount's own rules, in the page's format: what it reads, and how much is left (the gateway would say so too).
    const [amount, source] = [this.#amount(), this.#source()];
    const amountError =
      this.draft.amount.trim() && amount === undefined
        ? vndRule()
        : amount !== undefined && source && amount > source.left
          ? `must be at most ${formatVnd(source.left)}: what is left to refund from this payment`
          : undefined;
    if (!checked.success || amountError) {
      const errors = checked.success ? [] : fieldErrors(checked.error).filter((e) => !(amountError && e.path === 'amount'));
      return this.#form.refuse(amountError ? [{ path: 'amount', message: amountError }, ...errors] : errors);
    }
    const list = await this.#form.submit(() => api<RefundList>(`/demo/api/orders/${encodeURIComponent(request.orderId)}/refunds`, { body: checked.data, idempotencyKey: this.#idempotencyKey }));
    if (!list) return;
    this.#dialog().close();
    this.dispatchEvent(new RefundedEvent(request.orderId, list));
  }

  /** The button that sends the refund names what it sends, once the amount reads as one. */
  #submitLabel(): string {
    const amount = this.#amount();
    return amount !== undefined && amount > 0 ? `Refund ${formatVnd(amount)}` : 'Refund';
  }

  #preview(): TemplateResult {
    const source = this.#source();
    if (!source) return html`<p class="muted">This order holds no money to refund.</p>`;
    const preview = refundPreview(source, this.#amount() ?? Number.NaN, decimalsOf(source.payment.asset, source.payment.network), this.draft.send_to, this.request?.refunds);
    return html`<div class="refund-preview" aria-live="polite">
      <p class="small-heading">What goes back</p>
      ${'problem' in preview
        ? html`<p class="muted" data-refund-preview="none">${preview.problem}</p>`
        : html`<dl class="target" data-refund-preview=${preview.crypto}>
            <dt>Amount</dt>
            <dd><strong data-refund-crypto>${preview.crypto} ${preview.asset}</strong> on ${coin(preview.asset, preview.network)}</dd>
            <dt>To</dt>
            <dd class=${preview.address ? 'mono' : ''} data-refund-address>${preview.address ?? 'the address the customer gives on the claim page'}</dd>
            <dt>Rate</dt>
            <dd data-refund-rate>this payment's ${preview.received} ${preview.asset} are worth ${formatVnd(preview.value)} to the order: the refund returns the same share of them</dd>
          </dl>`}
    </div>`;
  }

  #paymentChoice(sources: Holding[]): TemplateResult {
    const label = (h: Holding) =>
      `${h.payment.asset} payment ${h.payment.payment_id} (${h.payment.status.replace('_', ' ')}): ${formatVnd(h.left)} left`;
    if (sources.length <= 1) {
      const only = sources[0];
      return only ? html`<p>From the ${label(only)}.</p>` : html``;
    }
    return select({
      path: 'refund.payment_id',
      label: 'From which payment',
      value: this.draft.payment_id,
      options: sources.map((h) => ({ value: h.payment.payment_id, label: label(h) })),
      error: this.#form.error('payment_id'),
      hint: "Each payment's coins go back at its own rate.",
      onChange: (v) => this.#set('payment_id', v),
    });
  }

  protected override render(): TemplateResult {
    const request = this.request;
    const d = this.draft;
    const error = (path: string) => this.#form.error(path);
    const sources = this.#sources();
    const source = this.#source();
    return html`<dialog id="refund-dialog" aria-labelledby="refund-title" @close=${() => (this.request = undefined)}>
      ${request
        ? html`<form method="dialog" class="refund-form" novalidate @submit=${this.#submit}>
            <h2 id="refund-title">Refund order ${request.orderId}</h2>
            <p>Left to refund <strong data-left>${formatVnd(sources.reduce((sum, h) => sum + h.left, 0))}</strong>.</p>
            ${this.#form.problemBox()} ${this.#paymentChoice(sources)}
            <fieldset>
              <legend>Send to</legend>
              <label class="radio"
                ><input type="radio" name="send_to" value="claim" .checked=${d.send_to === 'claim'} @change=${() => this.#set('send_to', 'claim')} />
                The customer's own address: they get a claim link and give it there</label
              >
              <label class="radio"
                ><input type="radio" name="send_to" value="payer" .checked=${d.send_to === 'payer'} @change=${() => this.#set('send_to', 'payer')} />
                The address that paid</label
              >
              <p class="muted small" id="send-to-risk">
                Only when you know it is the customer's own wallet: a payment made from an exchange (Binance, OKX, Remitano) came from
                the exchange's hot wallet, and coins sent back there may never reach the customer.
              </p>
            </fieldset>
            <fieldset class="inline">
              <legend>Refund type</legend>
              ${(['partial', 'full'] as const).map(
                (type) => html`<label class="radio"
                  ><input type="radio" name="refund_type" value=${type} .checked=${d.refund_type === type} @change=${() => this.#set('refund_type', type)} />
                  ${type === 'partial' ? 'Partial' : 'Full (what is left)'}</label
                >`,
              )}
            </fieldset>
            ${input({
              path: 'refund.amount',
              label: 'Amount (VND)',
              required: true,
              inputmode: 'numeric',
              value: d.amount,
              error: error('amount'),
              hint: source ? `Up to ${formatVnd(source.left)} from this payment.` : undefined,
              disabled: d.refund_type === 'full',
              onInput: (v) => this.#set('amount', v),
            })}
            ${this.#preview()}
            ${select({
              path: 'refund.reason_choice',
              label: 'Reason',
              required: true,
              value: d.reason_choice,
              options: [{ value: '', label: 'Choose a reason…' }, ...REFUND_REASONS.map((r) => ({ value: r, label: r })), { value: OTHER, label: 'Other (in your words)' }],
              error: d.reason_choice === OTHER ? undefined : error('refund_reason'),
              onChange: (v) => this.#set('reason_choice', v, 'refund_reason'),
            })}
            ${d.reason_choice === OTHER
              ? input({ path: 'refund.refund_reason', label: 'Reason, in your words', required: true, value: d.reason_text, error: error('refund_reason'), onInput: (v) => this.#set('reason_text', v, 'refund_reason') })
              : nothing}
            ${input({ path: 'refund.description', label: 'Note / description', required: true, value: d.description, error: error('description'), onInput: (v) => this.#set('description', v) })}
            <p class="muted">
              Channel: <code>PROVIDER</code> (the crypto payment's). The refund is <code>PENDING</code> until its payout is confirmed on chain; a
              claim link runs out after a week.
            </p>
            <div class="buttons">
              <button type="submit" class="primary" ?disabled=${this.#form.pending || !source}>${this.#form.pending ? 'Refunding…' : this.#submitLabel()}</button>
              <button type="button" class="secondary" @click=${() => this.#dialog().close()}>Cancel</button>
            </div>
          </form>`
        : nothing}
    </dialog>`;
  }
}

function blankDraft(): Draft {
  return { payment_id: '', refund_type: 'partial', send_to: 'claim', amount: '', reason_choice: '', reason_text: '', description: '' };
}
