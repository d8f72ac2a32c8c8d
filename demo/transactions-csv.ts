// The transactions page's export (GET /demo/api/transactions.csv): every link the filters find, a row each, written as
// the read API's pages come (a page in memory at a time, however many links), with what an accountant reconciles:
// ids, dates, the customer, amounts as plain numbers (VND and the coin's decimal), the transactions, refunds and holds.
import type { PaymentLinkResource } from '../src/contract/index.js';
import { heldOf, mainPayment, orderStatus, refundedOf } from './scripts/portal/money.js';

const COLUMNS = [
  'merchant_order_id',
  'payment_link_ref',
  'status',
  'created_at',
  'paid_at',
  'amount_vnd',
  'customer_name',
  'customer_email',
  'customer_phone',
  'asset',
  'network',
  'payment_id',
  'received_crypto',
  'tx_hashes',
  'refunded_vnd',
  'left_to_refund_vnd',
  'held_vnd',
] as const;

/**
 * What a spreadsheet runs as a formula (OWASP, "CSV Injection"): `=`, `+`, `-` or `@` first, or a tab or a carriage
 * return, also behind characters it may skip or that no one sees: white space of any kind (U+00A0, U+3000, U+2028 …),
 * control characters (`\n`, `\v`, `\f`, U+0085), format characters (U+200B, U+FEFF, the bidirectional marks) and
 * the other default-ignorable ones (fillers, variation selectors).
 */
const FORMULA = /^[\p{White_Space}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]*[=+\-@]|^[\t\r]/u;

/**
 * A CSV field (RFC 4180): quoted when it holds a quote, a comma or a line break. Text a spreadsheet would run as a
 * formula (a customer's name is theirs to choose) is kept as text with a leading quote. Numbers (the VND columns)
 * are written plain: a number is never a formula, and a prefixed one would be text to a spreadsheet's sums. The coin
 * amounts are decimal strings that start with a digit, so they stay numbers too.
 */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Starts the file: Excel reads a CSV without it in the system's legacy code page, and a Vietnamese name comes out
 * garbled; LibreOffice and the CSV readers of most languages take it as UTF-8's mark.
 */
export const UTF8_BOM = '\uFEFF';

function row(link: PaymentLinkResource): string {
  const payment = mainPayment(link);
  const values: Record<(typeof COLUMNS)[number], string | number | null | undefined> = {
    merchant_order_id: link.merchant_order_id,
    payment_link_ref: link.payment_link_ref,
    status: orderStatus(link),
    created_at: link.created_at,
    paid_at: link.paid_at,
    amount_vnd: link.amount,
    customer_name: link.customer?.name,
    customer_email: link.customer?.email,
    customer_phone: link.customer?.phone,
    asset: payment?.asset,
    network: payment?.network,
    payment_id: payment?.payment_id,
    received_crypto: payment?.received_crypto,
    tx_hashes: link.payments.flatMap((p) => p.transactions.map((t) => t.tx_hash)).join(' '),
    refunded_vnd: refundedOf(link),
    left_to_refund_vnd: link.amountToRefund,
    held_vnd: heldOf(link),
  };
  return `${COLUMNS.map((c) => csvField(values[c])).join(',')}\r\n`;
}

/** The export's lines, the header first (behind the byte order mark), as the links come. */
export async function* transactionsCsv(links: AsyncIterable<PaymentLinkResource>): AsyncGenerator<string> {
  yield `${UTF8_BOM}${COLUMNS.join(',')}\r\n`;
  for await (const link of links) yield row(link);
}
