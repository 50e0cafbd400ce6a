// The primitive encodings (edge.md §3): the 6-byte float against the spec's table and as a law over
// every float32, the AA/DE string, booleans, the string references of §5, the thumbnail.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import { decode, DecodeError, decodeOrThrow, encode, encodeOrThrow, EncodeError, pathAnnotation } from '@savekit/core';
import {
  edgeBoolean,
  edgeFloat,
  edgeVec3,
  edgeString,
  parseStringRef,
  splitEdgeFloat,
  thumbnailFromRgba,
  thumbnailToRgba,
} from '@savekit/edge';
import { arbitrary } from '@savekit/testkit';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const bytes = (h: string) => Uint8Array.from(Buffer.from(h.replace(/\s/g, ''), 'hex'));

describe('the 6-byte float', () => {
  test.each([
    [0, '0001 00000000'],
    [-0, '0001 00000000'],
    [0.5, '0001 00000020'],
    [1, '0101 00000020'],
    [-1, '0101 000000e0'],
    [0.25, 'ff00 00000020'],
    [1.5, '0101 00000030'],
    // biome-ignore lint/suspicious/noApproximativeNumericConstant: 3.1416 (not π) is the value these bytes encode
    [Math.fround(3.1416), '0201 40fe4332'],
    // biome-ignore lint/suspicious/noApproximativeNumericConstant: as above, negated
    [Math.fround(-3.1416), '0201 c001bccd'],
    [1000, '0a01 0000803e'],
    [Math.fround(0.001), 'f700 c09bc420'],
    [Math.fround(1234567890), '1f01 8001cb24'],
    [Math.fround(1e-45), '6c00 00000020'],
    [3.4028234663852886e38, '8001 c0ffff3f'],
  ])('%p is stored as %s (edge.md §3)', (value, stored) => {
    expect(hex(encodeOrThrow(edgeFloat, value))).toBe(stored.replace(' ', ''));
    expect(decodeOrThrow(edgeFloat, bytes(stored))).toBe(value === 0 ? 0 : value);
  });

  test('every float32 survives bit for bit, and so does every non-canonical pair (−0 is in the table above)', () => {
    // The float's model: each finite float32 but −0 (the engine writes it as +0), and stored pairs
    // that are not the engine's encoding of their value.
    fc.assert(
      fc.property(arbitrary(edgeFloat), (x) => {
        const back = decodeOrThrow(edgeFloat, encodeOrThrow(edgeFloat, x));
        if (typeof x === 'number') expect(Object.is(back, x)).toBe(true);
        else expect(back).toEqual(x);
      }),
      { numRuns: 20000 },
    );
  });

  test("bytes that are not the engine's encoding of their value are kept as { exponent, mantissa }", () => {
    // An unnormalised mantissa (1 instead of 2^29), and a zero with another exponent.
    for (const stored of ['0101 01000000', '0500 00000000', 'ffff ffffff7f']) {
      const value = decodeOrThrow(edgeFloat, bytes(stored));
      expect(typeof value).toBe('object');
      expect(hex(encodeOrThrow(edgeFloat, value))).toBe(stored.replace(' ', ''));
    }
    expect(splitEdgeFloat(-2)).toEqual({ exponent: 258, mantissa: -(2 ** 29) });
  });

  test('vectors are arrays of the float, read and written in place: both laws, and a bad element is named', () => {
    fc.assert(
      fc.property(arbitrary(edgeVec3), (v) => {
        const stored = encodeOrThrow(edgeVec3, v);
        expect(stored.length).toBe(18);
        expect(decodeOrThrow(edgeVec3, stored)).toEqual(v);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 18, maxLength: 18 }), (stored) => {
        expect(hex(encodeOrThrow(edgeVec3, decodeOrThrow(edgeVec3, stored)))).toBe(hex(stored));
      }),
      { numRuns: 2000 },
    );
    const bad = encode(edgeVec3, [1, Number.POSITIVE_INFINITY, 2]);
    expect(E.isLeft(bad) && bad.left).toBeInstanceOf(EncodeError);
    expect(E.isLeft(bad) && [bad.left.path, bad.left.message]).toEqual([
      [1],
      'edgeFloat: Infinity cannot be stored: EDGE floats are finite',
    ]);
    const short = decode(edgeVec3, new Uint8Array(17));
    expect(E.isLeft(short) && short.left).toBeInstanceOf(DecodeError);
    expect(E.isLeft(short) && short.left.offset).toBe(0);
  });

  test('the float is a declaration: a fixed-size map of (u16 exponent, i32 mantissa), read in place', () => {
    expect(edgeFloat.def.type).toBe('map');
    expect([edgeFloat.size, edgeVec3.size]).toEqual([6, 18]);
    expect(edgeFloat.readFixed).toBeDefined();
    expect(edgeFloat.writeFixed).toBeDefined();
    const bad = encode(edgeFloat, { exponent: 0x10000, mantissa: 0 });
    // A float is mostly a number in the document: its stored parts are named as framing.
    expect(E.isLeft(bad) && bad.left.path).toEqual([pathAnnotation('exponent')]);
  });

  test("NaN and infinities cannot be written (the engine's behaviour is undefined)", () => {
    for (const x of [NaN, Infinity, -Infinity]) expect(E.isLeft(encode(edgeFloat, x))).toBe(true);
  });
});

