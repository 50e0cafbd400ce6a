import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import {
  bytes,
  chunk,
  chunkList,
  cstring,
  decode,
  type DecodeError,
  encode,
  fourcc,
  isRawChunk,
  lazy,
  magic,
  map,
  struct,
  u16be,
  u16le,
  u32be,
  u32le,
  u8,
  type AnyCodec,
  type ChunkFraming,
  type TypeOf,
} from '../src/index';
import { checkLaws, decodeFails, encodeFails, encodeOk, hexBytes } from './laws';

const ascii = (s: string) => new TextEncoder().encode(s);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

// EDGE's nested chunks: marker, u32le length of the padded body, body padded to 4, upper-case end marker.
const edge: ChunkFraming = {
  marker: fourcc({ alnum: true }),
  length: u32le,
  align: 4,
  endMarker: (m) => m.toUpperCase(),
};
const edgeString = cstring('ascii');
const vari = struct({ name: edgeString, value: edgeString });

describe('chunk', () => {
  test('writes marker, length, padded body and end marker', () => {
    const codec = chunk(edge, 'Vari', vari);
    const bytes = encodeOk(codec, { id: 'Vari', body: { name: 'A', value: 'BC' } });
    expect(bytes).toEqual(
      concat(ascii('Vari'), hexBytes('08000000'), ascii('A\0BC\0'), hexBytes('000000'), ascii('VARI')),
    );
  });

  test('obeys the laws, padding bytes kept when they are not zero', () => {
    const codec = chunk(edge, 'Vari', vari);
    const name = fc.stringMatching(/^[a-z]{0,6}$/);
    checkLaws(codec, fc.record({ id: fc.constant('Vari' as const), body: fc.record({ name, value: name }) }));
    const dirty = concat(ascii('Vari'), hexBytes('04000000'), ascii('\0\0'), hexBytes('ee ff'), ascii('VARI'));
    const decoded = decode(codec, dirty);
    expect(E.isRight(decoded) && decoded.right.value.pad).toEqual(hexBytes('eeff'));
    expect(E.isRight(decoded) && encodeOk(codec, decoded.right.value)).toEqual(dirty);
  });

  test('a wrong marker, a bad end marker, a length past the end: DecodeErrors with offsets', () => {
    const codec = chunk(edge, 'Vari', vari);
    const good = encodeOk(codec, { id: 'Vari', body: { name: 'A', value: 'B' } });
    const wrongEnd = good.slice();
    wrongEnd[good.length - 1] = 0x58; // VARX
    const end = decodeFails(codec, wrongEnd);
    expect(end.message).toBe('chunk Vari: expected end marker "VARI", found "VARX"');
    expect(end.offset).toBe(good.length - 4);
    const long = good.slice();
    long.set(hexBytes('ffffff7f'), 4);
    expect(decodeFails(codec, long).message).toMatch(
      /^chunk Vari: length 2147483647 is not a multiple of 4|is more than the/,
    );
    long.set(hexBytes('fcffffff'), 4);
    const past = decodeFails(codec, long);
    expect(past.message).toBe('chunk Vari: length 4294967292 is more than the 8 bytes left');
    expect(past.offset).toBe(4);
    expect(decodeFails(codec, concat(ascii('Glob'), good.subarray(4))).message).toBe(
      'expected chunk "Vari", found "Glob"',
    );
    expect(decodeFails(codec, concat(ascii('Va_i'), good.subarray(4))).message).toBe(
      'marker byte 0x5f is not a letter or digit',
    );
  });

  test('a body left partly unread is an error naming the chunk', () => {
    const codec = chunk(edge, 'Word', u16le);
    const bytes = concat(ascii('Word'), hexBytes('08000000 0100 0000 0000 0000'), ascii('WORD'));
    const error = decodeFails(codec, bytes);
    expect(error.message).toBe('chunk Word: 6 bytes left unread in its body');
  });

  test('big-endian lengths, lengths after the body, padding outside the length', () => {
    const iff: ChunkFraming = { marker: fourcc(), length: u32be, align: 2, padCounted: false };
    const form = chunk(iff, 'NAME', cstring('ascii'));
    expect(encodeOk(form, { id: 'NAME', body: 'ab' })).toEqual(
      concat(ascii('NAME'), hexBytes('00000003'), ascii('ab\0'), hexBytes('00')),
    );
    checkLaws(form, fc.record({ id: fc.constant('NAME' as const), body: fc.stringMatching(/^[a-z]{0,7}$/) }));
    const trailing: ChunkFraming = { marker: fourcc(), length: u16be, lengthPosition: 'after' };
    const tail = chunk(trailing, 'TAIL', cstring('ascii'));
    expect(encodeOk(tail, { id: 'TAIL', body: 'xy' })).toEqual(concat(ascii('TAILxy\0'), hexBytes('0003')));
    checkLaws(tail, fc.record({ id: fc.constant('TAIL' as const), body: fc.stringMatching(/^[a-z]{0,7}$/) }));
    expect(decodeFails(tail, concat(ascii('TAILxy\0'), hexBytes('0004'))).message).toBe(
      'chunk TAIL: length says 4, body took 3',
    );
  });
});

