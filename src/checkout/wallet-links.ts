// Links that open the customer's wallet app with the payment filled in, for a phone that cannot scan its own screen.
// Pure: the payment and its asset in, `{name, href}` out, each href carrying the address (and the amount where the
// format has one). The formats, as each wallet documents them (docs/guide.md, "Wallet links", names the sources):
// - EIP-681 and BIP21: the gateway's own `payment_uri` (`ethereum:…`, `bitcoin:…`), which any wallet registered for
//   the scheme opens.
// - TRON: none of its own (codecs/families/tron.ts says why): the copy buttons are the way, and Trust Wallet's link
//   on a main network.
// - Trust Wallet: `https://link.trustwallet.com/send?asset=<UAI>&address=…&amount=…`, the asset in its Universal Asset
//   Id form (`c<SLIP-44>`, a token `c<SLIP-44>_t<contract>`).
// - MetaMask: `https://link.metamask.io/send/<EIP-681 without its scheme>`.
// TronLink is left out: its transfer deep link works only for DApps on TronLink's whitelist. Which of these a payment
// gets is its family's wallet part (codecs/families/wallets.ts), found by its URI's scheme.
import { walletOf } from '../codecs/families/wallets.js';
import type { CheckoutAsset, Payment } from '../contract/checkout.js';

export interface WalletLink {
  /** The wallet's name, a brand (the same in every language); '' for "any wallet for this scheme". */
  name: string;
  href: string;
}

/**
 * The wallet links for `payment` to send `amount` (the decimal string to send: the whole, or what is left), from its
 * family's wallet part (codecs/families/, found by the payment URI's scheme). Trust Wallet's link names no network,
 * only a coin: it is offered on a main network only (`main`: not the sandbox, not a test network, and what the family
 * says is its main chain: for Ethereum chain 1), where it cannot send real coins to a test address. A token whose
 * contract the gateway does not name gets none: without it, it would send the chain's own coin. MetaMask's carries
 * the EIP-681 chain id, so it is offered on every EVM network.
 */
export function walletLinks(
  payment: Pick<Payment, 'address' | 'payment_uri'>,
  asset: Pick<CheckoutAsset, 'token_standard' | 'token_contract'>,
  amount: string,
  main: boolean,
): WalletLink[] {
  const links: WalletLink[] = [];
  const uri = payment.payment_uri;
  const contract = asset.token_contract;
  const family = walletOf(uri);
  if (family.scheme) links.push({ name: '', href: uri });
  // A coin the link can name: the chain's own, or a token by its contract.
  if (main && (asset.token_standard === null || !!contract) && (family.main?.test(uri) ?? true)) {
    const query = new URLSearchParams({ asset: `c${family.slip44}${contract ? `_t${contract}` : ''}`, address: payment.address, amount });
    links.push({ name: 'Trust Wallet', href: `https://link.trustwallet.com/send?${query}` });
  }
  if (family.metamask) links.push({ name: 'MetaMask', href: `https://link.metamask.io/send/${uri.replace(/^ethereum:/i, '')}` });
  return links;
}
