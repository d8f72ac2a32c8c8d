// The merchant portal's sign-in as a tester meets it after `npm start`: the merchant's pages send a new browser to
// /signin, which says where the sandbox credentials are; a wrong secret is refused; the printed credentials (or the
// one-click button on this machine) sign in and lead back; signing out ends the session for the pages and the API.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/config.js';
import { assertAccessible, assertClean, baseUrl, browserForFile, openPage } from './support.js';

const browser = browserForFile();

test('a merchant is sent to the sign-in, is refused a wrong secret, signs in, and signs out', async () => {
  const tracked = await openPage(browser(), '/webhooks');
  const { page } = tracked;
  await page.waitForURL((url) => url.pathname === '/signin' && url.searchParams.get('next') === '/webhooks');
  await page.getByRole('heading', { name: 'Sign in to the merchant portal' }).waitFor();
  assert.match((await page.locator('main').textContent())!, /printed by npm start and listed in the README/);
  await page.getByRole('button', { name: 'Sign in as the sandbox merchant' }).waitFor();
  await assertAccessible(page, '/signin');
  // The secret field is styled as every other field: the same height and font.
  const looks = (label: string) =>
    page.getByLabel(label).evaluate((input) => {
      const style = getComputedStyle(input);
      return [input.getBoundingClientRect().height, style.fontSize, style.fontFamily];
    });
  assert.deepEqual(await looks('Client secret'), await looks('Client id'));

  // Empty fields are named; a wrong secret is refused without saying which half was wrong.
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.locator('#f-client_id-error', { hasText: 'must not be empty' }).waitFor();
  await page.getByLabel('Client id').fill(SANDBOX_DEFAULTS.clientId);
  await page.getByLabel('Client secret').fill('not the secret');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('alert').filter({ hasText: 'The client id and client secret do not match a merchant.' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/signin');
  await assertAccessible(page, '/signin refusing a wrong secret');

  await page.getByLabel('Client secret').fill(SANDBOX_DEFAULTS.clientSecret);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/webhooks');
  await page.locator('#session', { hasText: `Signed in as ${SANDBOX_DEFAULTS.clientId}` }).waitFor();
  const [cookie] = await page.context().cookies(baseUrl);
  assert.deepEqual([cookie!.httpOnly, cookie!.sameSite, cookie!.expires > Date.now() / 1000], [true, 'Strict', true], 'HttpOnly, SameSite=Strict, with an expiry');
  assert.equal(await page.evaluate(() => document.cookie), '', 'the page script cannot read the session');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL((url) => url.pathname === '/signin');
  const api = await page.request.get('/demo/api/transactions');
  assert.equal(api.status(), 401, 'the API is closed again');
  await page.goto('/portal');
  await page.waitForURL((url) => url.pathname === '/signin' && url.searchParams.get('next') === '/portal');
  assertClean(tracked);
});
