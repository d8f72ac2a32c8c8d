// The demo page: the link builder, the created link with the <pay-checkout> element showing it, and the test
// wallet that pays it. The wallet reads the element's QR as a phone's camera would, and takes the amount from the
// checkout when the QR holds only an address (TRON).
import { html } from 'lit';
import type { CheckoutView } from '../../src/contract/index.js';
import { CheckoutPreview } from './builder/checkout-preview.js';
import { LinkBuilder } from './builder/link-builder.js';
import { api } from './lib/api.js';
import { showSession } from './lib/session.js';
import { decodeCanvas } from './wallet/decode.js';
import { TestWallet } from './wallet/test-wallet.js';
import { TesterPanel } from './tester/tester-panel.js';

declare global {
  interface HTMLElementTagNameMap {
    'link-builder': LinkBuilder;
    'checkout-preview': CheckoutPreview;
  }
}

customElements.define('link-builder', LinkBuilder);
customElements.define('checkout-preview', CheckoutPreview);
customElements.define('test-wallet', TestWallet);
customElements.define('tester-panel', TesterPanel);

const preview = document.querySelector('checkout-preview')!;
const wallet = document.querySelector('test-wallet')!;

document.querySelector('link-builder')!.addEventListener('link-created', async (event) => {
  preview.link = event.link;
  await preview.updateComplete;
  preview.querySelector<HTMLElement>('#result-title')?.focus();
});

/** What the checkout asks for now at the address a QR held: the rest, once part of it has come. */
async function dueAt(address: string): Promise<string | undefined> {
  const ref = preview.link?.payment_link_ref;
  if (!ref) return undefined;
  const { payment } = await api<CheckoutView>(`/api/checkout/${encodeURIComponent(ref)}`);
  if (payment?.address !== address) return undefined;
  return payment.remaining_crypto === '0' ? payment.amount_crypto : payment.remaining_crypto;
}

async function scanCheckout(w: TestWallet): Promise<void> {
  const qr = document.querySelector('pay-checkout')?.shadowRoot?.querySelector('[part~="qr"]');
  const text = qr instanceof HTMLCanvasElement ? decodeCanvas(qr) : undefined;
  if (!text) return w.fail('No payment QR to read: create a link and choose a coin in the checkout first.');
  let address: string | undefined;
  try {
    const read = w.read(text);
    address = read.amount ? undefined : read.address;
  } catch {
    address = undefined;
  }
  w.accept(text, { amount: address ? await dueAt(address) : undefined, from: 'the checkout beside the wallet' });
}

wallet.scanControls = (w) => html`<button type="button" class="primary" data-scan-checkout @click=${() => scanCheckout(w)}>Scan the checkout's QR</button>
  <p class="hint">Reads the QR the checkout beside the form draws, the way a phone's camera would; where it holds only an address (TRON), takes the amount the checkout shows.</p>`;

void showSession();
