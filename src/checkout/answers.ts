// The gateway's answers checked in the browser against the checkout contract, without zod: the zod schemas of
// src/contract/checkout.ts cost the element a third of its weight and their construction delayed the first paint.
// Each check here mirrors one schema, with the same rules (src/contract/rules.ts); test/checkout-state/answers.test.ts
// shows with generated valid and invalid answers that these checks and the gateway's zod schemas accept and reject
// the same answers, and name the same fields.
import type { CheckoutView as View, Payment as PaymentAnswer } from '../contract/checkout.js';
import type { Problem as ProblemAnswer } from '../contract/problem.js';
import { BIDI_CONTROL, COUNTRY_CODE, DECIMAL, ENVIRONMENTS, LANGUAGE, LINK_STATUSES, PAYMENT_STATUSES } from '../contract/rules.js';

/** Checks `value`, adding the path of each field that breaks a rule to `issues` (`order_details.0.price`). */
type Check = (value: unknown, path: string, issues: string[]) => void;

/** An answer that passed: typed as the schema's output. */
export type Checked<T> = { success: true; data: T } | { success: false; issues: string[] };

const test =
  (rule: (value: unknown) => boolean): Check =>
  (value, path, issues) => {
    if (!rule(value)) issues.push(path);
  };

const isString = (value: unknown): value is string => typeof value === 'string';
const string = test(isString);
const matching = (pattern: RegExp) => test((value) => isString(value) && pattern.test(value));
/** A string of at most `max` characters without bidirectional controls (fields.ts, `text(max)`). */
const text = (max: number) => test((value) => isString(value) && value.length <= max && !BIDI_CONTROL.test(value));
const int = test(Number.isSafeInteger);
const boolean = test((value) => typeof value === 'boolean');
const oneOf = (values: readonly unknown[]) => test((value) => values.includes(value));

const optional =
  (check: Check): Check =>
  (value, path, issues) => {
    if (value !== undefined) check(value, path, issues);
  };

const nullable =
  (check: Check): Check =>
  (value, path, issues) => {
    if (value !== null) check(value, path, issues);
  };

const at = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

const array =
  (check: Check): Check =>
  (value, path, issues) => {
    if (!Array.isArray(value)) return void issues.push(path);
    value.forEach((item, index) => check(item, at(path, index), issues));
  };

/** Known fields checked; unknown ones are left alone (zod drops them, and the element never reads them). */
const object =
  (shape: Record<string, Check>): Check =>
  (value, path, issues) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return void issues.push(path);
    for (const [key, check] of Object.entries(shape)) check((value as Record<string, unknown>)[key], at(path, key), issues);
  };

const decimal = matching(DECIMAL);

const address = object({
  city: optional(text(100)),
  country_code: optional(matching(COUNTRY_CODE)),
  locale: optional(matching(LANGUAGE)),
  line_1: optional(text(200)),
  line_2: optional(text(200)),
  postal_code: optional(text(20)),
  state: optional(text(100)),
});

const payment = object({
  payment_id: string,
  status: oneOf(PAYMENT_STATUSES),
  overpaid: boolean,
  // Networks and assets are the gateway's configuration: any string (src/contract/assets.ts).
  asset: string,
  network: string,
  address: string,
  amount_crypto: decimal,
  amount_vnd: int,
  rate: decimal,
  quote_expires_at: string,
  payment_uri: string,
  confirmations_required: int,
  received_crypto: decimal,
  remaining_crypto: decimal,
  remaining_vnd: int,
  held_vnd: int,
  credited_vnd: int,
  transactions: array(
    object({ tx_hash: string, amount_crypto: decimal, confirmations: int, seen_at: string, confirmed_at: nullable(string) }),
  ),
  paid_at: nullable(string),
  superseded_at: nullable(string),
  accepted_at: nullable(string),
  reorged_at: nullable(string),
  success_redirect_url: nullable(string),
  created_at: string,
});

const view = object({
  payment_link_ref: string,
  status: oneOf(LINK_STATUSES),
  expires_at: string,
  merchant_order_id: string,
  description: string,
  amount: int,
  currency: oneOf(['VND']),
  order_details: array(object({ id: string, name: string, price: int, quantity: int, image: optional(string) })),
  merchant_details: object({
    name: optional(string),
    logo: optional(string),
    back_url: optional(string),
    promo_code: optional(string),
    promo_discount: optional(int),
    shipping_charges: optional(int),
  }),
  billing_details: optional(
    object({ billing_name: optional(string), billing_email: optional(string), billing_phone: optional(string), billing_address: optional(address) }),
  ),
  shipping_details: optional(
    object({ shipping_name: optional(string), shipping_email: optional(string), shipping_phone: optional(string), shipping_address: optional(address) }),
  ),
  show_shipping_details: boolean,
  show_back_button: boolean,
  default_guest_checkout: boolean,
  is_checkout_embed: boolean,
  methods: array(
    object({
      pmt_channel: oneOf(['PROVIDER']),
      pmt_method: oneOf(['PROVIDER_CRYPTO']),
      assets: array(
        object({
          asset: string,
          network: string,
          decimals: int,
          quote_decimals: int,
          label: string,
          network_name: string,
          testnet: boolean,
          token_standard: nullable(string),
          chain_id: nullable(int),
          token_contract: nullable(string),
          explorer_url: nullable(string),
          explorer_tx_url: nullable(string),
          available: boolean,
          wallet_rpc_url: nullable(string),
          withdrawal_fee: optional(nullable(decimal)),
        }),
      ),
    }),
  ),
  payment: nullable(payment),
  received_vnd: int,
  receipt_url: nullable(string),
  failure_redirect_url: string,
  tolerance_bps: optional(int),
  environment: oneOf(ENVIRONMENTS),
  sandbox: boolean,
});

const problem = object({ type: optional(string), title: string, status: int, detail: optional(string), errors: optional(array(object({ path: string, message: string }))) });

const checker =
  <T>(check: Check) =>
  (value: unknown): Checked<T> => {
    const issues: string[] = [];
    check(value, '', issues);
    return issues.length ? { success: false, issues: issues.map((path) => path || '(body)') } : { success: true, data: value as T };
  };

export const checkView = checker<View>(view);
export const checkPayment = checker<PaymentAnswer>(payment);
export const checkProblem = checker<ProblemAnswer>(problem);
