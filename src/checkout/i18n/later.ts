// The words of the views in the chunk beside the script (views/later.ts): paid, paid late, expired, a late transfer,
// the receipt. They travel with those views, not in the script's catalogs (en.ts, vi.ts), which hold the words up to
// the first QR and the live region's. English defines the keys; Vietnamese must have exactly the same.
import { fill, type Locale, type Params } from './index.js';

const en = {
  creditReceived: 'Received',
  creditLeft: 'Left to pay',
  partialSeen: 'Part of your payment has arrived',
  amountDue: 'Order total:',
  missing:
    'Missing: {amount} {asset} ({vnd}); an exchange\'s withdrawal fee is the usual cause. Send the rest to this same address before {time}; or, if you would rather not, what arrived is kept for this order and {merchant} can refund it to you.',
  confirmations: '{seen} of {required} confirmations',
  paidBody: 'Thank you. Your payment of {amount} is confirmed.',
  receiptOrder: 'Order',
  receiptAmount: 'Amount',
  receiptNetwork: 'Network',
  receiptTransactions: 'Transaction',
  receiptTime: 'Paid at',
  copyHash: 'Copy hash',
  viewOnExplorer: 'View on the explorer',
  openReceipt: 'Open the receipt (print or save as PDF)',
  overpaid: 'You sent {amount} {asset} ({vnd}) more than was due; the merchant will contact you about the difference.',
  stay: 'Stay on this page',
  expiredBody: 'The quote expired before the full payment arrived. Get a new quote to pay at the current rate.',
  newQuote: 'Get a new quote',
  newQuoteRest: 'Get a quote for the rest',
  creditBody: 'What arrived in time counts for the order: a new quote asks only for the rest.',
  leave: 'Cancel and return to merchant',
  linkExpiredCreditBody: 'This payment link has expired. What arrived in time is held for the merchant, who will contact you to complete or refund the order.',
  paidLateBody: 'Your payment arrived after the quote expired. It is held for the merchant, who will contact you to complete or refund the order.',
  late: 'We see your payment',
  lateBody: 'It arrived after the rate lock ran out, so it is held for the merchant, who decides: to complete the order or to refund you.',
  heldNext: 'What happens next: {merchant} decides whether to complete your order or refund you, and contacts you if they have your details. Ask them with this reference:',
  oldAddress: 'Do not send anything more to the old address. If you already sent money there, we will still see it and show it here.',
};

const vi: Record<keyof typeof en, string> = {
  creditReceived: 'Đã nhận',
  creditLeft: 'Còn lại',
  partialSeen: 'Đã nhận một phần thanh toán',
  amountDue: 'Tổng đơn hàng:',
  missing:
    'Còn thiếu: {amount} {asset} ({vnd}); nguyên nhân thường là phí rút của sàn giao dịch. Hãy gửi phần còn lại đến đúng địa chỉ này trước {time}; hoặc nếu bạn không muốn gửi thêm, số tiền đã đến được giữ cho đơn hàng này và {merchant} có thể hoàn lại cho bạn.',
  confirmations: '{seen} trên {required} xác nhận',
  paidBody: 'Cảm ơn bạn. Khoản thanh toán {amount} đã được xác nhận.',
  receiptOrder: 'Đơn hàng',
  receiptAmount: 'Số tiền',
  receiptNetwork: 'Mạng',
  receiptTransactions: 'Mã giao dịch',
  receiptTime: 'Thời gian',
  copyHash: 'Sao chép mã',
  viewOnExplorer: 'Xem trên trình khám phá khối',
  openReceipt: 'Mở biên nhận (in hoặc lưu PDF)',
  overpaid: 'Bạn đã gửi dư {amount} {asset} ({vnd}); người bán sẽ liên hệ với bạn về phần chênh lệch.',
  stay: 'Ở lại trang này',
  expiredBody: 'Báo giá đã hết hạn trước khi nhận đủ tiền. Hãy lấy báo giá mới để thanh toán theo tỷ giá hiện tại.',
  newQuote: 'Lấy báo giá mới',
  newQuoteRest: 'Lấy báo giá cho phần còn lại',
  creditBody: 'Số tiền đến kịp thời được tính cho đơn hàng: báo giá mới chỉ tính phần còn lại.',
  leave: 'Huỷ và quay lại cửa hàng',
  linkExpiredCreditBody: 'Liên kết thanh toán đã hết hạn. Số tiền đến kịp thời được giữ cho người bán, họ sẽ liên hệ với bạn để hoàn tất hoặc hoàn tiền.',
  paidLateBody: 'Khoản thanh toán của bạn đến sau khi báo giá hết hạn. Khoản tiền được giữ cho người bán, họ sẽ liên hệ với bạn để hoàn tất hoặc hoàn tiền.',
  late: 'Chúng tôi đã thấy khoản thanh toán của bạn',
  lateBody: 'Khoản tiền đến sau khi hết thời gian giữ tỷ giá nên được giữ cho người bán; người bán sẽ quyết định hoàn tất đơn hàng hay hoàn tiền cho bạn.',
  heldNext: 'Tiếp theo: {merchant} sẽ quyết định hoàn tất đơn hàng hay hoàn tiền cho bạn, và liên hệ với bạn nếu có thông tin của bạn. Hãy hỏi họ kèm mã tham chiếu này:',
  oldAddress: 'Đừng gửi thêm vào địa chỉ cũ. Nếu bạn đã gửi tiền đến đó, chúng tôi vẫn sẽ thấy và hiển thị tại đây.',
};

export type LaterKey = keyof typeof en;
export const laterCatalogs: Record<Locale, Record<LaterKey, string>> = { en, vi };

/** The message of `key` in `locale`, its `{placeholders}` filled (as format() does for the script's catalogs). */
export const later = (locale: Locale, key: LaterKey, params?: Params): string => fill(laterCatalogs[locale][key], params);
