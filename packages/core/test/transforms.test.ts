import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import {
  adler32,
  bytes,
  checksum,
  chunk,
  compression,
  crc32,
  cstring,
  decode,
  fourcc,
  layer,
  magic,
  sha256,
  sized,
  struct,
  transform,
  transformKeeping,
  u32be,
  u32le,
  u8,
  xor,
  type Compressor,
  formatPath,
  pathAnnotation,
} from '../src/index';
import { checkLaws, decodeFails, encodeOk, hexBytes } from './laws';

const ascii = (s: string) => new TextEncoder().encode(s);

// A tiny run-length coder (count, byte) pairs: enough to exercise a compressor pair and its limits.
const rle: Compressor = {
  name: 'rle',
  compress(input) {
    const out: number[] = [];
    for (let i = 0; i < input.length; ) {
      let run = 1;
      while (run < 255 && input[i + run] === input[i]) run++;
      out.push(run, input[i]!);
      i += run;
    }
    return Uint8Array.from(out);
  },
  decompress(input, maxOutput) {
    if (input.length % 2 !== 0) throw new Error('odd length');
    let size = 0;
    for (let i = 0; i < input.length; i += 2) {
      if (input[i] === 0) throw new Error(`zero run at ${i}`);
      size += input[i]!;
      if (size > maxOutput) throw new Error(`output would exceed ${maxOutput} bytes`);
    }
    const out = new Uint8Array(size);
    for (let i = 0, at = 0; i < input.length; i += 2) {
      out.fill(input[i + 1]!, at, at + input[i]!);
      at += input[i]!;
    }
    return out;
  },
};

describe('transform', () => {
  test('XOR with a repeating key obeys the laws and restarts per value', () => {
    const codec = transform(bytes('rest'), xor('EDGE!'));
    expect(encodeOk(codec, hexBytes('00000000000000'))).toEqual(ascii('EDGE!ED'));
    checkLaws(codec, fc.uint8Array({ maxLength: 40 }));
  });

  test('layers stack: the first is nearest the file', () => {
    const codec = sized(
      u32le,
      transform(struct({ name: cstring('ascii'), level: u8 }), compression(rle), xor('EDGE!')),
    );
    const values = fc.record({
      name: fc.stringMatching(/^a{0,40}[b-z]{0,5}$/),
      level: fc.integer({ min: 0, max: 255 }),
    });
    // A plain transform's byte law holds for canonical streams: here, the ones our coder writes.
    checkLaws(codec, values, { bytes: values.map((v) => encodeOk(codec, v)) });
    const bytesOut = encodeOk(codec, { name: 'aaaa', level: 1 });
    // inner: 61 61 61 61 00 01 → xor EDGE! → rle pairs
    const inner = xor('EDGE!').encode(hexBytes('616161610001'));
    expect(bytesOut.subarray(4)).toEqual(rle.compress(inner));
  });

  test('traceLayers: false traces the file bytes only; the inside is read as ever, and tracing goes on after it', () => {
    const codec = struct({
      head: u8,
      body: sized(u32le, transform(struct({ name: cstring('ascii'), level: u8 }), xor('EDGE!'))),
      tail: u8,
    });
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{0,12}$/), fc.nat(255), (name, level) => {
        const bytesIn = encodeOk(codec, { head: 7, body: { name, level }, tail: 9 });
        const full = decode(codec, bytesIn, { trace: true });
        const own = decode(codec, bytesIn, { trace: true, traceLayers: false });
        if (E.isLeft(full) || E.isLeft(own)) throw new Error('decoded the encoded value');
        expect(own.right.value).toEqual(full.right.value);
        expect(own.right.spans).toEqual(full.right.spans!.filter((s) => s.layer === 0));
        // The layer's fields were traced in the full decode, and the field after it in both.
        expect(full.right.spans!.some((s) => s.layer > 0 && formatPath(s.path).endsWith('name'))).toBe(true);
        expect(own.right.spans!.map((s) => formatPath(s.path))).toEqual(['head', 'body', 'tail']);
      }),
      { numRuns: 50, seed: 5 },
    );
  });

  test('transformKeeping keeps a stream our coder would write differently, and reuses it until the value changes', () => {
    const codec = sized(u32le, transformKeeping(struct({ name: cstring('ascii'), level: u8 }), compression(rle)));
    const values = fc.record({
      name: fc.stringMatching(/^a{0,40}[b-z]{0,5}$/),
      level: fc.integer({ min: 0, max: 255 }),
    });
    // Both laws, on any accepted bytes, including runs split where our coder would not split them.
    checkLaws(
      codec,
      values.map((value) => ({ value })),
      {
        bytes: fc.oneof(
          values.map((v) => encodeOk(codec, { value: v })),
          fc.uint8Array({ maxLength: 24 }).map((b) => {
            const out = new Uint8Array(4 + b.length - (b.length % 2));
            new DataView(out.buffer).setUint32(0, out.length - 4, true);
            out.set(b.subarray(0, out.length - 4), 4);
            for (let i = 4; i < out.length; i += 2) out[i] = (out[i]! % 3) + 1;
            return out;
          }),
        ),
      },
    );
    // Runs split on purpose: 2×a + 2×a, then NUL, then level 7.
    const split = Uint8Array.from([8, 0, 0, 0, 2, 0x61, 2, 0x61, 1, 0, 1, 7]);
    const decoded = decode(codec, split);
    if (E.isLeft(decoded)) throw decoded.left;
    expect(decoded.right.value.value).toEqual({ name: 'aaaa', level: 7 });
    expect(decoded.right.value.stored).toEqual(split.subarray(4));
    expect(encodeOk(codec, decoded.right.value)).toEqual(split);
    const changed = encodeOk(codec, { ...decoded.right.value, value: { name: 'aaaa', level: 8 } });
    expect(changed.subarray(4)).toEqual(rle.compress(hexBytes('61616161 00 08')));
    // Our own stream is not kept twice.
    const own = decode(codec, encodeOk(codec, { value: { name: 'ab', level: 1 } }));
    expect(E.isRight(own) && own.right.value.stored).toBeUndefined();
  });

  test('errors inside a layer name the layer in the path and offset in its output', () => {
    const codec = transform(struct({ a: u8, b: u32le }), compression(rle));
    const error = decodeFails(codec, rle.compress(hexBytes('01 0203')));
    expect(error.path).toEqual([pathAnnotation('rle'), 'b']);
    expect(formatPath(error.path)).toBe('<rle> .b');
    expect(error.code).toBe('short-read');
    expect(error.offset).toBe(1);
    const broken = decodeFails(codec, hexBytes('00 01'));
    expect(broken.message).toBe('rle: zero run at 0');
    expect(broken.code).toBe('layer-failed');
    expect(broken.offset).toBe(0);
  });

  test('a decompression bomb stops at the output limit', () => {
    const bomb = new Uint8Array(200_000).fill(0xff);
    const codec = transform(bytes('rest'), compression(rle));
    const result = decode(codec, bomb, { maxTransformOutput: 1 << 20 });
    expect(E.isLeft(result) && result.left.message).toMatch(/rle: output would exceed 1048576 bytes/);
    // A layer that ignores the limit is still caught after the fact.
    const careless = transform(
      bytes('rest'),
      layer(
        'careless',
        () => new Uint8Array(2048),
        (b) => b,
      ),
    );
    const caught = decode(careless, new Uint8Array(1), { maxTransformOutput: 1024 });
    expect(E.isLeft(caught) && caught.left.message).toBe('careless: output of 2048 bytes is over the limit of 1024');
  });

  test('a layer that throws a TypeError becomes a DecodeError', () => {
    const codec = transform(
      bytes('rest'),
      layer(
        'buggy',
        () => {
          throw new TypeError('x is undefined');
        },
        (b) => b,
      ),
    );
    expect(decodeFails(codec, hexBytes('00')).message).toBe('buggy: x is undefined');
  });
});

