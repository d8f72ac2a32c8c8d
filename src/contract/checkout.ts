// The checkout API (docs/api.md, "Checkout API"): what the element reads. Public, CORS open; the ref is the bearer secret.
// The element validates every answer with these schemas, so they are zod/mini and import nothing server-side.
import * as z from 'zod/mini';
import { assetCode, email, expected, networkId, object, phone, text } from './fields.js';
import { Address } from './payment-link.js';
import { DECIMAL, ENVIRONMENTS, LINK_STATUSES, PAYMENT_STATUSES, type Environment, type LinkStatus, type PaymentStatus } from './rules.js';

export { ENVIRONMENTS, LINK_STATUSES, PAYMENT_STATUSES, type Environment, type LinkStatus, type PaymentStatus };

const decimal = z.string().check(z.regex(DECIMAL, 'must be a decimal string'));

export const ChainTransaction = z.object({
  tx_hash: z.string(),
  amount_crypto: decimal,
  confirmations: z.int(),
  /** When the gateway first saw it (in the mempool): whether it came in time is decided by this. */
  seen_at: z.string(),
  /** When it reached the payment's required confirmations; null before. */
  confirmed_at: z.nullable(z.string()),
});
export type ChainTransaction = z.infer<typeof ChainTransaction>;

export const Payment = z.object({
  payment_id: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  /** Set on a paid payment that received more than was due. */
  overpaid: z.boolean(),
  asset: z.string(),
  network: z.string(),
  address: z.string(),
  amount_crypto: decimal,
  amount_vnd: z.int(),
  /** VND per unit of the asset, locked for this quote. */
  rate: decimal,
  quote_expires_at: z.string(),
  /** What the QR encodes: BIP21, EIP-681, or the bare address for TRON. */
  payment_uri: z.string(),
  confirmations_required: z.int(),
  /** Everything seen at the address, confirmed or not. */
  received_crypto: decimal,
  /** What is still to send, rounded up to the quote's precision; "0" once the payment is complete. */
  remaining_crypto: decimal,
  /** The same in VND at the locked rate, rounded up; 0 once the payment is complete. */
  remaining_vnd: z.int(),
  /**
   * VND of this payment's confirmed money that the link does not need, held for the merchant to accept or return:
   * all of it for a payment that did not pay the link, the excess for an overpaid one.
   */
  held_vnd: z.int(),
  /**
   * VND of this payment's money that counts toward its link: what came before its quote closed, at its rate (its whole
   * amount_vnd once complete). A partial payment whose quote ran out keeps it: the link's next payment is quoted for
   * the rest (docs/payment-lifecycle.md, "Credit across quotes").
   */
  credited_vnd: z.int(),
  transactions: z.array(ChainTransaction),
  /** When it became paid (or, held, paid_late); null before. */
  paid_at: z.nullable(z.string()),
  /** When another payment of the link (or a newer link for the order) closed this quote early; null otherwise. */
  superseded_at: z.nullable(z.string()),
  /** When the merchant accepted this held payment; null otherwise. */
  accepted_at: z.nullable(z.string()),
  /**
   * When a reorganisation of its chain took back money of this payment after it was paid (the merchant heard it as
   * payment.reorged); its status then says what the chain shows now. Null otherwise.
   */
  reorged_at: z.nullable(z.string()),
  /** The signed `success_url` to follow once the payment is paid; null before. */
  success_redirect_url: z.nullable(z.string()),
  created_at: z.string(),
});
export type Payment = z.infer<typeof Payment>;

export const CheckoutAsset = z.object({
  asset: z.string(),
  network: z.string(),
  decimals: z.int(),
  /** Decimal places of its quotes (USDT 2, ETH 6, BTC 8). */
  quote_decimals: z.int(),
  label: z.string(),
  /** The network as a customer reads it: "Ethereum Sepolia". */
  network_name: z.string(),
  /** A test network (Sepolia, the sandbox's simulated ones), as the gateway is configured: its coins are worth nothing. */
  testnet: z.boolean(),
  /** The token standard a wallet names (TRC-20, ERC-20, BEP-20); null for the network's own coin. */
  token_standard: z.nullable(z.string()),
  /** EIP-155 chain id of an EVM network; null elsewhere. */
  chain_id: z.nullable(z.int()),
  /** The token's contract; null for the network's own coin. */
  token_contract: z.nullable(z.string()),
  /** The network's block explorer; null when the network has none. */
  explorer_url: z.nullable(z.string()),
  /**
   * The explorer's page of one transaction, with `{hash}` where the transaction's hash goes (each explorer has its own
   * form: `https://sepolia.etherscan.io/tx/{hash}`, `https://nile.tronscan.org/#/transaction/{hash}`); null when the
   * network has no explorer.
   */
  explorer_tx_url: z.nullable(z.string()),
  /** False while the gateway cannot see the network (its node is unreachable or behind): no new payment opens on it. */
  available: z.boolean(),
  /**
   * An EVM network a browser wallet can pay on: the RPC URL the wallet is told to add it with (EIP-3085) when it does
   * not know the chain. Null where a browser wallet cannot pay (a simulated network, or not an EVM one).
   */
  wallet_rpc_url: z.nullable(z.string()),
  /**
   * What exchanges usually take to withdraw the asset on this network, in units of the asset (the gateway's
   * WITHDRAWAL_FEES, docs/networks.md): the element tells a customer paying from an exchange to type the amount plus
   * this. Null when none is configured; optional only because a gateway older than it, in a rolling upgrade, leaves it out.
   */
  withdrawal_fee: z.optional(z.nullable(decimal)),
});
export type CheckoutAsset = z.infer<typeof CheckoutAsset>;

