// The list's date filters as the page's language writes a day: 22/11/2026 in Vietnamese (vi-VN) and in the portal's
// English, which writes dates the British way (demo/scripts/lib/ui.ts's formatDate). A native <input type="date">
// shows the browser's own locale whatever the page's `lang` says (Chromium and Firefox both: mm/dd/yyyy on an en-US
// browser, on a Vietnamese page too), so the filters are text fields that read what the page writes, and ISO days.
import { pageLanguage, type PageLanguage } from '../lib/vnd.js';

/** Where the portal writes a day otherwise than the language's own Intl tag does (`vi` writes `vi-VN`'s). */
const TAGS: Partial<Record<PageLanguage, string>> = { en: 'en-GB' };

/** `2026-11-22` as the page writes it: `22/11/2026`; '' for ''. */
export function formatDay(iso: string, language: PageLanguage = pageLanguage()): string {
  const match = /^(\d{4})-(\d\d)-(\d\d)$/.exec(iso);
  if (!match) return '';
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  return new Intl.DateTimeFormat(TAGS[language] ?? language, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(y, m - 1, d));
}

/** An example of what the fields read, for their hint. */
export const dayExample = (language: PageLanguage = pageLanguage()) => formatDay('2026-11-22', language);

/**
 * The day typed, as an ISO day: day first (`22/11/2026`, `2.1.2026`, `22-11-2026`) as both languages write it, or
 * ISO (`2026-11-22`); undefined for anything else, a day that does not exist (31/02) included.
 */
export function parseDay(text: string): string | undefined {
  const t = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  const dayFirst = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})$/.exec(t);
  const [y, m, d] = iso ? [iso[1], iso[2], iso[3]].map(Number) : dayFirst ? [dayFirst[4], dayFirst[3], dayFirst[1]].map(Number) : [];
  if (y === undefined || m === undefined || d === undefined) return undefined;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return undefined;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}
