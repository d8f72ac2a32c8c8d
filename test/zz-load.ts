import autocannon from 'autocannon';
import { MerchantClient } from '../src/merchant/index.js';
import { sampleLink } from './helpers/gateway.js';
const url = 'http://localhost:4100';
const client = new MerchantClient({ baseUrl: url, clientId: 'sandbox_client', clientSecret: 'sandbox_secret_7Hq2vN9xLr4pK8mW3tYz', merchantKey: 'sandbox_merchant_key_Qb6sE1uJ5cR0' });
const input = sampleLink();
const link = (await client.createPaymentLink(input)) as { payment_link_ref: string };
const pay = await fetch(`${url}/api/checkout/${link.payment_link_ref}/payments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON', customer: { name: 'An', email: 'an@example.vn', phone: '+84901234567' } }) });
console.log(pay.status, (await pay.text()).slice(0, 100));
const tok = await (await fetch(`${url}/api/v2/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials&client_id=sandbox_client&client_secret=sandbox_secret_7Hq2vN9xLr4pK8mW3tYz' })).json();
const which = process.argv[2];
for (const [name, path, headers] of [['checkout', `/api/checkout/${link.payment_link_ref}`, {}], ['refunds', `/api/refund/getDataByTransaction/${(input as any).merchant_order_id}`, { authorization: `Bearer ${tok.access_token}` }]] as const) {
  if (which && which !== name) continue;
  const r = await autocannon({ url: url + path, connections: 25, duration: 8, headers });
  console.log(name, r.requests.average, r.non2xx, r.latency.p50);
}
