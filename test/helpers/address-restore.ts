// The restore scenario of docs/operations.md, "Back up and restore", on any store: addresses handed out (one paid), a
// backup, more handed out (one paid), the backup restored, a start: none of the addresses opened after it was handed
// out before; and a plain restart after that goes on from the next index.
import assert from 'node:assert/strict';
import type { TestGateway } from './gateway.js';
import { sampleLink } from './gateway.js';

/** Opens a USDT/TRON payment on a new link (paid in full when `pay`): its address and index. */
async function handOut(gateway: TestGateway, pay = false): Promise<{ address: string; index: number }> {
  const link = await gateway.client.createPaymentLink(sampleLink());
  const { customerCheckout, wallet, sandboxControls } = gateway.gateway;
  const { payment } = await customerCheckout.open(link.payment_link_ref, { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON' });
  if (pay) {
    await wallet.transfer({ to: payment.address, asset: 'USDT', network: 'TRON', amount: payment.amount_crypto });
    await sandboxControls.mine(payment.confirmations_required, 'TRON');
  }
  const payment_id = payment.payment_id;
  const [row] = await gateway.gateway.db.query<{ address: string; address_index: string }>('SELECT address, address_index::text FROM payments WHERE payment_id = $1', [payment_id]);
  return { address: row!.address, index: Number(row!.address_index) };
}

export interface RestoreSteps {
  start(): Promise<TestGateway>;
  backup(): Promise<void>;
  restore(): Promise<void>;
  margin: number;
}

export async function restoreScenario({ start, backup, restore, margin }: RestoreSteps): Promise<void> {
  const handed: { address: string; index: number }[] = [];
  let gateway = await start();
  handed.push(await handOut(gateway, true), await handOut(gateway));
  await gateway.close();
  await backup();

  gateway = await start();
  handed.push(await handOut(gateway), await handOut(gateway, true), await handOut(gateway));
  assert.deepEqual(
    handed.map((h) => h.index),
    [0, 1, 2, 3, 4],
    'a plain restart goes on from the next index',
  );
  await gateway.close();

  await restore();
  gateway = await start();
  const after = [await handOut(gateway), await handOut(gateway, true), await handOut(gateway)];
  await gateway.close();
  for (const one of after) assert.ok(!handed.some((h) => h.address === one.address), `address ${one.address} (index ${one.index}) was handed out before the restore`);
  // At least the margin past the restored database's next index (2), and past every index handed out.
  assert.ok(after[0]!.index >= 2 + margin && after[0]!.index > 4, `moved past what was handed out, by the margin: index ${after[0]!.index}`);

  gateway = await start();
  const next = await handOut(gateway);
  await gateway.close();
  assert.equal(next.index, after[2]!.index + 1, 'a plain restart after the restore goes on from the next index');
}
