// The element's words and figures in each language of the registry (locales.ts): English defines the keys, every
// other language must have exactly the same (a type error otherwise; test/i18n/catalog.test.ts checks the rest).
import type * as english from './locales/en.js';
import * as LOCALES from './locales.js';

export type Locale = keyof typeof LOCALES;
/** The parts of a catalog (`script`, `later`...), each English's keys with a message each. */
export type Words<Part extends keyof typeof english> = Record<keyof (typeof english)[Part], string>;
export type MessageKey = keyof typeof english.script;
export type Params = Record<string, string | number>;

/** The registry's languages, in its order: the choices of the language switch. */
export const locales = Object.keys(LOCALES) as Locale[];

/** The registry's language of a language tag (`vi-VN`, `en_US`); undefined for any other language. */
export function toLocale(tag: string | undefined | null): Locale | undefined {
  const language = tag?.toLowerCase().split(/[-_]/)[0] as Locale;
  return locales.includes(language) ? language : undefined;
}

/** `message` with its `{placeholders}` filled; a placeholder without a value stays as written. */
export function fill(message: string, params: Params = {}): string {
  return message.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** The message of `key` in `locale` with its `{placeholders}` filled. */
export const format = (locale: Locale, key: MessageKey, params?: Params): string => fill(LOCALES[locale].script[key], params);

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * VND as the customer reads it, exactly as `Intl.NumberFormat(locale, {style: 'currency', currency: 'VND',
 * maximumFractionDigits: 0})` writes it (`530.000 ₫` in vi, `₫530,000` in en; test/i18n/vnd.test.ts compares the
 * two), without Intl: its first use loads the locale's data, a cost paid before the order summary could paint.
 * Whole dong, rounded half away from zero; decimal strings (a rate) are rounded as written, never through a float.
 * Anything that is neither a safe integer nor a decimal string goes to Intl itself.
 */
export function formatVnd(locale: Locale, amount: number | `${number}`): string {
  const parts = DECIMAL.exec(typeof amount === 'number' && Number.isSafeInteger(amount) ? amount.toFixed(0) : String(amount));
  if (!parts) return new Intl.NumberFormat(locale, { style: 'currency', currency: 'VND', maximumFractionDigits: 0 }).format(amount);
  const [, sign = '', whole = '', fraction = ''] = parts;
  const dong = fraction >= '5' ? (BigInt(whole) + 1n).toString() : whole.replace(/^0+(?=\d)/, '');
  return sign + format(locale, 'dong', { amount: formatCrypto(locale, dong) });
}

/**
 * A crypto amount (a decimal string, as the gateway writes it) as the customer reads it, with the same separators
 * as VND: `1.234,5` in vi, `1,234.5` in en. Written as given, never through a float; what a copy button copies is
 * the gateway's string (`20.22`), which is what wallets parse.
 */
export function formatCrypto(locale: Locale, amount: string): string {
  const parts = DECIMAL.exec(amount);
  if (!parts) return amount;
  const [, sign = '', whole = '', fraction] = parts;
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, format(locale, 'groupMark'));
  return `${sign}${grouped}${fraction === undefined ? '' : format(locale, 'decimalMark') + fraction}`;
}

/**
 * A rate, VND per unit (a decimal string), written one way wherever the customer reads it: its fraction kept, as the
 * receipt page writes it (`26.218,25 ₫` in vi, `₫26,218.25` in en; trailing zeros dropped, as Intl drops them).
 */
export function formatRate(locale: Locale, rate: string): string {
  return format(locale, 'dong', { amount: formatCrypto(locale, rate.includes('.') ? rate.replace(/\.?0+$/, '') : rate) });
}

/** An instant (ISO 8601) as the customer reads it: date and time, in their language and time zone. */
export function formatTime(locale: Locale, iso: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** A country by its ISO 3166 code, in the customer's language ("VN" → "Việt Nam"); the code when the browser cannot name it. */
export function formatRegion(locale: Locale, code: string): string {
  try {
    return new Intl.DisplayNames(locale, { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
