// The checkout's pure logic: which screen the customer sees, what the contact form accepts, which asset is picked
// first. No DOM and no Lit here, so test/checkout-state/ checks it with node:test.
import { walletOf } from '../../codecs/families/wallets.js';
import type { CheckoutAsset, CheckoutMethod, CheckoutView, Payment } from '../../contract/checkout.js';
import { isEmail, isIn, isWebUrl, OPEN_PAYMENT_STATUSES, PHONE, QUOTE_OPEN_STATUSES } from '../../contract/rules.js';
import type { CheckoutErrorCode } from '../api.js';
import { format, type MessageKey } from '../i18n/index.js';

/** Why the link cannot be shown, or why an action failed. */
export interface Failure {
  code: CheckoutErrorCode;
  message: string;
}

/** What the checkout shows. `name` is the card's `data-view`; each screen carries exactly what it draws. */
export type Screen =
  | { name: 'loading' }
  | { name: 'error'; failure: Failure; view?: CheckoutView }
  | { name: 'order'; view: CheckoutView }
  | { name: 'payment' | 'underpaid' | 'confirming' | 'expired' | 'paid_late'; view: CheckoutView; payment: Payment }
  /** The quote closed, and money reached its address afterwards: seen, not yet settled; held for the merchant. */
  | { name: 'late'; view: CheckoutView; payment: Payment }
  /** A paid link; its payment is missing only if the gateway lost it. */
  | { name: 'paid'; view: CheckoutView; payment: Payment | null };

/** The names of the views, as the card's `data-view` attribute shows them. */
export type CheckoutViewName = Screen['name'];

// The message of the error event: the English of the words the screen shows.
export const LINK_EXPIRED: Failure = { code: 'link_expired', message: format('en', 'error_link_expired') };
export const LINK_CANCELLED: Failure = { code: 'link_cancelled', message: format('en', 'error_link_cancelled') };

/**
 * The screen for what the element knows: the link's view, its latest payment, and why loading failed. `changingCoin`:
 * the customer asked to pick another coin, which shows the coins (the order) while the payment can still be left
 * for another (`canChangeCoin`).
 */
export function screenOf(view: CheckoutView | undefined, payment: Payment | null, failure: Failure | undefined, changingCoin = false): Screen {
  if (failure) return { name: 'error', failure, ...(view && { view }) };
  if (!view) return { name: 'loading' };
  if (changingCoin && canChangeCoin(view, payment)) return { name: 'order', view };
  if (payment?.status === 'expired' && lateTransfers(payment).length) return { name: 'late', view, payment };
  // An expired link with nothing received (no payment, one still awaiting, or its quote closed empty): nothing to pay,
  // nothing to follow, and no new quote to offer, so the expired-quote view's "get a new quote" would be wrong. A
  // quote that received part in time keeps its view (src/checkout/README.md): that money is the merchant's to settle.
  // A link the merchant cancelled is the same (a cancel is refused once money reached it): only the way back is left.
  const over = view.status === 'expired' ? LINK_EXPIRED : view.status === 'cancelled' ? LINK_CANCELLED : undefined;
  if (over && (!payment || payment.status === 'awaiting_payment' || (payment.status === 'expired' && !hasReceived(payment)))) {
    return { name: 'error', failure: over, view };
  }
  if (payment && payment.status !== 'awaiting_payment') return { name: payment.status, view, payment };
  if (payment) return { name: 'payment', view, payment };
  return view.status === 'paid' ? { name: 'paid', view, payment: null } : { name: 'order', view };
}

/**
 * Whether the live stream is needed: a payment exists, and it is not final or the link is still active (a late
 * payment, a new quote). Before the first payment there is nothing to follow: the order waits for the customer.
 */
export function follows(screen: Screen): boolean {
  if (!('payment' in screen) || !screen.payment) return false;
  return screen.view.status === 'active' || isIn(OPEN_PAYMENT_STATUSES, screen.payment.status);
}

/**
 * Whether `incoming` may replace `current`: news of the same payment, or a payment opened later. Events of an older
 * payment of the link (one a new quote superseded) arrive late and are ignored. So is an answer about the same payment
 * to a request sent before the stream's latest news (`askedBeforeNews`): it may say less than that news (money not yet
 * seen), and the stream sends only changes, so it would stay on screen until the next one.
 */
export function supersedes(current: Payment | null, incoming: Payment, askedBeforeNews = false): boolean {
  if (!current) return true;
  if (current.payment_id === incoming.payment_id) return !askedBeforeNews;
  return Date.parse(incoming.created_at) >= Date.parse(current.created_at);
}