describe('strings', () => {
  test('the string is a declaration: a switch on the peeked marker; a short text is an error at its offset', () => {
    expect(edgeString.def.type).toBe('switch');
    const short = decode(edgeString, bytes('aa0500414243'));
    // At the prefix that claims more bytes than there are.
    expect(E.isLeft(short) && [short.left.path, short.left.offset, short.left.code]).toEqual([[], 0, 'short-read']);
  });

  test('AA + u16 length + cp437 bytes, DE for NULL, empty as AA 00 00', () => {
    expect(hex(encodeOrThrow(edgeString, null))).toBe('de');
    expect(hex(encodeOrThrow(edgeString, ''))).toBe('aa0000');
    expect(hex(encodeOrThrow(edgeString, 'ÇéßA'))).toBe('aa04008082e141');
    expect(decodeOrThrow(edgeString, bytes('aa03008082e1'))).toBe('Çéß');
  });

  test('every string of the model round-trips, NULL included (cp437 maps all 256 bytes)', () => {
    // The model's cp437 alphabet draws every byte 00–FF, so this is the byte law as well.
    fc.assert(
      fc.property(arbitrary(edgeString, { maxLength: 300 }), (value) => {
        const stored = encodeOrThrow(edgeString, value);
        expect(stored.length).toBe(value === null ? 1 : 3 + value.length);
        expect(decodeOrThrow(edgeString, stored)).toBe(value);
      }),
    );
  });

  test('another marker byte is an "invalid string" error at its offset; too long a string cannot be written', () => {
    const result = decode(edgeString, bytes('ab0000'));
    expect(E.isLeft(result) && [result.left.offset, result.left.message]).toEqual([
      0,
      'invalid string: marker byte 0xab, expected 0xaa (string) or 0xde (NULL)',
    ]);
    expect(E.isLeft(encode(edgeString, 'x'.repeat(70000)))).toBe(true);
    expect(E.isLeft(encode(edgeString, '→ not cp437 ✗'))).toBe(true);
  });
});

test('booleans: 0 and 1 as false and true; any other value kept as its number', () => {
  expect(decodeOrThrow(edgeBoolean, bytes('01000000'))).toBe(true);
  expect(decodeOrThrow(edgeBoolean, bytes('00000000'))).toBe(false);
  expect(decodeOrThrow(edgeBoolean, bytes('02000000'))).toBe(2);
  expect(hex(encodeOrThrow(edgeBoolean, 2))).toBe('02000000');
});

