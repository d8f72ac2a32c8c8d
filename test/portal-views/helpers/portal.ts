// Fixed data for the portal's views (demo/scripts/portal, demo/scripts/webhooks), and a stand-in for the demo's
// server: the views fetch through demo/scripts/lib/api.ts, so a test answers those requests itself, no gateway.
import type { PageLanguage } from '../../../demo/scripts/lib/vnd.js';
import type { LinkRefund, MerchantPayment, PaymentLinkResource } from '../../../src/contract/index.js';

const AT = '2026-11-22T03:04:05.000Z';

export function payment(fields: Partial<MerchantPayment> = {}): MerchantPayment {
  return {
    payment_id: 'pay_1',
    status: 'paid',
    overpaid: false,
    asset: 'USDT',
    network: 'ETHEREUM',
    address: '0x1111111111111111111111111111111111111111',
    amount_crypto: '3.81',
    amount_vnd: 100_000,
    rate: '26218.25',
    quote_expires_at: AT,
    payment_uri: 'ethereum:0x1111111111111111111111111111111111111111',
    confirmations_required: 2,
    received_crypto: '3.81',
    remaining_crypto: '0',
    remaining_vnd: 0,
    held_vnd: 0,
    credited_vnd: 100_000,
    transactions: [{ tx_hash: `0x${'ab'.repeat(32)}`, amount_crypto: '3.81', confirmations: 2, seen_at: AT, confirmed_at: AT }],
    paid_at: AT,
    superseded_at: null,
    accepted_at: null,
    reorged_at: null,
    success_redirect_url: null,
    created_at: AT,
    refund_address: '0x2222222222222222222222222222222222222222',
    rate_provenance: null,
    ...fields,
  };
}

export function refund(amount: number, fields: Partial<LinkRefund> = {}): LinkRefund {
  return {
    refund_date: AT,
    refund_id: `ref_${amount}`,
    psp_refund_id: '',
    amount,
    currency: 'VND',
    refund_status: 'SUCCESS',
    refund_type: 'partial',
    refund_reason: 'Customer asked for a refund',
    claim_url: null,
    payment_id: 'pay_1',
    ...fields,
  };
}

export function link(orderId: string, fields: Partial<PaymentLinkResource> = {}): PaymentLinkResource {
  return {
    payment_link_ref: `pl_${orderId}`,
    payment_link: `https://pay.example/${orderId}`,
    merchant_order_id: orderId,
    status: 'paid',
    amount: 100_000,
    currency: 'VND',
    description: 'Cà phê',
    created_at: AT,
    expires_at: AT,
    paid_at: AT,
    superseded_at: null,
    cancelled_at: null,
    customer: { name: 'Nguyễn Văn A', email: 'a@example.com' },
    payments: [payment()],
    refunds: [],
    amountToRefund: 100_000,
    ...fields,
  };
}

/** The order of every status the list tells apart: paid, partly refunded, refunded, holding money, expired. */
export const ORDERS = {
  paid: link('ORD-PAID'),
  partlyRefunded: link('ORD-PART', {
    amount: 530_000,
    payments: [payment({ amount_vnd: 530_000, credited_vnd: 530_000 })],
    refunds: [refund(100_000)],
    amountToRefund: 430_000,
  }),
  refunded: link('ORD-REFUNDED', { refunds: [refund(100_000, { refund_type: 'full' })], amountToRefund: 0 }),
  // Paid in full after its quote ran out: held for the merchant to accept or refund.
  holding: link('ORD-HELD', {
    status: 'expired',
    paid_at: null,
    payments: [payment({ payment_id: 'pay_held', status: 'paid_late', held_vnd: 100_000, credited_vnd: 0, paid_at: null })],
    amountToRefund: 100_000,
  }),
  expired: link('ORD-EXPIRED', { status: 'expired', paid_at: null, customer: null, payments: [], amountToRefund: 0 }),
} satisfies Record<string, PaymentLinkResource>;

export interface Sent {
  method: string;
  url: URL;
  body: unknown;
}

/**
 * Answers the page's requests with `answer(method, path)` (JSON), recording each; the session asked for by every
 * change is answered here. Returns what was sent, and puts the real fetch back on `restore`.
 */
export function stubFetch(answer: (method: string, url: URL) => unknown): { sent: Sent[]; restore: () => void } {
  const real = window.fetch;
  const sent: Sent[] = [];
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), location.origin);
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const reply = url.pathname === '/demo/api/session' ? { csrf_token: 'token' } : answer(method, url);
    sent.push({ method, url, body });
    return new Response(JSON.stringify(reply), { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
  return { sent, restore: () => void (window.fetch = real) };
}

/** What a person reads in an element: its text with every run of spaces (non-breaking ones too) as one space. */
export const shown = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

/** Sets the page's language, as `<html lang>` does on the portal. */
export const pageIn = (language: PageLanguage) => void (document.documentElement.lang = language);

/** Types into a field as a person does: its value, then an input event. */
export function typeInto(field: HTMLInputElement, text: string): void {
  field.value = text;
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/** Chooses an option of a select as a person does: its value, then a change event. */
export function choose(field: HTMLSelectElement, value: string): void {
  field.value = value;
  field.dispatchEvent(new Event('change', { bubbles: true }));
}
