// What a network family is: everything in the codecs that differs between families, in one module per family (evm.ts,
// tron.ts, bitcoin.ts), registered in index.ts; the rest of the code asks its network's family (docs/networks.md,
// "Network families: add a family").
import type { AssetCode, Network, NetworkFamily } from '../../contract/index.js';

/** What a URI codec needs of a network: the gateway's configuration and GET /sandbox/chain both carry it. */
export interface UriNetwork {
  id: Network;
  family: NetworkFamily;
  chain_id?: number | null;
  assets: readonly UriAsset[];
}

export interface UriAsset {
  asset: AssetCode;
  decimals: number;
  token_contract?: string | null;
}

export interface PaymentTarget {
  asset: AssetCode;
  address: string;
  atomic: bigint;
}

export interface ParsedPaymentUri {
  network: Network;
  /** Known from the URI where it says (a token contract, a scheme); absent for a bare EVM address. */
  asset?: AssetCode;
  address: string;
  /** Absent when the QR holds only an address: the customer types the amount. */
  atomic?: bigint;
}

/** What the element's wallet links need of a family (checkout/wallet-links.ts); wallets.ts lists them for its bundle. */
export interface FamilyWallet {
  /** The scheme of its payment URIs, which any wallet registered for it opens; absent where the URI is the bare address. */
  scheme?: string;
  /** Its SLIP-44 coin type: Trust Wallet's asset ids are built on it. */
  slip44: number;
  /** A payment URI on a main network, where a link naming only the coin (Trust Wallet's) sends the right one; absent: every one. */
  main?: RegExp;
  /** MetaMask's link opens its payment URIs (EIP-681). */
  metamask?: boolean;
}

export interface Family {
  /** BIP32 purpose and coin of its one-time addresses and payout wallets: `m/44'/60'`. */
  coinPath: string;
  /** A compressed secp256k1 public key as the family's address (`hrp`: a bech32 family's human-readable part). */
  encodeAddress(compressedPublicKey: Uint8Array, hrp?: string): string;
  /** Whether `address` is well formed, checksum included. */
  isValidAddress(address: string): boolean;
  /** The one spelling of a well-formed address the gateway writes. */
  canonicalAddress(address: string): string;
  /** What two spellings of one address have in common, to look a transfer's recipient up among the watched. */
  addressKey(address: string): string;
  /** Whether an address that is not valid is well formed but for its checksum: a typo the checksum caught. */
  checksumTypo(address: string): boolean;
  /** How its transaction and block hashes begin (`0x`, or nothing), as the simulator writes them. */
  hashPrefix: string;
  /** The payment URI (the QR's content) of `target` on `network`, for `asset` (one of the network's). */
  paymentUri(network: UriNetwork, asset: UriAsset, target: PaymentTarget): string;
  /** Reads one of its payment URIs (scheme `wallet.scheme`) against its networks that a wallet holds. */
  parsePaymentUri?(uri: string, networks: readonly UriNetwork[]): ParsedPaymentUri;
  /** What kind of address it takes, in each page language: `an Ethereum (0x…)` (English with its article). */
  addressName: { en: string; vi: string };
  wallet: FamilyWallet;
}
