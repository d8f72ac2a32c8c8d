// A transaction's page on its network's explorer, from the asset's `explorer_tx_url` (contract/checkout.ts). A module
// of its own: the element's receipt is in a chunk loaded later, and a rule in rules.ts would weigh on the script itself.
import { isWebUrl } from './rules.js';
/** A transaction's page on its network's explorer (the asset's `explorer_tx_url`, `{hash}` filled), for an http(s) explorer only. */
export function transactionUrl(template: string | null | undefined, hash: string): string | undefined {
  const url = template?.replace('{hash}', encodeURIComponent(hash));
  return url && isWebUrl(url) ? url : undefined;
}
