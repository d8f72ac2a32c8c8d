// Paying from a browser wallet in one click (EIP-1193 requests to a wallet found by EIP-6963): the account, the
// chain (switched, or added with the network's public RPC URL from the gateway's configuration, never the watcher's),
// then exactly what is due: a value transfer for the chain's coin, an ERC-20 `transfer` for a token. The gateway's
// status stays the only truth of paid: a hash sent is "waiting for the network", nothing more. A chunk beside the
// script, loaded only when a wallet has announced itself and the payment is on an EVM network.
import { html, nothing, type TemplateResult } from 'lit';
import type { CheckoutView, Payment } from '../../contract/checkout.js';
import type { AnnouncedWallet } from '../controllers/wallet-discovery.js';
import { fill, type Locale, type Params } from '../i18n/index.js';
import * as LOCALES from '../i18n/locales.js';
import { amountToSend, assetKey, atomic, type NamedAsset } from '../pay-checkout/state.js';
import { networkName, type Ui } from '../pay-checkout/views/parts.js';

export type WalletKey = keyof typeof LOCALES.en.wallet;
// Each catalog's `wallet` part (locales/en.ts), which the builds keep in this chunk (scripts/locale-parts.ts).
const words = (locale: Locale, key: WalletKey, params?: Params) => fill(LOCALES[locale].wallet[key], params);

/** Where a wallet payment stands; `error` names the words for why it stopped. */
export type WalletState =
  | { step: 'idle' }
  | { step: 'confirm'; wallet: string }
  | { step: 'sent'; wallet: string; hash: string }
  | { step: 'error'; wallet: string; error: 'refused' | 'wrongChain' | 'insufficientFunds' | 'closed' | 'failed' };

/** What the view needs of the customer's language (the element's Ui). */
export interface WalletUi {
  locale: Locale;
  crypto(amount: string): string;
}

/** A wallet's error as the customer's words: EIP-1193 and EIP-1474 codes, and the messages nodes give for funds. */
export function errorOf(error: unknown): Extract<WalletState, { step: 'error' }>['error'] {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === 4001) return 'refused';
  if (code === 4100 || code === 4900 || code === 4901) return 'closed';
  if (code === 4902) return 'wrongChain';
  if (/insufficient funds|exceeds balance|insufficient balance/i.test(String(message ?? ''))) return 'insufficientFunds';
  return 'failed';
}

const hex = (value: bigint | number) => `0x${value.toString(16)}`;

/** The EIP-1193 transaction that sends `amount` of `asset` to the payment's address from `from`. */
export function transferOf(from: string, payment: Pick<Payment, 'address'>, asset: Pick<NamedAsset, 'token_contract'> & { decimals: number }, amount: string): Record<string, string> {
  const units = atomic(amount, asset.decimals);
  if (!asset.token_contract) return { from, to: payment.address, value: hex(units) };
  // ERC-20 transfer(address,uint256): its selector, then each argument as a 32-byte word.
  const word = (value: string) => value.padStart(64, '0');
  const data = `0xa9059cbb${word(payment.address.slice(2).toLowerCase())}${word(units.toString(16))}`;
  return { from, to: asset.token_contract, value: '0x0', data };
}

/**
 * Sends the payment from `wallet`: account, chain, transfer. Resolves with the transaction hash; rejects with the
 * wallet's error (errorOf names it). `onConfirm` is called once the wallet is asked to confirm the transfer.
 */
export async function payWith(
  wallet: AnnouncedWallet,
  payment: Pick<Payment, 'address'>,
  asset: NamedAsset & { decimals: number },
  amount: string,
): Promise<string> {
  const { provider } = wallet;
  const [from] = (await provider.request({ method: 'eth_requestAccounts' })) as string[];
  if (!from) throw Object.assign(new Error('no account'), { code: 4100 });
  const chainId = hex(asset.chain_id ?? 0);
  if (String(await provider.request({ method: 'eth_chainId' })).toLowerCase() !== chainId) {
    try {
      await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId }] });
    } catch (error) {
      // 4902: the wallet does not know the chain; it is added with the public RPC URL the gateway names, if any.
      if ((error as { code?: unknown }).code !== 4902 || !asset.wallet_rpc_url) throw error;
      await provider.request({
        method: 'wallet_addEthereumChain',
        params: [
          {
            chainId,
            chainName: asset.network_name,
            rpcUrls: [asset.wallet_rpc_url],
            nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
            ...(asset.explorer_url && { blockExplorerUrls: [asset.explorer_url] }),
          },
        ],
      });
    }
    if (String(await provider.request({ method: 'eth_chainId' })).toLowerCase() !== chainId) throw Object.assign(new Error('wrong chain'), { code: 4902 });
  }
  return String(await provider.request({ method: 'eth_sendTransaction', params: [transferOf(from, payment, asset, amount)] }));
}

