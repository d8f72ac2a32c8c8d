// Resilience: the element reaches the gateway's true status without a reload when its event stream
// drops, the gateway restarts, or the browser goes offline and back; a reload never opens a second payment.
import { expect } from '@open-wc/testing';
import { addressOf, amountCrypto, mount, payingCheckout, untilView } from './helpers/element.js';
import { checkoutView, countPayments, mine, pay, startGateway, stopGateway } from './helpers/server.js';

/** Reconnecting goes through the element's backoff: give it longer than a plain update. */
const RECOVERY_MS = 25_000;

/** A sample link's payment opened in `asset` in a mounted element: where and how much the element asks to be sent. */
async function opened(asset: string) {
  const { el, ref } = await payingCheckout(asset, { locale: 'en' });
  return { el, ref, address: addressOf(el)!, amount: amountCrypto(el)! };
}

describe('<pay-checkout> resilience', () => {
  it('follows the payment to paid after its stream dropped and the gateway restarted', async () => {
    const { el, ref: payment_link_ref, address, amount } = await opened('USDT:TRON');

    // Stopping ends every connection: the element's stream drops, and its retries find nobody for a while.
    await stopGateway();
    await startGateway();
    await pay(address, 'USDT', 'TRON', amount);
    await untilView(el, 'confirming', RECOVERY_MS);
    const { payment } = await checkoutView(payment_link_ref);
    await mine(payment!.confirmations_required, 'TRON');
    await untilView(el, 'paid', RECOVERY_MS);
    await expect(el).to.be.accessible();
  });

  it('catches up after the browser was offline while the payment completed', async () => {
    const { el, ref: payment_link_ref, address, amount } = await opened('BTC:BITCOIN');

    window.dispatchEvent(new Event('offline'));
    await stopGateway();
    await startGateway();
    // Everything happens while the page believes it is offline.
    await pay(address, 'BTC', 'BITCOIN', amount);
    const { payment } = await checkoutView(payment_link_ref);
    await mine(payment!.confirmations_required, 'BITCOIN');
    window.dispatchEvent(new Event('online'));
    await untilView(el, 'paid', RECOVERY_MS);
    await expect(el).to.be.accessible();
  });

  it('shows the same open payment after a reload, without opening a second', async () => {
    const { ref: payment_link_ref, ...first } = await opened('ETH:ETHEREUM');
    first.el.remove();

    const reloaded = await mount(payment_link_ref, { locale: 'en' });
    await untilView(reloaded.el, 'payment');
    expect(addressOf(reloaded.el)).to.equal(first.address);
    expect(await countPayments(payment_link_ref)).to.equal(1);
    await expect(reloaded.el).to.be.accessible();
  });
});
