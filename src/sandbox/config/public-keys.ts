// The sandbox's own seeds and data key, public on purpose like every sandbox default (config.ts takes them when no
// variable is set), in a module of their own: GATEWAY_ENV=live refuses each one (refusals.ts), and config.ts reads
// those refusals.

/** The test wallet's seed: public, like every sandbox default. */
export const SANDBOX_WALLET_SEED_HEX = '7061792d636865636b6f75742073616e64626f782074657374207761606c6574';
/** The payout wallets' seed in the sandbox: public too (a real gateway sets PAYOUT_HD_SEED, and funds each merchant's wallet). */
export const SANDBOX_PAYOUT_SEED_HEX = '7061792d636865636b6f7574207061796f75742077616c6c6574202d2d2d2d21';

/** The data key of the sandbox: public, so a gateway started with it holds nothing that is secret. */
export const SANDBOX_DATA_KEY = 'pay-checkout sandbox data key';
