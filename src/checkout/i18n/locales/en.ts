// English: the catalog that defines the keys, and a language's one file (docs/i18n.md): the words the script shows up
// to the first QR and in its live region (`script`), then those of each chunk beside it, which travel with their views
// (`later`, `wallet`, `exchange`), and the gateway's pages' (`hosted`, `receipt`, `claim`). `{name}` placeholders are
// filled by fill() (index.ts).
export const script = {
  /** VND as this language writes it: the amount, its figures grouped as below, and the dong sign. */
  dong: '₫{amount}',
  /** What groups thousands, and what starts a fraction (index.ts formatVnd, formatCrypto). */
  groupMark: ',',
  decimalMark: '.',

  loading: 'Loading checkout…',
  sandbox: 'Sandbox: test coins only',
  checkout: 'Checkout',
  order: 'Order {order}',
  /** This language's name, written in it: its button in the language switch (views/parts.ts). */
  language: 'English',
  orderSummary: 'Order summary',
  orderDetails: 'Order details ({count} items)',
  lineQuantity: '{quantity} × {price}',
  subtotal: 'Subtotal',
  promo: 'Promo code {code}',
  discount: 'Discount',
  shipping: 'Shipping',
  total: 'Total',
  shippingTo: 'Shipping to',
  back: 'Back to the shop',
  contact: 'Contact',
  contactOptional: 'Contact (optional)',
  edit: 'Edit',
  name: 'Full name',
  email: 'Email',
  phone: 'Phone (optional)',
  nameRequired: 'Enter your name.',
  emailInvalid: 'Enter an email address such as an@example.com.',
  phoneInvalid: 'Enter a phone number of 3 to 32 digits.',
  method: 'Payment method',
  methodCrypto: 'Cryptocurrency',
  asset: 'Pay with',
  pay: 'Pay {amount}',
  opening: 'Preparing your payment address…',
  /** A network by the gateway's name for it ("Ethereum", "BNB Smart Chain Testnet"). */
  network: '{name} network',
  /** A network the gateway calls a test network (`testnet`), by its name ("Ethereum Sepolia"). */
  testNetwork: '{name} test network',
  unavailable: 'Unavailable right now',
  scanToPay: 'Scan to pay',
  scanAddress: 'Scan the address, then type the amount',
  copyToPay: 'Pay from your wallet app',
  sendExactly: 'Send exactly',
  qrNote: 'This QR holds only the address: type {amount} {asset} in your wallet.',
  receivedUnconfirmed: 'Received so far: {amount} {asset}, waiting for confirmation.',
  received: 'Received so far: {amount} {asset}.',
  sendRemaining: 'Send the remaining',
  rate: '1 {asset} = {rate}',
  copyAddress: 'Copy address',
  copyAmount: 'Copy amount',
  copied: 'Copied',
  addressCopied: 'Address copied.',
  amountCopied: 'Amount copied.',
  hashCopied: 'Transaction hash copied.',
  copyFailed: 'Could not copy: select the text and copy it.',
  openWallet: 'Open in wallet',
  openIn: 'Open in {wallet}',
  walletApps: 'Wallet apps',
  networkWarning: 'Send only {asset} on the {network} to this address. Funds sent on any other network are lost.',
  rateLocked: 'Rate locked for {time}',
  minutesLeft: '{minutes} minutes left to pay at this rate.',
  oneMinuteLeft: 'One minute left to pay at this rate.',
  qrLabel: 'QR code: pay {amount} {asset} to {address}',
  qrAddressLabel: 'QR code of the address {address} only: type {amount} {asset} in your wallet',
  awaiting_payment: 'Waiting for your payment.',
  confirming: 'Payment received: confirming on the network.',
  underpaid: 'Part of the payment is missing.',
  paid: 'Payment complete.',
  redirectIn: 'Returning to the merchant in {seconds} s.',
  returnToMerchant: 'Return to merchant',
  expired: 'The rate lock ran out.',
  changeCoin: 'Change coin',
  paid_late: 'Payment arrived after the rate lock.',
  errorTitle: 'The checkout cannot continue',
  retry: 'Try again',
  offline: 'Connection lost – retrying',
  checkAgain: 'Check again',
  error_missing_ref: 'This page has no payment link. Open the link the shop gave you.',
  error_not_found: 'This payment link does not exist.',
  error_link_expired: 'This payment link has expired.',
  error_link_cancelled: 'The shop cancelled this payment link.',
  error_conflict: 'The payment could not be opened.',
  error_invalid: 'The gateway refused the request.',
  error_unavailable: 'This coin cannot be used right now: choose another coin, or try again shortly.',
  error_network: 'The payment gateway cannot be reached. Check your connection and try again.',
  error_malformed: 'The payment gateway answered something unexpected. Try again in a moment.',
  help: 'Questions? Contact {merchant}',
  theShop: 'the shop',
  poweredBy: 'Powered by {name}',
};

