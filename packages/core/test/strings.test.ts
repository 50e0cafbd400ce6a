import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import {
  bytes,
  cstring,
  decode,
  fixedString,
  literal,
  magic,
  pstring,
  u16le,
  u32le,
  u8,
  type EncodingName,
} from '../src/index';
import { bytesEqual, CP437_UPPER, cp437 } from '../src/kit';
import { checkLaws, decodeFails, encodeFails, encodeOk, hexBytes } from './laws';

const alphabet: Record<EncodingName, fc.Arbitrary<string>> = {
  utf8: fc.string({ unit: 'grapheme', maxLength: 20 }),
  ascii: fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
  cp437: fc.string({
    unit: fc.integer({ min: 0, max: 255 }).map((b) => (b < 0x80 ? String.fromCharCode(b) : CP437_UPPER[b - 0x80]!)),
    maxLength: 20,
  }),
};
const noNul = (s: fc.Arbitrary<string>) => s.map((text) => text.replace(/\0/g, ''));
const encodings: EncodingName[] = ['utf8', 'ascii', 'cp437'];

describe.each(encodings)('strings in %s', (encoding) => {
  test('cstring obeys the laws', () => {
    checkLaws(cstring(encoding), noNul(alphabet[encoding]));
  });
  test('pstring obeys the laws', () => {
    checkLaws(pstring(u16le, encoding), alphabet[encoding]);
  });
  test('fixedString obeys the laws', () => {
    const codec = fixedString(24, encoding);
    checkLaws(
      codec,
      noNul(alphabet[encoding]).filter((s) => encodeLength(s, encoding) <= 24),
    );
  });
  test('fixedString with tail: keep obeys the laws on any bytes', () => {
    const codec = fixedString(8, encoding, { tail: 'keep' });
    const accepted = checkLaws(
      codec,
      noNul(alphabet[encoding]).filter((s) => encodeLength(s, encoding) <= 8),
      {
        bytes: fc.uint8Array({ minLength: 8, maxLength: 8 }),
      },
    );
    if (encoding === 'cp437') expect(accepted).toBe(1000);
  });
});

function encodeLength(text: string, encoding: EncodingName): number {
  return encoding === 'utf8' ? new TextEncoder().encode(text).length : text.length;
}

