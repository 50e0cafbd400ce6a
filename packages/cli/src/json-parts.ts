/**
 * JSON parsed from its UTF-8 bytes a part at a time: for documents longer than the longest string
 * JavaScript makes (about 512 MiB), which `dump` writes for the largest saves. The value is the one
 * `JSON.parse` gives for the same text (every key an own property, `__proto__` included; a repeated
 * key's last value in its first place; text cut short, trailing text or a byte order mark refused).
 * Strings and numbers are read by `JSON.parse` and `Number` themselves; only the structure between
 * them is walked here, with an explicit stack (a document nested a million deep is fine).
 *
 * @module
 */

/** Bytes decoded and parsed per step. */
const PART_BYTES = 1 << 20;

const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** A container being filled: an array, or an object with the key its next value goes under. */
interface Open {
  readonly value: unknown[] | Record<string, unknown>;
  key: string | undefined;
}

/** Sets `object[key]` as `JSON.parse` does: an own data property, even for `__proto__`. */
function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

/**
 * Parses JSON from `bytes` (UTF-8), `partBytes` at a time. Throws a `SyntaxError` naming the
 * character offset of the first thing `JSON.parse` would refuse.
 */
export function parseJsonInParts(bytes: Uint8Array, partBytes = PART_BYTES): unknown {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const stack: Open[] = [];
  let root: unknown;
  let done = false;
  /** What the next token may be. */
  let expect: 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'colon' | 'comma-or-close' | 'end' = 'value';
  // Text not yet consumed: the tail of a token cut by a part boundary, then the next part.
  let text = '';
  let consumed = 0; // characters of the decoded text before `text`

  const fail = (at: number, what: string): never => {
    throw new SyntaxError(`${what} in JSON at position ${consumed + at}`);
  };
  const place = (value: unknown): void => {
    const top = stack[stack.length - 1];
    if (top === undefined) {
      root = value;
      done = true;
      expect = 'end';
    } else if (Array.isArray(top.value)) {
      top.value.push(value);
      expect = 'comma-or-close';
    } else {
      setMember(top.value, top.key as string, value);
      top.key = undefined;
      expect = 'comma-or-close';
    }
  };

  for (let from = 0; from <= bytes.length; from += partBytes) {
    const last = from + partBytes >= bytes.length;
    text += decoder.decode(bytes.subarray(from, Math.min(bytes.length, from + partBytes)), { stream: !last });
    let i = 0;
    const n = text.length;
    scan: while (i < n) {
      const c = text.charCodeAt(i);
      // Whitespace as JSON has it: space, tab, line feed, carriage return.
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
        continue;
      }
      if (expect === 'end') fail(i, 'Unexpected non-whitespace character after JSON');
      if (c === 0x22 /* " */) {
        // A string: up to the next quote not escaped. JSON.parse reads it, escapes and all.
        let j = i + 1;
        for (;;) {
          const q = text.indexOf('"', j);
          if (q < 0) break scan; // cut by the part: read on with the next
          let slashes = 0;
          for (let k = q - 1; k > i && text.charCodeAt(k) === 0x5c; k--) slashes++;
          if (slashes % 2 === 0) {
            j = q;
            break;
          }
          j = q + 1;
        }
        // A string with no escape and no control character is its text; JSON.parse reads the rest.
        let plain = true;
        for (let k = i + 1; k < j; k++) {
          const d = text.charCodeAt(k);
          if (d === 0x5c || d < 0x20) {
            plain = false;
            break;
          }
        }
        let value: string;
        if (plain) value = text.slice(i + 1, j);
        else
          try {
            value = JSON.parse(text.slice(i, j + 1)) as string;
          } catch {
            return fail(i, 'Bad string');
          }
        if (expect === 'key' || expect === 'key-or-close') {
          (stack[stack.length - 1] as Open).key = value;
          expect = 'colon';
        } else if (expect === 'value' || expect === 'value-or-close') place(value);
        else fail(i, 'Unexpected string');
        i = j + 1;
        continue;
      }
      if (c === 0x3a /* : */) {
        if (expect !== 'colon') fail(i, "Unexpected token ':'");
        expect = 'value';
        i++;
        continue;
      }
      if (c === 0x2c /* , */) {
        if (expect !== 'comma-or-close') fail(i, "Unexpected token ','");
        expect = Array.isArray((stack[stack.length - 1] as Open).value) ? 'value' : 'key';
        i++;
        continue;
      }
      if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
        if (expect !== 'value' && expect !== 'value-or-close') fail(i, 'Unexpected token');
        const value = c === 0x5b ? [] : {};
        place(value);
        done = false;
        stack.push({ value, key: undefined });
        expect = c === 0x5b ? 'value-or-close' : 'key-or-close';
        i++;
        continue;
      }
      if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
        const top = stack[stack.length - 1];
        const closes = top !== undefined && Array.isArray(top.value) === (c === 0x5d);
        if (!closes || (expect !== 'comma-or-close' && expect !== 'value-or-close' && expect !== 'key-or-close'))
          fail(i, 'Unexpected token');
        stack.pop();
        if (stack.length === 0) {
          done = true;
          expect = 'end';
        } else expect = 'comma-or-close';
        i++;
        continue;
      }
      // A number or a literal: up to the next delimiter (cut by the part: read on with the next).
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (
          d === 0x2c ||
          d === 0x5d ||
          d === 0x7d ||
          d === 0x20 ||
          d === 0x0a ||
          d === 0x0d ||
          d === 0x09 ||
          d === 0x3a
        )
          break;
        j++;
      }
      if (j === n && !last) break;
      if (expect !== 'value' && expect !== 'value-or-close') fail(i, 'Unexpected token');
      const token = text.slice(i, j);
      let value: unknown;
      if (token === 'true') value = true;
      else if (token === 'false') value = false;
      else if (token === 'null') value = null;
      else if (NUMBER.test(token)) value = Number(token);
      else return fail(i, `Unexpected token '${token.slice(0, 20)}'`);
      place(value);
      i = j;
    }
    consumed += i;
    text = text.slice(i);
    if (last) break;
  }
  if (text.length > 0) fail(0, 'Unterminated string');
  if (!done || stack.length > 0) fail(0, 'Unexpected end of JSON input');
  return root;
}
