// Every statement about payouts on a node's network: the hot wallets' nonces, and the transactions signed for each
// refund (migrations/010_payouts.sql).
import type { Network } from '../../contract/index.js';
import { one, type Sql } from './database.js';

export interface PayoutTransaction {
  tx_hash: string;
  raw: string;
  gas: string;
  max_fee_per_gas: string;
  max_priority_fee_per_gas: string;
  signed_at: Date;
  nonce: number;
}

/**
 * The next nonce of a hot wallet, taken: the wallet's row locked until the caller's transaction ends. `chain` is the
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

export async function insertPayoutTransaction(sql: Sql, refundId: string, tx: Omit<PayoutTransaction, 'nonce'>): Promise<void> {
  await sql.query(
    `INSERT INTO payout_transactions (tx_hash, refund_id, raw, gas, max_fee_per_gas, max_priority_fee_per_gas, signed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [tx.tx_hash, refundId, tx.raw, tx.gas, tx.max_fee_per_gas, tx.max_priority_fee_per_gas, tx.signed_at],
  );
}

/** The transactions signed for a refund's payout, the newest first, with their nonce. */
export async function payoutTransactionsOf(sql: Sql, refundId: string): Promise<PayoutTransaction[]> {
  return sql.query<PayoutTransaction>(
    `SELECT t.tx_hash, t.raw, t.gas::text AS gas, t.max_fee_per_gas::text AS max_fee_per_gas,
       t.max_priority_fee_per_gas::text AS max_priority_fee_per_gas, t.signed_at, n.nonce
     FROM payout_transactions t JOIN payout_nonces n USING (refund_id) WHERE t.refund_id = $1 ORDER BY t.seq DESC`,
    [refundId],
  );
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
