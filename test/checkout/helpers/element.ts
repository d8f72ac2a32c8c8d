// Mounting <pay-checkout> against this engine's gateway and reading it through its testing contract:
// `part` names, `data-view` on the card, `data-amount-crypto` and `data-address`.
import { fixture, waitUntil } from '@open-wc/testing';
import jsQR from 'jsqr';
import '../../../src/checkout/define.js';
import type { Locale } from '../../../src/checkout/index.js';
import type { Payment, PaymentLinkInput } from '../../../src/contract/index.js';
import { createLink, gatewayUrl, mine, pay, paymentOf } from './server.js';

export type View = 'loading' | 'error' | 'order' | 'payment' | 'confirming' | 'underpaid' | 'paid' | 'expired' | 'paid_late' | 'late';

export interface MountOptions {
  locale?: Locale;
  /** Another API origin (a stub, a dead port); this engine's gateway by default. */
  apiBase?: string;
  /** The `embedded` attribute: an inline card rather than the hosted page. */
  embedded?: boolean;
  /** Leave success, failure and back uncancelled, so the element's own navigation is what is tested. */
  allowNavigation?: boolean;
}

export interface RecordedEvent {
  type: string;
  detail: unknown;
}

export interface Mounted {
  el: HTMLElement;
  /** Every pay-checkout-* event the element fired, in order. */
  events: RecordedEvent[];
}

const EVENTS = ['ready', 'status', 'success', 'failure', 'back', 'error'].map((name) => `pay-checkout-${name}`);
/** The events whose default action is a navigation: cancelled in tests, so the test page stays. */
const NAVIGATING = new Set(['pay-checkout-success', 'pay-checkout-failure', 'pay-checkout-back']);

/** Records the element's events (listening before it connects: ready may come with the first load). */
export function recordEvents(el: HTMLElement, allowNavigation = false): RecordedEvent[] {
  const events: RecordedEvent[] = [];
  for (const type of EVENTS) {
    el.addEventListener(type, (event) => {
      if (!allowNavigation && NAVIGATING.has(type)) event.preventDefault();
      events.push({ type, detail: (event as Event & { detail?: unknown }).detail });
    });
  }
  return events;
}

/** A detached element with its attributes and event recorder, for pages that place it themselves. */
export async function create(ref: string, options: MountOptions = {}): Promise<Mounted> {
  const el = document.createElement('pay-checkout');
  el.setAttribute('payment-link-ref', ref);
  el.setAttribute('api-base', options.apiBase ?? (await gatewayUrl()));
  if (options.locale) el.setAttribute('locale', options.locale);
  if (options.embedded) el.setAttribute('embedded', '');
  return { el, events: recordEvents(el, options.allowNavigation) };
}

/** Mounts a checkout in the test's fixture container (removed after each test). */
export async function mount(ref: string, options: MountOptions = {}): Promise<Mounted> {
  const mounted = await create(ref, options);
  await fixture(mounted.el);
  return mounted;
}

/** Every element inside the element's shadow root, nested shadow roots included. */
function* deepElements(root: ParentNode): Generator<Element> {
  for (const node of root.querySelectorAll('*')) {
    yield node;
    if (node.shadowRoot) yield* deepElements(node.shadowRoot);
  }
}

function shadowOf(el: HTMLElement): ShadowRoot {
  if (!el.shadowRoot) throw new Error('<pay-checkout> has no open shadow root');
  return el.shadowRoot;
}

/** The parts named `name`, visible or not (the `part` attribute may list several names). */
export function parts(el: HTMLElement, name: string): Element[] {
  return [...deepElements(shadowOf(el))].filter((node) => node.part.contains(name));
}

export function part(el: HTMLElement, name: string): Element | undefined {
  return parts(el, name)[0];
}

/** A part that must be there; the error names it and the view it was looked for in. */
export function partOf<T extends Element = HTMLElement>(el: HTMLElement, name: string): T {
  const found = part(el, name);
  if (!found) throw new Error(`no part "${name}" in the ${viewOf(el) ?? 'unrendered'} view`);
  return found as T;
}

