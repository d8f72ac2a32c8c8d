// A second merchant in a test gateway's database, made as the operator's command makes one (storage's
// upsertMerchant), and everything a merchant has (links paid through the sandbox, a held payment, refunds, a webhook
// endpoint and its deliveries, a token, a portal session), for tests that one merchant never reaches another's.
import { randomBytes } from 'node:crypto';
import { MerchantClient } from '../../src/merchant/index.js';
import type { MerchantCredentials } from '../../src/sandbox/config.js';
import { createSealer, sha256 } from '../../src/sandbox/secrets.js';
import { upsertMerchant } from '../../src/sandbox/storage/merchants.js';
import { sampleLink, type TestGateway } from './gateway.js';
import { accessToken, JSON_TYPE, send } from './merchant-api.js';

export interface StoredMerchant {
  merchantId: string;
  credentials: MerchantCredentials;
  client: MerchantClient;
}

/** A merchant written straight to the merchants table, its secret sealed with the gateway's data key. */
export async function storedMerchant(gw: TestGateway, name: string): Promise<StoredMerchant> {
  const suffix = randomBytes(6).toString('hex');
  const credentials = { name, clientId: `client_${suffix}`, clientSecret: `secret_${suffix}`, merchantKey: `key_${suffix}` };
  const sealer = createSealer(gw.gateway.config.dataKey);
  const row = await upsertMerchant(gw.gateway.db, {
    merchant_id: `mch_${suffix}`,
    name,
    client_id: credentials.clientId,
    client_secret_hash: sha256(credentials.clientSecret),
    client_secret_sealed: sealer.seal(credentials.clientSecret),
    svc_key_hash: sha256(credentials.merchantKey),
  });
  const client = new MerchantClient({ baseUrl: gw.url, clientId: credentials.clientId, clientSecret: credentials.clientSecret, merchantKey: credentials.merchantKey });
  return { merchantId: row.merchant_id, credentials, client };
}

/** What one merchant has, each id as the merchant API names it. */
export interface MerchantEstate {
  credentials: MerchantCredentials;
  token: string;
  /** The portal's session: its cookie (`name=value`) and CSRF token. */
  session: { cookie: string; csrf: string };
  refs: string[];
  orderIds: string[];
  paymentIds: string[];
  /** A payment held for the merchant (paid_late). */
  heldPaymentId: string;
  refundIds: string[];
  endpointIds: string[];
  /** The endpoint's signing secret and URL. */
  endpointSecrets: string[];
  endpointUrls: string[];
  deliveryIds: number[];
  addresses: string[];
  idempotencyKeys: string[];
}

const OPEN = { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON' } as const;

/**
 * Gives a merchant an estate: a webhook endpoint (so that what follows is delivered), a link paid through the sandbox
 * with a refund, a link whose superseded payment was paid in full (held), a token and a portal session (the portal
 * must be mounted on the gateway: demo/server.ts).
 */
export async function furnish(gw: TestGateway, credentials: MerchantCredentials, client: MerchantClient): Promise<MerchantEstate> {
  const token = await accessToken(gw.url, credentials);
  const bearer = { Authorization: `Bearer ${token}`, ...JSON_TYPE };
  const tag = randomBytes(4).toString('hex');
  const endpointKey = `endpoint-${tag}`;
  const endpoint = await send<{ endpoint_id: string; secret: string; url: string }>(gw.url, 'POST', '/api/webhooks/endpoints', {
    headers: { ...bearer, 'Idempotency-Key': endpointKey },
    body: JSON.stringify({ url: `http://127.0.0.1:9/hooks/${tag}` }),
  });
  if (endpoint.status !== 201) throw new Error(`adding an endpoint answered ${endpoint.status}`);

  const paid = await client.createPaymentLink(sampleLink());
  await gw.markPaid(paid.payment_link_ref);
  const held = await client.createPaymentLink(sampleLink());
  const { customerCheckout: checkout, wallet, sandboxControls } = gw.gateway;
  const { payment: superseded } = await checkout.open(held.payment_link_ref, OPEN);
  const { payment: open } = await checkout.open(held.payment_link_ref, { ...OPEN, asset: 'ETH', network: 'ETHEREUM' });
  await wallet.transfer({ to: superseded.address, asset: 'USDT', network: 'TRON', amount: superseded.amount_crypto });
  await sandboxControls.mine(superseded.confirmations_required, 'TRON');

  const [paidLink, heldLink] = await Promise.all([client.getPaymentLink(paid.payment_link_ref), client.getPaymentLink(held.payment_link_ref)]);
  const refundKey = `refund-${tag}`;
  const refund = await send<{ refundDetails: { refund_id: string }[] }>(gw.url, 'POST', `/api/refund/createRefund/${paidLink.merchant_order_id}`, {
    headers: { ...bearer, 'Idempotency-Key': refundKey },
    body: JSON.stringify({ amount: 10_000, channel: 'PROVIDER', description: `refund ${tag}`, refund_type: 'partial', refund_reason: `reason ${tag}` }),
  });
  if (refund.status !== 201) throw new Error(`a refund answered ${refund.status}`);
  const deliveries = await send<{ deliveries: { delivery_id: number }[] }>(gw.url, 'GET', `/api/webhooks/endpoints/${endpoint.body.endpoint_id}/deliveries`, { headers: bearer });

  const signIn = await fetch(new URL('/demo/sign-in', gw.url), {
    method: 'POST',
    headers: { Origin: new URL(gw.url).origin, ...JSON_TYPE },
    body: JSON.stringify({ client_id: credentials.clientId, client_secret: credentials.clientSecret }),
  });
  if (signIn.status !== 200) throw new Error(`signing in answered ${signIn.status}`);
  const cookie = signIn.headers.get('Set-Cookie')!.split(';')[0]!;
  const { csrf_token } = (await signIn.json()) as { csrf_token: string };

  return {
    credentials,
    token,
    session: { cookie, csrf: csrf_token },
    refs: [paid.payment_link_ref, held.payment_link_ref],
    orderIds: [paidLink.merchant_order_id, heldLink.merchant_order_id],
    paymentIds: [...paidLink.payments.map((p) => p.payment_id), ...heldLink.payments.map((p) => p.payment_id)],
    heldPaymentId: superseded.payment_id,
    refundIds: refund.body.refundDetails.map((r) => r.refund_id),
    endpointIds: [endpoint.body.endpoint_id],
    endpointSecrets: [endpoint.body.secret],
    endpointUrls: [endpoint.body.url],
    deliveryIds: deliveries.body.deliveries.map((d) => d.delivery_id),
    addresses: [superseded.address, open.address, ...paidLink.payments.map((p) => p.address)],
    idempotencyKeys: [endpointKey, refundKey],
  };
}
