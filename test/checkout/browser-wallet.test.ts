// Paying from a browser wallet, with a stand-in wallet announced by EIP-6963 whose requests reach an anvil node where
// anvil's unlocked account signs; the element reaches paid only through the gateway watching that node.
import { expect } from '@open-wc/testing';
import type { Locale } from '../../src/checkout/index.js';
import type { Payment } from '../../src/contract/index.js';
import { create, part, partOf, parts, press, startPayment, textOf, until, untilView } from './helpers/element.js';
import { anvilChainId, anvilCreateLink, anvilGatewayUrl, anvilMine, installStandInWallet, walletRpc, type StandIn } from './helpers/stand-in-wallet.js';
import { fixture } from '@open-wc/testing';

// The node and its gateway start on the first command (anvil, the contracts, PGlite): longer than a command's 20 s
// when the engines start theirs at once. The start goes on in the test server; asking again waits for the same one.
before(async function () {
  this.timeout(120_000);
  for (let attempt = 1; ; attempt++) {
    try {
      await anvilGatewayUrl();
      return;
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
});

let wallets: StandIn[] = [];
afterEach(() => {
  for (const wallet of wallets) wallet.remove();
  wallets = [];
});

async function checkout(asset: 'ETH:ETHEREUM' | 'USDT:ETHEREUM', locale: Locale = 'en') {
  const { payment_link_ref: ref } = await anvilCreateLink();
  const base = await anvilGatewayUrl();
  const { el, events } = await create(ref, { locale, apiBase: base });
  await fixture(el);
  await startPayment(el, asset);
  await until(el, 'the wallet button', () => parts(el, 'wallet-button').length > 0);
  const payment = (await (await fetch(`${base}/api/checkout/${ref}`)).json()).payment as Payment;
  return { el, events, ref, payment };
}

const walletStatus = (el: HTMLElement) => part(el, 'wallet-status');

describe('<pay-checkout> browser wallet', () => {
  for (const asset of ['ETH:ETHEREUM', 'USDT:ETHEREUM'] as const) {
    it(`pays ${asset.split(':')[0]} in one click: the transfer lands on the node and the gateway says paid`, async () => {
      wallets.push(installStandInWallet({ name: 'Stand-in Wallet', rdns: 'test.stand-in', chainId: await anvilChainId() }));
      const { el, ref, payment } = await checkout(asset);
      const button = partOf(el, 'wallet-button');
      expect(textOf(button)).to.equal('Pay with Stand-in Wallet');
      await expect(el).to.be.accessible();
      press(el, 'wallet-button');
      // Sent, then seen by the gateway: the element follows the gateway, not the wallet.
      await untilView(el, 'confirming');
      const seen = (await (await fetch(`${await anvilGatewayUrl()}/api/checkout/${ref}`)).json()).payment as Payment;
      const hash = seen.transactions[0]!.tx_hash;
      const sent = await walletRpc<{ to: string; value: string; input: string }>('eth_getTransactionByHash', [hash]);
      if (asset === 'ETH:ETHEREUM') {
        expect(sent.to.toLowerCase()).to.equal(payment.address.toLowerCase());
        expect(BigInt(sent.value)).to.equal(BigInt(/value=(\d+)/.exec(payment.payment_uri)![1]!));
      } else {
        const units = BigInt(/uint256=(\d+)/.exec(payment.payment_uri)![1]!);
        expect(sent.input.toLowerCase()).to.equal(`0xa9059cbb${payment.address.slice(2).toLowerCase().padStart(64, '0')}${units.toString(16).padStart(64, '0')}`);
      }
      await anvilMine(payment.confirmations_required);
      await untilView(el, 'paid');
    });
  }

  it('says the customer declined (4001), sends nothing, and keeps the QR', async () => {
    wallets.push(installStandInWallet({ name: 'Stand-in Wallet', rdns: 'test.stand-in', chainId: await anvilChainId(), refuseTransfer: true }));
    const { el } = await checkout('ETH:ETHEREUM', 'vi');
    press(el, 'wallet-button');
    await until(el, 'refused', () => walletStatus(el)?.getAttribute('data-error') === 'refused');
    expect(textOf(walletStatus(el))).to.include('từ chối');
    expect(partOf(el, 'qr'), 'the QR stays').to.be.instanceOf(HTMLCanvasElement);
    expect(part(el, 'card')?.getAttribute('data-view')).to.equal('payment');
    await expect(el).to.be.accessible();
  });

  it('switches a wallet on another chain, adding the chain with the public RPC URL when the wallet does not know it', async () => {
    const wallet = installStandInWallet({ name: 'Stand-in Wallet', rdns: 'test.stand-in', chainId: '0x1' });
    wallets.push(wallet);
    const { el, payment } = await checkout('ETH:ETHEREUM');
    press(el, 'wallet-button');
    await untilView(el, 'confirming');
    const methods = wallet.requests.map((r) => r.method);
    expect(methods).to.include.members(['wallet_switchEthereumChain', 'wallet_addEthereumChain', 'eth_sendTransaction']);
    const added = wallet.requests.find((r) => r.method === 'wallet_addEthereumChain')!.params as [{ chainId: string; rpcUrls: string[] }];
    expect(added[0].chainId).to.equal(await anvilChainId());
    expect(added[0].rpcUrls).to.have.length(1);
    await anvilMine(payment.confirmations_required);
    await untilView(el, 'paid');
  });

  it('says the wallet stayed on the wrong chain when it will not switch, and sends nothing', async () => {
    const wallet = installStandInWallet({ name: 'Stand-in Wallet', rdns: 'test.stand-in', chainId: '0x1', refuseSwitch: true });
    wallets.push(wallet);
    const { el } = await checkout('USDT:ETHEREUM');
    press(el, 'wallet-button');
    await until(el, 'an error', () => walletStatus(el)?.getAttribute('data-step') === 'error');
    expect(walletStatus(el)?.getAttribute('data-error')).to.be.oneOf(['refused', 'wrongChain']);
    expect(wallet.requests.map((r) => r.method)).to.not.include('eth_sendTransaction');
    expect(partOf(el, 'qr')).to.be.instanceOf(HTMLCanvasElement);
  });

  it('has words of its own for a wallet short of funds and for a locked wallet, and the QR stays', async () => {
    const chainId = await anvilChainId();
    const poor = installStandInWallet({ name: 'Stand-in Wallet', rdns: 'test.stand-in', chainId, failTransfer: { code: -32000, message: 'insufficient funds for gas * price + value' } });
    wallets.push(poor);
    const { el, payment } = await checkout('USDT:ETHEREUM', 'vi');
    press(el, 'wallet-button');
    await until(el, 'short of funds', () => walletStatus(el)?.getAttribute('data-error') === 'insufficientFunds');
    expect(textOf(walletStatus(el))).to.include('không đủ').and.include(payment.amount_crypto.replace('.', ','));
    poor.remove();
    wallets = [];

    wallets.push(installStandInWallet({ name: 'Locked Wallet', rdns: 'test.locked', chainId, locked: true }));
    const locked = await checkout('ETH:ETHEREUM', 'vi');
    press(locked.el, 'wallet-button');
    await until(locked.el, 'locked', () => walletStatus(locked.el)?.getAttribute('data-error') === 'closed');
    expect(textOf(walletStatus(locked.el))).to.include('khoá');
    expect(partOf(locked.el, 'qr')).to.be.instanceOf(HTMLCanvasElement);
    await expect(locked.el).to.be.accessible();
  });

  it('offers a choice when two wallets are announced, each button named by its wallet', async () => {
    const chainId = await anvilChainId();
    wallets.push(installStandInWallet({ name: 'First Wallet', rdns: 'test.first', chainId }), installStandInWallet({ name: 'Second Wallet', rdns: 'test.second', chainId }));
    const { el } = await checkout('ETH:ETHEREUM', 'vi');
    await until(el, 'both wallets', () => parts(el, 'wallet-button').length === 2);
    expect(parts(el, 'wallet-button').map((b) => textOf(b))).to.deep.equal(['Thanh toán bằng First Wallet', 'Thanh toán bằng Second Wallet']);
    await expect(el).to.be.accessible();
  });
});
