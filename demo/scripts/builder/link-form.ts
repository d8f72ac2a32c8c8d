// The link builder's form as data: its fields (every one of the payment link request), and the request a merchant's server would
// send for what was typed. Pure, so node:test checks it (test/demo/link-form.test.ts).
import type { LineDraft, sampleFlags } from './sample-order.js';

export interface FieldDef {
  path: string;
  label: string;
  type?: 'text' | 'email' | 'tel' | 'url' | 'number';
  required?: boolean;
  hint?: string;
  autocomplete?: string;
}

/** Fields sent as JSON numbers when they read as one; anything else is sent as typed, for the gateway to name. */
const NUMERIC = new Set(['amount', 'expiry_hours', 'sandbox_quote_ttl_seconds', 'merchant_details.promo_discount', 'merchant_details.shipping_charges']);

export const ORDER: FieldDef[] = [
  { path: 'merchant_order_id', label: 'Order id (merchant_order_id)', required: true, hint: 'One active or paid link per order: a new id is drawn after each link.' },
  { path: 'description', label: 'Description', required: true },
  { path: 'currency', label: 'Currency', required: true, hint: 'The crypto channel takes VND only: try USD to see the gateway refuse it.' },
  { path: 'country_code', label: 'Country code' },
  {
    path: 'expiry_hours',
    label: 'Expires after (hours)',
    type: 'number',
    required: true,
    hint: '1 to 720. To see a link expire now, use "Expire the link now" once it is created.',
  },
  {
    path: 'sandbox_quote_ttl_seconds',
    label: 'Quote lifetime for this link (seconds, sandbox only)',
    type: 'number',
    hint: '5 to 86400: how long each quote of this link holds its rate. Empty: the gateway’s own (15 minutes unless SANDBOX_QUOTE_TTL_SECONDS says otherwise).',
  },
];

export const MERCHANT: FieldDef[] = [
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

export const party = (kind: 'billing' | 'shipping'): FieldDef[] => [
  { path: `${kind}_details.${kind}_name`, label: 'Name', autocomplete: 'name' },
  { path: `${kind}_details.${kind}_email`, label: 'E-mail', type: 'email', autocomplete: 'email' },
  { path: `${kind}_details.${kind}_phone`, label: 'Phone', type: 'tel', autocomplete: 'tel' },
  ...ADDRESS.map(([name, label, autocomplete]) => ({ path: `${kind}_details.${kind}_address.${name}`, label, autocomplete })),
];

export const REDIRECTS: FieldDef[] = [
  { path: 'success_url', label: 'Success URL', type: 'url', required: true },
  { path: 'failure_url', label: 'Failure URL', type: 'url', required: true },
];

export type Flags = typeof sampleFlags;

/** What each display option does in the element (src/checkout/pay-checkout/pay-checkout.ts). */
export const FLAGS: { path: keyof Flags; label: string; hint: string }[] = [
  { path: 'show_shipping_details', label: 'Show shipping details', hint: 'The order summary shows the shipping address.' },
  { path: 'show_back_button', label: 'Show back button', hint: 'A Back button to the back URL.' },
  {
    path: 'default_guest_checkout',
    label: 'Guest checkout by default',
    hint: 'The contact form starts open for the customer to check or change (filled from the billing details); off, the billing details stand as the contact, with an Edit button.',
  },
  {
    path: 'is_checkout_embed',
    label: 'Embedded checkout',
    hint: 'On a page whose <pay-checkout> has no embedded attribute: an inline card (on) or the full-page layout (off). The hosted page (payment_link) is always full-page; this demo always embeds the card.',
  },
];

const asNumber = (text: string): number | string => (/^-?\d+$/.test(text.trim()) ? Number(text.trim()) : text.trim());
const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined);

/** Σ price × quantity − promo + shipping, as the gateway checks it; undefined while a figure is not a whole number. */
export function orderTotal(lines: readonly LineDraft[], values: Readonly<Record<string, string>>): number | undefined {
  let total = 0;
  for (const line of lines) {
    // A line just added, its price not typed yet, adds nothing: the total (and the amount) keep following the rest.
    if (!line.price.trim()) continue;
    const price = whole(line.price);
    const quantity = whole(line.quantity);
    if (price === undefined || quantity === undefined) return undefined;
    total += price * quantity;
  }
  const promo = whole(values['merchant_details.promo_discount'] || '0');
  const shipping = whole(values['merchant_details.shipping_charges'] || '0');
  return promo === undefined || shipping === undefined ? undefined : total - promo + shipping;
}

/** The request body as a merchant's server would send it (the demo's server adds svc_key and the signature). */
export function linkRequest(values: Readonly<Record<string, string>>, lines: readonly LineDraft[], flags: Flags, amount: string): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [path, raw] of Object.entries(values)) {
    if (raw.trim() === '') continue;
    setPath(body, path, NUMERIC.has(path) ? asNumber(raw) : raw.trim());
  }
  body.amount = asNumber(amount);
  body.order_details = lines.map((line) => ({
    id: line.id.trim(),
    name: line.name.trim(),
    price: asNumber(line.price),
    quantity: asNumber(line.quantity),
    ...(line.image.trim() && { image: line.image.trim() }),
  }));
  return { ...body, ...flags };
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[keys.at(-1)!] = value;
}
