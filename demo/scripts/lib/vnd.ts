// VND as the page's language writes it: `100.000 ₫` in Vietnamese, `₫100,000` in English. Typed, either grouping reads
// on any page: VND has no minor unit, so `100.000` and `100,000` can only be a hundred thousand (as the search reads
// them, src/sandbox/services/merchant/merchant-links.ts); a decimal part (`100.5`) or a broken group is refused.
import { format, toLocale, type Locale } from '../../../src/checkout/i18n/index.js';

/** A language of the registry the element and the gateway's pages share (src/checkout/i18n/locales.ts). */
export type PageLanguage = Locale;

/** The language of the page (`<html lang>`), English unless it is another of the registry's. */
export const pageLanguage = (): PageLanguage => toLocale(globalThis.document?.documentElement.lang) ?? 'en';

// Intl writes `vi` as `vi-VN` and `en` as `en-US`.
export const formatVnd = (amount: number, language: PageLanguage = pageLanguage()): string =>
  new Intl.NumberFormat(language, { style: 'currency', currency: 'VND' }).format(amount);

/** A whole amount as the language groups it, without the sign: `100.000`, `100,000`. */
export const groupVnd = (amount: number, language: PageLanguage = pageLanguage()): string => groupDecimal(String(amount), language);

/** A decimal string as the language writes it, digit for digit (no float): `26.218,25` in Vietnamese, `26,218.25` in English. */
export function groupDecimal(value: string, language: PageLanguage = pageLanguage()): string {
  const [whole = '0', fraction] = value.split('.');
  // The thousands separator and the decimal point of the language, as its catalog says.
  return `${whole.replace(/\B(?=(\d{3})+$)/g, format(language, 'groupMark'))}${fraction ? `${format(language, 'decimalMark')}${fraction}` : ''}`;
}

/** Digits in groups of three after the first, one separator throughout: a dot, a comma or a space. */
const GROUPED = /^\d{1,3}(?:([.,\s])\d{3})(?:\1\d{3})*$/u;

/**
 * The VND a merchant typed: digits, plain or grouped in threes (`.`, `,` or spaces, one of them throughout), with ₫, đ
 * or VND beside them or not. Undefined for anything else (a decimal part, mixed separators, letters).
 */
export function parseVnd(text: string): number | undefined {
  const bare = text.trim().replace(/\s*(?:₫|đ|vnd)$/iu, '').replace(/^₫\s*/u, '');
  if (!/^\d+$/.test(bare) && !GROUPED.test(bare)) return undefined;
  const amount = Number(bare.replace(/\D/g, ''));
  return Number.isSafeInteger(amount) ? amount : undefined;
}

/** The rule an amount field states when what was typed is not one. */
export const vndRule = (language: PageLanguage = pageLanguage()): string =>
  `must be a whole number of VND, such as ${groupVnd(100_000, language)} or 100000`;