describe('checksum', () => {
  test('the algorithms give their reference values', () => {
    expect(crc32.compute(ascii('123456789'))).toBe(0xcbf43926);
    expect(adler32.compute(ascii('Wikipedia'))).toBe(0x11e60398);
    expect(sha256.show(sha256.compute(ascii('abc')))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  test('running checksums continue over parts as over the joined bytes', () => {
    expect(crc32.continue!(crc32.compute(ascii('1234')), ascii('56789'))).toBe(0xcbf43926);
    expect(adler32.continue!(adler32.compute(ascii('Wiki')), ascii('pedia'))).toBe(0x11e60398);
    expect(sha256.continue).toBeUndefined();
  });

  test('a digest after its data obeys the laws and is recomputed on encode', () => {
    const codec = checksum(struct({ name: cstring('utf8'), level: u8 }), { algorithm: crc32, stored: u32le });
    checkLaws(
      codec,
      fc.record({
        name: fc.string({ maxLength: 10 }).map((s) => s.replace(/\0/g, '')),
        level: fc.integer({ min: 0, max: 255 }),
      }),
    );
    const bytesOut = encodeOk(codec, { name: 'A', level: 1 });
    expect(new DataView(bytesOut.buffer).getUint32(3, true)).toBe(crc32.compute(hexBytes('41 00 01')));
  });

  test('a mismatch is an error by default and a warning on request', () => {
    const codec = checksum(struct({ name: cstring('ascii'), level: u8 }), { algorithm: adler32, stored: u32be });
    const bytesOut = encodeOk(codec, { name: 'A', level: 1 }).slice();
    bytesOut[2] = 9; // level
    const error = decodeFails(codec, bytesOut);
    expect(error.path).toEqual([pathAnnotation('Adler-32')]);
    expect(error.code).toBe('checksum-mismatch');
    expect(error.offset).toBe(3);
    expect(error.message).toMatch(/^Adler-32 mismatch: stored 0x[0-9a-f]{8}, computed 0x[0-9a-f]{8}$/);
    const warned = decode(codec, bytesOut, { checksums: 'warn' });
    if (E.isLeft(warned)) throw warned.left;
    expect(warned.right.value.level).toBe(9);
    expect(warned.right.warnings).toHaveLength(1);
    expect(warned.right.warnings[0]).toMatchObject({
      code: 'checksum-mismatch',
      path: [pathAnnotation('Adler-32')],
      offset: 3,
    });
  });

  test('a digest before its data, and one that covers the window up to itself (a file trailer)', () => {
    const before = checksum(bytes('rest'), { algorithm: sha256, stored: bytes(32), position: 'before' });
    checkLaws(before, fc.uint8Array({ maxLength: 30 }));
    const file = checksum(struct({ magic: magic('SAVE'), body: sized(u8, bytes('rest')), end: magic('ENDE') }), {
      algorithm: adler32,
      stored: u32le,
      covers: 'window',
    });
    const out = encodeOk(file, { magic: 'SAVE', body: hexBytes('0102'), end: 'ENDE' });
    expect(new DataView(out.buffer).getUint32(out.length - 4, true)).toBe(
      adler32.compute(out.subarray(0, out.length - 4)),
    );
    checkLaws(
      file,
      fc.record({
        magic: fc.constant('SAVE' as const),
        body: fc.uint8Array({ maxLength: 10 }),
        end: fc.constant('ENDE' as const),
      }),
    );
  });

  test('checksums inside chunks use the chunk body as their window', () => {
    const framed = chunk(
      { marker: fourcc(), length: u32le },
      'Body',
      checksum(bytes(4), { algorithm: crc32, stored: u32le, covers: 'window' }),
    );
    checkLaws(
      framed,
      fc.record({ id: fc.constant('Body' as const), body: fc.uint8Array({ minLength: 4, maxLength: 4 }) }),
    );
  });
});

describe('transform with a stored decoded length', () => {
  const inner = struct({ name: cstring('ascii'), level: u8 });
  const values = fc.record({ name: fc.stringMatching(/^a{0,40}[b-z]{0,5}$/), level: fc.integer({ min: 0, max: 255 }) });

  test('the length of the decoded bytes is written in front and caps the layers', () => {
    const codec = sized(u32le, transform(inner, { decodedLength: u32le }, compression(rle)));
    const out = encodeOk(codec, { name: 'aaaa', level: 7 });
    // sized length, decoded length 6 (61 61 61 61 00 07), then the RLE pairs.
    expect(out.subarray(4, 8)).toEqual(hexBytes('06000000'));
    expect(out.subarray(8)).toEqual(rle.compress(hexBytes('616161610007')));
    checkLaws(codec, values, { bytes: values.map((v) => encodeOk(codec, v)) });
  });

  test('a stream that expands past the stored length, or a length over the limit, is a DecodeError', () => {
    const codec = transform(bytes('rest'), { decodedLength: u32le }, compression(rle));
    const tooLong = Uint8Array.from([...hexBytes('04000000'), 200, 0x41]); // claims 4, expands to 200
    expect(decodeFails(codec, tooLong).message).toMatch(/rle: output would exceed 4 bytes/);
    const tooShort = Uint8Array.from([...hexBytes('08000000'), 2, 0x41]);
    expect(decodeFails(codec, tooShort).message).toMatch(/the layers produced 2 bytes, the decoded length says 8/);
    const huge = Uint8Array.from([...hexBytes('ffffffff'), 2, 0x41]);
    const error = decodeFails(codec, huge);
    expect([error.message, error.offset, error.path]).toEqual([
      'decoded length 4294967295 is over the limit of 268435456 bytes',
      0,
      [],
    ]);
  });

  test('transformKeeping with keep: "always" keeps the file\'s stream even when ours is the same, and reuses it', () => {
    const codec = sized(u32le, transformKeeping(inner, { decodedLength: u32le, keep: 'always' }, compression(rle)));
    const bytesIn = encodeOk(codec, { value: { name: 'ab', level: 1 } });
    const decoded = decode(codec, bytesIn);
    if (E.isLeft(decoded)) throw decoded.left;
    expect(decoded.right.value.stored).toEqual(bytesIn.subarray(8));
    expect(encodeOk(codec, decoded.right.value)).toEqual(bytesIn);
    // A changed value is encoded afresh, with its new decoded length.
    const changed = encodeOk(codec, { ...decoded.right.value, value: { name: 'abc', level: 1 } });
    expect(changed.subarray(4, 8)).toEqual(hexBytes('05000000'));
  });
});
