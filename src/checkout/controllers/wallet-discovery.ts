// EIP-6963 discovery of the browser wallets on the page: asks for them when the element connects, and keeps every
// wallet that announces itself (once, by its uuid). Nothing else of the wallets is in the script: with none announced
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

export class WalletDiscoveryController implements ReactiveController {
  /** The wallets announced so far, in the order they came. */
  wallets: AnnouncedWallet[] = [];

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  #onAnnounce = (event: Event): void => {
    const wallet = (event as CustomEvent<AnnouncedWallet>).detail;
    if (typeof wallet?.info?.uuid !== 'string' || typeof wallet.provider?.request !== 'function') return;
    if (this.wallets.some((w) => w.info.uuid === wallet.info.uuid)) return;
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
