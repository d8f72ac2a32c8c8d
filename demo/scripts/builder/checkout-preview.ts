// <checkout-preview>: the link just created as a merchant would send it (the address, a QR of it, the script tag to
// embed it), the <pay-checkout> element showing it with a log of its events, and under it the sandbox's tester panel
// (the hosted checkout page has the same), which acts on the payment the element shows.
import { html, nothing, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { keyed } from 'lit/directives/keyed.js';
import QRCode from 'qrcode';
import type { PaymentLinkResponse } from '../../../src/contract/index.js';
import { LightElement } from '../lib/light-element.js';
import type { TesterLinkExpiredEvent } from '../tester/tester-panel.js';
import { copyText } from '../lib/ui.js';

const CHECKOUT_EVENTS = ['pay-checkout-ready', 'pay-checkout-status', 'pay-checkout-success', 'pay-checkout-failure', 'pay-checkout-back', 'pay-checkout-error'];

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

/**
 * @summary The created link, the checkout element showing it, and the link's sandbox control.
 */
export class CheckoutPreview extends LightElement {
  @property({ attribute: false }) link: PaymentLinkResponse | undefined;
  @state() private elementError = '';
  @state() private copied = '';
  @state() private events: { type: string; text: string }[] = [];
  @state() private control = '';
  /** Bumped to mount the element afresh, as a customer's reload would. */
  @state() private mount = 0;
  #drawnQr = '';

  override connectedCallback(): void {
    super.connectedCallback();
    for (const type of CHECKOUT_EVENTS) this.addEventListener(type, (event) => (this.events = [...this.events, { type, text: summarize(event) }]));
    loadElement().catch((error: Error) => (this.elementError = error.message));
  }

  protected override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('link')) {
      this.events = [];
      this.control = '';
    }
  }

  protected override updated(): void {
    const canvas = this.querySelector<HTMLCanvasElement>('#link-qr');
    if (canvas && this.link && this.#drawnQr !== this.link.payment_link) {
      this.#drawnQr = this.link.payment_link;
      void QRCode.toCanvas(canvas, this.link.payment_link, { width: 168, margin: 2, errorCorrectionLevel: 'M' });
    }
  }

  async #copy(text: string, done: string): Promise<void> {
    this.copied = (await copyText(text)) ? done : 'The browser refused the clipboard here: select the text and copy it.';
  }

  /** The link ran out with no quote open: the element learns it on a new load, which the preview gives it in place of the page's. */
  #linkExpired = (event: TesterLinkExpiredEvent) => {
    event.preventDefault();
    this.control = `The link is ${event.view.status}. The checkout above was reloaded, as the customer's would be.`;
    this.mount++;
  };

  protected override render(): TemplateResult {
    const link = this.link;
    if (!link) {
      return html`<section class="card placeholder" aria-labelledby="result-title">
        <h2 id="result-title" tabindex="-1">Checkout</h2>
        <p class="muted">Create a link: the checkout shows here, as it would on a merchant's page.</p>
      </section>`;
    }
    const snippet = `<script type="module" src="${location.origin}/pay-checkout.js"></script>\n<pay-checkout payment-link-ref="${link.payment_link_ref}"></pay-checkout>`;
    return html`<section class="card" aria-labelledby="result-title">
      <h2 id="result-title" tabindex="-1">Payment link created</h2>
      <p>Reference <code class="mono" data-ref>${link.payment_link_ref}</code></p>
      <div class="share">
        <canvas id="link-qr" role="img" aria-label="QR code of the payment link ${link.payment_link}"></canvas>
        <div>
          <p class="small-heading">Send it to the customer by e-mail, SMS or chat:</p>
          <p><a class="mono wrap" href=${link.payment_link} data-payment-link>${link.payment_link}</a></p>
          <div class="buttons">
            <button type="button" class="secondary" data-copy-link @click=${() => this.#copy(link.payment_link, 'Payment link copied.')}>Copy link</button>
            <a class="button primary" href=${link.payment_link} target="_blank" rel="noopener" data-open-hosted>Open the hosted page</a>
          </div>
          <p class="status" role="status">${this.copied}</p>
        </div>
      </div>
      <details>
        <summary>Or embed it on your page</summary>
        <pre><code>${snippet}</code></pre>
        <button type="button" class="secondary" @click=${() => this.#copy(snippet, 'Snippet copied.')}>Copy snippet</button>
      </details>
      ${this.elementError ? html`<p class="error-box" role="alert">${this.elementError}</p>` : nothing}
      <div class="element-frame">
        ${keyed(
          `${link.payment_link_ref}:${this.mount}`,
          html`<pay-checkout payment-link-ref=${link.payment_link_ref} embedded></pay-checkout>
            <tester-panel payment-link-ref=${link.payment_link_ref} @tester-link-expired=${this.#linkExpired}></tester-panel>`,
        )}
      </div>
      <p class="status" role="status" data-control-status>${this.control}</p>
      <details class="events">
        <summary>Events from the element (${this.events.length})</summary>
        <ol>
          ${this.events.map((e) => html`<li><code>${e.type}</code> ${e.text}</li>`)}
        </ol>
      </details>
    </section>`;
  }
}
