// Networks and assets (docs/api.md, "Checkout API"). Which ones a gateway takes is its configuration, told by the
// checkout view's methods and GET /sandbox/chain: the contract fixes the form of their ids, never a closed list, so a
// gateway configured with a new EVM network needs no new release of the element or the SDK.

/** A network id from the gateway's configuration: `TRON`, `ETHEREUM`, `BITCOIN`, `BSC_TESTNET`. */
export type Network = string;
/** An asset's ticker: `USDT`, `ETH`, `BTC`, `BNB`. */
export type AssetCode = string;

/**
 * The network families (DESIGN.md 9.1): how a network's addresses and payment URIs are written. Each is one module of
 * src/codecs/families/, registered in its index.ts; this list is the contract's (GET /sandbox/chain names them).
 */
export const NETWORK_FAMILIES = ['tron', 'evm', 'bitcoin'] as const;
export type NetworkFamily = (typeof NETWORK_FAMILIES)[number];

export const NETWORK_ID = /^[A-Z][A-Z0-9_]{1,31}$/;
export const ASSET_CODE = /^[A-Z][A-Z0-9]{1,11}$/;
