// The customer's receipt page: reachable again at the link's receipt_url once money arrived, in the link's language,
// printable without a script, every merchant value escaped, and explorer links only where the chain is public.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { receiptPage } from '../../src/sandbox/pages/receipt.js';
import { checkoutAsset, checkoutView, payment, transaction } from '../checkout-state/fixtures.js';
import { checkoutApi, sandboxApi } from '../helpers/checkout.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

describe(`the receipt page (${storageName})`, () => {
  const gw = useTestGateway();

  async function page(url: string, headers: Record<string, string> = {}) {
    const response = await fetch(url, { headers });
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  it('has no address before money arrives, then one that opens again, in the link’s language, for the rest and after paid', async () => {
    const link = await gw.client.createPaymentLink(sampleLink({ merchant_details: { ...sampleLink().merchant_details, name: '<script>alert(1)</script> & Co' } }));
    const checkout = checkoutApi(gw.url, link.payment_link_ref);
    const { body: opened } = await checkout.open('USDT', 'TRON');
    assert.equal((await checkout.view()).body.receipt_url, null);

    const sent = await sandboxApi(gw.url).transfer(opened.address, 'USDT', 'TRON', '6.87');
    // Beside the hosted checkout page ({checkout_url}, the public address the gateway is configured with).
    const receiptUrl = new URL((await checkout.view()).body.receipt_url ?? 'null:');
    assert.deepEqual([receiptUrl.pathname, receiptUrl.searchParams.get('ref')], ['/receipt', link.payment_link_ref]);
    const url = `${gw.url}/receipt${receiptUrl.search}`;
    for (let visit = 0; visit < 2; visit++) {
      const { status, headers, text } = await page(url);
      assert.equal(status, 200);
      assert.match(headers.get('content-security-policy') ?? '', /default-src 'none'/);
      assert.equal(headers.get('referrer-policy'), 'no-referrer');
      assert.match(text, /<html lang="vi">/, 'the billing address says vi');
      assert.match(text, /Biên nhận thanh toán/);
      assert.ok(text.includes(sent.body.tx_hash), 'the transaction hash is on the page');
      assert.match(text, /6,87 USDT/, 'a Vietnamese decimal comma');
      assert.match(text, /Còn lại/);
      assert.ok(!text.includes('<script>alert'), 'the merchant’s name is text, never markup');
      assert.ok(text.includes('&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co'));
      assert.doesNotMatch(text, /<script|<a /, 'no script, and no explorer link for a simulated chain');
    }

    await sandboxApi(gw.url).transfer(opened.address, 'USDT', 'TRON', (await checkout.payment(opened.payment_id)).body.remaining_crypto);
    await sandboxApi(gw.url).mine(opened.confirmations_required, 'TRON');
    const english = await page(`${url}&lang=en`);
    assert.match(english.text, /<html lang="en">/);
    assert.match(english.text, /The order is paid/);
    assert.doesNotMatch(english.text, /Left to pay/);
  });

  it('answers an unknown ref with a 404 page, in the browser’s language', async () => {
    const { status, text } = await page(`${gw.url}/receipt?ref=pl_unknown`, { 'Accept-Language': 'vi-VN,vi;q=0.9' });
    assert.equal(status, 404);
    assert.match(text, /Không tìm thấy đơn hàng này/);
    assert.equal((await page(`${gw.url}/receipt`)).status, 404);
  });
});

describe('the receipt page, rendered', () => {
  const explorers = [
    ['Ethereum', { network: 'ETHEREUM', explorer_url: 'https://sepolia.etherscan.io', explorer_tx_url: 'https://sepolia.etherscan.io/tx/{hash}' }, '0xabc', 'https://sepolia.etherscan.io/tx/0xabc'],
    ['TRON', { network: 'TRON', explorer_url: 'https://nile.tronscan.org', explorer_tx_url: 'https://nile.tronscan.org/#/transaction/{hash}' }, 'c463df', 'https://nile.tronscan.org/#/transaction/c463df'],
  ] as const;
  for (const [name, explorer, hash, href] of explorers) {
    it(`links each ${name} transaction to its explorer’s page for it, away from the page without a referrer`, async () => {
      const view = checkoutView({ methods: [{ pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', assets: [checkoutAsset(explorer)] }] });
      const asset = view.methods[0]!.assets[0]!;
      const paid = payment({ asset: asset.asset, network: asset.network, transactions: [transaction(3, { tx_hash: hash })] });
      const text = String(await receiptPage('en', view, [paid]));
      assert.ok(text.includes(`<a href="${href}" rel="noreferrer">View on the block explorer</a>`), text);
    });
  }
});