export function viewOf(el: HTMLElement): string | null {
  return part(el, 'card')?.getAttribute('data-view') ?? null;
}

/** What a reader sees in a part: its text with white space collapsed. */
export function textOf(node: Element | undefined): string {
  return (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * Waits for a condition; on time-out the error says what was expected and which view was showing. The time-out is a
 * guard against a hang: the gateways of all three engines answer from the test server's one process, and at load 10
 * a WebKit page waited over 10 s for its first view.
 */
export async function until(el: HTMLElement, what: string, predicate: () => boolean, timeout = 20_000): Promise<void> {
  try {
    await waitUntil(predicate, what, { timeout, interval: 25 });
  } catch {
    throw new Error(`timed out after ${timeout} ms waiting for ${what}; the view is ${viewOf(el) ?? 'not rendered'}: "${textOf(part(el, 'card')).slice(0, 300)}"${paymentFacts(el)}`);
  }
}

/** The times and figures a screen is chosen by, from the payment the element's session holds: what a failure needs to be understood. */
function paymentFacts(el: HTMLElement): string {
  const payment = (el as HTMLElement & { session?: { payment: Payment | null } }).session?.payment;
  if (!payment) return '';
  const { payment_id, status, quote_expires_at, superseded_at, received_crypto, transactions } = payment;
  return `; its payment: ${JSON.stringify({ payment_id, status, quote_expires_at, superseded_at, received_crypto, transactions: transactions.map(({ seen_at, confirmations }) => ({ seen_at, confirmations })) })}`;
}

export function untilView(el: HTMLElement, view: View, timeout?: number): Promise<void> {
  return until(el, `the ${view} view`, () => viewOf(el) === view, timeout);
}

/** The text the QR canvas holds, read back from its pixels. */
export function decodeQr(canvas: HTMLCanvasElement): string | undefined {
  const context = canvas.getContext('2d');
  if (!context) throw new Error('the qr canvas has no 2d context');
  const { data, width, height } = context.getImageData(0, 0, canvas.width, canvas.height);
  return jsQR.default(data, width, height)?.data;
}

/** The exact crypto amount the element asks for (`data-amount-crypto` inside the amount-crypto part). */
export function amountCrypto(el: HTMLElement): string | null {
  const holder = partOf(el, 'amount-crypto');
  const node = holder.hasAttribute('data-amount-crypto') ? holder : holder.querySelector('[data-amount-crypto]');
  return node?.getAttribute('data-amount-crypto') ?? null;
}

export function addressOf(el: HTMLElement): string | null {
  const holder = partOf(el, 'address');
  const node = holder.hasAttribute('data-address') ? holder : holder.querySelector('[data-address]');
  return node?.getAttribute('data-address') ?? null;
}

/** Presses the copy button `name` with navigator.clipboard.writeText stood in for: what it wrote, once it wrote. */
export async function copiedBy(el: HTMLElement, name: string): Promise<string[]> {
  const copied: string[] = [];
  Object.defineProperty(navigator.clipboard, 'writeText', { configurable: true, value: (text: string) => (copied.push(text), Promise.resolve()) });
  try {
    press(el, name);
    await until(el, 'the copy', () => copied.length > 0);
  } finally {
    delete (navigator.clipboard as { writeText?: unknown }).writeText;
  }
  return copied;
}

/** Clicks a part as a user would (it must be there and enabled). */
export function press(el: HTMLElement, name: string): void {
  const button = partOf<HTMLElement>(el, name);
  if ((button as HTMLButtonElement).disabled) throw new Error(`part "${name}" is disabled`);
  button.click();
}

/** A form control of the element's shadow tree, by a CSS selector (guest inputs, asset radios). */
export function control<T extends HTMLElement = HTMLInputElement>(el: HTMLElement, selector: string): T {
  const found = [...deepElements(shadowOf(el))].find((node) => node.matches(selector));
  if (!found) throw new Error(`no ${selector} in the ${viewOf(el) ?? 'unrendered'} view`);
  return found as T;
}

/** Types into a guest form input as the browser would report it (input, then change). */
export function fill(el: HTMLElement, name: 'name' | 'email' | 'phone', value: string): void {
  const input = control(el, `input[name="${name}"]`);
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  input.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
}

/** A new sample link (`link` replaces fields), mounted and showing its order: the element, its events and the link's ref. */
export async function orderCheckout(options: MountOptions & { link?: Partial<PaymentLinkInput> } = {}) {
  const { payment_link_ref } = await createLink(options.link);
  const mounted = await mount(payment_link_ref, options);
  await untilView(mounted.el, 'order');
  return { ...mounted, ref: payment_link_ref };
}

/**
 * A new sample link (`link` replaces fields), mounted, its payment opened in `asset` from the order view:
 * the element, its events, the link's ref and the payment as the API gives it.
 */
export async function payingCheckout(asset: string, options: MountOptions & { link?: Partial<PaymentLinkInput> } = {}) {
  const { payment_link_ref } = await createLink(options.link);
  const mounted = await mount(payment_link_ref, options);
  await startPayment(mounted.el, asset);
  return { ...mounted, ref: payment_link_ref, payment: (await paymentOf(payment_link_ref)) as Payment };
}

/** The test wallet sends `amount` to the payment, blocks confirm it, the element shows `view`: the payment then. */
export async function payAndConfirm(el: HTMLElement, ref: string, payment: Payment, amount: string, view: View): Promise<Payment> {
  await pay(payment.address, payment.asset, payment.network, amount);
  await mine(payment.confirmations_required, payment.network);
  await untilView(el, view);
  return paymentOf(ref);
}

/** From the order view: picks an asset (`USDT:TRON`), presses Pay and waits for the QR. */
export async function startPayment(el: HTMLElement, asset: string): Promise<void> {
  await untilView(el, 'order');
  control(el, `input[type="radio"][value="${asset}"]`).click();
  press(el, 'pay-button');
  await untilView(el, 'payment');
}

/** A piece of text the customer meets: a text node, or an element's accessible name or label attribute. */
export interface ShownText {
  text: string;
  /** The language the text is marked with (the nearest `lang` attribute). */
  lang: string | null;
}

const NAMING_ATTRIBUTES = ['aria-label', 'title', 'alt', 'placeholder'];

/** Every text of the element's shadow tree, visually hidden ones included (screen readers read them). */
export function shownTexts(el: HTMLElement): ShownText[] {
  const found: ShownText[] = [];
  const langOf = (node: Element) => node.closest('[lang]')?.getAttribute('lang') ?? null;
  for (const node of deepElements(shadowOf(el))) {
    if (node.localName === 'style') continue;
    for (const name of NAMING_ATTRIBUTES) {
      const value = node.getAttribute(name);
      if (value?.trim()) found.push({ text: value.trim(), lang: langOf(node) });
    }
    for (const child of node.childNodes) {
      const text = child.nodeType === Node.TEXT_NODE ? child.textContent?.replace(/\s+/g, ' ').trim() : '';
      if (text) found.push({ text, lang: langOf(node) });
    }
  }
  return found;
}

/** The fonts the element lays its text out in, as `16px 600`: one per size and weight, of text in the layout. */
export function textFonts(el: HTMLElement): Set<string> {
  const fonts = new Set<string>();
  for (const node of deepElements(shadowOf(el))) {
    const hasText = [...node.childNodes].some((child) => child.nodeType === Node.TEXT_NODE && child.textContent!.trim());
    if (!hasText || !node.getClientRects().length) continue;
    const style = getComputedStyle(node);
    fonts.add(`${style.fontSize} ${style.fontWeight}`);
  }
  return fonts;
}

/** The element's heading that holds focus, if focus is on a heading inside it. */
export function focusedHeading(el: HTMLElement): HTMLElement | null {
  const active = el.shadowRoot?.activeElement;
  return active && /^h[1-6]$/i.test(active.localName) ? (active as HTMLElement) : null;
}
