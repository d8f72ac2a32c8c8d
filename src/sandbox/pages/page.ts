// What the gateway's own pages share (the receipt, the refund claim): the language, the HTML around a body with its
// one inline stylesheet, the policy that allows that stylesheet and no script, and numbers and times as a person in
// that language reads them.
import { createHash } from 'node:crypto';
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { locales, type Locale } from '../../checkout/i18n/index.js';

/** A language of the registry (checkout/i18n/locales.ts), which the element and the demo share. */
export type PageLanguage = Locale;

/**
 * The first of the tags (of the Accept-Language header, its first) that is one of the languages the page is
 * `written` in (the registry's, unless its words are elsewhere), else `en`.
 */
export function pageLanguage<L extends PageLanguage = PageLanguage>(
  asked: string | undefined,
  linkLocale: string | null | undefined,
  acceptLanguage: string | undefined,
  written: readonly L[] = locales as L[],
): L | 'en' {
  for (const tag of [asked, linkLocale, acceptLanguage?.split(',')[0]]) {
    const lang = tag?.trim().slice(0, 2).toLowerCase() as L;
    if (written.includes(lang)) return lang;
  }
  return 'en';
}

/** What a page may do: show `css`, by its hash, post its forms where `formAction` says, and nothing else (no script). */
export function pageCsp(css: string, formAction: "'none'" | "'self'"): string {
  return `default-src 'none'; style-src 'sha256-${createHash('sha256').update(css).digest('base64')}'; base-uri 'none'; form-action ${formAction}; frame-ancestors 'none'`;
}

/** A page of the gateway's own: one inline stylesheet (allowed by its hash in the page's CSP), no script. */
export function page(lang: PageLanguage, title: string, body: HtmlEscapedString | Promise<HtmlEscapedString>, css: string) {
  return html`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${raw(css)}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** VND, coins and times in `lang`; decimal strings exactly as written, never through a float; times in Vietnam's zone. */
export function pageFormats(lang: PageLanguage) {
  // The language itself: Intl writes `vi` as `vi-VN` and `en` as `en-US`.
  const locale = lang;
  const decimal = new Intl.NumberFormat(locale, { maximumFractionDigits: 20 });
  const currency = new Intl.NumberFormat(locale, { style: 'currency', currency: 'VND', maximumFractionDigits: 20 });
  const dateTime = new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'Asia/Ho_Chi_Minh',
    timeZoneName: 'short',
  });
  return {
    vnd: (amount: number | string) => currency.format(amount as `${number}`),
    decimal: (amount: string) => decimal.format(amount as `${number}`),
    time: (at: Date | string) => dateTime.format(new Date(at)),
  };
}
