// The payment link as a customer receives it: the hosted checkout page at `payment_link`, paid from the /wallet page
// (a phone's view) that reads a photo of the QR, as a customer with a second device would.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import jsQRModule from 'jsqr';
import { sampleLink } from '../helpers/gateway.js';
import { assertAccessible, assertClean, choosePayment, createLinkInBuilder, elementAttribute, browserForFile, mine, openPage, openSignedIn, post, screenshot, waitForView, walletPay } from './support.js';

// jsqr is CommonJS: Node's ESM hands over its exports object.
const jsQR = jsQRModule.default;

const browser = browserForFile();

test('the payment_link opens the hosted page; the /wallet page pays it from a photo of the QR', async () => {
  const demo = await openSignedIn(browser(), '/');
  // The link is made for embedding (is_checkout_embed), yet sent by e-mail it opens as the full hosted page.
  assert.equal(await demo.page.getByLabel('Embedded checkout').isChecked(), true);
  const ref = await createLinkInBuilder(demo.page);
  const paymentLink = (await demo.page.locator('[data-payment-link]').getAttribute('href'))!;
  assert.equal(await demo.page.locator('[data-open-hosted]').getAttribute('href'), paymentLink);
  assert.equal(new URL(paymentLink).searchParams.get('ref'), ref);
  // The link is also offered as a QR to send: it must read back as the link itself.
  const pixels = await demo.page.evaluate(() => {
    const canvas = document.getElementById('link-qr') as HTMLCanvasElement;
    const image = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    return { data: [...image.data], width: image.width, height: image.height };
  });
  assert.equal(jsQR(Uint8ClampedArray.from(pixels.data), pixels.width, pixels.height)?.data, paymentLink);
  await demo.page.context().close();

  const hosted = await openPage(browser(), paymentLink);
  const { page } = hosted;
  const response = await page.request.get(paymentLink);
  assert.match(response.headers()['content-security-policy'] ?? '', /default-src 'self'/);
  assert.equal(await page.locator('pay-checkout h1').count(), 1, 'the hosted layout, whose h1 is the merchant');
  await choosePayment(page, 'ETH:ETHEREUM');
  await assertAccessible(page, 'the hosted checkout page, payment view');
  await screenshot(page, '08-hosted-checkout', { fullPage: true });
  const address = await elementAttribute(page, '[part="address"]', 'data-address');
  const due = await elementAttribute(page, '[data-amount-crypto]', 'data-amount-crypto');
  const photo = await page.locator('pay-checkout canvas[part="qr"]').screenshot();

  const phone = await openPage(browser(), '/wallet', { width: 390, height: 844 });
  await phone.page.locator('[data-balance="ETH:ETHEREUM"]').waitFor();
  await assertAccessible(phone.page, '/wallet');
  await phone.page.locator('#qr-photo').setInputFiles({ name: 'qr.png', mimeType: 'image/png', buffer: photo });
  await phone.page.locator('[data-wallet-address]', { hasText: address }).waitFor();
  assert.equal(await phone.page.locator('[name="wallet.amount"]').inputValue(), due, 'the EIP-681 QR carried the amount in wei');
  await screenshot(phone.page, '09-wallet-phone', { fullPage: true });
  await walletPay(phone.page, 'exact');
  await mine(phone.page);

  await waitForView(page, 'paid');
  await page.locator('pay-checkout [part="return-button"]').click();
  await page.waitForURL(/\/success\?/);
  await page.locator('[data-verified="true"]').waitFor();
  assert.equal(await page.locator('[data-param="payment_link_ref"]').textContent(), ref);
  assertClean(hosted);
  assertClean(phone);
});

test('the hosted page draws the order from the view in its HTML: merchant text stays text, no request but the script before the payment', async () => {
  const name = 'Shop </script><script>window.pwned = 1</script><!--';
  const description = 'Line\u2028two & </SCRIPT >';
  const link = sampleLink({ description, merchant_details: { ...sampleLink().merchant_details, name } });
  const { payment_link_ref: ref } = await post<{ payment_link_ref: string }>('/demo/api/links', link);
  const requests: string[] = [];
  const hosted = await openPage(browser(), `/checkout?ref=${ref}`, undefined, {
    setUp: async (page) => {
      page.on('request', (request) => requests.push(`${request.method()} ${new URL(request.url()).pathname}`));
    },
  });
  const { page } = hosted;
  await waitForView(page, 'order');
  assert.ok((await page.locator('pay-checkout h1.merchant').textContent())?.startsWith(name), 'the merchant name, as written');
  assert.equal(await page.locator('pay-checkout [part="summary"] > p').first().textContent(), description);
  assert.equal(await page.evaluate('window.pwned'), undefined, 'nothing in the merchant text ran');
  // The sandbox's tester panel beside the checkout is a script of its own, and asks for nothing before it is used.
  const before = requests.filter((r) => !r.endsWith('/favicon.ico'));
  assert.deepEqual(before, ['GET /checkout', 'GET /pay-checkout.js', 'GET /sandbox/tester-panel.js'], 'the order painted from the page alone');
  // The event stream opens once the payment exists, after its QR.
  const stream = page.waitForRequest((request) => request.url().endsWith(`/api/checkout/${ref}/events`));
  await choosePayment(page, 'USDT:TRON');
  await stream;
  const all = requests.filter((r) => !r.endsWith('/favicon.ico'));
  assert.deepEqual(all.slice(0, 4), ['GET /checkout', 'GET /pay-checkout.js', 'GET /sandbox/tester-panel.js', `POST /api/checkout/${ref}/payments`]);
  assert.ok(!all.includes(`GET /api/checkout/${ref}`), 'the view was never fetched');
  assertClean(hosted);
});

test('a forged redirect does not verify on /success', async () => {
  const tracked = await openPage(browser(), '/success?payment_link_ref=pl_forged&merchant_order_id=DH-1&status=paid&signature=AAAA');
  await tracked.page.locator('[data-verified="false"]').waitFor();
  assert.match((await tracked.page.locator('.verdict').textContent())!, /does NOT verify/);
  await assertAccessible(tracked.page, '/success with a forged query');
  assertClean(tracked);
});
