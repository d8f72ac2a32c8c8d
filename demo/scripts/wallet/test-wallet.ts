// <test-wallet>: the sandbox test wallet. Balances and the faucet; paying what a checkout's QR asks for, exactly, in
// part, too much, too late or to an address the customer has moved on from; ending a quote; mining blocks. Every
// control says which status it leads to, so a tester reaches each status of docs/payment-lifecycle.md by hand.
// Used on the demo page (beside the element) and on /wallet (a phone with a camera).
import { html, nothing, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { AssetCode, ChainNetwork, ChainState, Network } from '../../../src/contract/index.js';
import type { UriNetwork } from '../../../src/codecs/uri.js';
import { ActionController } from '../lib/action-controller.js';
import { api } from '../lib/api.js';
import { LightElement } from '../lib/light-element.js';
import { input } from '../lib/ui.js';
import { decimalsOf, readPaymentQr, shareOf, uriNetworks, type ScannedPayment } from './payment-qr.js';

interface Balance {
  asset: AssetCode;
  network: Network;
  address: string;
  balance: string;
}

interface Sent {
  tx_hash: string;
  amount: string;
  asset: AssetCode;
  label: string;
}

/** The ways to send, and what each leads to (docs/guide.md, "What a tester does"). */
export const PAYMENTS = [
  { id: 'exact', label: 'Pay exact', percent: 100, late: false, leadsTo: 'confirming at once, then paid once mined (the checkout goes to the success page)' },
  { id: 'partial', label: 'Pay 50%', percent: 50, late: false, leadsTo: 'half received (still awaiting payment), then underpaid once mined: the checkout asks for the rest' },
  { id: 'overpay', label: 'Pay 110%', percent: 110, late: false, leadsTo: 'paid and overpaid once mined: the excess is held for the merchant' },
  { id: 'late', label: 'Expire quote, then pay', percent: 100, late: true, leadsTo: 'expired, then paid late once mined: held for the merchant to accept or refund' },
] as const;

/** An address read before this one, and what was due there then. */
interface Earlier {
  target: ScannedPayment;
  asset: AssetCode;
  amount: string;
}

/**
 * @summary The sandbox test wallet.
 */
export class TestWallet extends LightElement {
  /** The page's own ways to read a QR (the checkout's canvas, the camera, a photo), shown above the paste field. */
  @property({ attribute: false }) scanControls: (wallet: TestWallet) => TemplateResult = () => html``;
  @state() private balances: Balance[] = [];
  /** The gateway's networks (GET /sandbox/chain): what a QR may be, the coins on each, their decimals and confirmations. */
  @state() private networks: ChainNetwork[] = [];
  @state() private target: ScannedPayment | undefined;
  @state() private chosenAsset: AssetCode | undefined;
  @state() private amount = '';
  @state() private pasted = '';
  @state() private blocks = '3';
  /** The last address read before this one: paying it shows money sent to a quote the customer moved on from. */
  @state() private earlier: Earlier | undefined;
  @state() private sent: Sent[] = [];
  readonly #action = new ActionController(this);

  override connectedCallback(): void {
    super.connectedCallback();
    // The balances show once the networks are known too: a page that sees them can hand the wallet a QR.
    void this.#action.run('', async () => {
      const [chain, wallet] = await Promise.all([api<ChainState>('/sandbox/chain'), api<{ balances: Balance[] }>('/sandbox/wallet')]);
      this.networks = chain.networks;
      this.balances = wallet.balances;
    });
  }

  get #uriNetworks(): UriNetwork[] {
    return uriNetworks(this.networks);
  }

  /** What a QR's text asks for, read against the gateway's networks; throws with the reason when it is not a payment. */
  read(text: string): ScannedPayment {
    return readPaymentQr(text, this.#uriNetworks);
  }

  /**
   * Takes the text a QR held: the address, the asset and the amount when the QR says it; else `amount` when the page
   * knows it (the checkout beside the wallet), else the tester types it.
   */
  accept(text: string, known: { amount?: string; from?: string } = {}): void {
    let read: ScannedPayment;
    try {
      read = this.read(text);
    } catch (error) {
      this.target = undefined;
      this.fail(`This QR is not a payment the test wallet can make: ${(error as Error).message}.`);
      return;
    }
    const previous = this.target;
    if (previous && previous.address !== read.address && this.chosenAsset && this.amount) {
      this.earlier = { target: previous, asset: this.chosenAsset, amount: this.amount };
    }
    this.target = read;
    this.chosenAsset = read.asset;
    this.amount = read.amount ?? known.amount ?? '';
    this.pasted = read.uri;
    this.#action.say(
      read.amount
        ? `Read ${read.amount} ${read.asset} to ${short(read.address)}.`
        : known.amount
          ? `Read the address ${short(read.address)}. The QR carries no amount: took ${known.amount} ${read.asset ?? ''} from ${known.from ?? 'the checkout'}.`
          : `Read the address ${short(read.address)}. The QR carries no amount: type the amount the checkout shows.`,
    );
    // The amount is what the tester acts on next; when nobody could fill it, that is where to type.
    if (!this.amount) void this.updateComplete.then(() => this.querySelector<HTMLInputElement>('[name="wallet.amount"]')?.focus());
  }

  fail(message: string): void {
    this.#action.fail(message);
  }

  #refreshBalances = async () => {
    this.balances = (await api<{ balances: Balance[] }>('/sandbox/wallet')).balances;
  };

  #faucet = () =>
    this.#action.run('The faucet topped up every test coin.', async () => {
      this.balances = (await api<{ balances: Balance[] }>('/sandbox/wallet/faucet', { method: 'POST' })).balances;
    });

  async #send(to: ScannedPayment, asset: AssetCode, amount: string, label: string, expireFirst: boolean, done: string): Promise<void> {
    await this.#action.run('', async () => {
      if (expireFirst) await api(`/sandbox/addresses/${encodeURIComponent(to.address)}/expire-quote`, { method: 'POST' });
      const { tx_hash } = await api<{ tx_hash: string }>('/sandbox/wallet/transfers', { body: { to: to.address, asset, network: to.network, amount } });
      this.sent = [{ tx_hash, amount, asset, label }, ...this.sent].slice(0, 8);
      this.#action.say(done);
      await this.#refreshBalances();
    });
  }

  async #pay(payment: (typeof PAYMENTS)[number]): Promise<void> {
    const target = this.target;
    const asset = this.chosenAsset;
    if (!target || !asset) return this.fail('Read a QR first (and pick the coin for a bare EVM address).');
    if (!this.amount.trim()) return this.fail('Type the amount the checkout shows first: this QR carries only the address.');
    let amount: string;
    try {
      amount = shareOf(this.amount, decimalsOf(asset, target.network, this.#uriNetworks), payment.percent);
    } catch (error) {
      return this.fail(`The amount must be a decimal number such as 20.5: ${(error as Error).message}.`);
    }
    const how = payment.late ? 'Quote expired, then sent' : 'Sent';
    await this.#send(target, asset, amount, payment.label, payment.late, `${how} ${amount} ${asset} (${payment.label.toLowerCase()}). Mine blocks to confirm it: ${payment.leadsTo}.`);
  }

  /** The full amount of a quote the customer moved on from, to its address: held for the merchant once confirmed. */
  #payEarlier = () => {
    const earlier = this.earlier;
    if (!earlier) return;
    return this.#send(earlier.target, earlier.asset, earlier.amount, 'Pay the earlier address', false, `Sent ${earlier.amount} ${earlier.asset} to the earlier address ${short(earlier.target.address)}. Once mined it is paid late there: held for the merchant.`);
  };

  /** Ends the quote of the payment at the scanned address now: the checkout shows "expired" and offers a new quote. */
  #expire = () =>
    this.#action.run('The quote has expired: the checkout offers a new one.', async () => {
      await api(`/sandbox/addresses/${encodeURIComponent(this.target!.address)}/expire-quote`, { method: 'POST' });
    });

  #mine = async () => {
    const blocks = Number(this.blocks);
    const network = this.target?.network;
    await this.#action.run(`Mined ${blocks} block${blocks === 1 ? '' : 's'}${network ? ` on ${network}` : ' on every network'}.`, async () => {
      await api('/sandbox/chain/mine', { body: { blocks, ...(network && { network }) } });
    });
  };

  /** A button and, beside it, the status it leads to (its accessible description). */
  #control(id: string, button: TemplateResult, leadsTo: string): TemplateResult {
    return html`<li class="control">${button}<span class="leads-to" id="leads-to-${id}">→ ${leadsTo}</span></li>`;
  }

  protected override render(): TemplateResult {
    const target = this.target;
    const assets = this.networks.find((n) => n.network === target?.network)?.assets ?? [];
    const earlier = this.earlier;
    return html`<section class="wallet" aria-labelledby="wallet-title">
      <h2 id="wallet-title">Test wallet <span class="badge">Sandbox</span></h2>
      <p class="muted">Pays with test coins only. It knows only what the QR says (and, on the demo page, the amount the checkout shows).</p>

      <table class="balances">
        <caption>Balances</caption>
        <thead><tr><th scope="col">Coin</th><th scope="col">Network</th><th scope="col" class="num">Balance</th></tr></thead>
        <tbody>
          ${this.balances.map((b) => html`<tr><td>${b.asset}</td><td>${b.network}</td><td class="num" data-balance="${b.asset}:${b.network}">${b.balance}</td></tr>`)}
        </tbody>
      </table>
      <button type="button" class="secondary" data-faucet aria-describedby="leads-to-faucet" ?disabled=${this.#action.busy} @click=${this.#faucet}>Faucet: top up test coins</button>
      <p class="leads-to" id="leads-to-faucet">→ every balance above topped up: enough test coins for any payment (no status changes)</p>

      <fieldset class="scan">
        <legend>1. Read the checkout's QR</legend>
        ${this.scanControls(this)}
        <form class="paste" @submit=${(e: Event) => (e.preventDefault(), this.accept(this.pasted))}>
          ${input({ path: 'wallet.uri', label: 'Or paste what the QR holds', hint: 'bitcoin:…, ethereum:…, or a TRON address', value: this.pasted, onInput: (v) => (this.pasted = v) })}
          <button type="submit" class="secondary" data-read aria-describedby="leads-to-read">Read</button>
        </form>
        <p class="leads-to" id="leads-to-read">→ the address, coin and amount (when the QR has one) fill step 2: nothing is sent yet</p>
      </fieldset>

      <fieldset class="pay" ?disabled=${!target || this.#action.busy}>
        <legend>2. Pay</legend>
        ${target
          ? html`<dl class="target">
              <dt>To</dt>
              <dd class="mono" data-wallet-address>${target.address}</dd>
              <dt>Network</dt>
              <dd>${target.network}</dd>
            </dl>`
          : html`<p class="muted">Nothing read yet.</p>`}
        ${target && !target.asset
          ? html`<div class="field">
              <label for="wallet-asset">Coin</label>
              <select id="wallet-asset" @change=${(e: Event) => (this.chosenAsset = (e.target as HTMLSelectElement).value as AssetCode)}>
                <option value="">Choose…</option>
                ${assets.map((a) => html`<option value=${a.asset} ?selected=${a.asset === this.chosenAsset}>${a.label}</option>`)}
              </select>
            </div>`
          : nothing}
        ${input({
          path: 'wallet.amount',
          label: `Amount${this.chosenAsset ? ` (${this.chosenAsset})` : ''}`,
          hint: target && !target.amount ? 'The QR has no amount: this is the checkout’s, or type the one it shows.' : 'From the QR; the buttons send a share of it.',
          value: this.amount,
          inputmode: 'decimal',
          onInput: (v) => (this.amount = v),
        })}
        <ul class="controls">
          ${PAYMENTS.map((p) =>
            this.#control(
              p.id,
              html`<button type="button" data-pay=${p.id} class=${p.id === 'exact' ? 'primary' : 'secondary'} aria-describedby="leads-to-${p.id}" @click=${() => this.#pay(p)}>${p.label}</button>`,
              p.leadsTo,
            ),
          )}
          ${this.#control(
            'expire',
            html`<button type="button" class="secondary" data-expire aria-describedby="leads-to-expire" @click=${this.#expire}>Expire quote only</button>`,
            'expired: the checkout offers a new quote (at a new address) or the way back to the failure page',
          )}
          ${earlier
            ? this.#control(
                'earlier',
                html`<button type="button" class="secondary" data-pay-earlier aria-describedby="leads-to-earlier" @click=${this.#payEarlier}>
                  Pay the earlier address (${earlier.amount} ${earlier.asset})
                </button>`,
                `paid late once mined, at ${short(earlier.target.address)}, a quote the customer moved on from: held for the merchant`,
              )
            : nothing}
        </ul>
      </fieldset>

      <div class="mine">
        ${input({ path: 'wallet.blocks', label: 'Blocks', value: this.blocks, type: 'number', inputmode: 'numeric', onInput: (v) => (this.blocks = v) })}
        <button type="button" class="secondary" data-mine aria-describedby="leads-to-mine" ?disabled=${this.#action.busy} @click=${this.#mine}>Mine ${target ? `on ${target.network}` : 'on every network'}</button>
      </div>
      <p class="leads-to" id="leads-to-mine">→ confirmations: ${confirmations(this.networks)} (blocks also come on their own every few seconds)</p>

      <p class="status" role="status">${this.#action.status}</p>
      <p class="error-box" role="alert">${this.#action.error}</p>

      ${this.sent.length ? html`<h3 class="small-heading">Sent</h3>` : nothing}
      <ul class="sent">
        ${this.sent.map((s) => html`<li><span>${s.label}: ${s.amount} ${s.asset}</span> <code class="mono">${short(s.tx_hash)}</code></li>`)}
      </ul>
    </section>`;
  }
}

/** `3 blocks confirm a payment on TRON, 3 on Ethereum Sepolia, 2 on Bitcoin testnet`, as the gateway counts them. */
function confirmations(networks: readonly ChainNetwork[]): string {
  return networks.map((n, i) => (i ? `${n.confirmations} on ${n.name}` : `${n.confirmations} blocks confirm a payment on ${n.name}`)).join(', ');
}

function short(value: string): string {
  return value.length > 20 ? `${value.slice(0, 10)}…${value.slice(-8)}` : value;
}

declare global {
  interface HTMLElementTagNameMap {
    'test-wallet': TestWallet;
  }
}
