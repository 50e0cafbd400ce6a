/**
 * Text from outside (file names, entry names, paths inside a document, messages of a format) made
 * safe to print: nothing a terminal would act on reaches it raw.
 *
 * @module
 */

/**
 * Characters never printed as they are: C0 controls (newline, tab and ESC included), DEL, C1
 * controls, the bidirectional formatting characters (they reorder what is shown), the line and
 * paragraph separators, and lone surrogates (half a character: a name that was not valid text).
 */
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The escape of one unsafe character: `\x1b` below U+0100, `\u202e` above. */
function escapeChar(char: string): string {
  const code = char.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

const strict = new TextDecoder('utf-8', { fatal: true });

/** Bytes as text: valid UTF-8 decoded, every other byte as `\xNN`. */
function looseUtf8(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!; // i is within bytes
    const length =
      b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length > 0 && i + length <= bytes.length) {
      try {
        out += showName(strict.decode(bytes.subarray(i, i + length)));
        i += length;
        continue;
      } catch {
        /* not a character: escaped below */
      }
    }
    out += `\\x${b.toString(16).padStart(2, '0')}`;
    i++;
  }
  return out;
}

/**
 * A file name, path, entry name or any text from outside, safe to print on one line: control
 * characters (C0 with newline and ESC, DEL, C1), bidirectional controls and line separators become
 * `\x1b` / `\u202e` escapes; a lone surrogate (a name that was not valid Unicode) becomes `\ud800`;
 * bytes that are not UTF-8 (a raw name) become `\xNN`. Ordinary text, accents and all, is unchanged.
 * Every place the CLI echoes a name goes through this.
 */
export function showName(name: string | Uint8Array): string {
  if (typeof name !== 'string') return looseUtf8(name);
  return name.replace(UNSAFE, escapeChar);
}

/** What `JSON.stringify` leaves raw that a terminal may act on (it escapes C0 controls and lone surrogates). */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text (from `JSON.stringify`, whose strings already escape C0 controls) with the characters
 * it leaves raw — DEL, C1 controls, bidirectional controls, separators — as `\u` escapes: the same
 * JSON, parsed to the same value, and safe on a terminal.
 */
export function showJson(text: string): string {
  return text.replace(UNSAFE_IN_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Characters a printed line may not hold raw: {@link UNSAFE} except newline and tab. */
const UNSAFE_IN_LINES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /\u001b\[[0-9;]*m|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The last guard before the terminal, on every line the CLI prints: whatever control character got
 * past {@link showName} is escaped too. Newlines and tabs (the CLI's own layout) are kept, and with
 * `colours` so are colour codes (`ESC [ … m`, picocolors' only output); without, every ESC is escaped.
 */
export function safeLine(line: string, colours = false): string {
  return line.replace(UNSAFE_IN_LINES, (match) =>
    match.length > 1 ? (colours ? match : `${escapeChar(match[0]!)}${match.slice(1)}`) : escapeChar(match),
  );
}
