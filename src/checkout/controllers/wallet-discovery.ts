// EIP-6963 discovery of the browser wallets on the page: asks for them when the element connects, and keeps the
// wallets that announce themselves (once each, by uuid and by rdns; at most WALLETS_KEPT). Nothing else of the wallets is in the script: with none announced
// there is no button and no wallet code is loaded (the wallet chunk, wallets/browser-wallet.ts, is loaded only for a
// payment on an EVM network once one has announced itself).
import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** EIP-1193: what a wallet's provider answers. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] | object }): Promise<unknown>;
}

/** EIP-6963: a wallet as it announces itself. */
export interface AnnouncedWallet {
  info: { uuid: string; name: string; icon: string; rdns: string };
  provider: Eip1193Provider;
}

/**
 * At most this many wallets are kept: a page can announce as many as it likes (a thousand, on every request), and
 * neither memory nor the view should grow with it. Far more than anyone has installed.
 */
export const WALLETS_KEPT = 50;

export class WalletDiscoveryController implements ReactiveController {
  /** The wallets announced so far, in the order they came, at most WALLETS_KEPT. */
  wallets: AnnouncedWallet[] = [];

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  #onAnnounce = (event: Event): void => {
    if (this.wallets.length >= WALLETS_KEPT) return;
    const wallet = (event as CustomEvent<AnnouncedWallet>).detail;
    const info = wallet?.info;
    if (typeof info?.uuid !== 'string' || typeof info.name !== 'string' || typeof info.rdns !== 'string' || typeof wallet.provider?.request !== 'function') return;
    // One button a wallet: rdns names the wallet, a uuid only one session of its provider (EIP-6963).
    if (this.wallets.some((w) => w.info.uuid === info.uuid || (info.rdns !== '' && w.info.rdns === info.rdns))) return;
    this.wallets = [...this.wallets, wallet];
    this.host.requestUpdate();
  };

  hostConnected(): void {
    window.addEventListener('eip6963:announceProvider', this.#onAnnounce);
    window.dispatchEvent(new Event('eip6963:requestProvider'));
  }

  hostDisconnected(): void {
    window.removeEventListener('eip6963:announceProvider', this.#onAnnounce);
  }
}