describe('chunk read in place', () => {
  // The same chunk with a marker codec that is not a four-character code is read by the tracked path
  // alone: on every input both give the same value, or the same error (code, path, offset, message).
  const alnum = fourcc({ alnum: true });
  const tracked = (marker: ChunkFraming['marker']) =>
    map(marker, { name: 'marker', decode: (m: string) => m, encode: (m: string) => m });
  const framings: ChunkFraming[] = [
    { marker: alnum, length: u32le, align: 4, endMarker: (m) => m.toUpperCase() },
    { marker: fourcc(), length: u16be, align: 2, uncounted: 1 },
    { marker: fourcc(), length: u8, align: 1 },
    // Padding outside the length, and a length after the body (never read in place).
    { marker: fourcc(), length: u16le, align: 4, padCounted: false },
    { marker: fourcc(), length: u8, align: 2, lengthPosition: 'after' },
  ];
  const body = struct({ a: u8, b: cstring('ascii') });

  test('gives what the tracked path gives, values and errors, within any work budget', () => {
    for (const framing of framings) {
      const fast = chunk(framing, 'Ab12', body);
      const slow = chunk({ ...framing, marker: tracked(framing.marker) }, 'Ab12', body);
      const value = { id: 'Ab12' as const, body: { a: 7, b: 'hi' } };
      const good = encodeOk(fast, value);
      expect(Array.from(encodeOk(slow, value))).toEqual(Array.from(good));
      const inputs = fc.tuple(
        fc.constantFrom(good, good.subarray(0, good.length - 1), Uint8Array.of(0x41, 0x62)),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { maxLength: 3 }),
        fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
      );
      fc.assert(
        fc.property(inputs, ([base, edits, maxWork]) => {
          const bytes = Uint8Array.from(base);
          for (const [at, v] of edits) if (bytes.length > 0) bytes[at % bytes.length] = v;
          const options = maxWork === undefined ? {} : { maxWork };
          const a = decode(fast, bytes, options);
          const b = decode(slow, bytes, options);
          if (E.isRight(b)) expect(a).toEqual(b);
          else {
            expect(E.isLeft(a)).toBe(true);
            const [x, y] = [(a as E.Left<DecodeError>).left, b.left];
            expect([x.code, x.path, x.offset, x.message]).toEqual([y.code, y.path, y.offset, y.message]);
          }
        }),
        { numRuns: 300 },
      );
    }
  });
});

