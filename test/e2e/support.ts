// What every end-to-end file shares: the server `scripts/test-e2e.mjs` started, the system Chromium, a page that
// records every request leaving the origin and every CSP violation, axe, and the steps a tester takes.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { AssetCode, ChainState, Network, PaymentLinkInput } from '../../src/contract/index.js';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/config.js';
import { decimalsOf, shareOf, uriNetworks } from '../../demo/scripts/wallet/payment-qr.js';
import { sampleLink } from '../helpers/gateway.js';

const base = process.env.E2E_BASE_URL;
if (!base) throw new Error('E2E_BASE_URL is not set: run these files with `npm run test:e2e`, which starts the demo for them.');
export const baseUrl: string = base;
const origin = new URL(baseUrl).origin;

/** Generous: a slow shared machine should not fail a test; every wait is for a condition, never a fixed time. */
export const WAIT = 20_000;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** One Chromium for the test file: launched before its tests, closed after them. */
export function browserForFile(): () => Browser {
  let browser: Browser | undefined;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });
  return () => {
    assert.ok(browser, 'the browser is launched before the tests run');
    return browser;
  };
}

export interface TrackedPage {
  page: Page;
  /** Requests to anywhere but the demo's origin (the first load must make none). */
  offsite: string[];
  /** Console reports of the Content-Security-Policy refusing something. */
  cspViolations: string[];
  /** Uncaught exceptions in the page. */
  pageErrors: string[];
}

/**
 * A fresh context (no cookies, no storage) and a page in it, watched. `locale` is the browser's language;
 * `setUp` runs before the page loads (routes); `waitUntil: 'commit'` returns before the page's scripts have run.
 */
export async function openPage(
  browser: Browser,
  path: string,
  viewport = { width: 1280, height: 1000 },
  { locale, setUp, waitUntil }: { locale?: string; setUp?: (page: Page) => Promise<void>; waitUntil?: 'commit' | 'load' } = {},
): Promise<TrackedPage> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport, ...(locale && { locale }) });
  const page = await context.newPage();
  await setUp?.(page);
  page.setDefaultTimeout(WAIT);
  const tracked: TrackedPage = { page, offsite: [], cspViolations: [], pageErrors: [] };
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol) && url.origin !== origin) tracked.offsite.push(request.url());
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) tracked.cspViolations.push(message.text());
  });
  page.on('pageerror', (error) => tracked.pageErrors.push(error.message));
  await page.goto(path, { waitUntil });
  return tracked;
}

/**
 * A merchant's page, reached as a merchant reaches it: the page sends a new browser to the sign-in, the merchant
 * signs in (typing the printed sandbox credentials, or with the one-click button) and lands back on the page.
 */
export async function openSignedIn(
  browser: Browser,
  path: string,
  options: { how?: 'button' | 'credentials'; viewport?: { width: number; height: number } } = {},
): Promise<TrackedPage> {
  const tracked = await openPage(browser, path, options.viewport);
  const { page } = tracked;
  await page.waitForURL((url) => url.pathname === '/signin');
  assert.equal(new URL(page.url()).searchParams.get('next'), new URL(path, baseUrl).pathname);
  if (options.how === 'credentials') {
    await page.getByLabel('Client id').fill(SANDBOX_DEFAULTS.clientId);
    await page.getByLabel('Client secret').fill(SANDBOX_DEFAULTS.clientSecret);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  } else {
    await page.getByRole('button', { name: 'Sign in as the sandbox merchant' }).click();
  }
  await page.waitForURL((url) => url.pathname === new URL(path, baseUrl).pathname);
  await page.locator('#session', { hasText: `Signed in as ${SANDBOX_DEFAULTS.clientId}` }).waitFor();
  return tracked;
}

/** Nothing left the origin, the CSP refused nothing, nothing threw. */
export function assertClean(tracked: TrackedPage): void {
  assert.deepEqual(tracked.offsite, [], 'requests outside the demo origin');
  assert.deepEqual(tracked.cspViolations, [], 'CSP violations');
  assert.deepEqual(tracked.pageErrors, [], 'uncaught page errors');
}

const AXE_SOURCE = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** Runs axe-core on the page as it stands (shadow roots included) and fails on any violation, naming each. */
export async function assertAccessible(page: Page, where: string): Promise<void> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (a script tag would be refused).
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(
    'axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) })))',
  )) as AxeViolation[];
  const report = violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`).join('\n    ')}`);
  assert.deepEqual(report, [], `axe violations on ${where}`);
}

