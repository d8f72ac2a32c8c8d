// JSON inside an HTML page's <script type="application/json">: the HTML parser ends a script at the first `</script`
// (any case) and treats `<!--` specially, so every `<` is written as the JSON escape `\u003c`, which JSON.parse reads
// back as the same character. `>` and `&` go the same way for good measure, and U+2028 and U+2029 too, so the text
// stays valid should it ever be read as JavaScript. Whatever a merchant puts in a name or description stays data.
// Outside strings JSON text has none of these characters, so escaping the text itself is escaping inside strings.
const UNSAFE = /[<>&\u2028\u2029]/g;

/** JSON text, as it may stand in a script element. */
export const jsonForScript = (json: string): string => json.replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