test('string references parse into typed values and keep their text', () => {
  expect(parseStringRef('mobj_t', 'state', 'IMP:SEE:3')).toEqual({
    kind: 'state',
    value: { text: 'IMP:SEE:3', owner: 'IMP', label: 'SEE', offset: 3 },
  });
  expect(parseStringRef('pspdef_t', 'state', '*:*:1')).toEqual({
    kind: 'state',
    value: { text: '*:*:1', owner: '*', label: '*', offset: 1 },
  });
  expect(parseStringRef('extrafloor_t', 'top', 'C:12')).toEqual({
    kind: 'surface',
    value: { text: 'C:12', plane: 'ceiling', sector: 12 },
  });
  expect(parseStringRef('sector_t', 'p', '7')).toEqual({ kind: 'sector', value: { text: '7', sector: 7 } });
  expect(parseStringRef('line_t', 'special', ':51')).toEqual({ kind: 'special', value: { text: ':51', number: 51 } });
  expect(parseStringRef('surface_t', 'image', 'F:FLOOR0_1')).toEqual({
    kind: 'image',
    value: { text: 'F:FLOOR0_1', namespace: 'F', name: 'FLOOR0_1' },
  });
  expect(parseStringRef('light_t', 'type', 'S:8')).toEqual({
    kind: 'lightType',
    value: { text: 'S:8', source: 'sector', number: 8 },
  });
  expect(parseStringRef('plane_move_t', 'type', 'D:C:2')).toEqual({
    kind: 'planeMover',
    value: { text: 'D:C:2', source: 'donut', plane: 'ceiling', number: 2 },
  });
  expect(parseStringRef('rad_trigger_t', 'info', 'B:MAP01:2:1A2B3C4D')).toEqual({
    kind: 'script',
    value: { text: 'B:MAP01:2:1A2B3C4D', map: 'MAP01', index: 2, crc: 0x1a2b3c4d },
  });
  expect(parseStringRef('mobj_t', 'info', 'IMP')).toEqual({ kind: 'ddfName', value: { text: 'IMP', name: 'IMP' } });
  expect(parseStringRef('mobj_t', 'state', null)).toBeUndefined();
  expect(parseStringRef('mobj_t', 'state', 'garbage')).toBeUndefined();
  expect(parseStringRef('line_t', 'tag', '3')).toBeUndefined();
});

test('the thumbnail: RGB 5:5:5 to RGBA and back loses no stored bit', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 12 }),
      fc.integer({ min: 0, max: 12 }),
      fc.infiniteStream(fc.integer({ min: 0, max: 0xffff })),
      (w, h, pixels) => {
        const stored = new Uint8Array(w * h * 2);
        const it = pixels[Symbol.iterator]();
        for (let i = 0; i < w * h; i++) {
          const p = it.next().value as number;
          stored[i * 2] = p & 0xff;
          stored[i * 2 + 1] = p >> 8;
        }
        const rgba = thumbnailToRgba({ width: w, height: h, pixels: stored });
        expect(thumbnailFromRgba(w, h, rgba).pixels).toEqual(stored);
      },
    ),
  );
  // Pure white and pure red widen to full 8-bit channels.
  expect([...thumbnailToRgba({ width: 2, height: 1, pixels: bytes('ff7f 007c') })]).toEqual([
    255, 255, 255, 255, 255, 0, 0, 255,
  ]);
});

test('a thumbnail whose pixels disagree with its size is refused, not read as black', () => {
  // Edited to 2×2 with one pixel's bytes: the encoder refuses it, and so does the conversion.
  expect(() => thumbnailToRgba({ width: 2, height: 2, pixels: bytes('ff7f') })).toThrow(
    new RangeError('2×2 pixels need 8 bytes, got 2'),
  );
  expect(() => thumbnailToRgba({ width: 1, height: 1, pixels: bytes('ff7f 007c') })).toThrow(RangeError);
  expect(() => thumbnailToRgba({ width: -1, height: 2, pixels: new Uint8Array(0) })).toThrow(RangeError);
});
