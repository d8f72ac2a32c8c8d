// The transactions export's fields (demo/transactions-csv.ts): a spreadsheet reads back what was written, and runs
// nothing a customer typed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { csvField } from '../../demo/transactions-csv.js';

/** One RFC 4180 field read back. */
const readField = (field: string) => (field.startsWith('"') ? field.slice(1, -1).replace(/""/g, '"') : field);

describe('the transactions export', () => {
  it('quotes what holds a quote, a comma or a line break, and reads back the same text', () => {
    fc.assert(
      fc.property(fc.string().filter((s) => !/^[=+\-@\t\r]/.test(s)), (text) => {
        const field = csvField(text);
        assert.equal(readField(field), text);
        if (!field.startsWith('"')) assert.doesNotMatch(field, /[",\r\n]/);
      }),
    );
    assert.equal(csvField('Nguyễn, Văn "An"'), '"Nguyễn, Văn ""An"""');
  });

  it('keeps formulas as text, writes numbers plain and nothing for what is missing', () => {
    assert.equal(csvField('=HYPERLINK("http://x")'), `"'=HYPERLINK(""http://x"")"`);
    assert.equal(csvField('+84 912 345 678'), "'+84 912 345 678");
    assert.equal(csvField('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvField(360000), '360000');
    assert.equal(csvField(null), '');
    assert.equal(csvField(undefined), '');
  });
});
