// The order the builder starts with: a realistic Vietnamese order whose amount adds up
// (2 × 185.000 + 45.000 + 120.000 − 35.000 promo + 30.000 shipping = 530.000 ₫).

export interface LineDraft {
  id: string;
  name: string;
  price: string;
  quantity: string;
  image: string;
}

/** A new order reference each time: the gateway allows one active or paid link per order. */
export function newOrderId(now = new Date()): string {
  const day = now.toISOString().slice(0, 10).replaceAll('-', '');
  const suffix = crypto.getRandomValues(new Uint8Array(3)).reduce((s, b) => s + b.toString(16).padStart(2, '0'), '').toUpperCase();
  return `DH-${day}-${suffix}`;
}

/** Field values by their path in the request; the demo's own pages stand in for the merchant's URLs. */
export function sampleValues(origin: string): Record<string, string> {
  return {
    merchant_order_id: newOrderId(),
    description: 'Cà phê Buôn Ma Thuột, phin nhôm và trà sen Tây Hồ',
    currency: 'VND',
    country_code: 'VN',
    expiry_hours: '24',
    'merchant_details.name': 'Tiệm Cà Phê Bà Tư',
    'merchant_details.logo': `${origin}/demo/logo.svg`,
    'merchant_details.back_url': `${origin}/`,
    'merchant_details.promo_code': 'TET2026',
    'merchant_details.promo_discount': '35000',
    'merchant_details.shipping_charges': '30000',
    'billing_details.billing_name': 'Nguyễn Thị Lan',
    'billing_details.billing_email': 'lan.nguyen@example.com',
    'billing_details.billing_phone': '+84 912 345 678',
    'billing_details.billing_address.line_1': '25 Lý Thường Kiệt',
    'billing_details.billing_address.line_2': 'Phường Hàng Bài',
    'billing_details.billing_address.city': 'Hà Nội',
    'billing_details.billing_address.state': 'Quận Hoàn Kiếm',
    'billing_details.billing_address.postal_code': '100000',
    'billing_details.billing_address.country_code': 'VN',
    'billing_details.billing_address.locale': 'vi',
    'shipping_details.shipping_name': 'Trần Văn Minh',
    'shipping_details.shipping_email': 'minh.tran@example.com',
    'shipping_details.shipping_phone': '+84 903 123 456',
    'shipping_details.shipping_address.line_1': '18 Nguyễn Huệ',
    'shipping_details.shipping_address.line_2': 'Phường Bến Nghé',
    'shipping_details.shipping_address.city': 'TP. Hồ Chí Minh',
    'shipping_details.shipping_address.state': 'Quận 1',
    'shipping_details.shipping_address.postal_code': '700000',
    'shipping_details.shipping_address.country_code': 'VN',
    'shipping_details.shipping_address.locale': 'vi',
    success_url: `${origin}/success`,
    failure_url: `${origin}/failure`,
  };
}

export function sampleLines(origin: string): LineDraft[] {
  return [
    { id: 'CF-BMT-500', name: 'Cà phê Robusta Buôn Ma Thuột 500 g', price: '185000', quantity: '2', image: `${origin}/demo/products/ca-phe.svg` },
    { id: 'PHIN-AL', name: 'Phin nhôm pha cà phê', price: '45000', quantity: '1', image: `${origin}/demo/products/phin.svg` },
    { id: 'TRA-SEN-100', name: 'Trà sen Tây Hồ 100 g', price: '120000', quantity: '1', image: `${origin}/demo/products/tra-sen.svg` },
  ];
}

export const sampleFlags = {
  show_shipping_details: true,
  show_back_button: true,
  default_guest_checkout: false,
  is_checkout_embed: true,
};
