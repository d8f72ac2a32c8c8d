// The browser side of the gateway plugin (test/helpers/wtr-gateway.ts): typed server commands, and the public
// checkout API read straight from the browser (CORS is open), as the element reads it.
import { executeServerCommand } from '@web/test-runner-commands';
import type { AssetCode, CheckoutView, Network, Payment, PaymentLinkInput, PaymentLinkResponse } from '../../../src/contract/index.js';

let base: Promise<string> | undefined;
/** This engine's gateway, e.g. http://localhost:40123. */
export const gatewayUrl = (): Promise<string> => (base ??= executeServerCommand<string, undefined>('gateway-url'));

/** A signed payment link of the sandbox merchant: sampleLink() (test/helpers/gateway.ts) with these fields replaced. */
export const createLink = (overrides: Partial<PaymentLinkInput> = {}) => executeServerCommand<PaymentLinkResponse, Partial<PaymentLinkInput>>('create-link', overrides);

/** The merchant cancels the link, as its server would. */
export const cancelLink = (payment_link_ref: string) => executeServerCommand<{ status: string }, object>('cancel-link', { payment_link_ref });

/** The test wallet sends `amount` (a decimal string) to `address`; it waits in the mempool until mined. */
export const pay = (address: string, asset: AssetCode, network: Network, amount: string) =>
  executeServerCommand<{ tx_hash: string }, object>('pay', { address, asset, network, amount });

/** Mines blocks now, on one network or on all. */
export const mine = (blocks: number, network?: Network) => executeServerCommand<{ tips: Record<string, number> }, object>('mine', { blocks, network });

export const expireQuote = (payment_id: string) => executeServerCommand<Payment, object>('expire-quote', { payment_id });

/** Opens a payment the way another tab of the customer would (the API, not the element). */
export const openPayment = (payment_link_ref: string, asset: AssetCode, network: Network) =>
  executeServerCommand<Payment, object>('open-payment', { payment_link_ref, asset, network });

/** How many payments the gateway holds for a link (a reload must not open a second). */
export const countPayments = (payment_link_ref: string) => executeServerCommand<number, object>('count-payments', { payment_link_ref });

/** The requests for a link that reached this engine's gateway, in order, as `METHOD /path` (a CORS preflight is an OPTIONS). */
export const requestsFor = (payment_link_ref: string) => executeServerCommand<string[], object>('requests-for', { payment_link_ref });

/** Moves the gateway's clock forward (link and quote expiry without waiting). */
export const advanceClock = (ms: number) => executeServerCommand<string, object>('advance-clock', { ms });

/** Stops this engine's gateway (connections dropped) and starts it again on the same port and data. */
export const stopGateway = () => executeServerCommand<true, undefined>('stop-gateway');
export async function startGateway(): Promise<true> {
  while (!(await executeServerCommand<boolean, undefined>('start-gateway')));
  return true;
}

/** Serves `view` at `${location.origin}/api/checkout/${view.payment_link_ref}`: answers the gateway would never give. */
export const stubCheckout = (view: CheckoutView) => executeServerCommand<true, object>('stub-checkout', { view });

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(new URL(path, await gatewayUrl()), { cache: 'no-store' });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export const checkoutView = (ref: string) => getJson<CheckoutView>(`/api/checkout/${ref}`);
export const payment = (ref: string, paymentId: string) => getJson<Payment>(`/api/checkout/${ref}/payments/${paymentId}`);

/** The link's open or last payment, as the API gives it; fails when there is none. */
export async function paymentOf(ref: string): Promise<Payment> {
  const { payment } = await checkoutView(ref);
  if (!payment) throw new Error(`link ${ref} has no payment`);
  return payment;
}
