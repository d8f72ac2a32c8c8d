// Networks are the gateway's configuration: a network the element was never told about (BNB Smart Chain Testnet) is
// named by the view in both languages, a network is a test network only when the view says so (Ethereum on chain 1
// is not Sepolia, whatever its id), an asset whose network the gateway cannot see is shown and cannot be picked,
// and a 503 to opening a payment is told as that coin's network out of reach, with the checkout still usable.
import { expect } from '@open-wc/testing';
import type { CheckoutAsset, CheckoutView, Payment } from '../../src/contract/index.js';
import { control, mount, part, parts, partOf, press, shownTexts, startPayment, textOf, until, untilView, viewOf } from './helpers/element.js';
import { payment as paymentFixture } from '../checkout-state/fixtures.js';
import { englishWords } from './helpers/english.js';
import { checkoutView, createLink, stubCheckout } from './helpers/server.js';

const BSC: Omit<CheckoutAsset, 'available'> = {
  asset: 'USDT',
  network: 'BSC_TESTNET',
  decimals: 18,
  quote_decimals: 2,
  label: 'USDT · BEP-20 (BNB Smart Chain Testnet)',
  network_name: 'BNB Smart Chain Testnet',
  testnet: true,
  token_standard: 'BEP-20',
  chain_id: 97,
  token_contract: '0x337610d27c682E347C9cD60BD4b3b107C9d34dDd',
  explorer_url: 'https://testnet.bscscan.com',
  explorer_tx_url: 'https://testnet.bscscan.com/tx/{hash}',
  wallet_rpc_url: 'https://data-seed-prebsc-1-s1.bnbchain.org:8545',
};

/** A real link's view, served from the test server's origin with its assets changed (its payments are refused there). */
async function stubbedView(assets: (view: CheckoutView) => CheckoutAsset[], payment: Payment | null = null): Promise<CheckoutView> {
  const { payment_link_ref } = await createLink();
  const real = await checkoutView(payment_link_ref);
  const view: CheckoutView = { ...real, payment_link_ref: `stub_${payment_link_ref}`, methods: [{ ...real.methods[0]!, assets: assets(real) }], payment };
  await stubCheckout(view);
  return view;
}

const cardOf = (el: HTMLElement, key: string) => control(el, `input[type="radio"][value="${key}"]`).closest('[part~="asset-option"]')!;

/** The English words of the element's Vietnamese texts, the network's proper name and the link's own texts aside. */
function englishInVietnamese(el: HTMLElement, allowed: string[]): string[] {
  return shownTexts(el)
    .filter((t) => t.lang === 'vi')
    .flatMap((t) => englishWords(t.text, allowed).map((word) => `${word} in "${t.text}"`));
}

