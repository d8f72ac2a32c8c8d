// <tester-panel>: the sandbox's tester controls, placed beside a <pay-checkout> element and outside its card, on the
// hosted checkout page (served by the gateway at /sandbox/tester-panel.js) and on the demo page. It follows the payment
// the element shows (its events, and the checkout API for the link it names) and acts on it through the sandbox
// routes: pay it exactly, partly or over from the test wallet, mine, expire the quote or the link now. Each control
// says the status it leads to (docs/guide.md, "What a tester does"). It has a shadow root of its own: the hosted page
// has no stylesheet for it, and the element's own UI stays the customer's.
import { css, html, LitElement, nothing, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { isIn, QUOTE_OPEN_STATUSES, type ChainNetwork, type ChainState, type CheckoutView, type Payment } from '../../../src/contract/index.js';
import { ActionController } from '../lib/action-controller.js';
import { api } from '../lib/api.js';
import { decimalsOf, uriNetworks } from '../wallet/payment-qr.js';
import { earlierOf, follow, PAY_CONTROLS, transferFor, type Earlier, type PayControl } from './tester-controls.js';

/** The link expired with no quote open: the element shows it on its next load, which the page gives it unless told otherwise. */
export class TesterLinkExpiredEvent extends Event {
  constructor(readonly view: CheckoutView) {
    super('tester-link-expired', { bubbles: true, composed: true, cancelable: true });
  }
}

/**
 * @summary The sandbox's tester controls for the checkout beside it.
 * @fires tester-link-expired - The link was made to run out; `preventDefault()` keeps the page from reloading.
 */
export class TesterPanel extends LitElement {
  /** The link; by default the `payment-link-ref` of the page's <pay-checkout>, else the page's `?ref=`. */
  @property({ attribute: 'payment-link-ref' }) paymentLinkRef?: string;
  @state() private payment: Payment | null = null;
  @state() private earlier: Earlier | undefined;
  /** The gateway's networks (GET /sandbox/chain), asked for on the first payment: the decimals of what is sent. */
  #networks: Promise<ChainNetwork[]> | undefined;
  readonly #action = new ActionController(this);

  static override styles = css`
    :host {
      --_surface: #ffffff; --_text: #1d1b19; --_muted: #5c5650; --_accent: #7a3e1d; --_on-accent: #ffffff; --_note: #fdf3dc;
      --_ok: #1e6b34; --_ok-bg: #e3f3e6; --_bad: #a4161a; --_bad-bg: #fbe7e7;
      display: block; font: 400 0.95rem/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', sans-serif; color: var(--_text);
    }
    @media (prefers-color-scheme: dark) {
      :host {
        --_surface: #221f1a; --_text: #f1ece6; --_muted: #bfb6ab; --_accent: #e0a579; --_on-accent: #1d1b19; --_note: #3a3220;
        --_ok: #8fd19e; --_ok-bg: #1d3323; --_bad: #ff9b9b; --_bad-bg: #3a1d1d;
      }
    }
    /* Dashed, with its own heading and badge: plainly not the merchant's checkout. */
    section { border: 2px dashed var(--_accent); border-radius: 10px; padding: 0.75rem 1rem; background: var(--_surface); }
    h2 { font-size: 1.05rem; margin: 0 0 0.25rem; display: flex; gap: 0.5rem; align-items: center; }
    .badge { font-size: 0.7rem; font-weight: 700; letter-spacing: 0.04em; text-transform: uppercase; padding: 0.1rem 0.45rem; border-radius: 99px; background: var(--_note); }
    p { margin: 0.25rem 0; }
    .muted, .leads-to { color: var(--_muted); }
    .following { overflow-wrap: anywhere; }
    ul { list-style: none; padding: 0; margin: 0.5rem 0; display: grid; gap: 0.5rem; }
    li { display: grid; grid-template-columns: 12rem 1fr; gap: 0.25rem 0.75rem; align-items: center; }
    @media (max-width: 560px) { li { grid-template-columns: 1fr; } }
    button { font: inherit; font-weight: 600; min-height: 2.5rem; padding: 0.4rem 0.8rem; border-radius: 8px; border: 1px solid var(--_accent); background: var(--_surface); color: var(--_accent); cursor: pointer; width: 100%; }
    button.primary { background: var(--_accent); color: var(--_on-accent); }
    button:disabled { opacity: 0.55; cursor: not-allowed; }
    button:focus-visible { outline: 3px solid #1a5fb4; outline-offset: 2px; }
    .leads-to { font-size: 0.875rem; }
    [role='status']:empty, [role='alert']:empty { display: none; }
    [role='status'] { background: var(--_ok-bg); color: var(--_ok); border-radius: 6px; padding: 0.4rem 0.6rem; }
    [role='alert'] { background: var(--_bad-bg); color: var(--_bad); border-radius: 6px; padding: 0.4rem 0.6rem; }
  `;

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('pay-checkout-ready', this.#onReady);
    document.addEventListener('pay-checkout-status', this.#onStatus);
    // The element may have shown its link before this script ran: the view it was given in the page says where it
    // stands, without a request (the hosted page; on the demo page the element comes later, and its events tell).
    const data = document.querySelector('pay-checkout > script[type="application/json"]')?.textContent;
    if (data) {
      try {
        const view = JSON.parse(data) as CheckoutView;
        if (view.payment && view.payment_link_ref === this.#ref) this.#see(view.payment);
      } catch {
        // The element says what is wrong with its data; the panel waits for its events.
      }
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('pay-checkout-ready', this.#onReady);
    document.removeEventListener('pay-checkout-status', this.#onStatus);
  }

  get #ref(): string | undefined {
    return this.paymentLinkRef ?? document.querySelector('pay-checkout')?.getAttribute('payment-link-ref') ?? new URLSearchParams(location.search).get('ref') ?? undefined;
  }

  #onReady = (event: Event) => {
    const { view } = (event as Event & { detail: { view: CheckoutView } }).detail;
    if (view.payment_link_ref !== this.#ref) return;
    if (view.payment) this.#see(view.payment);
  };

  #onStatus = (event: Event) => this.#see((event as Event & { detail: { payment: Payment } }).detail.payment);

  /** A payment of the link: the one followed from now on, when it is news of it or a newer one. */
  #see(payment: Payment): void {
    const next = follow(this.payment, payment);
    this.earlier = earlierOf(this.payment, next, this.earlier);
    this.payment = next;
  }

  async #refresh(): Promise<void> {
    const ref = this.#ref;
    if (!ref) return;
    const view = await api<CheckoutView>(`/api/checkout/${encodeURIComponent(ref)}`);
    if (view.payment) this.#see(view.payment);
  }

  #send(to: { address: string; asset: Payment['asset']; network: Payment['network'] }, amount: string, done: string): Promise<void> {
    return this.#action.run(done, async () => {
      await api('/sandbox/wallet/transfers', { body: { to: to.address, asset: to.asset, network: to.network, amount } });
      await this.#refresh();
    });
  }

  async #pay(control: PayControl): Promise<void> {
    const payment = this.payment;
    if (!payment) return;
    let networks: ChainNetwork[];
    try {
      networks = await (this.#networks ??= api<ChainState>('/sandbox/chain').then((chain) => chain.networks));
    } catch (error) {
      this.#networks = undefined;
      this.#action.fail((error as Error).message);
      return;
    }
    const transfer = transferFor(payment, control, decimalsOf(payment.asset, payment.network, uriNetworks(networks)));
    return this.#send(
      { address: transfer.to, asset: transfer.asset, network: transfer.network },
      transfer.amount,
      `Sent ${transfer.amount} ${transfer.asset} (${control.label.toLowerCase()}). Mine to confirm it: ${control.leadsTo}.`,
    );
  }

  #payEarlier = () => {
    const earlier = this.earlier;
    if (!earlier) return;
    return this.#send(earlier, earlier.amount, `Sent ${earlier.amount} ${earlier.asset} to the earlier address ${short(earlier.address)}. Once mined it is paid late there: held for the merchant.`);
  };

  #mine(blocks: number): Promise<void> {
    const network = this.payment?.network;
    return this.#action.run(`Mined ${blocks} block${blocks === 1 ? '' : 's'}${network ? ` on ${network}` : ' on every network'}.`, async () => {
      await api('/sandbox/chain/mine', { body: { blocks, ...(network && { network }) } });
      await this.#refresh();
    });
  }

  #expireQuote = () => {
    const payment = this.payment;
    if (!payment) return;
    return this.#action.run('The quote has expired: the checkout offers a new one.', async () => {
      this.#see(await api<Payment>(`/sandbox/payments/${encodeURIComponent(payment.payment_id)}/expire-quote`, { method: 'POST' }));
    });
  };

  #expireLink = () => {
    const ref = this.#ref;
    if (!ref) return;
    const open = this.payment && isIn(QUOTE_OPEN_STATUSES, this.payment.status);
    return this.#action.run(`The link has expired${open ? ', and its open quote with it' : ''}.`, async () => {
      const view = await api<CheckoutView>(`/sandbox/payment-links/${encodeURIComponent(ref)}/expire`, { method: 'POST' });
      if (view.payment) this.#see(view.payment);
      // An open quote closes with the link, and the element hears it on its stream; with none, it learns on a new load.
      if (!open && this.dispatchEvent(new TesterLinkExpiredEvent(view))) location.reload();
    });
  };

  /** A button and, beside it, the status it leads to (its accessible description). */
  #control(id: string, button: TemplateResult, leadsTo: string): TemplateResult {
    return html`<li>${button}<span class="leads-to" id="leads-to-${id}">→ ${leadsTo}</span></li>`;
  }

  protected override render(): TemplateResult {
    const payment = this.payment;
    const payable = !!payment && isIn(QUOTE_OPEN_STATUSES, payment.status) && !this.#action.busy;
    const confirm = payment?.confirmations_required;
    const earlier = this.earlier;
    return html`<section aria-labelledby="tester-title">
      <h2 id="tester-title">Tester controls <span class="badge">Sandbox</span></h2>
      <p class="muted">Not part of the checkout: the sandbox's shortcuts for testers, acting on the payment the checkout shows.</p>
      <p class="following" data-following>
        ${payment
          ? html`Following ${payment.amount_crypto} ${payment.asset} on ${payment.network} to <code>${short(payment.address)}</code>: <strong>${payment.status.replaceAll('_', ' ')}</strong>`
          : 'No payment yet: choose a coin in the checkout, and the controls follow its payment.'}
      </p>
      <ul>
        ${PAY_CONTROLS.map((c) =>
          this.#control(
            c.id,
            html`<button type="button" class=${c.id === 'exact' ? 'primary' : ''} data-tester-pay=${c.id} aria-describedby="leads-to-${c.id}" ?disabled=${!payable} @click=${() => this.#pay(c)}>${c.label}</button>`,
            c.leadsTo,
          ),
        )}
        ${earlier
          ? this.#control(
              'earlier',
              html`<button type="button" data-tester-pay-earlier aria-describedby="leads-to-earlier" ?disabled=${this.#action.busy} @click=${this.#payEarlier}>Pay the earlier address</button>`,
              `paid late once mined, at ${short(earlier.address)} (${earlier.amount} ${earlier.asset}), a quote the customer moved on from: held for the merchant`,
            )
          : nothing}
        ${this.#control(
          'mine-one',
          html`<button type="button" data-tester-mine="1" aria-describedby="leads-to-mine-one" ?disabled=${this.#action.busy} @click=${() => this.#mine(1)}>Mine a block</button>`,
          payment ? `one more confirmation of what was sent on ${payment.network} (${confirm} confirm a payment there)` : 'one more block on every network: blocks confirm what was sent',
        )}
        ${this.#control(
          'mine-enough',
          html`<button type="button" data-tester-mine-enough aria-describedby="leads-to-mine-enough" ?disabled=${!confirm || this.#action.busy} @click=${() => confirm && this.#mine(confirm)}>
            Mine ${confirm ?? 'enough'} blocks
          </button>`,
          'enough to confirm what was sent: paid, underpaid or overpaid, as the amount says',
        )}
        ${this.#control(
          'expire-quote',
          html`<button type="button" data-tester-expire-quote aria-describedby="leads-to-expire-quote" ?disabled=${!payable} @click=${this.#expireQuote}>Expire the quote now</button>`,
          'expired quote: the checkout offers a new quote (at a new address) or the way back to the failure page; money sent afterwards is paid late',
        )}
        ${this.#control(
          'expire-link',
          html`<button type="button" data-tester-expire-link aria-describedby="leads-to-expire-link" ?disabled=${this.#action.busy || !this.#ref} @click=${this.#expireLink}>Expire the link now</button>`,
          'link expired, its open quote too: the checkout offers no new quote, only the way back to the failure page',
        )}
      </ul>
      <p role="status" data-tester-status>${this.#action.status}</p>
      <p role="alert">${this.#action.error}</p>
    </section>`;
  }
}

function short(value: string): string {
  return value.length > 20 ? `${value.slice(0, 10)}…${value.slice(-8)}` : value;
}

declare global {
  interface HTMLElementTagNameMap {
    'tester-panel': TesterPanel;
  }
  interface HTMLElementEventMap {
    'tester-link-expired': TesterLinkExpiredEvent;
  }
}
