// Offline on a phone: the gateway unreachable (every request and the event stream refused) without the browser ever
// firing `offline` or `online`, as a phone that loses its mobile network does. The element says so within 5 s, keeps
// probing (controllers/payment-stream.ts, OFFLINE_RETRY_MS), and is current within 3 s of the money reaching the gateway
// once it is back.
import { expect } from '@open-wc/testing';
import { OFFLINE_RETRY_MS } from '../../src/checkout/controllers/payment-stream.js';
import { addressOf, amountCrypto, mount, part, press, startPayment, textOf, until, untilView, viewOf } from './helpers/element.js';
import { createLink, pay, startGateway, stopGateway } from './helpers/server.js';

/** Counts the element's polls of its payment that got no answer (the gateway was not there). */
function countFailedPolls(): { readonly count: number; restore(): void } {
  const original = window.fetch;
  const counter = { count: 0, restore: () => void (window.fetch = original) };
  window.fetch = (input, init) =>
    original(input, init).catch((error: unknown) => {
      if (String(input instanceof Request ? input.url : input).includes('/payments/')) counter.count++;
      throw error;
    });
  return counter;
}

describe('<pay-checkout> offline', () => {
  it('says the connection is lost within 5 s, and is current within 3 s of the money reaching the gateway once it is back, with no online event', async () => {
    const { el } = await mount((await createLink()).payment_link_ref, { locale: 'en' });
    await startPayment(el, 'USDT:TRON');
    const address = addressOf(el)!;
    const amount = amountCrypto(el)!;
    const polls = countFailedPolls();
    try {
      await stopGateway();
      const cut = performance.now();
      await until(el, 'the offline banner', () => part(el, 'offline') !== undefined, 5_000 - (performance.now() - cut));
      const banner = part(el, 'offline')!;
      expect(banner.getAttribute('role')).to.equal('alert');
      expect(textOf(banner)).to.equal('Connection lost – retrying Check again');
      // Offline long enough for a growing backoff to leave seconds between tries (1, 2, 4, 8 s): four failed probes.
      await until(el, 'four probes while offline', () => polls.count >= 4, 20_000);
      expect(viewOf(el)).to.equal('payment');

      await startGateway();
      await pay(address, 'USDT', 'TRON', amount);
      // Timed from when the gateway holds the money (the test's own calls to start it and pay through it can take
      // seconds on a loaded machine): one offline probe interval, then a second for the answer and the render.
      const paid = performance.now();
      await untilView(el, 'confirming', Math.max(0, OFFLINE_RETRY_MS + 1_000 - (performance.now() - paid)));
      expect(part(el, 'offline'), 'the banner, once the gateway answers').to.equal(undefined);
    } finally {
      polls.restore();
    }
    await expect(el).to.be.accessible();
  });

  it('in Vietnamese, "Kiểm tra lại" reaches the gateway at once once it is back', async () => {
    const { el } = await mount((await createLink()).payment_link_ref, { locale: 'vi' });
    await startPayment(el, 'USDT:TRON');
    await stopGateway();
    await until(el, 'the offline banner', () => part(el, 'offline') !== undefined, 5_000);
    expect(textOf(part(el, 'offline'))).to.equal('Mất kết nối – đang thử lại Kiểm tra lại');
    await expect(el).to.be.accessible();
    await startGateway();
    // The probe every 2 s would clear the banner too: the button's request is told from it by starting before any
    // timer can run, in the microtasks after the click (a time bound here failed in Firefox at a load of 13).
    const original = window.fetch;
    let started = 0;
    window.fetch = (input, init) => {
      started++;
      return original(input, init);
    };
    try {
      press(el, 'check-again');
      for (let turn = 0; turn < 20 && started === 0; turn++) await null;
    } finally {
      window.fetch = original;
    }
    expect(started, 'requests the button started before any timer').to.be.at.least(1);
    await until(el, 'the banner gone', () => part(el, 'offline') === undefined);
    expect(viewOf(el)).to.equal('payment');
  });
});
