/**
 * JSON parsed from its UTF-8 bytes a part at a time: for documents longer than the longest string
 * JavaScript makes (about 512 MiB), which `dump` writes for the largest saves. The value is the one
 * `JSON.parse` gives for the same text (every key an own property, `__proto__` included; a repeated
 * key's last value in its first place; text cut short, trailing text or a byte order mark refused).
 * A string with an escape is read by `JSON.parse` and a number by `Number` (a plain string is its
 * own text); only the structure between them is walked here, with an explicit stack (a document
 * nested a million deep is fine).
 *
 * @module
 */

/** Bytes decoded and parsed per step. */
const PART_BYTES = 1 << 20;

/** A JSON number, as the grammar spells it (`Number` reads more: hex, `Infinity`, spaces). */
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

/** Whether `c` ends a number or a literal: a delimiter, or whitespace as JSON has it. */
const endsAtom = (c: number): boolean =>
  c === 0x2c || c === 0x5d || c === 0x7d || c === 0x3a || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * The index of the first quote at or after `from` that is not escaped, or −1. `carried` backslashes
 * come right before `from` (the end of the string's earlier pieces).
 */
function closingQuote(text: string, from: number, carried: number): number {
  for (let j = from; ; ) {
    const q = text.indexOf('"', j);
    if (q < 0) return -1;
    let k = q - 1;
    while (k >= from && text.charCodeAt(k) === 0x5c) k--;
    const slashes = q - 1 - k + (k < from ? carried : 0);
    if (slashes % 2 === 0) return q;
    j = q + 1;
  }
}

/** Backslashes in a row at the end of `text` (from `from` on), after `carried` before `from`. */
function trailingBackslashes(text: string, from: number, carried: number): number {
  let k = text.length - 1;
  while (k >= from && text.charCodeAt(k) === 0x5c) k--;
  return text.length - 1 - k + (k < from ? carried : 0);
}

/**
 * Parses JSON from `bytes` (UTF-8), `partBytes` at a time. Throws a `SyntaxError` naming the
 * character offset of the first thing `JSON.parse` would refuse. A token that parts cut (a long
 * string) is kept as its pieces and joined once it ends, so time grows with the text's length.
 */
export function parseJsonInParts(bytes: Uint8Array, partBytes = PART_BYTES): unknown {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const stack: Open[] = [];
  let root: unknown;
  let done = false;
  // What the next token may be (set by the closures below too, so not narrowed from its first value).
  let expect = 'value' as 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'colon' | 'comma-or-close' | 'end';
  let consumed = 0; // characters of the decoded text before the current part
  // A token cut by the end of a part: its pieces so far, what it is, where it began, and (a string)
  // how many backslashes in a row end its pieces.
  let pieces: string[] = [];
  let cut: 'none' | 'string' | 'atom' = 'none';
  let cutAt = 0;
  let backslashes = 0;

  const fail = (at: number, what: string): never => {
    throw new SyntaxError(`${what} in JSON at position ${at}`);
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
  /** A whole string token (quotes included), at `at`: a key or a value. */
  const string = (token: string, at: number): void => {
    // A string with no escape and no control character is its text; JSON.parse reads the rest.
    let plain = true;
    for (let k = 1; k < token.length - 1; k++) {
      const d = token.charCodeAt(k);
      if (d === 0x5c || d < 0x20) {
        plain = false;
        break;
      }
    }
    let value: string;
    if (plain) value = token.slice(1, -1);
    else
      try {
        value = JSON.parse(token) as string;
      } catch {
        throw new SyntaxError(`Bad string in JSON at position ${at}`);
      }
    if (expect === 'key' || expect === 'key-or-close') {
      (stack[stack.length - 1] as Open).key = value;
      expect = 'colon';
    } else place(value);
  };
  /** A whole number or literal token, at `at`. */
  const atom = (token: string, at: number): void => {
    if (token === 'true') place(true);
    else if (token === 'false') place(false);
    else if (token === 'null') place(null);
    else if (NUMBER.test(token)) place(Number(token));
    else fail(at, `Unexpected token '${token.slice(0, 20)}'`);
  };

  for (let from = 0; ; from += partBytes) {
    const last = from + partBytes >= bytes.length;
    const text = decoder.decode(bytes.subarray(from, Math.min(bytes.length, from + partBytes)), { stream: !last });
    const n = text.length;
    let i = 0;
    if (cut === 'string') {
      const q = closingQuote(text, 0, backslashes);
      if (q < 0) {
        pieces.push(text);
        backslashes = trailingBackslashes(text, 0, backslashes);
        i = n;
      } else {
        pieces.push(text.slice(0, q + 1));
        const token = pieces.join('');
        pieces = [];
        cut = 'none';
        string(token, cutAt);
        i = q + 1;
      }
    } else if (cut === 'atom') {
      let e = 0;
      while (e < n && !endsAtom(text.charCodeAt(e))) e++;
      pieces.push(text.slice(0, e));
      if (e === n && !last) {
        // A literal is five letters at most: a longer one is refused now, as JSON.parse would.
        const first = (pieces[0] as string).charCodeAt(0);
        if (first !== 0x2d && (first < 0x30 || first > 0x39) && pieces.reduce((k, p) => k + p.length, 0) > 5)
          fail(cutAt, 'Unexpected token');
        i = n;
      } else {
        const token = pieces.join('');
        pieces = [];
        cut = 'none';
        atom(token, cutAt);
        i = e;
      }
    }
    while (i < n) {
      const c = text.charCodeAt(i);
      // Whitespace as JSON has it: space, tab, line feed, carriage return.
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
        continue;
      }
      const at = consumed + i;
      if (expect === 'end') fail(at, 'Unexpected non-whitespace character after JSON');
      if (c === 0x22 /* " */) {
        if (expect !== 'value' && expect !== 'value-or-close' && expect !== 'key' && expect !== 'key-or-close')
          fail(at, 'Unexpected string');
        const q = closingQuote(text, i + 1, 0);
        if (q < 0) {
          // Cut by the part: read on with the next.
          cut = 'string';
          cutAt = at;
          pieces = [text.slice(i)];
          backslashes = trailingBackslashes(text, i + 1, 0);
          break;
        }
        string(text.slice(i, q + 1), at);
        i = q + 1;
        continue;
      }
      if (c === 0x3a /* : */) {
        if (expect !== 'colon') fail(at, "Unexpected token ':'");
        expect = 'value';
        i++;
        continue;
      }
      if (c === 0x2c /* , */) {
        if (expect !== 'comma-or-close') fail(at, "Unexpected token ','");
        expect = Array.isArray((stack[stack.length - 1] as Open).value) ? 'value' : 'key';
        i++;
        continue;
      }
      if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
        if (expect !== 'value' && expect !== 'value-or-close') fail(at, 'Unexpected token');
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
          fail(at, 'Unexpected token');
        stack.pop();
        if (stack.length === 0) {
          done = true;
          expect = 'end';
        } else expect = 'comma-or-close';
        i++;
        continue;
      }
      // A number or a literal: up to the next delimiter.
      if (expect !== 'value' && expect !== 'value-or-close') fail(at, 'Unexpected token');
      let e = i + 1;
      while (e < n && !endsAtom(text.charCodeAt(e))) e++;
      if (e === n && !last) {
        // Cut by the part: read on with the next.
        cut = 'atom';
        cutAt = at;
        pieces = [text.slice(i)];
        break;
      }
      atom(text.slice(i, e), at);
      i = e;
    }
    consumed += n;
    if (last) break;
  }
  if (cut === 'string') fail(cutAt, 'Unterminated string');
  if (!done || stack.length > 0) fail(consumed, 'Unexpected end of JSON input');
  return root;
}
