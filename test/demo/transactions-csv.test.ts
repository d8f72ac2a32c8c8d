// The transactions export's fields (demo/transactions-csv.ts): a spreadsheet reads back what was written, and runs
// nothing a customer typed, however it is dressed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { csvField, transactionsCsv } from '../../demo/transactions-csv.js';

/** One RFC 4180 field read back. */
const readField = (field: string) => (field.startsWith('"') ? field.slice(1, -1).replace(/""/g, '"') : field);

/** What a spreadsheet may skip, or no one sees, before a formula: the tester's finds first, then one of each kind. */
const INVISIBLE = [
  ...[' ', '\u00a0', '\u3000', '\u200b', '\n', '\v', '\f', '\u2028', '\u0085'],
  ...['\t', '\r', '\u2029', '\u1680', '\u2007', '\u202f', '\u205f', '\u0000', '\u001b', '\u007f', '\u009f'],
  ...['\ufeff', '\u00ad', '\u200c', '\u200d', '\u200e', '\u202e', '\u2060', '\u2066', '\u180e', '\u3164', '\ufe0f', '\u{e0001}'],
];
/** Any character of the classes the rule names (Unicode White_Space, controls, format characters), drawn at random. */
const anyInvisible = fc
  .integer({ min: 0, max: 0x10ffff })
  .map((code) => String.fromCodePoint(code))
  .filter((ch) => /^[\p{White_Space}\p{Cc}\p{Cf}]$/u.test(ch));
const TRIGGERS = ['=', '+', '-', '@'];
/** The rule restated: a formula's trigger after nothing visible, or a tab or carriage return first. */
const looksLikeFormula = (s: string) => /^[\p{White_Space}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]*[=+\-@]|^[\t\r]/u.test(s);

describe('the transactions export', () => {
  it('quotes what holds a quote, a comma or a line break, and reads back the same text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.oneof(fc.constantFrom(...INVISIBLE, ',', '"', 'ễ'), fc.string({ minLength: 1, maxLength: 1 })) }).filter((s) => !looksLikeFormula(s)),
        (text) => {
          const field = csvField(text);
          assert.equal(readField(field), text);
          if (!field.startsWith('"')) assert.doesNotMatch(field, /[",\r\n]/);
        },
      ),
    );
    assert.equal(csvField('Nguyễn, Văn "An"'), '"Nguyễn, Văn ""An"""');
  });

  it('keeps a formula as text behind any leading white space or invisible characters', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...INVISIBLE), anyInvisible), { maxLength: 6 }),
        fc.constantFrom(...TRIGGERS),
        fc.string(),
        (lead, trigger, rest) => {
          const value = `${lead.join('')}${trigger}${rest}`;
          assert.equal(readField(csvField(value)), `'${value}`, JSON.stringify(value));
        },
      ),
    );
    // As the hostile tester wrote them.
    for (const value of [' =1+1', '\u00a0=1+1', '\u3000=1+1', '\u200b=1+1', '\n=1+1', '\v=1+1', '\f=1+1', '\u2028=1+1', '\u0085=1+1']) {
      assert.ok(readField(csvField(value)).startsWith("'"), JSON.stringify(value));
    }
    assert.equal(csvField('\tanything'), "'\tanything", 'a tab first, whatever follows');
    assert.equal(csvField('\ranything'), `"'\ranything"`, 'a carriage return first, whatever follows');
  });

  it('keeps formulas as text, writes numbers plain and nothing for what is missing', () => {
    assert.equal(csvField('=HYPERLINK("http://x")'), `"'=HYPERLINK(""http://x"")"`);
    assert.equal(csvField('+84 912 345 678'), "'+84 912 345 678");
    assert.equal(csvField('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvField(360000), '360000');
    // A number is never a formula: a negative one stays a number the spreadsheet adds up.
    assert.equal(csvField(-12000), '-12000');
    assert.equal(csvField('0.012345'), '0.012345', 'a coin amount, as the API writes it');
    assert.equal(csvField('Lê =Thị'), 'Lê =Thị', 'a trigger after visible text runs nothing');
    assert.equal(csvField(null), '');
    assert.equal(csvField(undefined), '');
  });

  it('starts the file with a UTF-8 byte order mark, so Excel reads Vietnamese names as written', async () => {
    const lines: string[] = [];
    for await (const line of transactionsCsv((async function* () {})())) lines.push(line);
    const bytes = new TextEncoder().encode(lines.join(''));
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    assert.match(lines[0]!, /^\uFEFFmerchant_order_id,/);
  });
});
