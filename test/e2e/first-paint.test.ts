// The hosted page paints the order from its HTML, before the element's script has run and without JavaScript at all
// (src/sandbox/pages/checkout-summary.ts), and the element takes it over in the same place: no frame without it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { sampleLink } from '../helpers/gateway.js';
import { assertAccessible, assertClean, baseUrl, browserForFile, openPage, post, WAIT } from './support.js';

const browser = browserForFile();

/**
 * Counts, from the first frame that shows the summary until the element's Pay button is there, the frames without
 * a summary on screen: requestAnimationFrame runs in each frame's rendering step, never between a task and its
 * microtasks, so it sees what a frame paints. Plain JavaScript in a string: an init script runs before the page's own.
 */
const WATCH_FRAMES = `(() => {
  const frames = (window.__frames = { shown: 0, blank: 0 });
  const tick = () => {
    const root = document.querySelector('pay-checkout')?.shadowRoot;
    const shown = !!root && [...root.querySelectorAll('[part="summary"]')].some((s) => s.getClientRects().length > 0);
    if (shown) frames.shown++;
    else if (frames.shown) frames.blank++;
    if (!root?.querySelector('[part="pay-button"]')) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`;

interface Painted {
  header: DOMRect;
  summary: DOMRect;
  /** What it shows (innerText: folded lines left out). */
  text: string;
  /** All it holds, folded or not. */
  content: string;
}

/** The header's and the visible summary's boxes, and the summary's text, in the element's shadow root. */
const painted = (page: Page): Promise<Painted> =>
  page.evaluate(() => {
    const root = document.querySelector('pay-checkout')!.shadowRoot!;
    const summary = [...root.querySelectorAll<HTMLElement>('[part="summary"]')].find((s) => s.getClientRects().length > 0)!;
    return { header: root.querySelector('[part="header"]')!.getBoundingClientRect().toJSON(), summary: summary.getBoundingClientRect().toJSON(), text: summary.innerText, content: summary.textContent ?? '' };
  });

const near = (a: DOMRect, b: DOMRect, what: string) =>
  assert.ok(
    (['x', 'y', 'width', 'height'] as const).every((side) => Math.abs(a[side] - b[side]) <= 1),
    `${what}: ${JSON.stringify(a)} before the script, ${JSON.stringify(b)} once the element drew it`,
  );

const CASES = [
  { locale: 'vi', width: 360, height: 740, total: 'Tổng cộng' },
  { locale: 'en', width: 320, height: 568, total: 'Total' },
  { locale: 'en', width: 1280, height: 900, total: 'Total' },
] as const;

for (const { locale, width, height, total } of CASES) {
  test(`${locale} at ${width} px: the order paints before the script, and the element takes it over in the same box`, async () => {
    const base = sampleLink();
    const link = sampleLink({ billing_details: { ...base.billing_details!, billing_address: { ...base.billing_details!.billing_address!, locale } } });
    const { payment_link_ref: ref } = await post<{ payment_link_ref: string }>('/demo/api/links', link);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const hosted = await openPage(browser(), `/checkout?ref=${ref}`, { width, height }, {
      setUp: async (page) => {
        await page.addInitScript(WATCH_FRAMES);
        // The script waits until the first paint is measured: the order on screen is the HTML's alone.
        await page.route('**/pay-checkout.js', async (route) => {
          await released;
          await route.continue();
        });
      },
      waitUntil: 'commit',
    });
    const { page } = hosted;
    await page.locator('pay-checkout [part="summary"]:visible').waitFor({ timeout: WAIT });
    const before = await painted(page);
    assert.equal(await page.evaluate(() => customElements.get('pay-checkout')), undefined, 'the script has not run');
    assert.match(before.text, new RegExp(total));
    for (const line of link.order_details) assert.ok(before.content.includes(line.name), `the line ${line.name} is in the summary`);
    release();
    await page.locator('pay-checkout [part="pay-button"]').waitFor({ timeout: WAIT });
    const after = await painted(page);
    near(before.header, after.header, 'the header');
    near(before.summary, after.summary, 'the summary');
    assert.equal(after.text, before.text);
    const frames = (await page.evaluate('window.__frames')) as { shown: number; blank: number };
    assert.ok(frames.shown > 0, 'a frame showed the summary');
    assert.equal(frames.blank, 0, 'frames without the summary once it had shown');
    await assertAccessible(page, `the hosted page (${locale}, ${width} px) once the element drew it`);
    assertClean(hosted);
  });
}

test('without JavaScript the hosted page shows the merchant, every line with its quantity and price, and the total', async () => {
  const link = sampleLink({ merchant_details: { ...sampleLink().merchant_details, name: 'Cà phê <b>Phố</b> & Co' } });
  const { payment_link_ref: ref } = await post<{ payment_link_ref: string }>('/demo/api/links', link);
  const context = await browser().newContext({ baseURL: baseUrl, javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(`/checkout?ref=${ref}`);
    const element = page.locator('pay-checkout');
    assert.ok((await element.locator('h1').textContent())?.startsWith(`${link.merchant_details!.name}Đơn hàng ${link.merchant_order_id}`), 'the merchant, as written, and the order');
    const lines = element.locator('[part="line"]:visible');
    assert.equal(await lines.count(), link.order_details.length);
    for (const [i, line] of link.order_details.entries()) {
      const text = await lines.nth(i).innerText();
      assert.ok(text.includes(line.name) && text.includes(`${line.quantity} × `), `line ${i}: ${text}`);
    }
    assert.match(await element.locator('[part="total"]:visible').innerText(), /Tổng cộng\s+[\d.]+\s₫/);
    assert.match(await element.locator('[part="error"]:visible').innerText(), /JavaScript/);
  } finally {
    await context.close();
  }
});
