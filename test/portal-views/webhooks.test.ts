// The webhooks page (<webhooks-page>) with fixed endpoints: one the gateway's URL rules refuse at delivery is
// marked so in its row, with the rule and the reason in words, and the one the rules let through is not.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { WebhookEndpoint } from '../../src/contract/index.js';
import '../../demo/scripts/webhooks.js';
import { formatMoment } from '../../demo/scripts/webhooks/delivery-views.js';
import { shown, stubFetch } from './helpers/portal.js';

const AT = '2026-11-22T03:04:05.000Z';
const ALLOWED: WebhookEndpoint = { endpoint_id: 'we_ok', url: 'https://shop.example/hooks', secret: 'whsec_ok', created_at: AT, refused: null };
const REFUSED: WebhookEndpoint = {
  endpoint_id: 'we_refused',
  url: 'https://rebind.shop.example/hooks',
  secret: 'whsec_refused',
  created_at: AT,
  refused: {
    rule: 'public_address',
    reason: 'must reach a public address, not a private, loopback, link-local or reserved one (rebind.shop.example resolves to 127.0.0.1)',
    since: AT,
  },
};

describe('the portal: webhook endpoints', () => {
  it('marks an endpoint the URL rules refuse at delivery, with the rule and why, and no other', async () => {
    const server = stubFetch((_method, url) =>
      url.pathname === '/demo/api/webhooks/endpoints' ? { endpoints: [ALLOWED, REFUSED] } : url.pathname === '/demo/api/webhooks/receiver' ? { receipts: [] } : { deliveries: [] },
    );
    try {
      const el = await fixture(html`<webhooks-page></webhooks-page>`);
      await waitUntil(() => el.querySelector('tr[data-endpoint="we_refused"]'), 'the endpoints show');
      const row = (id: string) => el.querySelector(`tr[data-endpoint="${id}"]`)!;
      expect(row('we_ok').querySelector('[data-refused]')).to.equal(null);
      expect(shown(row('we_refused').querySelector('[data-url]'))).to.equal(REFUSED.url);
      const note = row('we_refused').querySelector('[data-refused]');
      expect(note?.getAttribute('data-refused')).to.equal('public_address');
      expect(shown(note)).to.equal(
        `refused Nothing is sent here since ${formatMoment(AT)}: the rule public addresses only refuses it, as its URL must reach a public address, ` +
          'not a private, loopback, link-local or reserved one (rebind.shop.example resolves to 127.0.0.1). Add an endpoint that keeps the rule, then remove this one.',
      );
      await expect(el).to.be.accessible();
    } finally {
      server.restore();
    }
  });
});
