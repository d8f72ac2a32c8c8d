// No wallet on the page: no wallet button, and none of the wallet code loaded (its own file: its own page, which no
// wallet test has touched).
import { expect } from '@open-wc/testing';
import { mount, part, startPayment } from './helpers/element.js';
import { createLink } from './helpers/server.js';

describe('<pay-checkout> without a browser wallet', () => {
  it('shows no wallet button and loads no wallet code, on an EVM payment', async () => {
    const { payment_link_ref } = await createLink();
    const { el } = await mount(payment_link_ref, { locale: 'en' });
    await startPayment(el, 'ETH:ETHEREUM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(part(el, 'wallet-button'), 'no button').to.equal(undefined);
    expect(part(el, 'browser-wallets'), 'no wallet group').to.equal(undefined);
    const loaded = performance.getEntriesByType('resource').map((entry) => entry.name);
    expect(loaded.filter((name) => /checkout\/wallets\//.test(name)), 'the wallet module was never fetched').to.deep.equal([]);
    expect(loaded.some((name) => /wallet-discovery/.test(name)), 'discovery is part of the element').to.equal(true);
  });
});
