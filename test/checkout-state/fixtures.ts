// Checkout views and payments as the gateway sends them, for the element's pure logic (no gateway, no DOM).
import type { ChainTransaction, CheckoutAsset, CheckoutView, Payment } from '../../src/contract/checkout.js';

export function checkoutView(overrides: Partial<CheckoutView> = {}): CheckoutView {
  return {
    payment_link_ref: 'pl_test',
    status: 'active',
    expires_at: '2026-11-23T00:00:00.000Z',
    merchant_order_id: 'order-1',
    description: 'Cà phê',
    amount: 360_000,
    currency: 'VND',
    order_details: [{ id: 'sku-1', name: 'Cà phê hạt 500 g', price: 180_000, quantity: 2 }],
    merchant_details: { name: 'Cà Phê Sữa Đá' },
    billing_details: { billing_name: 'Nguyễn Văn An', billing_email: 'an@example.com' },
    show_shipping_details: false,
    show_back_button: false,
    default_guest_checkout: false,
    is_checkout_embed: false,
    methods: [
      {
        pmt_channel: 'PROVIDER',
        pmt_method: 'PROVIDER_CRYPTO',
        assets: [
          checkoutAsset({ asset: 'ETH', network: 'ETHEREUM', decimals: 18, quote_decimals: 6, label: 'ETH (Ethereum Sepolia)', network_name: 'Ethereum Sepolia', token_standard: null, chain_id: 11155111 }),
          checkoutAsset(),
          checkoutAsset({ asset: 'BTC', network: 'BITCOIN', decimals: 8, quote_decimals: 8, label: 'BTC (Bitcoin)', network_name: 'Bitcoin', token_standard: null }),
        ],
      },
    ],
    payment: null,
    received_vnd: 0,
    receipt_url: null,
    failure_redirect_url: 'https://shop.example/failure?signature=x',
    environment: 'sandbox',
    sandbox: true,
    ...overrides,
  };
}

/** An asset the gateway offers, available, with these fields replaced (USDT on TRON unless told). */
export function checkoutAsset(overrides: Partial<CheckoutAsset> = {}): CheckoutAsset {
  return {
    asset: 'USDT',
    network: 'TRON',
    decimals: 6,
    quote_decimals: 2,
    label: 'USDT · TRC-20 (TRON)',
    network_name: 'TRON',
    testnet: true,
    token_standard: 'TRC-20',
    chain_id: null,
    token_contract: null,
    explorer_url: null,
    explorer_tx_url: null,
    available: true,
    wallet_rpc_url: null,
    ...overrides,
  };
}

export function payment(overrides: Partial<Payment> = {}): Payment {
  return {
    payment_id: 'pay_1',
    status: 'awaiting_payment',
    overpaid: false,
    asset: 'USDT',
    network: 'TRON',
    address: 'TXYZ',
    amount_crypto: '14.24',
    amount_vnd: 360_000,
    rate: '25280',
    quote_expires_at: '2026-11-22T10:15:00.000Z',
    payment_uri: 'TXYZ',
    confirmations_required: 3,
    received_crypto: '0',
    remaining_crypto: '14.24',
    remaining_vnd: 360_000,
    held_vnd: 0,
    credited_vnd: 0,
    transactions: [],
    paid_at: null,
    superseded_at: null,
    accepted_at: null,
    reorged_at: null,
    success_redirect_url: null,
    created_at: '2026-11-22T10:00:00.000Z',
    ...overrides,
  };
}

export function transaction(confirmations: number, overrides: Partial<ChainTransaction> = {}): ChainTransaction {
  return { tx_hash: `0x${confirmations}`, amount_crypto: '1', confirmations, seen_at: '2026-11-22T10:01:00.000Z', confirmed_at: null, ...overrides };
}
