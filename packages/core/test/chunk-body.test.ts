// chunkBody: a chunk of a fixed marker seen as its body. The laws (with padding, with uncounted
// header bytes), paths without a `body` segment (the framing as annotations), and typed errors.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import {
  chunkBody,
  cstring,
  decode,
  documentPath,
  fourcc,
  struct,
  u16le,
  u32be,
  u32le,
  u8,
  type TypeOf,
} from '../src/index';
import { checkLaws, decodeFails, encodeFails, encodeOk, hexBytes } from './laws';

// RIFF-like: padded to 2 bytes, the padding counted by nobody (length = body only).
const riff = { marker: fourcc(), length: u32be, align: 2, padCounted: false };
const named = chunkBody(riff, 'NAME', struct({ day: u8, name: cstring('ascii') }));
const names: fc.Arbitrary<TypeOf<typeof named>> = fc.record({
  day: fc.integer({ min: 0, max: 255 }),
  name: fc.string({ unit: fc.integer({ min: 1, max: 0x7f }).map((c) => String.fromCharCode(c)), maxLength: 9 }),
});

// A summary whose length forgets its 2-byte header (as UQM MegaMod's Summ).
const forgetful = chunkBody(
  { marker: fourcc(), length: u32le, uncounted: 2 },
  'Summ',
  struct({ version: u16le, level: u8 }),
);

describe('chunkBody', () => {
  test('obeys the laws; the value is the body, the padding zero', () => {
    checkLaws(named, names);
    const bytes = encodeOk(named, { day: 7, name: 'A' });
    expect(bytes).toEqual(hexBytes('4e414d45 00000003 07 41 00 00'));
    expect(decode(named, bytes)).toMatchObject({ right: { value: { day: 7, name: 'A' } } });
  });

  test('bytes the length does not count: the laws, and the length written without them', () => {
    checkLaws(
      forgetful,
      fc.record({ version: fc.integer({ min: 0, max: 0xffff }), level: fc.integer({ min: 0, max: 255 }) }),
    );
    expect(encodeOk(forgetful, { version: 2, level: 9 })).toEqual(hexBytes('53756d6d 01000000 0200 09'));
  });

  test('paths: the body at the chunk’s own path, marker and length as annotations', () => {
    const doc = struct({ head: named });
    const traced = decode(doc, hexBytes('4e414d45 00000003 07 41 00 00'), { trace: true });
    if (E.isLeft(traced)) throw traced.left;
    const paths = (traced.right.spans ?? []).map((s) => documentPath(s.path).join('.'));
    expect(paths).toEqual(expect.arrayContaining(['head', 'head.day', 'head.name']));
    expect(paths.some((p) => p.includes('body') || p.includes('id'))).toBe(false);
    const cut = decodeFails(doc, hexBytes('4e414d45 00000003 07 41'));
    expect([documentPath(cut.path), cut.code, cut.offset]).toEqual([['head'], 'short-read', 4]);
    const inner = decodeFails(doc, hexBytes('4e414d45 00000001 07 00'));
    expect([documentPath(inner.path), inner.offset]).toEqual([['head', 'name'], 9]);
  });

  test('errors: another marker, non-zero padding, a body the codec refuses', () => {
    expect(decodeFails(named, hexBytes('4c495354 00000002 07 00'))).toMatchObject({ code: 'bad-magic', offset: 0 });
    expect(decodeFails(named, hexBytes('4e414d45 00000003 07 41 00 ff'))).toMatchObject({
      code: 'invalid-value',
      offset: 11,
    });
    expect(encodeFails(named, { day: 300, name: 'A' })).toMatchObject({ path: ['day'], code: 'out-of-range' });
    expect(encodeFails(forgetful, { version: 1 } as never).path).toEqual(['level']);
  });
});