export interface WalletActions {
  onPay: (wallet: AnnouncedWallet) => void;
}

/**
 * The wallet buttons for the open payment, and the payment from the one the customer picks, its steps told through
 * `onState` (the element keeps the state, so the view follows it); none for an asset that is not on an EVM network.
 */
export function walletPanel(
  ui: Ui,
  view: CheckoutView,
  payment: Payment,
  wallets: readonly AnnouncedWallet[],
  state: WalletState,
  onState: (state: WalletState) => void,
): TemplateResult | undefined {
  const asset = view.methods.flatMap((m) => m.assets).find((a) => assetKey(a) === assetKey(payment));
  if (!asset?.chain_id) return undefined;
  const amount = amountToSend(payment);
  const onPay = async (wallet: AnnouncedWallet) => {
    const name = wallet.info.name;
    onState({ step: 'confirm', wallet: name });
    try {
      onState({ step: 'sent', wallet: name, hash: await payWith(wallet, payment, asset, amount) });
    } catch (error) {
      onState({ step: 'error', wallet: name, error: errorOf(error) });
    }
  };
  return walletView(ui, wallets, state, payment, networkName(ui, asset), amount, { onPay: (wallet) => void onPay(wallet) });
}

/** Only an image the wallet carries itself (a data: URI, as EIP-6963 asks) is drawn: no request to anywhere. */
const iconOf = (icon: unknown) => (typeof icon === 'string' && /^data:image\/(png|jpeg|gif|webp|svg\+xml);/i.test(icon) ? icon : undefined);

/**
 * Wallets shown as buttons before the "more" disclosure: a page that announces many (EIP-6963 lets any script on it
 * announce) must not push the QR below the screen.
 */
export const WALLETS_SHOWN = 4;

/**
 * The wallet buttons, first in the payment view: one per wallet announced (several: a choice), each named by the
 * wallet's own name, those past WALLETS_SHOWN in a disclosure; then what the payment in the wallet is doing, or why
 * it stopped (the QR below stays usable).
 */
export function walletView(
  ui: WalletUi,
  wallets: readonly AnnouncedWallet[],
  state: WalletState,
  payment: Pick<Payment, 'asset'>,
  network: string,
  amount: string,
  { onPay }: WalletActions,
): TemplateResult {
  const busy = state.step === 'confirm';
  const message =
    state.step === 'confirm'
      ? words(ui.locale, 'confirmInWallet', { wallet: state.wallet })
      : state.step === 'sent'
        ? words(ui.locale, 'sent', { hash: state.hash })
        : state.step === 'error'
          ? words(ui.locale, state.error, { network, amount: ui.crypto(amount), asset: payment.asset })
          : '';
  const button = (wallet: AnnouncedWallet) => {
    const icon = iconOf(wallet.info.icon);
    return html`<button
      part="wallet-button"
      class="primary wallet-button"
      type="button"
      data-wallet=${wallet.info.rdns}
      aria-disabled=${busy ? 'true' : 'false'}
      @click=${() => busy || onPay(wallet)}
    >
      ${icon ? html`<img src=${icon} alt="" width="24" height="24" />` : nothing}${words(ui.locale, 'payWith', { wallet: wallet.info.name })}
    </button>`;
  };
  const more = wallets.slice(WALLETS_SHOWN);
  // A <details> is the disclosure: its summary is a button to the keyboard and to screen readers, and it keeps its
  // open state across renders without the element holding one.
  return html`<div part="browser-wallets" role="group" aria-label=${words(ui.locale, 'chooseWallet')}>
    ${wallets.slice(0, WALLETS_SHOWN).map(button)}
    ${more.length
      ? html`<details part="more-wallets">
          <summary>${words(ui.locale, 'moreWallets', { count: more.length })}</summary>
          ${more.map(button)}
        </details>`
      : nothing}
    ${message
      ? html`<p part="wallet-status" data-step=${state.step} data-error=${state.step === 'error' ? state.error : ''} role=${state.step === 'error' ? 'alert' : 'status'}>
          ${message}
        </p>`
      : nothing}
  </div>`;
}
