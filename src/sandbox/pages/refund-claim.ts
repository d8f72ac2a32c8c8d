// The refund claim page (GET /refunds/claim?token=…): what comes back, in VND and in the coin at the refund's rate,
// on which network, and one form asking for the customer's address there (with a confirmation box), in the link's
// language. After the claim it shows where the payout stands. Plain HTML with one inline stylesheet and no script;
// hono/html escapes every value the merchant, the customer or the chain gave.
import { html } from 'hono/html';
import type { FieldError } from '../../contract/index.js';
import type { NetworkFamily } from '../../codecs/addresses.js';
import { FAMILIES } from '../../codecs/families/index.js';
import { addressProblem, type AddressProblem, type RefundClaim } from '../services/orders/refund-claims.js';
import { page, pageCsp, pageFormats, type PageLanguage } from './page.js';

const CSS = `:root{color-scheme:light dark;font:16px/1.5 system-ui,sans-serif}body{margin:0 auto;max-width:36rem;padding:1.5rem 1rem}
h1{font-size:1.4rem;margin:0 0 .5rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:1rem 0}dt{color:GrayText}
dd{margin:0;text-align:end;overflow-wrap:anywhere}.total{font-size:1.2rem;font-weight:600}.note{color:GrayText;font-size:.9rem}
.warn{border-left:4px solid #c80;padding:.25rem .75rem}form{display:grid;gap:.75rem;margin-top:1rem}label{font-weight:600}
input[type=text]{font:inherit;font-family:ui-monospace,monospace;padding:.5rem;width:100%;box-sizing:border-box}
.check{display:flex;gap:.5rem;align-items:flex-start;font-weight:400}.error{color:#c00}button{font:inherit;padding:.6rem 1rem}
code{overflow-wrap:anywhere}`;

/** What the page may do: its one stylesheet, and post its form to the gateway itself; no script, no other request. */
export const CLAIM_CSP = pageCsp(CSS, "'self'");

const WORDS = {
  vi: {
    title: 'Nhận tiền hoàn',
    intro: (merchant: string) => `${merchant} hoàn tiền cho bạn. Hãy cho biết địa chỉ ví của bạn để nhận.`,
    amount: 'Số tiền hoàn',
    coins: 'Bạn nhận được',
    network: 'Mạng',
    rate: 'Tỷ giá',
    rateRule: (received: string, value: string) => `${received} của khoản thanh toán có giá trị ${value} cho đơn hàng; khoản hoàn trả lại đúng tỷ lệ đó.`,
    expires: 'Liên kết hết hạn lúc',
    warning: (asset: string, network: string) => `Chỉ nhập địa chỉ nhận ${asset} trên ${network}. Tiền gửi đến địa chỉ của mạng khác sẽ bị mất.`,
    address: (network: string) => `Địa chỉ ví của bạn trên ${network}`,
    exchange: 'Nếu là ví sàn giao dịch, hãy dùng địa chỉ nạp của sàn cho đúng đồng tiền và mạng này.',
    confirm: (network: string) => `Tôi xác nhận địa chỉ này là của tôi và nhận tiền trên ${network}.`,
    submit: 'Nhận tiền hoàn',
    problem: 'Chưa thể nhận: hãy sửa các mục dưới đây.',
    field: { address: 'Địa chỉ ví', confirm: 'Xác nhận' },
    addressWrong: (problem: AddressProblem, network: string, addressName: (family: NetworkFamily) => string, own: NetworkFamily): string =>
      ({
        missing: 'cần nhập địa chỉ ví của bạn trên mạng này',
        other_network: `đây là địa chỉ ${problem.kind === 'other_network' ? addressName(problem.family) : ''}; khoản hoàn này trả trên ${network} nên cần địa chỉ ${addressName(own)}`,
        checksum: 'sai mã kiểm tra (chữ hoa, chữ thường theo EIP-55): hãy sao chép lại từ ví của bạn',
        malformed: `không phải địa chỉ ${addressName(own)}: hãy kiểm tra mã kiểm tra và chép đủ cả địa chỉ`,
        gateway: 'là địa chỉ của chính cổng thanh toán (nơi nhận thanh toán, hoặc ví chi trả của cổng), không phải ví của bạn: tiền hoàn sẽ quay về đó',
      })[problem.kind],
    confirmWrong: 'hãy đánh dấu ô xác nhận: địa chỉ là của bạn và nhận trên mạng này',
    to: 'Gửi đến',
    transaction: 'Giao dịch',
    sent: 'Tiền hoàn đã được gửi và đang chờ mạng xác nhận.',
    waiting: 'Đã nhận địa chỉ của bạn; tiền hoàn sẽ được gửi trong giây lát.',
    done: 'Tiền hoàn đã đến ví của bạn.',
    failed: 'Không thể hoàn tiền theo liên kết này',
    ask: 'Hãy liên hệ người bán để nhận liên kết mới.',
    missing: 'Không tìm thấy khoản hoàn tiền này.',
  },
  en: {
    title: 'Claim your refund',
    intro: (merchant: string) => `${merchant} is refunding you. Tell us the address of your wallet to receive it.`,
    amount: 'Refund',
    coins: 'You receive',
    network: 'Network',
    rate: 'Rate',
    rateRule: (received: string, value: string) => `The payment's ${received} were worth ${value} to the order; the refund returns the same share of them.`,
    expires: 'The link expires at',
    warning: (asset: string, network: string) => `Give only an address that receives ${asset} on ${network}. Coins sent to an address of another network are lost.`,
    address: (network: string) => `Your wallet address on ${network}`,
    exchange: "An exchange account works too: use the exchange's deposit address for this coin on this network.",
    confirm: (network: string) => `I confirm this address is mine and receives on ${network}.`,
    submit: 'Claim the refund',
    problem: 'The claim cannot be accepted yet: correct what is marked below.',
    field: { address: 'Wallet address', confirm: 'Confirmation' },
    addressWrong: (problem: AddressProblem, network: string, addressName: (family: NetworkFamily) => string, own: NetworkFamily): string =>
      ({
        missing: 'is required: the address of your wallet on this network',
        other_network: `is ${problem.kind === 'other_network' ? addressName(problem.family) : ''} address: this refund is paid on ${network}, so it needs ${addressName(own)} address`,
        checksum: 'has a wrong checksum (the upper and lower case letters, EIP-55): copy it again from your wallet',
        malformed: `is not ${addressName(own)} address: check its checksum and that you copied it whole`,
        gateway: 'is an address of this payment gateway (where payments are received, or its payout wallet), not your wallet: the refund would come back to it',
      })[problem.kind],
    confirmWrong: 'must be ticked: confirm the address is yours and receives on this network',
    to: 'Sent to',
    transaction: 'Transaction',
    sent: 'The refund is on its way: it waits for the network to confirm it.',
    waiting: 'Your address is recorded; the refund is sent in a moment.',
    done: 'The refund reached your wallet.',
    failed: 'This refund link can no longer be used',
    ask: 'Ask the merchant for a new one.',
    missing: 'There is no such refund.',
  },
} as const satisfies Partial<Record<PageLanguage, unknown>>;
/** The languages the claim page is written in (as the families' address names): any other gets it in English. */
export type ClaimLanguage = keyof typeof WORDS;
export const CLAIM_LANGUAGES = Object.keys(WORDS) as ClaimLanguage[];