/** Errors a retry cannot mend (the link is missing, unknown or over). */
export function retryable(code: CheckoutErrorCode): boolean {
  return !['missing_ref', 'not_found', 'link_expired', 'link_cancelled'].includes(code);
}

/** Whether an error screen may send the customer back to the merchant (the link expired or was cancelled, with a URL to follow). */
export function canLeave(screen: Extract<Screen, { name: 'error' }>): boolean {
  return [LINK_EXPIRED.code, LINK_CANCELLED.code].includes(screen.failure.code) && !!screen.view && isWebUrl(screen.view.failure_redirect_url);
}

/**
 * Whether the customer may leave this payment for one in another coin: the link takes payments, and this one has
 * nothing on its way to confirmation (awaiting, underpaid or expired; what still arrives at its address is held, and
 * what it received in time counts for the order: the next quote asks for the rest).
 */
export function canChangeCoin(view: CheckoutView, payment: Payment | null): boolean {
  return view.status === 'active' && !!payment && (isIn(QUOTE_OPEN_STATUSES, payment.status) || payment.status === 'expired') && !lateTransfers(payment).length;
}

/** When the payment's quote closed (it ran out, or another payment took its place); null while it is open. */
export function quoteClosedAt(payment: Payment): number | null {
  const closes = [payment.superseded_at, isIn(QUOTE_OPEN_STATUSES, payment.status) ? null : payment.quote_expires_at]
    .filter((t): t is string => t !== null)
    .map((t) => Date.parse(t));
  return closes.length ? Math.min(...closes) : null;
}

/** The transfers first seen once the quote had closed (at its very instant too: the closing comes first). */
export function lateTransfers(payment: Payment): Payment['transactions'] {
  const closed = quoteClosedAt(payment);
  return closed === null ? [] : payment.transactions.filter((t) => Date.parse(t.seen_at) >= closed);
}

/**
 * What the order has received through quotes now closed, and what is left to pay, in VND (the gateway's
 * `received_vnd`; the rest is what a new quote asks for); undefined while nothing has.
 */
export function creditOf(view: CheckoutView): { received: number; left: number } | undefined {
  return view.received_vnd > 0 ? { received: view.received_vnd, left: Math.max(0, view.amount - view.received_vnd) } : undefined;
}

// ---- method and asset

export function methodKey(method: CheckoutMethod): string {
  return `${method.pmt_channel}:${method.pmt_method}`;
}

export function assetKey(asset: Pick<Payment, 'asset' | 'network'>): string {
  return `${asset.asset}:${asset.network}`;
}

/** The method the attributes ask for, else the link's first. */
export function chooseMethod(view: CheckoutView, pmtChannel: string, pmtMethod: string): CheckoutMethod | undefined {
  return view.methods.find((m) => m.pmt_channel === pmtChannel && m.pmt_method === pmtMethod) ?? view.methods[0];
}

export function findMethod(view: CheckoutView | undefined, key: string): CheckoutMethod | undefined {
  return view?.methods.find((m) => methodKey(m) === key);
}

/**
 * The asset picked first: the first the gateway lists that takes payments now (the gateway lists its default first:
 * USDT on TRON in the sandbox); '' when none does.
 */
export function defaultAsset(method: CheckoutMethod | undefined): string {
  const first = method?.assets.find((a) => a.available);
  return first ? assetKey(first) : '';
}

/** `USDT:TRON` back into the request's fields. */
export function parseAssetKey(key: string): Pick<Payment, 'asset' | 'network'> {
  const [asset, network] = key.split(':') as [Payment['asset'], Payment['network']];
  return { asset, network };
}

// ---- contact

export type ContactField = 'name' | 'email' | 'phone';
export type Contact = Record<ContactField, string>;
export const CONTACT_FIELDS: readonly ContactField[] = ['name', 'email', 'phone'];

/** The billing details as the contact to confirm (empty fields where the link has none). */
export function contactFromBilling(view: CheckoutView): Contact {
  const billing = view.billing_details;
  return { name: billing?.billing_name ?? '', email: billing?.billing_email ?? '', phone: billing?.billing_phone ?? '' };
}

/** The guest form starts open when the link asks for it, or when the billing details cannot stand as a contact. */
export function contactFormOpen(view: CheckoutView): boolean {
  return view.default_guest_checkout || !hasBillingContact(view);
}

const hasBillingContact = ({ billing_details: billing }: CheckoutView): boolean => !!(billing?.billing_name || billing?.billing_email);

/**
 * Whether the customer must give a name and an e-mail: only when the link asks for them, by `default_guest_checkout`
 * or by billing details that name the customer (then shown as the contact, required again if edited). A link with
 * neither leaves the contact optional: nothing stands between the customer and the coins.
 */
