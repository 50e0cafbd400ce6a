// Malformed input of every kind gives a DecodeError with a path and an offset inside the input —
// never a RangeError, a TypeError, a hang or a huge allocation.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import { decode, type AnyCodec, type ChunkFraming, type Codec } from '../src/index';
import { bits, f32le, i64le, u16le, u32le, u48be, u8 } from '../src/index';
import { bytes, cstring, fixedString, fourcc, magic, pstring } from '../src/index';
import { array, chunk, chunkList, sized, struct, taggedUnion } from '../src/index';
import { adler32, checksum, transform, xor } from '../src/index';
import { encodeOk } from './laws';

const framing: ChunkFraming = {
  marker: fourcc({ alnum: true }),
  length: u32le,
  align: 4,
  endMarker: (m) => m.toUpperCase(),
};
const entry = struct({ name: pstring(u16le, 'utf8'), value: cstring('cp437') });
// A small "save file" that uses most of the core: magic, header, chunks (known and unknown), a
// transformed chunk, bit fields, tagged values and an Adler-32 trailer over everything before it.
const saveFile = checksum(
  struct({
    magic: magic('SKSV'),
    separator: magic('\x1a\r\n\0', '\r\n\x1a\0'),
    version: u32le,
    flags: bits({ cheats: 1, skill: 3, episode: 4 }, { order: 'lsb' }),
    created: u48be,
    seed: i64le,
    chunks: chunkList(
      framing,
      {
        Vari: entry,
        Play: struct({ health: f32le, name: fixedString(8, 'ascii'), items: array(u16le, u8) }),
        Pack: sized(u16le, transform(array(entry, 'rest'), xor('EDGE!'))),
        Tagd: taggedUnion(u8, { 1: u32le, 2: cstring('utf8') }),
      },
      { until: ['ENDE'] },
    ),
    end: magic('ENDE'),
  }),
  { algorithm: adler32, stored: u32le, covers: 'window' },
);

const sample = encodeOk(saveFile, {
  magic: 'SKSV',
  separator: '\x1a\r\n\0',
  version: 0x12900,
  flags: { cheats: 0, skill: 3, episode: 2 },
  created: 1_700_000_000_000,
  seed: -42n,
  chunks: [
    { id: 'Vari', body: { name: 'LEVEL', value: 'MAP01' } },
    { id: 'Play', body: { health: 100, name: 'marine', items: [1, 2, 3] } },
    {
      id: 'Pack',
      body: [
        { name: 'a', value: 'b' },
        { name: 'ünï', value: '░▒' },
      ],
    },
    { id: 'Tagd', body: { tag: 2, value: 'hello' } },
    { id: 'Zzzz', raw: Uint8Array.from([1, 2, 3, 4]) },
  ],
  end: 'ENDE',
});

function expectDecodeError<A>(codec: Codec<A>, input: Uint8Array): void {
  let result: ReturnType<typeof decode<A>>;
  try {
    result = decode(codec, input);
  } catch (error) {
    throw new Error(`decode threw instead of returning a DecodeError: ${String(error)}`);
  }
  if (E.isRight(result)) return; // some mutations still make a valid file
  const error = result.left;
  expect(error.name).toBe('DecodeError');
  expect(Array.isArray(error.path)).toBe(true);
  expect(error.offset).toBeGreaterThanOrEqual(0);
  expect(typeof error.message).toBe('string');
  expect(error.toString()).toMatch(/^at .+ \(offset \d+\): .+$/);
}

describe('hostile input', () => {
  test('the sample decodes and re-encodes exactly', () => {
    const decoded = decode(saveFile, sample);
    if (E.isLeft(decoded)) throw decoded.left;
    expect(encodeOk(saveFile, decoded.right.value)).toEqual(sample);
  });

  test('truncated at every byte: a DecodeError each time, at or before the cut', () => {
    for (let cut = 0; cut < sample.length; cut++) {
      const result = decode(saveFile, sample.subarray(0, cut));
      expect(E.isLeft(result)).toBe(true);
      if (E.isLeft(result)) {
        expect(result.left.name).toBe('DecodeError');
        expect(result.left.offset).toBeLessThanOrEqual(cut);
      }
    }
  });

  test('every single-byte change is caught (the trailer checksum at least)', () => {
    for (let at = 0; at < sample.length; at++) {
      const changed = sample.slice();
      changed[at]! ^= 0x5a;
      const result = decode(saveFile, changed);
      expect(E.isLeft(result)).toBe(true);
    }
  });

  test('random mutations, insertions and inflated lengths only ever give DecodeErrors', () => {
    const mutation = fc.oneof(
      fc.tuple(fc.constant('flip' as const), fc.nat(), fc.integer({ min: 0, max: 255 })),
      fc.tuple(fc.constant('insert' as const), fc.nat(), fc.integer({ min: 0, max: 255 })),
      fc.tuple(fc.constant('delete' as const), fc.nat(), fc.constant(0)),
      fc.tuple(fc.constant('inflate' as const), fc.nat(), fc.constantFrom(0xff, 0x7f, 0x80)),
    );
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), fc.boolean(), (mutations, warn) => {
        let bytesNow = sample.slice();
        for (const [kind, where, value] of mutations) {
          const at = where % Math.max(1, bytesNow.length);
          if (kind === 'flip') bytesNow[at] = value;
          else if (kind === 'insert')
            bytesNow = Uint8Array.from([...bytesNow.subarray(0, at), value, ...bytesNow.subarray(at)]);
          else if (kind === 'delete')
            bytesNow = Uint8Array.from([...bytesNow.subarray(0, at), ...bytesNow.subarray(at + 1)]);
          else bytesNow.fill(value, at, Math.min(bytesNow.length, at + 4));
        }
        const result = decode(saveFile, bytesNow, { checksums: warn ? 'warn' : 'error' });
        if (E.isLeft(result)) expect(result.left.name).toBe('DecodeError');
      }),
      { numRuns: 5000 },
    );
  });

  test('lengths and counts of 2^32-1 are refused before anything is allocated', () => {
    const big = Uint8Array.from([0xff, 0xff, 0xff, 0xff]);
    const codecs: AnyCodec[] = [
      bytes(u32le),
      pstring(u32le, 'utf8'),
      array(u32le, u32le),
      sized(u32le, bytes('rest')),
      array(struct({}), u32le),
    ];
    for (const codec of codecs) {
      const before = process.memoryUsage().arrayBuffers;
      const result = decode(codec, big);
      expect(E.isLeft(result)).toBe(true);
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 1024 * 1024);
    }
    const chunkBomb = Uint8Array.from([0x56, 0x61, 0x72, 0x69, 0xfc, 0xff, 0xff, 0xff]);
    const r = decode(chunk(framing, 'Vari', entry), chunkBomb);
    expect(E.isLeft(r) && r.left.message).toBe('chunk Vari: length 4294967292 is more than the 0 bytes left');
  });

  test('random bytes into every codec: DecodeError or a value, nothing else', () => {
    const codecs: AnyCodec[] = [saveFile, entry, chunkList(framing, { Vari: entry }), array(entry, u8)];
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (input) => {
        for (const codec of codecs) expectDecodeError(codec, input);
      }),
      { numRuns: 2000 },
    );
  });
});
