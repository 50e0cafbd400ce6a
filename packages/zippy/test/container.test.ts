// The ZSAV container: the worked example of the README (produced by the code, checked byte for byte
// against the README's own hex dump), re-encoding, the object table, and bad input.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either';
import fc from 'fast-check';
import {
  decode,
  type DecodeError,
  documentPath,
  decodeOrThrow,
  encode,
  encodeOrThrow,
  fromJson,
  toJson,
} from '@savekit/core';
import {
  format,
  LUA_TAG,
  LuaInteger,
  LuaType,
  SegmentWriter,
  Vector,
  ZClass,
  zippyFile,
  type ZippyFile,
} from '@savekit/zippy';
import { loadStructures, saveStructures } from './structures';
import { arbitrary, defaultIterations, fuzzSuite, roundTripSuite, testBudget } from '@savekit/testkit';
import { newState } from './lua-helpers';
import { byteSwapped } from './layout-helpers';
import { workedExample } from './worked-example';

/** The hex dump in the README's "Worked example" section. */
function readmeExample(): Uint8Array {
  const text = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
  const block = /<!-- worked-example -->\n```text\n([\s\S]*?)```/.exec(text);
  if (block === null) throw new Error('the README has no worked example block');
  const hex = block[1]!
    .split('\n')
    .map((line) => /^[0-9a-f]{4}: ((?:[0-9a-f]{2} ?)+)/.exec(line)?.[1] ?? '')
    .join('')
    .replace(/\s+/g, '');
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

const example = workedExample();

test("the worked example: the code writes the README's 256 bytes exactly", () => {
  expect(example.length).toBe(256);
  expect(Buffer.from(example).toString('hex')).toBe(Buffer.from(readmeExample()).toString('hex'));
});

test('decoding gives the object table; re-encoding gives the identical bytes; the summary lists it', () => {
  const file = decodeOrThrow(zippyFile, example);
  expect(file.objects.map((o) => [o.tag, o.size, o.references])).toEqual([
    ['LUA\0', 0, [1, 2, 3]],
    ['LUA\0', 4, []],
    ['DATA', 20, []],
  ]);
  expect(encodeOrThrow(zippyFile, file)).toEqual(example);
  expect(format.summary!(file).join('\n')).toContain('1  LUA\\0     0  #1, #2, #3');
});

test('decoded segments are views into the input (no copies); a replaced segment is written, a bad one named', () => {
  const input = example.slice();
  const file = decodeOrThrow(zippyFile, input);
  const data = file.objects[1]!.segments;
  expect(data.every((segment) => segment.buffer === input.buffer)).toBe(true);
  // The userdata object's payload (after its tag): replacing it changes only those bytes of the output.
  const replaced = data[0]!.map((b, i) => (i < 4 ? b : b ^ 0xff));
  const edited = {
    ...file,
    objects: file.objects.map((o, i) => (i === 1 ? { ...o, segments: [replaced, ...data.slice(1)] } : o)),
  };
  const out = encodeOrThrow(zippyFile, { ...edited, crc: false });
  const plain = encodeOrThrow(zippyFile, { ...file, crc: false });
  expect(out.length).toBe(plain.length);
  const differing = [...out].flatMap((b, i) => (b !== plain[i] ? [i] : []));
  expect(differing.length).toBe(data[0]!.length - 4);
  expect(Buffer.from(input).equals(Buffer.from(example))).toBe(true); // the input is untouched
  const bad = {
    ...file,
    objects: file.objects.map((o, i) =>
      i === 2 ? { ...o, segments: [o.segments[0]!, 'text' as unknown as Uint8Array] } : o,
    ),
  };
  const error = encode(zippyFile, bad);
  // The path is the document's: the third object is objects[2], as toJson lists it.
  expect(E.isLeft(error) && [error.left.path, error.left.message]).toEqual([
    ['objects', 2, 'segments', 1],
    'expected a Uint8Array, got string',
  ]);
});

test('a byte-swapped file (magic VASZ) is read, and written back as it was; the writer writes it field by field', () => {
  const swapped = workedExample('le');
  expect(Buffer.from(swapped).equals(Buffer.from(byteSwapped(example)))).toBe(true);
  expect(String.fromCharCode(...swapped.subarray(0, 4))).toBe('VASZ');
  const back = decodeOrThrow(zippyFile, swapped);
  expect(back.byteOrder).toBe('le');
  expect(back.objects.map((o) => o.tag)).toEqual(['LUA\0', 'LUA\0', 'DATA']);
  expect(encodeOrThrow(zippyFile, back)).toEqual(swapped);
});

describe('bad input: DecodeErrors with the document path (objects from 0) and the file offset', () => {
  const fails = (bytes: Uint8Array): DecodeError => {
    const result = decode(zippyFile, bytes);
    if (E.isRight(result)) throw new Error('decoded without an error');
    return result.left;
  };
  const patched = (at: number, ...bytes: number[]) => {
    const out = example.slice();
    out.set(bytes, at);
    return out;
  };

  test('truncated at every offset', () => {
    for (let cut = 0; cut < example.length; cut++) expect(E.isLeft(format.decode(example.subarray(0, cut)))).toBe(true);
  });

  test('a reference out of range', () => {
    // The first object's first reference (at 0x6c) → 9, but there are 3 objects. (CRC off, so it is not what fails.)
    const file = decodeOrThrow(zippyFile, example);
    const noCrc = encodeOrThrow(zippyFile, { ...file, crc: false });
    const bad = noCrc.slice();
    bad.set([0, 0, 0, 9], 0x6c);
    const error = fails(bad);
    expect([error.path, error.offset, error.message]).toEqual([
      ['objects', 0, 'references', 0],
      0x6c,
      'reference: object 9 does not exist (there are 3)',
    ]);
  });

  test('a wrong tag: the directory and segment 0 disagree', () => {
    const file = decodeOrThrow(zippyFile, example);
    const noCrc = encodeOrThrow(zippyFile, { ...file, crc: false });
    const bad = noCrc.slice();
    bad.set([0x44, 0x41, 0x54, 0x41], 0x24); // objects[0]'s entry says DATA, its segment says LUA\0
    const error = fails(bad);
    expect([error.path, error.offset, error.code]).toEqual([['objects', 0], 0x6c, 'invalid-value']); // its body's offset
    expect(error.message).toMatch(/the directory says "DATA", segment 0 says "LUA\\u0000"/);
  });

  test('a size that does not match the data', () => {
    const file = decodeOrThrow(zippyFile, example);
    const noCrc = encodeOrThrow(zippyFile, { ...file, crc: false });
    const bad = noCrc.slice();
    bad.set([0, 0, 0, 0x58], 0x38); // objects[0]'s body length 0x54 → 0x58
    const error = fails(bad);
    // Its body now takes the next body's first 4 bytes, which it reads as one more segment.
    expect(error.path.slice(0, 3)).toEqual(['objects', 0, 'segments']);
    expect(error.message).toMatch(/more than the 0 bytes left/);
  });

  test('a wrong CRC (an error, or a warning when asked)', () => {
    const bad = patched(example.length - 1, example[example.length - 1]! ^ 1);
    expect(fails(bad).message).toMatch(/CRC-32 mismatch/);
    const warned = decode(zippyFile, bad, { checksums: 'warn' });
    expect(E.isRight(warned) && warned.right.warnings.map((w) => w.code)).toEqual(['checksum-mismatch']);
  });

  test('a table key that is nil, found when restoring into Lua', () => {
    const file = decodeOrThrow(zippyFile, example);
    const segment = file.objects[0]!.segments[0]!.slice();
    // The first pair's key ("self", a string) becomes nil: type byte 04 → 00, then the rest no longer parses as it was.
    const keyAt = segment.indexOf(0x04, 4 + 4 + 4 + 9 + 6 + 4);
    segment[keyAt] = 0x00;
    const bad = encodeOrThrow(zippyFile, {
      ...file,
      objects: [{ ...file.objects[0]!, segments: [segment] }, ...file.objects.slice(1)],
    });
    const { loadLua } = require('@savekit/zippy/lua') as typeof import('@savekit/zippy/lua');
    const result = loadLua(newState(), bad);
    expect(E.isLeft(result) && [result.left.path.slice(0, 2), result.left.message]).toEqual([
      ['objects', 0],
      expect.stringMatching(/a table key is nil/),
    ]);
  });

  test('a metatable that is not a table is a DecodeError at its byte, found when restoring into Lua', () => {
    const file = decodeOrThrow(zippyFile, example);
    const { loadLua } = require('@savekit/zippy/lua') as typeof import('@savekit/zippy/lua');
    for (const meta of [new TextEncoder().encode('hi'), 5, true, new LuaInteger(3n)]) {
      // An empty table (no sequence, no pairs) whose metatable is `meta`.
      const w = new SegmentWriter(file);
      w.u32(LUA_TAG);
      w.u32(LuaType.table);
      w.u32(0);
      w.u32(0);
      w.value(meta);
      const bad = encodeOrThrow(zippyFile, {
        ...file,
        objects: [{ ...file.objects[0]!, segments: [w.done()] }, ...file.objects.slice(1)],
      });
      const result = loadLua(newState(), bad);
      if (E.isRight(result)) throw new Error('expected a refusal');
      expect([result.left.path, result.left.offset, result.left.message]).toEqual([
        ['objects', 0, 'segments', 0],
        16,
        expect.stringMatching(/a metatable must be a table \(or nil\)/),
      ]);
    }
  });

  test("a table whose keys repeat or are out of the format's order is refused at the key, found when restoring into Lua", () => {
    const file = decodeOrThrow(zippyFile, example);
    const { loadLua } = require('@savekit/zippy/lua') as typeof import('@savekit/zippy/lua');
    const text = (s: string) => new TextEncoder().encode(s);
    /** A table of sequence [true] and `pairs`, loaded: the refusal's offset and message, or 'loaded'. */
    const load = (pairs: Array<[unknown, unknown]>): [number, string] | 'loaded' => {
      const w = new SegmentWriter(file);
      w.u32(LUA_TAG);
      w.u32(LuaType.table);
      w.u32(1);
      w.value(true);
      w.u32(pairs.length);
      const keyOffsets: number[] = [];
      for (const [key, value] of pairs) {
        keyOffsets.push(w.done().length);
        w.value(key as never);
        w.value(value as never);
      }
      w.value(null);
      const bad = encodeOrThrow(zippyFile, {
        ...file,
        objects: [{ ...file.objects[0]!, segments: [w.done()] }, ...file.objects.slice(1)],
      });
      const result = loadLua(newState(), bad);
      if (E.isRight(result)) return 'loaded';
      expect(result.left.path).toEqual(['objects', 0, 'segments', 0]);
      return [keyOffsets.indexOf(result.left.offset), result.left.message];
    };
    // In order: numbers, strings by bytes (a prefix first), false, true.
    expect(
      load([
        [2.5, 1],
        [new LuaInteger(3n), 2],
        [text('a'), 3],
        [text('ab'), 4],
        [false, 5],
        [true, 6],
      ]),
    ).toBe('loaded');
    // Each refused at the key that breaks the order (its index among the pairs).
    expect(
      load([
        [text('a'), 1],
        [text('a'), 2],
      ]),
    ).toEqual([1, expect.stringMatching(/repeats an earlier key/)]);
    expect(
      load([
        [new LuaInteger(5n), 1],
        [5, 2],
      ]),
    ).toEqual([1, expect.stringMatching(/repeats an earlier key/)]);
    expect(
      load([
        [true, 1],
        [true, 2],
      ]),
    ).toEqual([1, expect.stringMatching(/repeats an earlier key/)]);
    expect(
      load([
        [text('b'), 1],
        [text('a'), 2],
      ]),
    ).toEqual([1, expect.stringMatching(/out of order/)]);
    expect(
      load([
        [text('a'), 1],
        [7, 2],
      ]),
    ).toEqual([1, expect.stringMatching(/out of order/)]);
    expect(load([[new LuaInteger(1n), 2]])).toEqual([0, expect.stringMatching(/repeats a key of the sequence part/)]);
    expect(load([[1, 2]])).toEqual([0, expect.stringMatching(/repeats a key of the sequence part/)]);
  });

  // Quick: five times the core's nesting limit for plain callbacks (10,000); heavy: the full million.
  // adataRestorer waits for a superclass from the core's work list, so no depth is too deep.
  const depth = testBudget({ quick: 50_000, heavy: 1_000_000 });
  test(`a ${depth.toLocaleString('en')}-deep superclass chain restores (no stack overflow, no depth limit)`, () => {
    let cls: ZClass | null = null;
    for (let i = 0; i < depth; i++) cls = new ZClass(`c${i}`, cls);
    const saved = saveStructures([cls], { crc: false });
    cls = null;
    if (E.isLeft(saved)) throw saved.left;
    const result = loadStructures(saved.right);
    if (E.isLeft(result)) throw result.left;
    let n = 0;
    let name = '';
    for (let c = result.right.roots[0] as ZClass | null; c !== null; c = c.superclass) {
      name = c.name;
      n++;
    }
    expect([n, name]).toEqual([depth, 'c0']);
  }, 600_000);

  test(`the conformance kit: ${defaultIterations()} mutations (SAVEKIT_FUZZ_ITERATIONS, else the test profile's) give only DecodeErrors`, () => {
    const small = workedExample();
    const classes = saveStructures([new ZClass('A', new ZClass('B'))]);
    if (E.isLeft(classes)) throw classes.left;
    const derived = fc.sample(arbitrary(zippyFile), { numRuns: 4, seed: 1 }).map((f) => encodeOrThrow(zippyFile, f));
    expect(fuzzSuite(format, { seeds: [small, workedExample('le'), classes.right, ...derived] }).failures).toEqual([]);
  });
});

test('C structures alone (no Lua): a superclass chain and shared classes round-trip', () => {
  const base = new ZClass('Base');
  const a = new ZClass('A', base, null, true);
  const b = new ZClass('B', base);
  const saved = saveStructures([a, b, new Vector([0.5])]);
  if (E.isLeft(saved)) throw saved.left;
  const result = loadStructures(saved.right);
  if (E.isLeft(result)) throw result.left;
  const [a2, b2, v2] = result.right.roots as [ZClass, ZClass, Vector];
  expect(a2.superclass).toBe(b2.superclass);
  expect([a2.name, a2.bindByName, a2.superclass?.name, b2.name, v2.values]).toEqual(['A', true, 'Base', 'B', [0.5]]);
});

test('the round-trip suite on saved files and on documents derived from the declaration', () => {
  const file: ZippyFile = decodeOrThrow(zippyFile, example);
  expect(
    roundTripSuite(format, {
      samples: [example, encodeOrThrow(zippyFile, { ...file, crc: false }), workedExample('le')],
      codec: zippyFile,
      // Every span and warning path resolves in the document as `dump` shows it: the header's rebuilt
      // fields (flags, counts, offsets) and the directory entries' places are annotations there
      // (`<headFlags>`, `objects[0] <bodyAt>`), as the document has no place for them.
      numRuns: 300,
    }).failures,
  ).toEqual([]);
});

describe('laws and document paths', () => {
  // Derived from the declaration: references within the counts and segment 0 starting with its
  // tag come from the models the reference and the object table declare.
  const files: fc.Arbitrary<ZippyFile> = arbitrary(zippyFile);

  test('decode(encode(file)) = file and encode(decode(bytes)) = bytes, both byte orders, with and without CRC', () => {
    fc.assert(
      fc.property(files, (file) => {
        const bytes = encodeOrThrow(zippyFile, file);
        const back = decodeOrThrow(zippyFile, bytes);
        expect(back).toEqual(file);
        expect(encodeOrThrow(zippyFile, back)).toEqual(bytes);
        expect(fromJson(zippyFile, JSON.parse(JSON.stringify(toJson(zippyFile, file))))).toEqual(E.right(file));
      }),
      { numRuns: 300 },
    );
  });

  /** The value at `path` in a JSON document, or a marker that it is not there. */
  const at = (json: unknown, path: ReadonlyArray<string | number>): unknown =>
    path.reduce<unknown>(
      (node, key) =>
        node !== null && typeof node === 'object' && Object.hasOwn(node, key)
          ? (node as Record<string, unknown>)[key]
          : 'not in the document',
      json,
    );

  test('every error and warning path is the path of a value as toJson shows it', () => {
    const file = decodeOrThrow(zippyFile, example);
    const json = toJson(zippyFile, file);
    const noCrc = encodeOrThrow(zippyFile, { ...file, crc: false });
    const decodeErrors = [
      [0x6c, [0, 0, 0, 9]], // a reference out of range
      [0x24, [0x44, 0x41, 0x54, 0x41]], // a tag the segment does not start with
      [0x38, [0, 0, 0, 0x58]], // a body length that takes the next body's bytes
      [0x3c, [0, 0, 0, 9]], // objects[1]'s tag
      [0x44, [0, 0, 0, 3]], // objects[1]'s reference count
    ] as const;
    const objectKeys = Object.keys(file.objects[0]!);
    for (const [offset, bytes] of decodeErrors) {
      const bad = noCrc.slice();
      bad.set(bytes, offset);
      const result = decode(zippyFile, bad);
      if (E.isRight(result)) throw new Error(`decoded with 0x${offset.toString(16)} patched`);
      // The object as the document lists it, then the document's own keys (a segment the bad file
      // claims beyond the good one's is still `segments[n]`).
      const [head, index, key] = documentPath(result.left.path);
      expect([offset, head, at(json, [head!, index!])]).not.toEqual([offset, 'objects', 'not in the document']);
      if (key !== undefined) expect(objectKeys).toContain(key);
    }
    const warned = decode(
      zippyFile,
      Uint8Array.from(example, (b, i) => (i === example.length - 1 ? b ^ 1 : b)),
      {
        checksums: 'warn',
      },
    );
    if (E.isLeft(warned)) throw warned.left;
    for (const warning of warned.right.warnings) expect(at(json, documentPath(warning.path).slice(0, 1))).toBe(true); // crc
    // Encode refusals: the path names the refused value in the document being encoded.
    const refusals: Array<[ZippyFile, Array<string | number>]> = [
      [{ ...file, objects: [file.objects[0]!, { ...file.objects[1]!, size: -1 }] }, ['objects', 1, 'size']],
      [{ ...file, objects: [{ ...file.objects[0]!, references: [1, 7] }] }, ['objects', 0, 'references', 1]],
      [{ ...file, roots: [0, -4] }, ['roots', 1]],
    ];
    for (const [doc, path] of refusals) {
      const result = encode(zippyFile, doc);
      expect(E.isLeft(result) && result.left.path).toEqual(path);
      expect(at(toJson(zippyFile, doc), path)).not.toBe('not in the document');
    }
  });
});