const screenshotDir = process.env.E2E_SCREENSHOTS;

/** With `--screenshots`, keeps a picture of the page for docs/guide.md. */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (!screenshotDir) return;
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: options.fullPage ?? false, animations: 'disabled' });
}

// ---- the element, as a tester sees it ----

export const card = (page: Page) => page.locator('pay-checkout [part="card"]');

export async function waitForView(page: Page, view: string): Promise<void> {
  await page.locator(`pay-checkout [part="card"][data-view="${view}"]`).waitFor({ timeout: WAIT });
}

/** On the order view: picks the coin (`USDT:TRON`, `BTC:BITCOIN` …) and asks for the QR. */
export async function choosePayment(page: Page, assetKey: string): Promise<void> {
  await waitForView(page, 'order');
  await page.locator(`pay-checkout input[name="asset"][value="${assetKey}"]`).check();
  await page.locator('pay-checkout [part="pay-button"]').click();
  await waitForView(page, 'payment');
  await page.locator('pay-checkout canvas[part="qr"]').waitFor();
}

export async function elementAttribute(page: Page, selector: string, attribute: string): Promise<string> {
  const value = await page.locator(`pay-checkout ${selector}`).first().getAttribute(attribute);
  assert.ok(value, `the checkout shows ${selector} with ${attribute}`);
  return value;
}

// ---- the demo page ----

/** Submits the builder as it stands and returns the new link's reference. */
export async function createLinkInBuilder(page: Page): Promise<string> {
  await page.locator('[data-balance="USDT:TRON"]').waitFor();
  const shown = page.locator('[data-ref]');
  const before = (await shown.count()) ? await shown.textContent() : null;
  await page.getByRole('button', { name: 'Create payment link' }).click();
  await page.waitForFunction((previous) => {
    const ref = document.querySelector('[data-ref]')?.textContent;
    return ref && ref !== previous;
  }, before);
  return (await page.locator('[data-ref]').textContent())!;
}

/** The wallet panel reads the checkout's QR; resolves with the address it read. */
export async function scanCheckoutQr(page: Page): Promise<string> {
  const address = await elementAttribute(page, '[part="address"]', 'data-address');
  await page.locator('[data-scan-checkout]').click();
  await page.locator('[data-wallet-address]', { hasText: address }).waitFor();
  return address;
}

export async function walletPay(page: Page, kind: 'exact' | 'partial' | 'overpay' | 'late'): Promise<void> {
  const sent = await page.locator('.sent li').count();
  await page.locator(`[data-pay="${kind}"]`).click();
  await page.locator('.sent li').nth(sent).waitFor();
}

export async function mine(page: Page): Promise<void> {
  const done = page.locator('.wallet [role="status"]', { hasText: /^Mined/ });
  await page.locator('[data-mine]').click();
  await done.waitFor();
}

/** Builds a link on the demo page, opens its payment in `assetKey` and has the wallet panel read its QR: the link's reference and the address read. */
export async function scannedInBuilder(page: Page, assetKey: string): Promise<{ ref: string; address: string }> {
  const ref = await createLinkInBuilder(page);
  await choosePayment(page, assetKey);
  return { ref, address: await scanCheckoutQr(page) };
}

/** The wallet panel pays (`kind`), a block is mined, and the checkout shows `view`. */
export async function walletPaid(page: Page, kind: Parameters<typeof walletPay>[1], view: string): Promise<void> {
  await walletPay(page, kind);
  await mine(page);
  await waitForView(page, view);
}

// ---- straight to the server, for set-ups that are not the subject of a test ----

interface ServerSession {
  cookie: string;
  csrf: string;
}
let serverSession: Promise<ServerSession> | undefined;

/** The sandbox merchant's session for the set-ups below, signed in as the sign-in page does. */
export function merchantSession(): Promise<ServerSession> {
  serverSession ??= (async () => {
    const response = await fetch(new URL('/demo/sign-in', baseUrl), {
      method: 'POST',
      headers: { Origin: origin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_id: SANDBOX_DEFAULTS.clientId, client_secret: SANDBOX_DEFAULTS.clientSecret }),
    });
    assert.equal(response.status, 200, await response.clone().text());
    const cookie = response.headers.getSetCookie()[0]!.split(';')[0]!;
    const { csrf_token } = (await response.json()) as { csrf_token: string };
    return { cookie, csrf: csrf_token };
  })();
  return serverSession;
}

