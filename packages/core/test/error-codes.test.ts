// Every ErrorCode, produced by a real failing input or value through the public codecs.
import * as E from 'fp-ts/lib/Either';
import { DecodeError, decode, EncodeError, type ErrorCode } from '../src/index';
import { f32le, u8, u16le, u32le } from '../src/index';
import { bytes, cstring, fixedString, fourcc, magic } from '../src/index';
import { arena, array, chunk, chunkList, ERROR_CODES, isErrorCode, pointer, sized, struct } from '../src/index';
import { taggedUnion } from '../src/index';
import { checksum, crc32, layer, transform } from '../src/index';
import {
  checksumMismatch,
  Reader,
  ReadState,
  resolveDecodeOptions,
  reportChecksumMismatch,
  Writer,
  WriteState,
} from '../src/kit';
import { decodeFails, encodeFails, hexBytes } from './laws';

const framing = { marker: fourcc(), length: u32le };

const decodeCases: Array<[ErrorCode, () => DecodeError]> = [
  ['short-read', () => decodeFails(u32le, hexBytes('01 02'))],
  ['count-too-large', () => decodeFails(array(u32le, u8), hexBytes('ff 00 00 00 00'))],
  ['bad-magic', () => decodeFails(magic('SAVE'), new TextEncoder().encode('SAVX'))],
  ['unknown-tag', () => decodeFails(taggedUnion(u8, { 1: u8 }), hexBytes('02 00'))],
  [
    'checksum-mismatch',
    () => decodeFails(checksum(u16le, { algorithm: crc32, stored: u32le }), hexBytes('0102 00000000')),
  ],
  [
    'budget-exceeded',
    () => {
      const result = decode(array(u8, u32le), hexBytes('0a000000 00000000 00000000 0000'), { maxWork: 3 });
      if (E.isRight(result)) throw new Error('decoded');
      return result.left;
    },
  ],
  [
    'too-deep',
    () => {
      const deep = chunk(framing, 'DEEP', chunk(framing, 'DEEP', u8));
      const result = decode(deep, hexBytes('44454550 09000000 44454550 01000000 07'), { maxDepth: 1 });
      if (E.isRight(result)) throw new Error('decoded');
      return result.left;
    },
  ],
  [
    'layer-failed',
    () =>
      decodeFails(
        transform(
          u8,
          layer(
            'broken',
            () => {
              throw new Error('corrupt stream');
            },
            (b) => b,
          ),
        ),
        hexBytes('01'),
      ),
  ],
  ['invalid-text', () => decodeFails(cstring('ascii'), hexBytes('80 00'))],
  [
    'size-mismatch',
    () => decodeFails(chunk({ ...framing, align: 4 }, 'ABCD', bytes(3)), hexBytes('41424344 03000000 000000 00')),
  ],
  ['trailing-bytes', () => decodeFails(sized(u8, u8), hexBytes('02 07 08'))],
  ['bad-pointer', () => decodeFails(arena(struct({ p: pointer(u8, u8) })), hexBytes('09 00'))],
  ['invalid-value', () => decodeFails(fixedString(4, 'ascii'), hexBytes('41 00 42 00'))],
];

describe('each decode error code comes from a real failing input', () => {
  test.each(decodeCases)('%s', (code, fail) => {
    const error = fail();
    expect(error).toBeInstanceOf(DecodeError);
    expect(error.code).toBe(code);
  });
});

const encodeCases: Array<[ErrorCode, () => EncodeError]> = [
  ['out-of-range', () => encodeFails(u8, 300)],
  ['out-of-range', () => encodeFails(f32le, 0.1)],
  ['wrong-type', () => encodeFails(struct({ a: u8 }), 'no' as unknown as { a: number })],
  ['invalid-text', () => encodeFails(cstring('ascii'), 'é')],
  ['size-mismatch', () => encodeFails(array(u8, 2), [1, 2, 3])],
  ['bad-magic', () => encodeFails(magic('SAVE'), 'SAVX' as 'SAVE')],
  ['unknown-tag', () => encodeFails(taggedUnion(u8, { 1: u8 }), { tag: 2, value: 0 } as never)],
  ['bad-pointer', () => encodeFails(pointer(u8, u8, { nullOffset: undefined }), null)],
  [
    'layer-failed',
    () =>
      encodeFails(
        transform(
          u8,
          layer(
            'one-way',
            (b) => b,
            () => {
              throw new Error('cannot encode');
            },
          ),
        ),
        1,
      ),
  ],
  ['invalid-value', () => encodeFails(chunkList(framing, { Know: u8 }), [{ id: 'Know', raw: new Uint8Array(1) }])],
];