export const CheckoutMethod = z.object({
  pmt_channel: z.literal('PROVIDER'),
  pmt_method: z.literal('PROVIDER_CRYPTO'),
  assets: z.array(CheckoutAsset),
});
export type CheckoutMethod = z.infer<typeof CheckoutMethod>;

const Line = z.object({
  id: z.string(),
  name: z.string(),
  price: z.int(),
  quantity: z.int(),
  image: z.optional(z.string()),
});

/** GET /api/checkout/{ref}: the customer's view of a link. Never merchant secrets. */
export const CheckoutView = z.object({
  payment_link_ref: z.string(),
  status: z.enum(LINK_STATUSES),
  expires_at: z.string(),
  merchant_order_id: z.string(),
  description: z.string(),
  amount: z.int(),
  currency: z.literal('VND'),
  order_details: z.array(Line),
  merchant_details: z.object({
    name: z.optional(z.string()),
    logo: z.optional(z.string()),
    back_url: z.optional(z.string()),
    promo_code: z.optional(z.string()),
    promo_discount: z.optional(z.int()),
    shipping_charges: z.optional(z.int()),
  }),
  billing_details: z.optional(
    z.object({
      billing_name: z.optional(z.string()),
      billing_email: z.optional(z.string()),
      billing_phone: z.optional(z.string()),
      billing_address: z.optional(Address),
    }),
  ),
  /** Present only when the link shows shipping details. */
  shipping_details: z.optional(
    z.object({
      shipping_name: z.optional(z.string()),
      shipping_email: z.optional(z.string()),
      shipping_phone: z.optional(z.string()),
      shipping_address: z.optional(Address),
    }),
  ),
  show_shipping_details: z.boolean(),
  show_back_button: z.boolean(),
  default_guest_checkout: z.boolean(),
  is_checkout_embed: z.boolean(),
  methods: z.array(CheckoutMethod),
  /** The open payment, or the last one; null before the first. */
  payment: z.nullable(Payment),
  /**
   * VND of the order that money sent to quotes now closed covers, each at its own quote's rate (seen in time,
   * confirmed or not): a new payment is quoted for the rest, `amount − received_vnd` (docs/payment-lifecycle.md,
   * "Credit across quotes").
   */
  received_vnd: z.int(),
  /**
   * A page the customer can open again, print or save, listing what they sent and its transactions (GET /receipt);
   * null until money reached one of the link's addresses.
   */
  receipt_url: z.nullable(z.string()),
  /** The signed `failure_url` to follow when the customer gives up or the link expires. */
  failure_redirect_url: z.string(),
  /**
   * A payment short of its amount by at most this many basis points counts as paid (SANDBOX_TOLERANCE_BPS; 50 is
   * 0.5%). Optional only because a gateway older than it, in a rolling upgrade, leaves it out.
   */
  tolerance_bps: z.optional(z.int()),
  /** The gateway's environment (GATEWAY_ENV): in the sandbox the element marks its coins as test coins; live, nothing. */
  environment: z.enum(ENVIRONMENTS),
  /** `environment` is `sandbox`: kept for the clients that read it before `environment` came. */
  sandbox: z.boolean(),
});
export type CheckoutView = z.infer<typeof CheckoutView>;

/** The contact the customer gives (guest checkout) or confirms (billing details). */
export const Customer = object({
  name: z.optional(text(200)),
  email: z.optional(email),
  phone: z.optional(phone),
});
export type Customer = z.infer<typeof Customer>;

/** POST /api/checkout/{ref}/payments. */
export const OpenPaymentRequest = object({
  pmt_channel: z.literal('PROVIDER', expected('PROVIDER')),
  pmt_method: z.literal('PROVIDER_CRYPTO', expected('PROVIDER_CRYPTO')),
  asset: assetCode,
  network: networkId,
  customer: z.optional(Customer),
});
export type OpenPaymentRequest = z.infer<typeof OpenPaymentRequest>;
