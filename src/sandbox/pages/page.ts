// What the gateway's own pages share (the receipt, the refund claim): the language, the HTML around a body with its
// one inline stylesheet, the policy that allows that stylesheet and no script, and numbers and times as a person in
// that language reads them.
import { createHash } from 'node:crypto';
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

export type PageLanguage = 'vi' | 'en';

/** The first of the tags that is `vi` or `en` (of the Accept-Language header, its first), else `en`. */
export function pageLanguage(asked: string | undefined, linkLocale: string | null | undefined, acceptLanguage: string | undefined): PageLanguage {
  for (const tag of [asked, linkLocale, acceptLanguage?.split(',')[0]]) {
    const lang = tag?.trim().slice(0, 2).toLowerCase();
    if (lang === 'vi' || lang === 'en') return lang;
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

const LOCALES = { vi: 'vi-VN', en: 'en-US' } as const;

/** VND, coins and times in `lang`; decimal strings exactly as written, never through a float; times in Vietnam's zone. */
export function pageFormats(lang: PageLanguage) {
  const locale = LOCALES[lang];
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
