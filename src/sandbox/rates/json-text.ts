// The JSON reader for rate sources' answers. JSON.parse turns every number into a float: `1e308` into a price with 309
// digits, 300,000 digits into Infinity after the work of reading them, 3456.12345678901234567 into other digits than
// those written. Here a number stays the text the source wrote (JsonNumber), checked only for its grammar and its
// length, so a price is read at its digits and a long one is refused as text. Nesting is bounded too. The answer is
// capped in size before it gets here (sources.ts), so the whole read is a few thousand characters at most.

/** A JSON number as the source wrote it. */
export class JsonNumber {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type JsonValue = null | boolean | string | JsonNumber | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** Text that is not JSON, or JSON past a bound. */
export class JsonTextError extends Error {}

/** Deeper than any answer of a documented format (CoinGecko's are the deepest, at 2). */
export const MAX_DEPTH = 16;
/** Longer than any price or time a source writes; a longer number is refused before it is read. */
export const MAX_NUMBER_LENGTH = 40;

const SPACE = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// eslint-disable-next-line no-control-regex -- control characters are what JSON forbids unescaped in a string
const STRING = /"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;
const LITERALS = [
  ['true', true],
  ['false', false],
  ['null', null],
] as const;

/** Reads JSON text; objects have no prototype, so a key such as `__proto__` is only a key. */
export function parseJsonText(text: string): JsonValue {
  let at = 0;
  const fail = (what: string): never => {
    throw new JsonTextError(`${what} at character ${at}`);
  };
  const match = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = at;
    const found = pattern.exec(text)?.[0];
    if (found !== undefined) at = pattern.lastIndex;
    return found;
  };
  const space = () => match(SPACE);
  const string = (): string => {
    const token = match(STRING) ?? fail('a broken string');
    // A string token alone, already checked: JSON.parse decodes its escapes exactly.
    return JSON.parse(token) as string;
  };
  const value = (depth: number): JsonValue => {
    space();
    const c = text[at];
    if (c === '{' || c === '[') {
      if (depth >= MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH}`);
      at += 1;
      space();
      const close = c === '{' ? '}' : ']';
      const list: JsonValue[] = [];
      const object: JsonObject = Object.create(null) as JsonObject;
      if (text[at] === close) at += 1;
      else {
        for (;;) {
          if (c === '{') {
            space();
            if (text[at] !== '"') fail('a key that is not a string');
            const key = string();
            space();
            if (text[at] !== ':') fail('no colon after a key');
            at += 1;
            object[key] = value(depth + 1);
          } else list.push(value(depth + 1));
          space();
          if (text[at] === ',') at += 1;
          else if (text[at] === close) {
            at += 1;
            break;
          } else fail(`neither , nor ${close}`);
        }
      }
      return c === '{' ? object : list;
    }
    if (c === '"') return string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      const token = match(NUMBER) ?? fail('a broken number');
      if (token.length > MAX_NUMBER_LENGTH) {
        at -= token.length;
        fail(`a number ${token.length} characters long (at most ${MAX_NUMBER_LENGTH})`);
      }
      return new JsonNumber(token);
    }
    for (const [word, literal] of LITERALS) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return literal;
      }
    }
    return fail(c === undefined ? 'the end of the text' : `an unexpected ${JSON.stringify(c)}`);
  };
  const result = value(0);
  space();
  if (at < text.length) fail('more after the value');
  return result;
}