describe('string errors', () => {
  test('invalid UTF-8 is a DecodeError at the offending byte', () => {
    const error = decodeFails(cstring('utf8'), hexBytes('41 42 c3 28 00'));
    expect(error.offset).toBe(2);
    expect(error.message).toMatch(/invalid UTF-8/);
    const overlong = decodeFails(pstring(u8, 'utf8'), hexBytes('03 41 c0 80'));
    expect(overlong.offset).toBe(2);
    const surrogate = decodeFails(pstring(u8, 'utf8'), hexBytes('03 ed a0 80'));
    expect(surrogate.offset).toBe(1);
  });
  test('a byte-order mark is text, not swallowed', () => {
    const bom = hexBytes('ef bb bf 41 00');
    const r = decode(cstring('utf8'), bom);
    expect(E.isRight(r) && r.right.value).toBe('\ufeffA');
    expect(encodeOk(cstring('utf8'), '\ufeffA')).toEqual(bom);
  });
  test('a lone surrogate cannot be encoded', () => {
    expect(encodeFails(cstring('utf8'), 'a\ud800b').message).toMatch(/lone surrogate/);
  });
  test('ASCII refuses high bytes and characters', () => {
    expect(decodeFails(cstring('ascii'), hexBytes('41 80 00')).offset).toBe(1);
    expect(encodeFails(cstring('ascii'), 'é').message).toMatch(/not ASCII/);
  });
  test('cp437 maps the DOS upper half and refuses what it lacks', () => {
    expect(cp437.decode(hexBytes('80 9b e1 f0 db ff'))).toBe('Ç¢ß≡█\u00a0');
    expect(encodeOk(cstring('cp437'), '░▒▓')).toEqual(hexBytes('b0 b1 b2 00'));
    expect(encodeFails(cstring('cp437'), '€').message).toMatch(/not in cp437/);
  });
  test('a cstring without its NUL, a NUL inside one', () => {
    expect(decodeFails(cstring('ascii'), hexBytes('41 42')).message).toMatch(/missing NUL terminator/);
    expect(encodeFails(cstring('ascii'), 'a\0b').message).toMatch(/cannot contain NUL/);
  });
  test('a pstring length past the end fails before allocating', () => {
    const error = decodeFails(pstring(u32le, 'utf8'), hexBytes('ff ff ff ff 41'));
    expect(error.offset).toBe(0);
    expect(error.message).toBe('string length 4294967295 is more than the 1 bytes left');
    expect(encodeFails(pstring(u8, 'ascii'), 'x'.repeat(256)).message).toMatch(/out of range for u8/);
  });
  test('fixedString: garbage after the NUL is refused unless kept, and too long a text is refused', () => {
    const garbage = hexBytes('41 00 7f 00');
    expect(decodeFails(fixedString(4, 'ascii'), garbage).offset).toBe(2);
    const kept = decode(fixedString(4, 'ascii', { tail: 'keep' }), garbage);
    expect(E.isRight(kept) && kept.right.value).toEqual({ text: 'A', tail: hexBytes('00 7f 00') });
    expect(encodeFails(fixedString(2, 'ascii'), 'abc').message).toMatch(/more than the field's 2/);
    const spaced = fixedString(6, 'ascii', { pad: 0x20 });
    expect(encodeOk(spaced, 'ab')).toEqual(hexBytes('61 62 20 20 20 20'));
    expect(encodeFails(spaced, 'ab ').message).toMatch(/ends with the pad byte/);
    checkLaws(
      spaced,
      alphabet.ascii.map((s) => s.slice(0, 6).replace(/ +$/, '')),
    );
  });
});

describe('bytes and constants', () => {
  test('bytesEqual agrees with comparing byte by byte, for copies, views and the same view', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.uint8Array({ maxLength: 64 }), (a, b) => {
        expect(bytesEqual(a, b)).toBe(a.length === b.length && [...a].every((x, i) => x === b[i]));
        expect(bytesEqual(a, a.slice())).toBe(true);
        expect(bytesEqual(a, a)).toBe(true);
      }),
    );
    const shared = Uint8Array.of(1, 2, 1, 2);
    expect(bytesEqual(shared.subarray(0, 2), shared.subarray(2))).toBe(true);
    expect(bytesEqual(shared.subarray(0, 2), shared.subarray(1, 3))).toBe(false);
  });

  test('bytes of fixed, prefixed and rest length obey the laws', () => {
    checkLaws(bytes(5), fc.uint8Array({ minLength: 5, maxLength: 5 }));
    checkLaws(bytes(u16le), fc.uint8Array({ maxLength: 40 }));
    checkLaws(bytes('rest'), fc.uint8Array({ maxLength: 40 }));
  });
  test('a length of 2^32-1 is refused before anything is allocated', () => {
    const error = decodeFails(bytes(u32le), hexBytes('ff ff ff ff 00 01'));
    expect(error.message).toBe('length 4294967295 is more than the 2 bytes left');
    expect(error.offset).toBe(0);
  });
  test('magic with alternatives obeys the laws and names what it found', () => {
    const sep = magic('\x1a\r\n\0', '\r\n\x1a\0');
    checkLaws(sep, fc.constantFrom('\x1a\r\n\0' as const, '\r\n\x1a\0' as const));
    const error = decodeFails(magic('EdgeSave'), new TextEncoder().encode('EdgeSavf'));
    expect(error.message).toBe('expected "EdgeSave", found "EdgeSavf"');
  });
  test('literal accepts only its values', () => {
    const version = literal(u16le, 2, 3);
    checkLaws(version, fc.constantFrom(2 as const, 3 as const));
    expect(decodeFails(version, hexBytes('0400')).message).toBe('expected 2 or 3, found 4');
    expect(encodeFails(version, 4 as 2).message).toMatch(/expected 2 or 3/);
  });
});