describe('chunkList', () => {
  const glob = chunkList(edge, { Vari: vari, Wads: struct({ count: u32le }) });

  test('keeps unknown chunks as raw bytes, in place, and writes them back', () => {
    const file = concat(
      encodeOk(chunk(edge, 'Vari', vari), { id: 'Vari', body: { name: 'LEVEL', value: 'MAP01' } }),
      ascii('Zzzz'),
      hexBytes('04000000 deadbeef'),
      ascii('ZZZZ'),
      encodeOk(chunk(edge, 'Vari', vari), { id: 'Vari', body: { name: 'SKILL', value: '3' } }),
    );
    const decoded = decode(glob, file);
    if (E.isLeft(decoded)) throw decoded.left;
    const entries = decoded.right.value;
    expect(entries.map((e) => e.id)).toEqual(['Vari', 'Zzzz', 'Vari']);
    expect(isRawChunk(entries[1]!) && entries[1].raw).toEqual(hexBytes('deadbeef'));
    expect(encodeOk(glob, entries)).toEqual(file);
  });

  test('unknown chunk bytes that are not whole units of the counted alignment are refused at `raw` (they would read back padded)', () => {
    const written = encode(glob, [{ id: 'Zzzz', raw: hexBytes('deadbe') }]);
    if (E.isRight(written)) throw new Error('three bytes were written');
    expect([written.left.code, written.left.path]).toEqual(['size-mismatch', [0, 'raw']]);
    expect(written.left.message).toBe(
      "a kept chunk's bytes are its whole body, padding included: 3 bytes is not a multiple of 4",
    );
  });

  test('obeys the laws with known and unknown chunks', () => {
    const name = fc.stringMatching(/^[A-Z_]{0,8}$/);
    const entry = fc.oneof(
      fc.record({ id: fc.constant('Vari' as const), body: fc.record({ name, value: name }) }),
      fc.record({
        id: fc.constant('Wads' as const),
        body: fc.record({ count: fc.integer({ min: 0, max: 2 ** 32 - 1 }) }),
      }),
      fc.record({
        id: fc.stringMatching(/^[a-z][a-z0-9]{3}$/),
        raw: fc.uint8Array({ maxLength: 12 }).map((b) => b.subarray(0, b.length - (b.length % 4))),
      }),
    );
    checkLaws(glob, fc.array(entry, { maxLength: 6 }) as fc.Arbitrary<TypeOf<typeof glob>>);
  });

  test('stops in front of a terminator marker', () => {
    const file = struct({ chunks: chunkList(edge, { Vari: vari }, { until: ['ENDE'] }), end: magic('ENDE') });
    const bytes = concat(
      encodeOk(chunk(edge, 'Vari', vari), { id: 'Vari', body: { name: 'A', value: 'B' } }),
      ascii('ENDE'),
    );
    const decoded = decode(file, bytes);
    expect(E.isRight(decoded) && decoded.right.value.end).toBe('ENDE');
  });

  test('errors inside a chunk carry the chunk path', () => {
    const bytes = concat(encodeOk(chunk(edge, 'Vari', vari), { id: 'Vari', body: { name: 'A', value: 'B' } }));
    bytes[8] = 0x80; // not ASCII
    const error = decodeFails(glob, bytes);
    expect(error.path).toEqual([0, 'body', 'name']);
    expect(error.code).toBe('invalid-text');
    expect(error.offset).toBe(8);
    expect(error.toString()).toBe('at [0].body.name (offset 8): byte 0x80 is not ASCII');
  });

  test('a raw chunk under a known marker, or a body without a codec, is refused on encode', () => {
    expect(encodeFails(glob, [{ id: 'Vari', raw: new Uint8Array(4) }]).message).toMatch(/must have a decoded body/);
    expect(encodeFails(glob, [{ id: 'Nope', body: 1 }] as unknown as TypeOf<typeof glob>).message).toMatch(
      /has a body but no codec/,
    );
  });

  test('100,000 nested chunks fail cleanly at the depth limit, without a stack overflow', () => {
    const nest: AnyCodec = chunkList(edge, { Nest: lazy(() => nest) });
    const levels = 100_000;
    const bytes = new Uint8Array(levels * 12);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < levels; i++) {
      bytes.set(ascii('Nest'), 8 * i);
      view.setUint32(8 * i + 4, 12 * (levels - 1 - i), true);
      bytes.set(ascii('NEST'), bytes.length - 4 * (i + 1));
    }
    const result = decode(nest, bytes);
    expect(E.isLeft(result) && result.left.message).toBe('nesting deeper than 512 levels');
    // Within the limit the same structure decodes and re-encodes exactly.
    const shallow = new Uint8Array(100 * 12);
    const sv = new DataView(shallow.buffer);
    for (let i = 0; i < 100; i++) {
      shallow.set(ascii('Nest'), 8 * i);
      sv.setUint32(8 * i + 4, 12 * (100 - 1 - i), true);
      shallow.set(ascii('NEST'), shallow.length - 4 * (i + 1));
    }
    const ok = decode(nest, shallow);
    if (E.isLeft(ok)) throw ok.left;
    expect(encodeOk(nest, ok.right.value)).toEqual(shallow);
  });

  test('a body codec of varying-size length prefix is written aside and framed after', () => {
    const bytesChunk = chunk({ marker: fourcc(), length: u8 }, 'DATA', bytes('rest'));
    checkLaws(bytesChunk, fc.record({ id: fc.constant('DATA' as const), body: fc.uint8Array({ maxLength: 255 }) }));
    expect(encodeFails(bytesChunk, { id: 'DATA', body: new Uint8Array(300) }).message).toMatch(/out of range for u8/);
  });
});