export function contactRequired(view: CheckoutView): boolean {
  return view.default_guest_checkout || hasBillingContact(view);
}

/**
 * A contact kept for the link in the session's storage (pay-checkout.ts), or undefined when what was read is not one:
 * storage is the page's, and anything may be there. Nothing stored (null, or storage refused: undefined) and anything
 * but JSON throw in the parse or in the field look-up, and are none.
 */
export function keptContact(stored: string | null | undefined): Contact | undefined {
  try {
    const kept = JSON.parse(stored!) as Contact;
    return CONTACT_FIELDS.every((field) => typeof kept[field] === 'string') ? { name: kept.name, email: kept.email, phone: kept.phone } : undefined;
  } catch {
    return undefined;
  }
}

export type ContactErrors = Partial<Record<ContactField, MessageKey>>;

/**
 * Checks the open guest form with the gateway's own field rules: a name and an e-mail when `required`, and otherwise
 * each field only if given. `customer` is what to send (trimmed, empty fields left out), present only when nothing is
 * invalid; a closed form (the billing contact) is always valid.
 */
export function validateContact(contact: Contact, open: boolean, required = true): { invalid: ContactErrors; customer?: Partial<Contact> } {
  const name = contact.name.trim();
  const email = contact.email.trim();
  const phone = contact.phone.trim();
  const invalid: ContactErrors = {};
  if (open) {
    if ((required && !name) || name.length > 200) invalid.name = 'nameRequired';
    if ((required || email) && !isEmail(email)) invalid.email = 'emailInvalid';
    if (phone && !PHONE.test(phone)) invalid.phone = 'phoneInvalid';
  }
  if (Object.keys(invalid).length) return { invalid };
  return { invalid, customer: Object.fromEntries(Object.entries({ name, email, phone }).filter(([, value]) => value)) };
}

/** The first field to fix, in the form's order. */
export function firstInvalid(invalid: ContactErrors): ContactField | undefined {
  return CONTACT_FIELDS.find((field) => invalid[field]);
}

// ---- payment

/** What the customer still has to send: the remainder once part has arrived (seen or confirmed), else the whole amount. */
export function amountToSend(payment: Payment): string {
  return hasReceived(payment) ? payment.remaining_crypto : payment.amount_crypto;
}

/** Payment URIs a wallet opens, those of a family with a scheme; a bare address (TRON's) gets no link. */
export function walletUri(payment: Payment): string | undefined {
  return walletOf(payment.payment_uri).scheme ? payment.payment_uri : undefined;
}

/** The rate lock runs while the customer may still send: awaiting payment or underpaid. */
export function quoteDeadline(payment: Payment | null): number | null {
  return payment && isIn(QUOTE_OPEN_STATUSES, payment.status) ? Date.parse(payment.quote_expires_at) : null;
}

/** `1.5` with 18 decimals as atomic units, exactly (never through a float). */
export function atomic(amount: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = amount.split('.');
  if (fraction.length > decimals) throw new Error(`${amount} has more than ${decimals} decimals`);
  return BigInt(whole + fraction.padEnd(decimals, '0'));
}

/** Whether anything has arrived yet (seen on the chain, confirmed or not). */
export function hasReceived(payment: Payment): boolean {
  return /[1-9]/.test(payment.received_crypto);
}

/** Whether some of what arrived still waits for its confirmations. */
export function awaitsConfirmation(payment: Payment): boolean {
  return payment.transactions.some((t) => t.confirmations < payment.confirmations_required);
}

/** What names an asset (its ticker and token standard, its network's id and name), and what wallets and receipts need of it. */
export type NamedAsset = Pick<CheckoutAsset, 'asset' | 'network' | 'network_name' | 'testnet' | 'token_standard' | 'token_contract' | 'chain_id' | 'explorer_url' | 'explorer_tx_url' | 'wallet_rpc_url'>;

/**
 * A payment's asset as the view names it; one the gateway no longer offers goes by its ids, a test network in the
 * sandbox (whose networks are, unless configured otherwise).
 */
export function namedAsset(view: CheckoutView, payment: Pick<Payment, 'asset' | 'network'>): NamedAsset {
  const offered = view.methods.flatMap((m) => m.assets).find((a) => assetKey(a) === assetKey(payment));
  return offered ?? { ...payment, network_name: payment.network, testnet: view.environment === 'sandbox', token_standard: null, token_contract: null, chain_id: null, explorer_url: null, explorer_tx_url: null, wallet_rpc_url: null };
}

/** `m:ss` for the countdown. */
export function clock(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
