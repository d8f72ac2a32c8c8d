// The sandbox test wallet: balances, the faucet, and paying what a checkout's QR asks for, exactly, in part,
// too much, or too late, plus mining blocks, so a tester reaches every payment status by hand.
// It is used on the demo page (beside the element) and on /wallet (a phone with a camera).
import { html, nothing, render, type TemplateResult } from 'lit';
import { ASSETS, type AssetCode, type Network } from '../../../src/contract/index.js';
import { api, ApiError } from '../lib/api.js';
import { input } from '../lib/ui.js';
import { decimalsOf, readPaymentQr, shareOf, type ScannedPayment } from './payment-qr.js';

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

/** The ways to send: a share of the amount in the field, and whether the quote is ended first. */
const PAYMENTS = [
  { id: 'exact', label: 'Pay exact', percent: 100, late: false },
  { id: 'partial', label: 'Pay 50%', percent: 50, late: false },
  { id: 'overpay', label: 'Pay 110%', percent: 110, late: false },
  { id: 'late', label: 'Expire quote, then pay', percent: 100, late: true },
] as const;

export interface WalletPanelOptions {
  /** The page's own ways to read a QR (the checkout's canvas, the camera, a photo), shown above the paste field. */
  scanControls: (panel: WalletPanel) => TemplateResult;
}

export class WalletPanel {
  #balances: Balance[] = [];
  #target: ScannedPayment | undefined;
  #chosenAsset: AssetCode | undefined;
  #amount = '';
  #pasted = '';
  #blocks = '3';
  #sent: Sent[] = [];
  #status = '';
  #error = '';
  #busy = false;

  constructor(
    private readonly host: HTMLElement,
    private readonly options: WalletPanelOptions,
  ) {}

