// The customer's side of a refund: the claim link (the refund record's claim_url) opens a page that shows what comes
// back and asks once for an address of the refund's network; the address, checked for that network (checksum
// included), becomes the refund's destination and the payout leaves (payouts.ts). The token in the link is its bearer
// secret, as a link's ref is: nothing else opens it. An address of the gateway's own is refused: a payout to a
// payment address would only come back to the gateway, never to the customer.
import { canonicalAddress, isValidAddress, type NetworkFamily } from '../../../codecs/addresses.js';
import { FAMILIES, FAMILY_NAMES } from '../../../codecs/families/index.js';
import { formatAtomic } from '../../../codecs/amounts.js';
import type { FieldError } from '../../../contract/index.js';
import type { NetworkConfig, Networks } from '../../chains/networks.js';
import type { Clock } from '../../clock.js';
import { conflict, gone, invalid, notFound } from '../../errors.js';
import type { Database, Sql } from '../../storage/database.js';
import { findPaymentLink } from '../../storage/payments.js';
import { insertRefundEvent, refundByClaimToken, setRefundDestination, type RefundState } from '../../storage/refunds.js';
import type { Payouts } from './payouts.js';

/** A refund as its claim page shows it. */
export interface RefundClaim {
  refund: RefundState;
  network: NetworkConfig;
  /** The label of the coin on its network: `USDT · TRC-20 (TRON)`. */
  label: string;
  amount_crypto: string;
  /** The rate: the payment's confirmed coins and their worth to the order. */
  payment_received_crypto: string;
}

/** The claim form's fields. */
export interface ClaimForm {
  address?: string;
  confirm?: string;
}

export class RefundClaims {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly networks: Networks,
    private readonly payouts: Payouts,
  ) {}

  /** The claim behind a token; a claim whose link ran out unclaimed ends first (FAILED), and shows so. */
  async read(token: string): Promise<RefundClaim> {
    const found = await refundByClaimToken(this.db, token);
    if (!found) throw notFound('There is no such refund.');
    if (found.refund_status === 'PENDING' && found.destination === null && found.claim_expires_at! <= this.clock.now()) {
      await this.payouts.endLapsedClaims({ merchantId: found.merchant_id, orderId: found.merchant_order_id });
    }
    return this.#claimOf((await refundByClaimToken(this.db, token))!);
  }

  /** The customer gives the address: checked for the refund's network and confirmed, it is where the payout goes. */
  async claim(token: string, form: ClaimForm): Promise<RefundClaim> {
    await this.db.transaction(async (tx) => {
      const refund = await refundByClaimToken(tx, token, { lock: true });
      if (!refund) throw notFound('There is no such refund.');
      if (refund.destination !== null) throw conflict('This refund was claimed already.');
      if (refund.refund_status !== 'PENDING') throw gone(`This refund can no longer be claimed: ${refund.failure_reason ?? refund.refund_status}.`);
      if (refund.claim_expires_at! <= this.clock.now()) throw gone('This claim link has expired: ask the merchant for a new one.');
      const network = this.networks.of(refund.network);
      const address = (form.address ?? '').trim();
      const problem = addressProblem(network.family, address) ?? ((await this.#gatewayOwns(tx, network, address)) ? { kind: 'gateway' as const } : undefined);
      const errors = [
        ...problemErrors(network, problem),
        ...(form.confirm === 'yes' ? [] : [{ path: 'confirm', message: 'must be ticked: confirm the address is yours and on this network' }]),
      ];
      if (errors.length) throw invalid('The claim cannot be accepted as it is.', errors);
      await setRefundDestination(tx, refund.refund_id, address);
      await insertRefundEvent(tx, refund.refund_id, 'claimed', this.clock.now(), address);
      await this.payouts.send(tx, { ...refund, destination: address });
    });
    return this.#claimOf((await refundByClaimToken(this.db, token))!);
  }

  /**
   * Whether a well-formed address is one of the gateway's: a payment address of any merchant on any network (a payout
   * there would read as a second payment of that order), or a merchant's payout wallet that pays refunds out. The test wallet is
   * not: it stands for the customer's wallet in the sandbox ("Claim with the test wallet"), and nothing it receives
   * is counted for any order.
   */
  async #gatewayOwns(sql: Sql, network: NetworkConfig, address: string): Promise<boolean> {
    const canonical = canonicalAddress(network.family, address);
    if (await this.payouts.isPayoutWallet(sql, network.id, canonical)) return true;
    return (await findPaymentLink(sql, { address: canonical })) !== undefined;
  }

  #claimOf(refund: RefundState): RefundClaim {
    const asset = this.networks.asset(refund.asset, refund.network);
    return {
      refund,
      network: this.networks.of(refund.network),
      label: asset.label,
      amount_crypto: formatAtomic(BigInt(refund.amount_atomic), asset.decimals),
      payment_received_crypto: formatAtomic(BigInt(refund.basis_atomic), asset.decimals),
    };
  }
}

/**
 * What is wrong with an address for a network: none, missing, another family's, a bad EIP-55 checksum, not one at all,
 * or one of the gateway's own (found in its storage, not from the address alone: RefundClaims.claim).
 */
export type AddressProblem = { kind: 'missing' } | { kind: 'other_network'; family: NetworkFamily } | { kind: 'checksum' } | { kind: 'malformed' } | { kind: 'gateway' };

export function addressProblem(family: NetworkFamily, address: string): AddressProblem | undefined {
  if (!address) return { kind: 'missing' };
  if (isValidAddress(family, address)) return undefined;
  const other = FAMILY_NAMES.find((f) => f !== family && isValidAddress(f, address));
  if (other) return { kind: 'other_network', family: other };
  // Well formed but for its checksum (EIP-55's mixed case): a typo the checksum caught.
  if (FAMILIES[family].checksumTypo(address)) return { kind: 'checksum' };
  return { kind: 'malformed' };
}

const addressName = (family: NetworkFamily) => FAMILIES[family].addressName.en;

/** An address's problem for the network, in words naming the field (the API's; the claim page words it in its language). */
function problemErrors(network: NetworkConfig, problem: AddressProblem | undefined): FieldError[] {
  if (!problem) return [];
  const message = {
    missing: () => 'is required: the address of your wallet on this network',
    other_network: (family: NetworkFamily) => `is ${addressName(family)} address: this refund is paid on ${network.name}, so it needs ${addressName(network.family)} address`,
    checksum: () => 'has a wrong checksum (the upper and lower case letters, EIP-55): copy it again from your wallet',
    malformed: () => `is not ${addressName(network.family)} address: check its checksum and that you copied it whole`,
    gateway: () => 'is an address of this payment gateway (where payments are received, or its payout wallet), not your wallet: the refund would come back to it',
  }[problem.kind](problem.kind === 'other_network' ? problem.family : network.family);
  return [{ path: 'address', message }];
}