/** The views of the later chunk (views/later.ts): paid, paid late, expired, a late transfer, the receipt. */
export const later = {

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

/** Paying from a browser wallet (wallets/browser-wallet.ts). */
export const wallet = {

  payWith: 'Pay with {wallet}',
  chooseWallet: 'Pay from a browser wallet',
  confirmInWallet: 'Confirm the payment in {wallet}.',
  sent: 'Sent: waiting for the network. Transaction {hash}',
  refused: 'You declined in the wallet. Nothing was sent: try again, or pay with the QR code below.',
  wrongChain: 'The wallet did not switch to {network}. Switch it there and try again, or pay with the QR code below.',
  insufficientFunds: 'The wallet does not hold enough to send {amount} {asset} and its network fee. Nothing was sent.',
  closed: 'The wallet is locked or closed. Open it and try again, or pay with the QR code below.',
  failed: 'The wallet could not send the payment. Nothing was sent: try again, or pay with the QR code below.',
  moreWallets: 'More wallets ({count})',
};

/** "I pay from an exchange" (views/from-exchange.ts). */
export const exchange = {

  fromExchange: 'I pay from an exchange',
  typeAtExchange: 'Type this amount in the exchange\'s withdrawal form:',
  feeLine:
    'The exchange usually keeps about {fee} {asset} as its withdrawal fee on the {network}, so type {typed} for {amount} {asset} to arrive.',
  tolerance: ' A payment short by up to {tolerance}% still counts as paid.',
  feeNote: 'Paying from an exchange? Its withdrawal fee comes on top: {amount} {asset} must arrive.',
  copyTyped: 'Copy {amount}',
};

/** The gateway's hosted checkout page around the element (sandbox/pages/checkout-summary.ts); in no bundle. */
export const hosted = {
  /** Said where the Pay button will be, when the page has no script to run. */
  noScript: 'Paying this order needs JavaScript.',
};

/** The gateway's receipt page (sandbox/pages/receipt.ts); in no bundle. */
export const receipt = {
  title: 'Payment receipt',
  order: 'Order',
  merchant: 'Merchant',
  total: 'Total',
  received: 'Received',
  left: 'Left to pay',
  paid: 'The order is paid',
  unpaid: 'The order is not paid in full',
  sent: 'Sent',
  rate: 'Rate',
  counts: 'Counts toward the order',
  held: 'Held by the merchant',
  transaction: 'Transaction',
  confirmations: 'Confirmations',
  seenAt: 'Time',
  explorer: 'View on the block explorer',
  status_awaiting_payment: 'Partly received',
  status_underpaid: 'Partly received',
  status_confirming: 'Waiting for the network to confirm',
  status_paid: 'Paid',
  status_expired: 'The rate lock ran out',
  status_paid_late: 'Arrived after the rate lock: the merchant decides',
  print: "Use your browser's Print to print it or save it as a PDF. Open this page again any time at the same address.",
  missing: 'There is no such order.',
};

/**
 * The gateway's refund claim page (sandbox/pages/refund-claim.ts); in no bundle. `{own}` and `{other}` are what the
 * networks' families call their addresses (codecs/families/, `addressName`).
 */
export const claim = {
  title: 'Claim your refund',
  intro: '{merchant} is refunding you. Tell us the address of your wallet to receive it.',
  amount: 'Refund',
  coins: 'You receive',
  network: 'Network',
  rate: 'Rate',
  rateRule: "The payment's {received} were worth {value} to the order; the refund returns the same share of them.",
  expires: 'The link expires at',
  warning: 'Give only an address that receives {asset} on {network}. Coins sent to an address of another network are lost.',
  address: 'Your wallet address on {network}',
  exchange: "An exchange account works too: use the exchange's deposit address for this coin on this network.",
  confirm: 'I confirm this address is mine and receives on {network}.',
  submit: 'Claim the refund',
  problem: 'The claim cannot be accepted yet: correct what is marked below.',
  fieldAddress: 'Wallet address',
  fieldConfirm: 'Confirmation',
  address_missing: 'is required: the address of your wallet on this network',
  address_other_network: 'is {other} address: this refund is paid on {network}, so it needs {own} address',
  address_checksum: 'has a wrong checksum (the upper and lower case letters, EIP-55): copy it again from your wallet',
  address_malformed: 'is not {own} address: check its checksum and that you copied it whole',
  address_gateway: 'is an address of this payment gateway (where payments are received, or its payout wallet), not your wallet: the refund would come back to it',
  confirmWrong: 'must be ticked: confirm the address is yours and receives on this network',
  to: 'Sent to',
  transaction: 'Transaction',
  sent: 'The refund is on its way: it waits for the network to confirm it.',
  waiting: 'Your address is recorded; the refund is sent in a moment.',
  done: 'The refund reached your wallet.',
  failed: 'This refund link can no longer be used',
  ask: 'Ask the merchant for a new one.',
  missing: 'There is no such refund.',
};
