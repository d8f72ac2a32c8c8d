// The gateway's own pages (the receipt, src/sandbox/pages/receipt.ts, and the refund claim, refund-claim.ts) on the
// smallest phone the checkout is drawn for: no horizontal scroll, every link and control a 44 × 44 CSS px target (a
// checkbox by its label), and a success mark once the order is paid; in both languages.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { NetworkConfig } from '../../src/sandbox/chains/networks.js';
import { receiptPage } from '../../src/sandbox/pages/receipt.js';
import { claimPage } from '../../src/sandbox/pages/refund-claim.js';
import type { RefundClaim } from '../../src/sandbox/services/orders/refund-claims.js';
import type { RefundState } from '../../src/sandbox/storage/refunds.js';
import { checkoutAsset, checkoutView, payment, transaction } from '../checkout-state/fixtures.js';
import { assertClean, browserForFile, openPage, orderWithPayment } from './support.js';

const browser = browserForFile();
const SMALL_PHONE = { width: 320, height: 568 };

/** The page's width beyond the window, and the links or buttons smaller than 44 × 44 CSS px. */
const measure = (page: Page) =>
  page.evaluate(() => ({
    overflow: document.documentElement.scrollWidth - innerWidth,
    small: [...document.querySelectorAll('a, button, input:not([type=checkbox]), select, summary, label:has(> input[type=checkbox])')]
      .map((target) => ({ text: target.textContent, box: target.getBoundingClientRect() }))
      .filter(({ box }) => box.width < 44 || box.height < 44)
      .map(({ text, box }) => `${text}: ${box.width} × ${box.height}`),
  }));

for (const lang of ['vi', 'en'] as const) {
  test(`a paid receipt (${lang}) fits 320 px and shows the success mark`, async () => {
    const { ref } = await orderWithPayment({ coin: ['ETH', 'ETHEREUM'] });
    const tracked = await openPage(browser(), `/receipt?ref=${ref}&lang=${lang}`, SMALL_PHONE);
    assert.deepEqual(await measure(tracked.page), { overflow: 0, small: [] });
    assert.ok(await tracked.page.locator('[data-mark="paid"]').isVisible(), 'the success mark');
    assertClean(tracked);
  });

  test(`a receipt with explorer links, a long name and hash (${lang}) fits 320 px, every link 44 × 44`, async () => {
    const asset = checkoutAsset({ explorer_url: 'https://sepolia.etherscan.io', explorer_tx_url: 'https://sepolia.etherscan.io/tx/{hash}' });
    const view = checkoutView({
      status: 'paid',
      merchant_details: { ...checkoutView().merchant_details, name: 'Công ty TNHH Thương mại Dịch vụ Cà phê Buôn Ma Thuột' },
      methods: [{ pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', assets: [asset] }],
    });
    const hash = `0x${'ab'.repeat(32)}`;
    const paid = payment({ asset: asset.asset, network: asset.network, status: 'paid', transactions: [transaction(3, { tx_hash: hash }), transaction(3, { tx_hash: hash })] });
    const tracked = await openPage(browser(), 'about:blank', SMALL_PHONE);
    await tracked.page.setContent(String(await receiptPage(lang, view, [paid])));
    const { small, overflow } = await measure(tracked.page);
    assert.equal(overflow, 0, 'no horizontal scroll');
    assert.deepEqual(small, [], 'targets under 44 × 44');
    assert.equal(await tracked.page.locator('a').count(), 2, 'an explorer link per transaction');
    assert.ok(await tracked.page.locator('[data-mark="paid"]').isVisible(), 'the success mark');
  });
}

/** An open claim as the page reads it: the fields it shows, of a refund of 360.000 ₫ in USDT on TRON. */
const openClaim = {
  refund: {
    asset: 'USDT',
    merchant_name: 'Công ty TNHH Thương mại Dịch vụ Cà phê Buôn Ma Thuột',
    amount: 360_000,
    basis_vnd: 360_000,
    refund_status: 'PENDING',
    destination: null,
    claim_expires_at: '2026-12-03T09:00:00Z',
    psp_refund_id: null,
    failure_reason: null,
  } as unknown as RefundState,
  network: { name: 'TRON Nile', family: 'tron' } as NetworkConfig,
  label: 'USDT · TRC-20 (TRON Nile)',
  amount_crypto: '13.73',
  payment_received_crypto: '13.73',
} satisfies RefundClaim;

for (const lang of ['vi', 'en'] as const) {
  test(`the refund claim form (${lang}) fits 320 px, its field, box and button 44 px high`, async () => {
    const tracked = await openPage(browser(), 'about:blank', SMALL_PHONE);
    await tracked.page.setContent(String(await claimPage(lang, openClaim, 'token')));
    assert.equal(await tracked.page.locator('form button, form input').count(), 3, 'the address, the confirmation and the button');
    assert.deepEqual(await measure(tracked.page), { overflow: 0, small: [] });
  });
}
