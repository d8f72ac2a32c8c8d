// Every statement about payouts on a node's network: each merchant's payout wallet (its account, what it signed in the
// last day), the wallets' nonces, and the transactions signed for each refund (migrations/010_payouts.sql,
// 022_merchant_payout_wallets.sql, 030_tron_payouts.sql: a TRON one has no nonce, gas or fees, and expires).
import type { Network } from '../../contract/index.js';
import type { PayoutTerms, RecordedPayout } from '../chains/port.js';
import { one, type Sql } from './database.js';
import { LOCK_SPACES, lockEach } from './locks.js';

/** The account of a merchant's payout wallet (migrations/022_merchant_payout_wallets.sql); undefined for no such merchant. */
export async function payoutAccountOf(sql: Sql, merchantId: string): Promise<number | undefined> {
  return (await one<{ payout_account: number }>(sql, 'SELECT payout_account FROM merchants WHERE merchant_id = $1', [merchantId]))?.payout_account;
}

/** Every merchant's payout account, by merchant. */
export async function payoutAccounts(sql: Sql): Promise<{ merchant_id: string; payout_account: number }[]> {
  return sql.query('SELECT merchant_id, payout_account FROM merchants ORDER BY payout_account');
}

/**
 * Held until the caller's transaction ends: a merchant's payouts are checked against its daily cap and signed one at
 * a time, in every process, so two cannot both take the last of its room.
 */
export async function lockMerchantPayouts(sql: Sql, merchantId: string): Promise<void> {
  await lockEach(sql, LOCK_SPACES.merchantPayouts, [merchantId]);
}

/**
 * What a merchant's payouts signed since `since`, oldest first: each refund once, at its first transaction (a fee
 * bump or a resend after a reorganisation is the same payout), by the VND recorded with the refund.
 */
export async function payoutsSignedSince(sql: Sql, merchantId: string, since: Date): Promise<{ signed_at: Date; amount: number }[]> {
  return sql.query(
    `SELECT s.signed_at, r.amount FROM (SELECT refund_id, min(signed_at) AS signed_at FROM payout_transactions GROUP BY refund_id) s
       JOIN refunds r USING (refund_id) JOIN payment_links l USING (payment_link_ref)
     WHERE l.merchant_id = $1 AND s.signed_at > $2 ORDER BY s.signed_at, r.seq`,
    [merchantId, since],
  );
}

/**
 * VND of a merchant's refunds made before `refundId` that wait for the daily cap, each no larger than `cap` (one
 * larger never fits, and holds no room): they go first.
 */
export async function waitingForCapBefore(sql: Sql, merchantId: string, refundId: string, cap: number): Promise<number> {
  const row = await one<{ total: number }>(
    sql,
    `SELECT COALESCE(sum(r.amount), 0)::bigint AS total FROM refunds r JOIN payment_links l USING (payment_link_ref)
     WHERE l.merchant_id = $1 AND r.refund_status = 'PENDING' AND r.payout_waiting = 'daily_cap' AND r.amount <= $3
       AND r.seq < (SELECT seq FROM refunds WHERE refund_id = $2)`,
    [merchantId, refundId, cap],
  );
  return Number(row!.total);
}

/**
 * The next nonce of a wallet, taken: the wallet's row locked until the caller's transaction ends. `chain` is the
 * nonce the node counts; a wallet that also sent by other means goes on from there.
 */
export async function takeNonce(sql: Sql, network: Network, address: string, chain: number): Promise<number> {
  await sql.query('INSERT INTO payout_wallets (network, address, next_nonce) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [network, address, chain]);
  const row = await one<{ next_nonce: number }>(sql, 'SELECT next_nonce FROM payout_wallets WHERE network = $1 AND address = $2 FOR UPDATE', [network, address]);
  const nonce = Math.max(row!.next_nonce, chain);
  await sql.query('UPDATE payout_wallets SET next_nonce = $3 WHERE network = $1 AND address = $2', [network, address, nonce + 1]);
  return nonce;
}

export async function insertPayoutNonce(sql: Sql, network: Network, address: string, nonce: number, refundId: string): Promise<void> {
  await sql.query('INSERT INTO payout_nonces (network, address, nonce, refund_id) VALUES ($1, $2, $3, $4)', [network, address, nonce, refundId]);
}

export async function insertPayoutTransaction(sql: Sql, refundId: string, tx: Omit<RecordedPayout, 'terms'> & { terms: PayoutTerms }): Promise<void> {
  const { gas, fees, expiresAt, feeLimit } = tx.terms;
  await sql.query(
    `INSERT INTO payout_transactions (tx_hash, refund_id, raw, gas, max_fee_per_gas, max_priority_fee_per_gas, expires_at, fee_limit, signed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [tx.hash, refundId, tx.raw, gas?.toString() ?? null, fees?.maxFeePerGas.toString() ?? null, fees?.maxPriorityFeePerGas.toString() ?? null, expiresAt ?? null, feeLimit?.toString() ?? null, tx.signed_at],
  );
}

interface PayoutTransactionRow {
  tx_hash: string;
  raw: string;
  gas: string | null;
  max_fee_per_gas: string | null;
  max_priority_fee_per_gas: string | null;
  expires_at: Date | null;
  fee_limit: string | null;
  signed_at: Date;
  nonce: number | null;
}

/** The transactions signed for a refund's payout, the newest first, with their terms (the nonce where it has one). */
export async function payoutTransactionsOf(sql: Sql, refundId: string): Promise<RecordedPayout[]> {
  const rows = await sql.query<PayoutTransactionRow>(
    `SELECT t.tx_hash, t.raw, t.gas::text AS gas, t.max_fee_per_gas::text AS max_fee_per_gas,
       t.max_priority_fee_per_gas::text AS max_priority_fee_per_gas, t.expires_at, t.fee_limit::text AS fee_limit, t.signed_at, n.nonce
     FROM payout_transactions t LEFT JOIN payout_nonces n USING (refund_id) WHERE t.refund_id = $1 ORDER BY t.seq DESC`,
    [refundId],
  );
  return rows.map((r) => ({
    hash: r.tx_hash,
    raw: r.raw,
    signed_at: r.signed_at,
    terms: {
      ...(r.nonce !== null && { nonce: Number(r.nonce) }),
      ...(r.gas !== null && { gas: BigInt(r.gas) }),
      ...(r.max_fee_per_gas !== null && r.max_priority_fee_per_gas !== null && { fees: { maxFeePerGas: BigInt(r.max_fee_per_gas), maxPriorityFeePerGas: BigInt(r.max_priority_fee_per_gas) } }),
      ...(r.expires_at !== null && { expiresAt: r.expires_at }),
      ...(r.fee_limit !== null && { feeLimit: BigInt(r.fee_limit) }),
    },
  }));
}

/**
 * Which of these transactions are payouts the gateway sent: each one signed for a node's network (replacements too),
 * or the one a simulated chain sent for a refund.
 */
export async function payoutsAmong(sql: Sql, txHashes: readonly string[]): Promise<Set<string>> {
  if (!txHashes.length) return new Set();
  const rows = await sql.query<{ tx_hash: string }>(
    `SELECT tx_hash FROM payout_transactions WHERE tx_hash = ANY($1::text[])
     UNION SELECT psp_refund_id FROM refunds WHERE psp_refund_id = ANY($1::text[])`,
    [[...new Set(txHashes)]],
  );
  return new Set(rows.map((r) => r.tx_hash));
}