/** The claim page: the form while the refund waits for an address (with `errors` and the address given, after a refused try), else its state. */
export function claimPage(lang: ClaimLanguage, claim: RefundClaim, token: string, tried?: { address: string; errors: FieldError[] }) {
  const w = WORDS[lang];
  const { refund, network, label } = claim;
  const format = pageFormats(lang);
  const { vnd, time } = format;
  const coins = (amount: string) => `${format.decimal(amount)} ${refund.asset}`;
  const refused = (path: string) => tried?.errors.some((e) => e.path === path) ?? false;
  const open = refund.refund_status === 'PENDING' && refund.destination === null;
  // Worded here, in the page's language, from what is wrong (the API's messages are English).
  // A well-formed address refused is one of the gateway's own (RefundClaims.claim).
  const problem = refused('address') ? (addressProblem(network.family, tried!.address.trim()) ?? { kind: 'gateway' as const }) : undefined;
  const addressError = problem && `${w.field.address}: ${w.addressWrong(problem, network.name, (family) => FAMILIES[family].addressName[lang], network.family)}`;
  const confirmError = refused('confirm') ? `${w.field.confirm}: ${w.confirmWrong}` : undefined;
  return page(
    lang,
    w.title,
    html`<h1>${w.title}</h1>
<p>${w.intro(refund.merchant_name ?? '')}</p>
<dl>
<dt>${w.amount}</dt><dd class="total" data-amount-vnd="${refund.amount}">${vnd(refund.amount)}</dd>
<dt>${w.coins}</dt><dd data-amount-crypto="${claim.amount_crypto}">${coins(claim.amount_crypto)}</dd>
<dt>${w.network}</dt><dd>${label}</dd>
<dt>${w.rate}</dt><dd>${w.rateRule(coins(claim.payment_received_crypto), vnd(refund.basis_vnd))}</dd>
${open && refund.claim_expires_at ? html`<dt>${w.expires}</dt><dd>${time(refund.claim_expires_at)}</dd>` : ''}
${refund.destination ? html`<dt>${w.to}</dt><dd><code>${refund.destination}</code></dd>` : ''}
${refund.psp_refund_id ? html`<dt>${w.transaction}</dt><dd><code>${refund.psp_refund_id}</code></dd>` : ''}
</dl>
${
  open
    ? html`<p class="warn">${w.warning(refund.asset, network.name)}</p>
${tried ? html`<p class="error" role="alert">${w.problem}</p>` : ''}
<form method="post" action="${`/refunds/claim?token=${encodeURIComponent(token)}`}">
<label for="address">${w.address(network.name)}</label>
<input type="text" id="address" name="address" required autocomplete="off" spellcheck="false" value="${tried?.address ?? ''}"
 aria-describedby="address-hint${addressError ? ' address-error' : ''}"${addressError ? html` aria-invalid="true"` : ''}>
<span id="address-hint" class="note">${w.exchange}</span>
${addressError ? html`<span id="address-error" class="error">${addressError}</span>` : ''}
<label class="check"><input type="checkbox" name="confirm" value="yes" required${confirmError ? html` aria-invalid="true" aria-describedby="confirm-error"` : ''}> ${w.confirm(network.name)}</label>
${confirmError ? html`<span id="confirm-error" class="error">${confirmError}</span>` : ''}
<button type="submit">${w.submit}</button>
</form>`
    : refund.refund_status === 'SUCCESS'
      ? html`<p data-refund-state="SUCCESS">${w.done}</p>`
      : refund.refund_status === 'FAILED'
        ? html`<p data-refund-state="FAILED">${w.failed}: ${refund.failure_reason ?? ''}. ${w.ask}</p>`
        : html`<p data-refund-state="PENDING">${refund.psp_refund_id ? w.sent : w.waiting}</p>`
}`,
    CSS,
  );
}

/** An unknown token: the page says so, in the browser's language. */
export function missingClaimPage(lang: ClaimLanguage) {
  return page(lang, WORDS[lang].title, html`<h1>${WORDS[lang].title}</h1><p>${WORDS[lang].missing}</p>`, CSS);
}
