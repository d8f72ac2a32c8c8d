// Types of qrcode's core module (src/checkout/qr.ts imports it directly): the same `create` as the package's.
declare module 'qrcode/lib/core/qrcode.js' {
  export { create } from 'qrcode';
}
