// The list's date filters (demo/scripts/portal/days.ts): written and read as the page's language writes a day, never
// the browser's mm/dd/yyyy.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { dayExample, formatDay, parseDay } from '../../demo/scripts/portal/days.js';

describe('the date filters', () => {
  it('write a day as Vietnamese and the portal’s English write it: day first', () => {
    assert.equal(formatDay('2026-11-22', 'vi'), '22/11/2026');
    assert.equal(formatDay('2026-02-03', 'en'), '03/02/2026');
    assert.equal(dayExample('vi'), '22/11/2026');
    assert.equal(formatDay(''), '');
  });

  it('read a day first, with slashes, dots or dashes, or an ISO day; nothing else', () => {
    assert.equal(parseDay('22/11/2026'), '2026-11-22');
    assert.equal(parseDay(' 2.1.2026 '), '2026-01-02');
    assert.equal(parseDay('22-11-2026'), '2026-11-22');
    assert.equal(parseDay('2026-11-22'), '2026-11-22');
    for (const text of ['11/22/2026', '31/02/2026', '22/11/26', '22/11-2026', '2026/11/22', 'hôm nay', '', '0/1/2026']) assert.equal(parseDay(text), undefined, text);
  });

  it('read back every day they write, in both languages', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date(Date.UTC(1970, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true }), fc.constantFrom('vi' as const, 'en' as const), (date, language) => {
        const iso = date.toISOString().slice(0, 10);
        assert.equal(parseDay(formatDay(iso, language)), iso);
      }),
    );
  });
});
