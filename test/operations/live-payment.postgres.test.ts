// A live payment end to end, as an operator runs it (DESIGN section 10): a live gateway in a process of its
// own on PostgreSQL, Ethereum on anvil, rates from a market-rate file whose sources (Binance's ticker, ExchangeRate-API's
// USD/VND) answer on loopback, its own data key and PAYOUT_HD_SEED. Two merchants added with the merchants command while
// it runs, each with an xpub made here with ethers (a BIP32 implementation other than the gateway's). Merchant A's ETH
// payment is opened at ethers' 0/0 of A's key, paid from the customer's account and followed to paid; its refund,
// claimed by the customer, leaves A's own payout wallet (ethers' derivation of PAYOUT_HD_SEED at A's payout account, as
// GET /api/payouts/wallets says) for the claimed address, for the refund's coins. Merchant B disabled with the command:
// its token refused, its other link refused a new payment (409), and transfers to its addresses after the disable still
// credited: the open payment paid, the superseded one held (paid_late) (docs/operations.md, "A disabled merchant").
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseEip681 } from 'eth-url-parser';
import { HDNodeWallet, parseEther, parseUnits, Wallet } from 'ethers';
import pg from 'pg';
import type { Address, Hex } from 'viem';
import { MERCHANT_DISABLED } from '../../src/contract/index.js';
import { MerchantClient } from '../../src/merchant/index.js';
import { payUri, startTestChain, type TestChain } from '../helpers/anvil.js';
import { checkoutApi, followEvents } from '../helpers/checkout.js';
import { sampleLink } from '../helpers/gateway.js';
import { liveEnv } from '../helpers/live.js';
import { accessToken, send } from '../helpers/merchant-api.js';
import { runMerchants } from '../helpers/merchants-command.js';
import { binanceTicker, exchangeRateLatest, ratesFile, startPriceSource, type PriceSource } from '../helpers/price-sources.js';
import { startGatewayProcess, urlInSchema, type GatewayProcess } from '../helpers/process.js';
import { until } from '../helpers/until.js';

const databaseUrl = process.env.TEST_DATABASE_URL!;
/** The market the sources tell: ETH/USD from Binance, USD/VND from ExchangeRate-API; USDT held at its peg in the file. */
const ETH_USD = '3456.78000000';
const USD_VND = '26345.5';
/** Their product, worked out by hand: 3456.78 × 26345.5 (docs/rates.md, "What each payment records"). */
const ETH_MARKET_VND = '91070597.49';

interface Added {
  merchant_id: string;
  client_id: string;
  client_secret: string;
  merchant_key: string;
}

