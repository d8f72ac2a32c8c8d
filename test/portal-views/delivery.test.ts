// A webhook delivery opened (<delivery-detail>) with a fixed attempt log: the receiver's answer is shown as the text
// it is, markup and all, never parsed as HTML.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { WebhookDeliveryDetail } from '../../src/contract/index.js';
import { defineDeliveryDetail, lastResponse, nextAttempt, queuedAgain, type DeliveryDetailView } from '../../demo/scripts/webhooks/delivery-views.js';
import { shown, stubFetch } from './helpers/portal.js';

defineDeliveryDetail();

const HOSTILE = '<img src=x onerror="window.parsed=true"><b>Internal error</b>';
const AT = '2026-11-22T03:04:05.000Z';

const DETAIL: WebhookDeliveryDetail = {
  delivery_id: 7,
  event_id: 'evt_1',
  type: 'payment.paid',
  payment_link_ref: 'pl_ORD-PAID',
  status: 'failed',
  attempts: 2,
  last_status_code: 500,
  last_error: null,
  next_attempt_at: null,
  delivered_at: null,
  created_at: AT,
  endpoint_id: 'we_1',
  payload: '{"type":"payment.paid","note":"<script>window.parsed=true</script>"}',
  attempt_log: [
    { attempted_at: AT, duration_ms: 12, status_code: null, response_body: null, response_truncated: false, error: 'timeout' },
    { attempted_at: AT, duration_ms: 8, status_code: 500, response_body: HOSTILE, response_truncated: false, error: null },
  ],
};

describe('the portal: a webhook delivery', () => {
  it("shows the receiver's answer and the payload as text, never as markup", async () => {
    const server = stubFetch(() => DETAIL);
    try {
      const el = await fixture<DeliveryDetailView>(html`<delivery-detail delivery-id="7"></delivery-detail>`);
      await waitUntil(() => el.querySelector('[data-response-body]'), 'the attempts show');
      expect(server.sent.map((s) => s.url.pathname)).to.deep.equal(['/demo/api/webhooks/deliveries/7']);
      const body = el.querySelector('[data-response-body]')!;
      expect(body.textContent).to.equal(HOSTILE);
      expect(body.children.length, 'no element made of the answer').to.equal(0);
      expect(el.querySelector('[data-payload]')!.textContent).to.include('<script>window.parsed=true</script>');
      expect(el.querySelectorAll('img, b, script').length).to.equal(0);
      expect((window as { parsed?: boolean }).parsed).to.equal(undefined);
      expect([...el.querySelectorAll('[data-attempt-status]')].map(shown)).to.deep.equal(['no answer: timed out', 'HTTP 500']);
      expect(lastResponse(DETAIL)).to.equal('500');
    } finally {
      server.restore();
    }
  });

  it('says when a delivery not yet sent goes: at its time, or after the earlier event of its link', async () => {
    const waiting: WebhookDeliveryDetail = { ...DETAIL, status: 'pending', attempts: 0, last_status_code: null, attempt_log: [] };
    const server = stubFetch(() => waiting);
    try {
      const el = await fixture<DeliveryDetailView>(html`<delivery-detail delivery-id="7"></delivery-detail>`);
      await waitUntil(() => el.textContent?.includes('Not sent yet'), 'the delivery shows');
      expect(el.textContent).to.include('Not sent yet: due after the earlier event of its link.');
    } finally {
      server.restore();
    }
    expect(nextAttempt({ status: 'pending', next_attempt_at: null })).to.equal('after the earlier event of its link');
    expect(nextAttempt({ status: 'pending', next_attempt_at: AT })).to.match(/\d/);
    expect(nextAttempt({ status: 'failed', next_attempt_at: null })).to.equal('—');
    expect(nextAttempt({ status: 'delivered', next_attempt_at: null })).to.equal('—');
    expect(queuedAgain({ next_attempt_at: AT })).to.equal('the gateway sends it within a few seconds');
    expect(queuedAgain({ next_attempt_at: null })).to.equal('it goes once the earlier event of its link is delivered');
  });
});