describe('<pay-checkout> networks from the gateway', () => {
  it('names a network it does not know by the view, in Vietnamese and in English, on the card and the payment', async () => {
    const view = await stubbedView((real) => [...real.methods[0]!.assets, { ...BSC, available: true }]);
    const { el } = await mount(view.payment_link_ref, { locale: 'vi', apiBase: location.origin });
    await untilView(el, 'order');
    expect(textOf(cardOf(el, 'USDT:BSC_TESTNET'))).to.equal('USDT BEP-20 · mạng BNB Smart Chain Testnet');
    expect(textOf(cardOf(el, 'USDT:TRON')), 'a built-in chain keeps its translation').to.equal('USDT TRC-20 · mạng TRON');
    const billing = view.billing_details;
    const own = [view.merchant_details.name, view.description, view.merchant_order_id, billing?.billing_name, billing?.billing_email, billing?.billing_phone];
    const allowed = [BSC.network_name, ...view.order_details.map((l) => l.name), ...own.filter((t): t is string => !!t)];
    expect(englishInVietnamese(el, allowed), 'English in the Vietnamese order').to.deep.equal([]);
    press(el, 'language-switch');
    await until(el, 'English', () => partOf(el, 'card').getAttribute('lang') === 'en');
    expect(textOf(cardOf(el, 'USDT:BSC_TESTNET'))).to.equal('USDT BEP-20 · BNB Smart Chain Testnet network');
    expect(textOf(cardOf(el, 'USDT:TRON'))).to.equal('USDT TRC-20 · TRON network');
    await expect(el).to.be.accessible();
  });

  it('names the network of a payment on it in the network chip, the network warning and the receipt', async () => {
    const address = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';
    const now = new Date().toISOString();
    const payment = paymentFixture({
      payment_id: 'pay_bsc',
      network: 'BSC_TESTNET',
      address,
      quote_expires_at: new Date(Date.now() + 600_000).toISOString(),
      payment_uri: `ethereum:${BSC.token_contract}@97/transfer?address=${address}&uint256=14240000000000000000`,
      created_at: now,
    });
    const withBsc = (real: CheckoutView) => [...real.methods[0]!.assets, { ...BSC, available: true }];
    const awaiting = await stubbedView(withBsc, payment);
    const paying = await mount(awaiting.payment_link_ref, { locale: 'vi', apiBase: location.origin });
    await untilView(paying.el, 'payment');
    expect(textOf(partOf(paying.el, 'network-chip'))).to.equal('Mạng thử nghiệm BNB Smart Chain Testnet (BEP-20)');
    expect(textOf(partOf(paying.el, 'network-warning'))).to.include('qua mạng thử nghiệm BNB Smart Chain Testnet');
    press(paying.el, 'language-switch');
    await until(paying.el, 'English', () => textOf(part(paying.el, 'network-warning')).includes('on the BNB Smart Chain Testnet test network'));
    await expect(paying.el).to.be.accessible();

    const transaction = { tx_hash: `0x${'ab'.repeat(32)}`, amount_crypto: '14.24', confirmations: 3, seen_at: now, confirmed_at: now };
    const paid = await stubbedView(withBsc, { ...payment, status: 'paid', received_crypto: '14.24', remaining_crypto: '0', remaining_vnd: 0, transactions: [transaction], paid_at: now });
    const { el } = await mount(paid.payment_link_ref, { locale: 'vi', apiBase: location.origin });
    await untilView(el, 'paid');
    expect(textOf(partOf(el, 'receipt'))).to.include('14,24 USDT · BEP-20').and.include('mạng thử nghiệm BNB Smart Chain Testnet');
    expect(partOf(el, 'explorer-link').getAttribute('href'), "the network's explorer, from the view").to.equal(`https://testnet.bscscan.com/tx/${transaction.tx_hash}`);
    press(el, 'language-switch');
    await until(el, 'English', () => textOf(partOf(el, 'receipt')).includes('BNB Smart Chain Testnet test network'));
  });

  it('names Ethereum on chain 1 as the main network it is, and a test network only where the view says so', async () => {
    const address = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';
    const contract = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
    // The gateway's view of Ethereum on a chain 1 node (ETHEREUM_CHAIN_ID=1): the same network id as the sandbox's Sepolia.
    const mainnet = (a: CheckoutAsset): CheckoutAsset =>
      a.network === 'ETHEREUM'
        ? { ...a, network_name: 'Ethereum', testnet: false, chain_id: 1, label: a.label.replace('Ethereum Sepolia', 'Ethereum'), explorer_url: 'https://etherscan.io', explorer_tx_url: 'https://etherscan.io/tx/{hash}', token_contract: a.token_contract && contract }
        : a;
    const payment = paymentFixture({
      payment_id: 'pay_mainnet',
      network: 'ETHEREUM',
      address,
      quote_expires_at: new Date(Date.now() + 600_000).toISOString(),
      payment_uri: `ethereum:${contract}@1/transfer?address=${address}&uint256=14240000`,
      created_at: new Date().toISOString(),
    });
    const view = await stubbedView((real) => real.methods[0]!.assets.map(mainnet), payment);
    const { el } = await mount(view.payment_link_ref, { locale: 'vi', apiBase: location.origin });
    await untilView(el, 'payment');
    const card = textOf(partOf(el, 'card'));
    expect(textOf(partOf(el, 'network-chip'))).to.equal('Mạng Ethereum (ERC-20)');
    expect(card, 'no test network named').not.to.include('thử nghiệm').and.not.to.include('Sepolia');
    expect(textOf(partOf(el, 'network-warning'))).to.include('qua mạng Ethereum đến');
    press(el, 'language-switch');
    await until(el, 'English', () => partOf(el, 'card').getAttribute('lang') === 'en');
    expect(textOf(partOf(el, 'network-warning'))).to.include('on the Ethereum network');
    expect(textOf(partOf(el, 'card'))).not.to.include('test network').and.not.to.include('Sepolia');
    await expect(el).to.be.accessible();

    // The sandbox's own Ethereum, as the gateway describes it: Sepolia, a test network.
    const sepolia = await stubbedView((real) => real.methods[0]!.assets, { ...payment, payment_id: 'pay_sepolia', payment_uri: `ethereum:${contract}@11155111/transfer?address=${address}&uint256=14240000` });
    const test = await mount(sepolia.payment_link_ref, { locale: 'en', apiBase: location.origin });
    await untilView(test.el, 'payment');
    expect(textOf(partOf(test.el, 'network-warning'))).to.include('on the Ethereum Sepolia test network');
  });

  it('shows an asset the gateway cannot take now (its network out of sight, or no rate) as unavailable, and never picks it', async () => {
    const view = await stubbedView((real) => real.methods[0]!.assets.map((a) => (a.network === 'TRON' ? { ...a, available: false } : a)));
    const { el } = await mount(view.payment_link_ref, { locale: 'vi', apiBase: location.origin });
    await untilView(el, 'order');
    const tron = control(el, 'input[type="radio"][value="USDT:TRON"]');
    expect(tron.disabled, 'the TRON asset cannot be picked').to.equal(true);
    expect(tron.checked).to.equal(false);
    expect(textOf(cardOf(el, 'USDT:TRON'))).to.include('Tạm thời không dùng được');
    expect(textOf(cardOf(el, 'USDT:ETHEREUM')), 'the others say nothing of the kind').not.to.include('Tạm thời');
    const picked = parts(el, 'asset-option').map((card) => card.querySelector('input')!).find((input) => input.checked);
    expect(picked?.value, 'the first available asset is picked').to.equal('USDT:ETHEREUM');
    tron.click();
    expect(tron.checked, 'a click does not pick it').to.equal(false);
    await expect(el).to.be.accessible();

    press(el, 'language-switch');
    await until(el, 'English', () => partOf(el, 'card').getAttribute('lang') === 'en');
    expect(textOf(cardOf(el, 'USDT:TRON'))).to.include('Unavailable right now');
  });

  it('says the coin cannot be used right now when opening a payment is answered 503, and stays usable', async () => {
    const { payment_link_ref } = await createLink();
    const fetch = window.fetch;
    let refuse = true;
    // The gateway's answer while the network's node is out of sight (docs/api.md): 503 problem+json with Retry-After.
    window.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (refuse && init?.method === 'POST' && url.endsWith('/payments')) {
        const problem = { type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'TRON (TRON) cannot be reached right now.' };
        return Promise.resolve(new Response(JSON.stringify(problem), { status: 503, headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '5' } }));
      }
      return fetch(input, init);
    };
    try {
      const { el, events } = await mount(payment_link_ref, { locale: 'vi' });
      await untilView(el, 'order');
      press(el, 'pay-button');
      await until(el, 'the refusal shown', () => !!part(el, 'error'));
      expect(textOf(partOf(el, 'error'))).to.equal('Tạm thời không dùng được loại tiền này: hãy chọn loại khác hoặc thử lại sau.');
      expect(events.find((e) => e.type === 'pay-checkout-error')?.detail).to.have.property('code', 'unavailable');
      expect(viewOf(el), 'the order stays').to.equal('order');
      expect(partOf<HTMLButtonElement>(el, 'pay-button').disabled, 'the Pay button stays').to.equal(false);
      press(el, 'language-switch');
      await until(el, 'English', () => textOf(part(el, 'error')).startsWith('This coin cannot be used right now'));
      expect(textOf(partOf(el, 'error'))).to.include('choose another coin, or try again shortly');
      await expect(el).to.be.accessible();

      // Another coin, once its network answers: the same checkout opens the payment.
      refuse = false;
      await startPayment(el, 'USDT:ETHEREUM');
    } finally {
      window.fetch = fetch;
    }
  });
});