/** The portal's API needs the session, and its token on changes; the rest of the server needs nothing. */
async function headersFor(path: string, change: boolean): Promise<Record<string, string>> {
  if (!path.startsWith('/demo/api/')) return {};
  const { cookie, csrf } = await merchantSession();
  return { Cookie: cookie, ...(change && { Origin: origin, 'X-CSRF-Token': csrf }) };
}

export async function get<T>(path: string): Promise<T> {
  const response = await fetch(new URL(path, baseUrl), { headers: await headersFor(path, false) });
  const json = (await response.json()) as T;
  assert.ok(response.ok, `${path} answered ${response.status}: ${JSON.stringify(json)}`);
  return json;
}

export async function post<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(new URL(path, baseUrl), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(await headersFor(path, true)) },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as T;
  assert.ok(response.ok, `${path} answered ${response.status}: ${JSON.stringify(json)}`);
  return json;
}

interface OpenedPayment {
  payment_id: string;
  address: string;
  amount_crypto: string;
  confirmations_required: number;
}

/**
 * An order of 360.000 ₫ set up over HTTP as the merchant's server, a customer and the chain would (for tests whose
 * subject is the portal): a link, a payment in `coin`, `percent` % of its quote sent (after the quote ended, with
 * `late`), and the blocks that confirm it.
 */
export async function paidOrder(
  options: { coin?: [AssetCode, Network]; percent?: number; late?: boolean; link?: Partial<PaymentLinkInput> } = {},
): Promise<string> {
  return (await orderWithPayment(options)).orderId;
}

export async function orderWithPayment(
  options: { coin?: [AssetCode, Network]; percent?: number; late?: boolean; link?: Partial<PaymentLinkInput> } = {},
): Promise<{ orderId: string; ref: string; payment: OpenedPayment; sent: string }> {
  const [asset, network] = options.coin ?? ['USDT', 'TRON'];
  const link = sampleLink({ success_url: `${baseUrl}/success`, failure_url: `${baseUrl}/failure`, ...options.link });
  const { payment_link_ref } = await post<{ payment_link_ref: string }>('/demo/api/links', link);
  const payment = await post<OpenedPayment>(`/api/checkout/${payment_link_ref}/payments`, { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset, network });
  if (options.late) await post(`/sandbox/payments/${payment.payment_id}/expire-quote`, {});
  const { networks } = await get<ChainState>('/sandbox/chain');
  const sent = shareOf(payment.amount_crypto, decimalsOf(asset, network, uriNetworks(networks)), options.percent ?? 100);
  await post('/sandbox/wallet/transfers', { to: payment.address, asset, network, amount: sent });
  await post('/sandbox/chain/mine', { blocks: payment.confirmations_required, network });
  const view = await get<{ status: string; payment: { status: string } }>(`/api/checkout/${payment_link_ref}`);
  assert.equal(view.payment.status, options.late ? 'paid_late' : 'paid', JSON.stringify(view.payment));
  return { orderId: link.merchant_order_id, ref: payment_link_ref, payment, sent };
}

/** Links for these orders, created through the portal's API a few at a time (the server has one core to spare). */
export async function createLinks(inputs: PaymentLinkInput[], concurrency = 6): Promise<void> {
  const queue = [...inputs];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let input = queue.shift(); input; input = queue.shift()) await post('/demo/api/links', input);
    }),
  );
}

/**
 * The demo's receiver as a webhook endpoint of the sandbox merchant, for the tests of one file; resolves with what
 * removes it again, so the webhooks page's own tests find the merchant without it.
 */
export async function receiverEndpoint(): Promise<() => Promise<void>> {
  const url = `${origin}/demo/webhook-receiver`;
  const { endpoints } = await get<{ endpoints: { url: string; endpoint_id: string }[] }>('/demo/api/webhooks/endpoints');
  const endpoint = endpoints.find((e) => e.url === url) ?? (await post<{ endpoint_id: string }>('/demo/api/webhooks/endpoints', { url }));
  return async () => {
    const path = `/demo/api/webhooks/endpoints/${endpoint.endpoint_id}`;
    const response = await fetch(new URL(path, baseUrl), { method: 'DELETE', headers: { 'Content-Type': 'application/json', ...(await headersFor(path, true)) } });
    assert.equal(response.status, 204);
  };
}
