// A customer on a merchant's page pays with a browser wallet: the page (its own origin, under a strict CSP that lets
// scripts and requests go to the gateway only) embeds the script tag from the gateway, which watches Ethereum on an
// anvil node; a stand-in wallet is announced by EIP-6963 (an init script) and its requests reach the node through
// a playwright binding to this process, where anvil's unlocked account signs. Paid by the gateway's word, then the
// merchant's success_url. With `--screenshots` it writes the wallet pictures of docs/guide.md.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { CheckoutView } from '../../src/contract/index.js';
import { ethereumOn, startTestChain, type TestChain } from '../helpers/anvil.js';
import { RunningClock, sampleLink, startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { assertAccessible, browserForFile, screenshot, WAIT } from './support.js';

const browser = browserForFile();
const PHONE = { width: 390, height: 844 };

let chain: TestChain;
let gw: TestGateway;
let shop: Server;
let shopUrl: string;

/**
 * The stand-in wallet, as an extension's content script would be: announced by EIP-6963 now and whenever the page
 * asks; request() goes to the binding. A string, not a function: the test's compiled functions carry helpers the page
 * does not have.
 */
const STAND_IN_WALLET = `(() => {
  const provider = {
    async request({ method, params }) {
      const answer = await window.standInWalletRpc(method, params ?? []);
      if (Array.isArray(answer)) return answer;
      if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
      return answer.result;
    },
  };
  const icon = 'data:image/svg+xml;base64,' + btoa('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="12" cy="12" r="10" fill="#f6851b"/></svg>');
  const detail = Object.freeze({ info: { uuid: '0f5f1ab4-6f0e-4c39-9d8b-4b0f6b1d1c55', name: 'Ví Thử', icon, rdns: 'test.stand-in' }, provider });
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
})();`;

/** The merchant's page: the element from the gateway, nothing inline, a CSP that names the gateway and nothing else. */
function merchantPage(gateway: string, ref: string): string {
  return `<!doctype html><html lang="vi"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cửa hàng</title><script type="module" src="${gateway}/pay-checkout.js"></script></head>
<body><header>Cà Phê Sữa Đá</header><main><h1>Thanh toán</h1><pay-checkout payment-link-ref="${ref}" locale="vi"></pay-checkout></main></body></html>`;
}

before(async () => {
  chain = await startTestChain();
  gw = await startTestGateway({ clock: new RunningClock(), config: { networks: ethereumOn(chain, { ETHEREUM_WALLET_RPC_URL: chain.rpcUrl }) } });
  shop = createServer((request, response) => {
    const url = new URL(request.url ?? '/', shopUrl);
    if (url.pathname === '/success') {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Đã thanh toán</title><h1>Cảm ơn bạn</h1>');
      return;
    }
    const csp = `default-src 'self'; script-src ${gw.url}; connect-src ${gw.url}; img-src 'self' data: https: ${gw.url}; style-src 'self'`;
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': csp }).end(merchantPage(gw.url, url.searchParams.get('ref') ?? ''));
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://localhost:${(shop.address() as AddressInfo).port}`;
});

after(async () => {
  await new Promise((resolve) => shop?.close(resolve));
  await gw?.close();
  await chain?.stop();
});

test('a customer on a merchant page pays with a browser wallet: on the node, paid by the gateway, then the success URL', async () => {
  const link = await gw.client.createPaymentLink(sampleLink({ success_url: `${shopUrl}/success`, failure_url: `${shopUrl}/failure` }));
  await gw.gateway.watcher.follow('ETHEREUM');
  const context = await browser().newContext({ viewport: PHONE, locale: 'vi-VN' });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT);
  const cspViolations: string[] = [];
  const pageErrors: string[] = [];
  page.on('console', (message) => /Content Security Policy/i.test(message.text()) && cspViolations.push(message.text()));
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  const chunks: string[] = [];
  page.on('request', (request) => /\/pay-checkout\/[\w-]+\.js$/.test(request.url()) && chunks.push(new URL(request.url()).pathname));

  // The wallet's requests, answered by the node (its unlocked account signs); the gateway then follows the node.
  const sent: string[] = [];
  await page.exposeBinding('standInWalletRpc', async (_source, method: string, params: unknown[]) => {
    if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [chain.customer];
    const response = await fetch(chain.rpcUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
    const answer = (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
    if (method === 'eth_sendTransaction' && answer.result) sent.push(String(answer.result));
    await gw.gateway.watcher.follow('ETHEREUM');
    return answer.error ? { error: answer.error } : { result: answer.result };
  });
  await page.addInitScript({ content: STAND_IN_WALLET });

  await page.goto(`${shopUrl}/?ref=${link.payment_link_ref}`);
  const card = page.locator('pay-checkout [part="card"]');
  await card.and(page.locator('[data-view="order"]')).waitFor();
  await page.locator('pay-checkout input[value="ETH:ETHEREUM"]').check();
  await page.locator('pay-checkout [part="pay-button"]').click();
  await card.and(page.locator('[data-view="payment"]')).waitFor();
  const button = page.locator('pay-checkout [part="wallet-button"]');
  assert.equal((await button.textContent())?.trim(), 'Thanh toán bằng Ví Thử');
  await assertAccessible(page, 'the payment view with a browser wallet');
  await screenshot(page, '34-phone-wallet-button');

  await button.click();
  await card.and(page.locator('[data-view="confirming"]')).waitFor();
  assert.equal(sent.length, 1, 'one transfer sent from the wallet');
  const view = (await (await fetch(`${gw.url}/api/checkout/${link.payment_link_ref}`)).json()) as CheckoutView;
  assert.deepEqual(view.payment?.transactions.map((t) => t.tx_hash), sent, 'the gateway saw the wallet’s transfer on the node');
  await screenshot(page, '35-phone-wallet-confirming');

  await chain.client.mine({ blocks: view.payment!.confirmations_required });
  await gw.gateway.watcher.follow('ETHEREUM');
  await card.and(page.locator('[data-view="paid"]')).waitFor();
  await page.evaluate(() => (document.querySelector('pay-checkout')?.shadowRoot?.activeElement as HTMLElement | null)?.blur());
  await screenshot(page, '36-phone-wallet-paid');
  // The receipt page opens again from its link, with the transaction on it.
  const { receipt_url } = (await (await fetch(`${gw.url}/api/checkout/${link.payment_link_ref}`)).json()) as CheckoutView;
  assert.equal(await page.locator('pay-checkout [part="receipt-link"]').getAttribute('href'), receipt_url);
  // This gateway's public URLs name the default CHECKOUT_URL origin (it listens on a port of its own): the path is the page.
  const { pathname, search } = new URL(receipt_url!);
  const receipt = await fetch(new URL(pathname + search, gw.url));
  assert.equal(receipt.status, 200);
  assert.ok((await receipt.text()).includes(sent[0]!), 'the receipt page names the transaction');
  await page.waitForURL(/\/success\?/, { timeout: WAIT });
  const landed = new URL(page.url());
  assert.equal(landed.searchParams.get('status'), 'paid');
  assert.equal(landed.searchParams.get('payment_link_ref'), link.payment_link_ref);

  assert.deepEqual(cspViolations, [], 'CSP violations');
  assert.deepEqual(pageErrors, [], 'uncaught page errors');
  assert.ok(chunks.some((c) => c.startsWith('/pay-checkout/browser-wallet-')), `the wallet chunk came from the gateway: ${chunks.join(', ')}`);
  await context.close();
});