describe('uncounted bytes between the length and the body', () => {
  // EDGE's top-level framing: marker, u32 stored length, then u32 original length the length does not count.
  const framing = { marker: fourcc(), length: u32le, uncounted: 4 };

  test('the length counts the body after the uncounted bytes', () => {
    const codec = chunk(framing, 'Glob', struct({ orig: u32le, data: bytes('rest') }));
    const out = encodeOk(codec, { id: 'Glob', body: { orig: 9, data: hexBytes('aabbcc') } });
    expect(out).toEqual(Uint8Array.from([...ascii('Glob'), 3, 0, 0, 0, 9, 0, 0, 0, 0xaa, 0xbb, 0xcc]));
    checkLaws(
      codec,
      fc
        .record({ orig: fc.nat({ max: 0xffffffff }), data: fc.uint8Array({ maxLength: 20 }) })
        .map((body) => ({ id: 'Glob' as const, body })),
    );
  });

  test('unknown chunks keep their uncounted bytes; a length past the end names both', () => {
    const list = chunkList(framing, {});
    const bytesIn = Uint8Array.from([...ascii('Abcd'), 2, 0, 0, 0, 1, 2, 3, 4, 5, 6]);
    const decoded = decode(list, bytesIn);
    if (E.isLeft(decoded)) throw decoded.left;
    expect(decoded.right.value).toEqual([{ id: 'Abcd', raw: hexBytes('010203040506') }]);
    expect(encodeOk(list, decoded.right.value)).toEqual(bytesIn);
    const error = decodeFails(list, Uint8Array.from([...ascii('Abcd'), 3, 0, 0, 0, 1, 2, 3, 4, 5, 6]));
    expect([error.offset, error.message]).toEqual([
      4,
      'chunk Abcd: length 3 (+4 uncounted) is more than the 6 bytes left',
    ]);
  });

  test('is refused with the length after the body, or a negative count', () => {
    expect(() => chunk({ ...framing, lengthPosition: 'after' }, 'Glob', bytes('rest'))).toThrow(RangeError);
    expect(() => chunk({ ...framing, uncounted: -1 }, 'Glob', bytes('rest'))).toThrow(RangeError);
  });
});