describe('a live payment end to end on anvil, and a disabled merchant (PostgreSQL)', () => {
  const schema = `livepay_${process.pid}`;
  let admin: pg.Client;
  let chain: TestChain;
  let binance: PriceSource;
  let fx: PriceSource;
  let folder: string;
  let env: Record<string, string>;
  let gateway: GatewayProcess;

  before(async () => {
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    chain = await startTestChain();
    binance = await startPriceSource('/api/v3/ticker/price?symbols=%5B%22ETHUSDT%22%5D', binanceTicker({ ETHUSDT: ETH_USD }));
    // A daily reference, an hour old, as ExchangeRate-API's open access gives it.
    fx = await startPriceSource('/v6/latest/USD', exchangeRateLatest({ VND: USD_VND }, () => new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000)));
    folder = await mkdtemp(join(tmpdir(), 'pay-checkout-livepay-'));
    const rateFile = await ratesFile(folder, {
      sources: [
        { id: 'binance', kind: 'binance', url: binance.url, pairs: { 'ETH/USD': 'ETHUSDT' }, poll_ms: 15_000, timeout_ms: 2_000 },
        { id: 'peg', kind: 'fixed', pairs: { 'USDT/USD': '1' } },
        { id: 'er-api', kind: 'exchangerate-api', url: fx.url, pairs: { 'USD/VND': 'VND' }, poll_ms: 3_600_000, timeout_ms: 2_000, stale_after_ms: 129_600_000 },
      ],
      assets: { ETH: { via: 'USD', min: '40000000', max: '200000000' }, USDT: { via: 'USD' } },
    });
    env = {
      ...(await liveEnv(chain, folder)),
      // The market-rate file in place of liveEnv's fixed rates.
      RATE_SOURCES: rateFile,
      DATABASE_URL: urlInSchema(databaseUrl, schema),
      ETHEREUM_CONFIRMATIONS: '1',
      LOG_LEVEL: 'warn',
    };
    gateway = await startGatewayProcess(env);
  });
  after(async () => {
    await gateway?.stop();
    await chain?.stop();
    await Promise.all([binance?.close(), fx?.close()]);
    if (folder) await rm(folder, { recursive: true, force: true });
    await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin?.end();
  });

  /** The operator's command on the gateway's database, to its exit: the one JSON line `--json` prints. */
  async function merchants<T>(...args: string[]): Promise<T> {
    const run = await runMerchants([...args, '--json'], { ...process.env, DATABASE_URL: env.DATABASE_URL, GATEWAY_ENV: 'live', GATEWAY_DATA_KEY: env.GATEWAY_DATA_KEY, LOG_LEVEL: 'warn' });
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout) as T;
  }
  const clientOf = (m: Added) => new MerchantClient({ baseUrl: gateway.url, clientId: m.client_id, clientSecret: m.client_secret, merchantKey: m.merchant_key });
  /** A merchant's own wallet: its seed stays here, the gateway gets the account's extended public key. */
  const evmAccountKey = () => HDNodeWallet.fromSeed(randomBytes(32)).derivePath("m/44'/60'/0'").neuter().extendedKey;
  /** The receive address 0/index of an account key, as ethers derives it. */
  const receiveAddress = (xpub: string, index: number) => HDNodeWallet.fromExtendedKey(xpub).deriveChild(0).deriveChild(index).address;
  /** A payout wallet as ethers derives it from the operator's seed (docs/operations.md, "Payout wallets"). */
  const payoutWallet = (account: number) => HDNodeWallet.fromSeed(`0x${env.PAYOUT_HD_SEED}`).derivePath(`m/44'/60'/${account}'/0/0`).address;
  const payoutAccountOf = async (merchantId: string) =>
    (await admin.query<{ payout_account: number }>(`SELECT payout_account FROM ${schema}.merchants WHERE merchant_id = $1`, [merchantId])).rows[0]!.payout_account;

  const xpubA = evmAccountKey();
  const xpubB = evmAccountKey();
  let a: Added;
  let b: Added;

  it('adds two merchants with the command while the gateway runs, each with its own xpub', async () => {
    // B first, so that A's payout account is not 0: a refund paid from account 0's wallet would show.
    b = await merchants<Added>('add', '--name', 'Shop B', '--xpub-evm', xpubB);
    a = await merchants<Added>('add', '--name', 'Shop A', '--xpub-evm', xpubA);
    for (const m of [a, b]) assert.match(m.client_id, /^live_/);
    assert.notEqual(await payoutAccountOf(a.merchant_id), 0);
    // Opens wait for the gateway to have seen the node: a view says when its coin is available.
    const probe = checkoutApi(gateway.url, (await clientOf(a).createPaymentLink(sampleLink())).payment_link_ref);
    const seen = await until(() => probe.view(), (v) => v.body.methods[0]?.assets.some((asset) => asset.asset === 'ETH' && asset.available) ?? false, 20_000);
    assert.ok(seen.value.body.methods[0]!.assets.some((asset) => asset.asset === 'ETH' && asset.available), JSON.stringify(seen.value.body));
  });

  it("pays A's ETH payment at ethers' 0/0 of A's key at the market's rate, and refunds it from A's payout wallet to the claimed address", async () => {
    const client = clientOf(a);
    const order = sampleLink();
    const { payment_link_ref: ref } = await client.createPaymentLink(order);
    const opened = await checkoutApi(gateway.url, ref).open('ETH', 'ETHEREUM');
    assert.equal(opened.status, 201, JSON.stringify(opened.body));
    const payment = opened.body;
    assert.equal(payment.address, receiveAddress(xpubA, 0));
    assert.notEqual(payment.address, receiveAddress(xpubB, 0));

    const events = followEvents(gateway.url, ref);
    try {
      await payUri(chain, parseEip681(payment.payment_uri));
      await chain.client.mine({ blocks: 1 });
      const paid = await events.next((p) => p.payment_id === payment.payment_id && p.status === 'paid', 20_000);
      assert.equal(paid.received_crypto, payment.amount_crypto);
    } finally {
      events.close();
    }
    // The rate came from the file's market sources, not a fixed one.
    const recorded = (await client.getPaymentLink(ref)).payments.find((p) => p.payment_id === payment.payment_id)!;
    assert.equal(recorded.rate_provenance?.market_rate, ETH_MARKET_VND);
    assert.deepEqual(
      recorded.rate_provenance!.legs.map((leg) => [leg.pair, leg.sources.map((s) => [s.source, s.value, s.used])]),
      [['ETH/USD', [['binance', ETH_USD, true]]], ['USD/VND', [['er-api', USD_VND, true]]]],
    );

    // A's payout wallet, as A reads it and as ethers derives it from PAYOUT_HD_SEED; funded by the operator first.
    const { wallets } = await client.getPayoutWallets();
    assert.equal(wallets.length, 1);
    const [wallet] = wallets as [(typeof wallets)[number]];
    const account = Number(/^m\/44'\/60'\/(\d+)'\/0\/0$/.exec(wallet.derivation_path)?.[1]);
    assert.equal(account, await payoutAccountOf(a.merchant_id), wallet.derivation_path);
    assert.equal(wallet.address, payoutWallet(account));
    const walletB = payoutWallet(await payoutAccountOf(b.merchant_id));
    for (const other of [walletB, payoutWallet(0)]) assert.notEqual(wallet.address, other);
    await chain.client.setBalance({ address: wallet.address as Address, value: parseEther('1') });

    const list = await client.createRefund(order.merchant_order_id, { amount: order.amount, channel: 'PROVIDER', description: 'returned', refund_type: 'full', refund_reason: 'not delivered' });
    const made = list.refundDetails.at(-1)!;
    const claimed = Wallet.createRandom().address;
    const { pathname, search } = new URL(made.claim_url!);
    const claim = await fetch(new URL(pathname + search, gateway.url), { method: 'POST', body: new URLSearchParams({ address: claimed, confirm: 'yes' }) });
    assert.equal(claim.status, 200, await claim.text());

    // The gateway's payout round (every second) signs it; the block makes its one confirmation.
    const sent = await until(() => client.getRefund(made.refund_id), (r) => r.psp_refund_id !== '', 15_000);
    assert.ok(sent.value.psp_refund_id, JSON.stringify(sent.value));
    await chain.client.mine({ blocks: 1 });
    const done = await until(() => client.getRefund(made.refund_id), (r) => r.refund_status === 'SUCCESS', 15_000);
    assert.equal(done.value.refund_status, 'SUCCESS', JSON.stringify(done.value));

    const tx = await chain.client.getTransaction({ hash: done.value.psp_refund_id as Hex });
    assert.equal(tx.from.toLowerCase(), wallet.address.toLowerCase(), "from A's payout wallet");
    assert.equal(tx.to?.toLowerCase(), claimed.toLowerCase());
    assert.equal(tx.value, parseUnits(done.value.amount_crypto, 18));
    assert.equal(done.value.amount_crypto, payment.amount_crypto, 'a full refund returns the coins paid');
    assert.equal(await chain.client.getBalance({ address: claimed as Address }), tx.value);
  });

  it("disables B with the command: its token refused, its links refuse new payments, and later transfers to its addresses credited", async () => {
    const client = clientOf(b);
    const token = await accessToken(gateway.url, { name: 'Shop B', clientId: b.client_id, clientSecret: b.client_secret, merchantKey: b.merchant_key });
    const { payment_link_ref: ref } = await client.createPaymentLink(sampleLink());
    const { payment_link_ref: untouched } = await client.createPaymentLink(sampleLink());
    // A USDT payment, then ETH on the same link: the USDT quote is superseded, its address asks for nothing.
    const superseded = (await checkoutApi(gateway.url, ref).open('USDT', 'ETHEREUM')).body;
    const open = (await checkoutApi(gateway.url, ref).open('ETH', 'ETHEREUM')).body;
    assert.deepEqual([superseded.address, open.address], [receiveAddress(xpubB, 0), receiveAddress(xpubB, 1)]);

    await merchants('disable', b.client_id);
    // The command's NOTIFY reaches the gateway's process a moment after the command exits.
    const refused = await until(() => send<{ detail: string }>(gateway.url, 'GET', '/api/paymentLink', { headers: { Authorization: `Bearer ${token}` } }), (r) => r.status === 401, 10_000);
    assert.equal(refused.value.status, 401);
    assert.equal(refused.value.body.detail, MERCHANT_DISABLED);
    const refusedOpen = await checkoutApi(gateway.url, untouched).open('ETH', 'ETHEREUM');
    assert.equal(refusedOpen.status, 409, JSON.stringify(refusedOpen.body));
    assert.match(JSON.stringify(refusedOpen.body), /no longer available/);

    const events = followEvents(gateway.url, ref);
    try {
      await payUri(chain, parseEip681(open.payment_uri));
      await payUri(chain, parseEip681(superseded.payment_uri));
      await chain.client.mine({ blocks: 1 });
      const paid = await events.next((p) => p.payment_id === open.payment_id && p.status === 'paid', 20_000);
      assert.equal(paid.received_crypto, open.amount_crypto);
      const held = await events.next((p) => p.payment_id === superseded.payment_id && p.status === 'paid_late', 20_000);
      assert.equal(held.received_crypto, superseded.amount_crypto);
    } finally {
      events.close();
    }
  });
});