describe('each encode error code comes from a real failing value', () => {
  test.each(encodeCases)('%s', (code, fail) => {
    const error = fail();
    expect(error).toBeInstanceOf(EncodeError);
    expect(error.code).toBe(code);
  });
});

test('every code of the union is produced by some case above (but out-of-memory, which needs an engine failure)', () => {
  const seen = new Set<ErrorCode>([...decodeCases, ...encodeCases].map(([code]) => code));
  seen.add('out-of-memory');
  expect([...seen].sort()).toEqual([...ERROR_CODES].sort());
  expect(ERROR_CODES.every(isErrorCode)).toBe(true);
  expect(isErrorCode('nope')).toBe(false);
});

test('reader.error and writer.error: the old form keeps working and means invalid-value; a code may come first', () => {
  const r = new Reader(new Uint8Array(4), new ReadState(resolveDecodeOptions({})));
  r.pos = 2;
  expect(r.error('plain')).toMatchObject({ code: 'invalid-value', offset: 2, message: 'plain' });
  expect(r.error('plain', 1)).toMatchObject({ code: 'invalid-value', offset: 1 });
  expect(r.error('bad-magic', 'coded')).toMatchObject({ code: 'bad-magic', offset: 2, message: 'coded' });
  expect(r.error('bad-magic', 'coded', 0)).toMatchObject({ code: 'bad-magic', offset: 0 });
  expect(r.errorAt('x', 'short-read', 'child', 3)).toMatchObject({ code: 'short-read', path: ['x'], offset: 3 });
  expect(r.errorAt('x', 'child')).toMatchObject({ code: 'invalid-value', path: ['x'] });
  const w = new Writer(new WriteState(8));
  w.u8(1);
  expect(w.error('plain')).toMatchObject({ code: 'invalid-value', offset: 1 });
  expect(w.error('out-of-range', 'coded', 0)).toMatchObject({ code: 'out-of-range', offset: 0 });
  expect(w.errorAt('k', 'wrong-type', 'child')).toMatchObject({ code: 'wrong-type', path: ['k'] });
});

test('within() puts an error under a prefix and keeps its code and offset', () => {
  const error = decodeFails(u32le, hexBytes('01'));
  const moved = error.within(['world']);
  expect(moved).toMatchObject({ code: 'short-read', offset: error.offset, path: ['world'] });
  expect(moved).toBeInstanceOf(DecodeError);
  const encoded = encodeFails(u8, -1).within(['meta', 0]);
  expect(encoded).toMatchObject({ code: 'out-of-range', path: ['meta', 0] });
});

describe('one checksum policy', () => {
  test('checksumMismatch: an error by default and under "error", a warning under "warn"', () => {
    for (const policy of [undefined, 'error'] as const) {
      const outcome = checksumMismatch(policy, ['a'], 4, 'CRC differs');
      expect(outcome).toBeInstanceOf(DecodeError);
      expect(outcome).toMatchObject({ code: 'checksum-mismatch', path: ['a'], offset: 4, message: 'CRC differs' });
    }
    expect(checksumMismatch('warn', ['a'], 4, 'CRC differs')).toEqual({
      code: 'checksum-mismatch',
      path: ['a'],
      offset: 4,
      message: 'CRC differs',
    });
  });

  test('reportChecksumMismatch throws or records, naming the digest as an annotation', () => {
    const strict = new Reader(new Uint8Array(8), new ReadState(resolveDecodeOptions({})));
    strict.state.path.push('file');
    expect(() => reportChecksumMismatch(strict, 'bad', 4, 'crc')).toThrow(DecodeError);
    try {
      reportChecksumMismatch(strict, 'bad', 4, 'crc');
    } catch (error) {
      expect(error).toMatchObject({ code: 'checksum-mismatch', path: ['file', { annotation: 'crc' }], offset: 4 });
    }
    const lenient = new Reader(new Uint8Array(8), new ReadState(resolveDecodeOptions({ checksums: 'warn' })));
    reportChecksumMismatch(lenient, 'bad', 2);
    expect(lenient.state.warnings).toEqual([{ code: 'checksum-mismatch', path: [], offset: 2, message: 'bad' }]);
    expect(lenient.state.path).toEqual([]);
  });

  test('the checksum codec uses it: the same mismatch is an error or a warning by the option', () => {
    const codec = checksum(u16le, { algorithm: crc32, stored: u32le });
    const input = hexBytes('0102 00000000');
    expect(decodeFails(codec, input).code).toBe('checksum-mismatch');
    const warned = decode(codec, input, { checksums: 'warn' });
    expect(E.isRight(warned) && warned.right.warnings.map((w) => w.code)).toEqual(['checksum-mismatch']);
  });
});
