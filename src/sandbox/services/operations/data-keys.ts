// The data key at start. Every value the database holds sealed (merchants' client secrets, webhook endpoints' secrets,
// the canary) must open with GATEWAY_DATA_KEY or one of GATEWAY_DATA_KEYS_PREVIOUS: otherwise the start stops and says
// so, where it used to start and fail each signature later. What a previous key opens is sealed again with the
// current key, so a rotation ends with one key (docs/operations.md, "Rotate the data key").
import type { Clock } from '../../clock.js';
import { log } from '../../logging.js';
import type { Sealer } from '../../secrets.js';
import type { Database } from '../../storage/database.js';
import { resealValue, sealedValues, writeCanary } from '../../storage/operations.js';

export class DataKeyError extends Error {}

const CANARY = 'pay-checkout data key canary';

export async function checkDataKeys(db: Database, sealer: Sealer, clock: Clock): Promise<void> {
  await db.transaction(async (tx) => {
    const values = await sealedValues(tx);
    const opened = values.map((value) => ({ value, key: sealer.keyOf(value.sealed) }));
    const unopened = opened.filter((o) => o.key === undefined).map((o) => o.value);
    if (unopened.length) {
      const named = unopened.slice(0, 3).map((v) => `${v.kind} ${v.id}`).join(', ');
      throw new DataKeyError(
        `GATEWAY_DATA_KEY opens ${unopened.length === values.length ? 'none' : `${values.length - unopened.length}`} of the ${values.length} secrets ` +
          `this database holds sealed (${named}${unopened.length > 3 ? ', …' : ''} do not open): it is not the key they were sealed with. ` +
          'Set GATEWAY_DATA_KEY back to that key, or list that key in GATEWAY_DATA_KEYS_PREVIOUS to rotate to a new one.',
      );
    }
    const now = clock.now();
    const previous = opened.filter((o) => o.key !== 0).map((o) => o.value);
    for (const value of previous) await resealValue(tx, value, sealer.seal(sealer.open(value.sealed)), now);
    if (!values.some((v) => v.kind === 'canary')) await writeCanary(tx, sealer.seal(CANARY), now);
    if (previous.length) log.info({ sealed_again: previous.length }, 'data key: what a previous key sealed is sealed again with GATEWAY_DATA_KEY');
  });
}

/** Whether the current keys open the canary (readiness). */
export function opensCanary(sealer: Sealer, sealed: string | undefined): boolean {
  return sealed !== undefined && sealer.keyOf(sealed) !== undefined;
}