  async start(): Promise<void> {
    this.render();
    await this.#run('', async () => {
      this.#balances = (await api<{ balances: Balance[] }>('/sandbox/wallet')).balances;
    });
  }

  /** Takes the text a QR held: fills the address, asset and, when the QR says it, the amount. */
  accept(text: string): void {
    this.#error = '';
    try {
      this.#target = readPaymentQr(text);
    } catch (error) {
      this.#target = undefined;
      this.#error = `This QR is not a payment the test wallet can make: ${(error as Error).message}.`;
      this.render();
      return;
    }
    this.#chosenAsset = this.#target.asset;
    this.#amount = this.#target.amount ?? '';
    this.#pasted = this.#target.uri;
    this.#status = this.#target.amount
      ? `Read ${this.#target.amount} ${this.#target.asset} to ${short(this.#target.address)}.`
      : `Read the address ${short(this.#target.address)}. The QR carries no amount: type the amount the checkout shows.`;
    this.render();
    // The amount is what the tester acts on next; when the QR left it open, that is where to type.
    if (!this.#target.amount) this.host.querySelector<HTMLInputElement>('[name="wallet.amount"]')?.focus();
  }

  fail(message: string): void {
    this.#error = message;
    this.render();
  }

  async #run(done: string, work: () => Promise<void>): Promise<void> {
    this.#busy = true;
    this.#error = '';
    this.#status = '';
    this.render();
    try {
      await work();
      if (done) this.#status = done;
    } catch (error) {
      this.#error = error instanceof ApiError ? describe(error) : (error as Error).message;
    } finally {
      this.#busy = false;
      this.render();
    }
  }

  #faucet = () =>
    this.#run('The faucet topped up every test coin.', async () => {
      this.#balances = (await api<{ balances: Balance[] }>('/sandbox/wallet/faucet', { method: 'POST' })).balances;
    });

  async #pay(payment: (typeof PAYMENTS)[number]): Promise<void> {
    const target = this.#target;
    const asset = this.#chosenAsset;
    if (!target || !asset) return this.fail('Read a QR first (and pick the coin for a bare Ethereum address).');
    let amount: string;
    try {
      amount = shareOf(this.#amount, decimalsOf(asset, target.network), payment.percent);
    } catch (error) {
      return this.fail(`The amount must be a decimal number such as 20.5: ${(error as Error).message}.`);
    }
    await this.#run('', async () => {
      if (payment.late) await api(`/sandbox/addresses/${encodeURIComponent(target.address)}/expire-quote`, { method: 'POST' });
      const { tx_hash } = await api<{ tx_hash: string }>('/sandbox/wallet/transfers', {
        body: { to: target.address, asset, network: target.network, amount },
      });
      this.#sent = [{ tx_hash, amount, asset, label: payment.label }, ...this.#sent].slice(0, 8);
      this.#status = `${payment.late ? 'Quote expired, then sent' : 'Sent'} ${amount} ${asset} (${payment.label.toLowerCase()}). It confirms as blocks come; mine some to hurry it.`;
      this.#balances = (await api<{ balances: Balance[] }>('/sandbox/wallet')).balances;
    });
  }

  /** Ends the quote of the payment at the scanned address now: the checkout shows "expired" and offers a new quote. */
  #expire = () =>
    this.#run('The quote has expired: the checkout offers a new one.', async () => {
      await api(`/sandbox/addresses/${encodeURIComponent(this.#target!.address)}/expire-quote`, { method: 'POST' });
    });

  #mine = async () => {
    const blocks = Number(this.#blocks);
    const network = this.#target?.network;
    await this.#run(`Mined ${blocks} block${blocks === 1 ? '' : 's'}${network ? ` on ${network}` : ' on every network'}.`, async () => {
      await api('/sandbox/chain/mine', { body: { blocks, ...(network && { network }) } });
    });
  };

  render(): void {
    const target = this.#target;
    const assets = target ? ASSETS.filter((a) => a.network === target.network) : [];
    render(
      html`<section class="wallet" aria-labelledby="wallet-title">
        <h2 id="wallet-title">Test wallet <span class="badge">Sandbox</span></h2>
        <p class="muted">Pays with test coins only. It knows only what the QR says.</p>

        <table class="balances">
          <caption>Balances</caption>
          <thead><tr><th scope="col">Coin</th><th scope="col">Network</th><th scope="col" class="num">Balance</th></tr></thead>
          <tbody>
            ${this.#balances.map(
              (b) => html`<tr><td>${b.asset}</td><td>${b.network}</td><td class="num" data-balance="${b.asset}:${b.network}">${b.balance}</td></tr>`,
            )}
          </tbody>
        </table>
        <button type="button" class="secondary" ?disabled=${this.#busy} @click=${this.#faucet}>Faucet: top up test coins</button>

        <fieldset class="scan">
          <legend>1. Read the checkout's QR</legend>
          ${this.options.scanControls(this)}
          <form class="paste" @submit=${(e: Event) => (e.preventDefault(), this.accept(this.#pasted))}>
            ${input({
              path: 'wallet.uri',
              label: 'Or paste what the QR holds',
              hint: 'bitcoin:…, ethereum:…, or a TRON address',
              value: this.#pasted,
              onInput: (v) => (this.#pasted = v),
            })}
            <button type="submit" class="secondary">Read</button>
          </form>
        </fieldset>

        <fieldset class="pay" ?disabled=${!target || this.#busy}>
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
                <select id="wallet-asset" @change=${(e: Event) => ((this.#chosenAsset = (e.target as HTMLSelectElement).value as AssetCode), this.render())}>
                  <option value="">Choose…</option>
                  ${assets.map((a) => html`<option value=${a.asset} ?selected=${a.asset === this.#chosenAsset}>${a.label}</option>`)}
                </select>
              </div>`
            : nothing}
          ${input({
            path: 'wallet.amount',
            label: `Amount${this.#chosenAsset ? ` (${this.#chosenAsset})` : ''}`,
            hint: target && !target.amount ? 'The QR has no amount: type or paste the one the checkout shows.' : 'From the QR; the buttons send a share of it.',
            value: this.#amount,
            inputmode: 'decimal',
            onInput: (v) => (this.#amount = v),
          })}
          <div class="buttons">
            ${PAYMENTS.map(
              (p) => html`<button type="button" data-pay=${p.id} class=${p.id === 'exact' ? 'primary' : 'secondary'} @click=${() => this.#pay(p)}>${p.label}</button>`,
            )}
            <button type="button" class="secondary" data-expire @click=${this.#expire}>Expire quote only</button>
          </div>
        </fieldset>

        <div class="mine">
          ${input({ path: 'wallet.blocks', label: 'Blocks', value: this.#blocks, type: 'number', inputmode: 'numeric', onInput: (v) => (this.#blocks = v) })}
          <button type="button" class="secondary" data-mine ?disabled=${this.#busy} @click=${this.#mine}>
            Mine ${target ? `on ${target.network}` : 'on every network'}
          </button>
        </div>

        <p class="status" role="status">${this.#status}</p>
        <p class="error-box" role="alert">${this.#error}</p>

        ${this.#sent.length ? html`<h3 class="small-heading">Sent</h3>` : nothing}
        <ul class="sent">
          ${this.#sent.map((s) => html`<li><span>${s.label}: ${s.amount} ${s.asset}</span> <code class="mono">${short(s.tx_hash)}</code></li>`)}
        </ul>
      </section>`,
      this.host,
    );
  }
}

function short(value: string): string {
  return value.length > 20 ? `${value.slice(0, 10)}…${value.slice(-8)}` : value;
}

function describe(error: ApiError): string {
  const fields = error.fieldErrors.map((e) => `${e.path} ${e.message}`).join('; ');
  return fields ? `${error.message} (${fields})` : error.message;
}
