// The merchant API as a merchant's server reaches it without the SDK: raw requests, signed bodies, row counts.
import { createHmac } from 'node:crypto';
import type { Hono } from 'hono';
import type { PaymentLinkInput } from '../../src/contract/index.js';
import type { MerchantCredentials } from '../../src/sandbox/config.js';
import { createApp } from '../../src/sandbox/app.js';
import { signedText } from '../../src/merchant/index.js';
import type { Database } from '../../src/sandbox/storage/database.js';
import { sampleLink, type TestGateway } from './gateway.js';

export const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
export const JSON_TYPE = { 'Content-Type': 'application/json' };

/** The body the SDK sends for `input`: `source: api`, the merchant key as `svc_key`, signed with the client secret. */
export function signedLinkBody(credentials: Pick<MerchantCredentials, 'merchantKey' | 'clientSecret'>, input: Partial<PaymentLinkInput> | Record<string, unknown> = sampleLink()): Record<string, unknown> {
  return sign({ source: 'api', ...input, svc_key: credentials.merchantKey }, credentials.clientSecret);
}

/**
 * `body` with its `signature_hash` computed afresh (whatever it held before), by hand as docs/api.md shows it
 * (node:crypto over the JCS text), apart from the SDK's WebCrypto signer, and synchronously. It signs the body as
 * JSON carries it (a fuzzed NaN or Infinity travels as null), which is what the gateway checks.
 */
export function sign(body: Record<string, unknown>, clientSecret: string): Record<string, unknown> {
  const { signature_hash: _old, ...rest } = body;
  const sent = JSON.parse(JSON.stringify(rest)) as Record<string, unknown>;
  return { ...rest, signature_hash: createHmac('sha256', clientSecret).update(signedText(sent), 'utf8').digest('base64') };
}

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** One request, in process (`app.request`) or over HTTP (a base URL); the body is parsed when it is JSON. */
export async function send<T = Record<string, unknown>>(
  target: Hono | string,
  method: string,
  path: string,
  init: { body?: string | URLSearchParams; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const request = { method, body: init.body, headers: init.headers };
  const response = typeof target === 'string' ? await fetch(new URL(path, target), request) : await target.request(path, request);
  const text = await response.text();
  const json = /json/.test(response.headers.get('Content-Type') ?? '') && text ? (JSON.parse(text) as T) : (text as T);
  return { status: response.status, headers: response.headers, body: json };
}

/** A token for these credentials, from the token endpoint. */
export async function accessToken(target: Hono | string, credentials: MerchantCredentials): Promise<string> {
  const { status, body } = await send<{ access_token: string }>(target, 'POST', '/api/v2/oauth/token', {
    headers: FORM,
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: credentials.clientId, client_secret: credentials.clientSecret }),
  });
  if (status !== 200) throw new Error(`token endpoint answered ${status}`);
  return body.access_token;
}

/** The gateway's Hono app, to call in process: faster than HTTP where hundreds of requests go out. */
export const inProcess = (gw: TestGateway): Hono => createApp(gw.gateway);

const countQueries = new WeakMap<Database, Promise<string>>();

/**
 * Rows in every table of the gateway's schema but the rate limits' windows, in one query: what a refused request must
 * leave as it was (a refusal is what the limits count).
 */
export async function rowCounts(db: Database): Promise<Record<string, number>> {
  let query = countQueries.get(db);
  if (!query) {
    query = db
      .query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'rate_limit_windows' ORDER BY tablename`)
      .then((tables) => `SELECT ${tables.map((t) => `(SELECT count(*) FROM "${t.tablename}")::int AS "${t.tablename}"`).join(', ')}`);
    countQueries.set(db, query);
  }
  const [row] = await db.query<Record<string, number>>(await query);
  return row!;
}

/** A link of the sandbox merchant for a new order, paid in full through the real flow; returns its order id. */
export async function paidOrder(gw: TestGateway, overrides: Partial<PaymentLinkInput> = {}): Promise<{ orderId: string; ref: string }> {
  const input = sampleLink(overrides);
  const { payment_link_ref: ref } = await gw.client.createPaymentLink(input);
  await gw.markPaid(ref);
  return { orderId: input.merchant_order_id, ref };
}
