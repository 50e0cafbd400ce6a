import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import { decode, encode, type AnyCodec, type Codec, type SaveFormat } from '@savekit/core';
import { bits, f32le, f64le, i64le, u16le, u32le, u48le, u8 } from '@savekit/core';
import { bytes, cstring, fixedString, fourcc, literal, magic, padding, pstring } from '@savekit/core';
import { arena, array, chunk, chunkList, lazy, map, maybe, nothing, optional, pointer, sized } from '@savekit/core';
import { struct, taggedUnion } from '@savekit/core';
import { checksum, crc32, transform, transformKeeping, xor, compression } from '@savekit/core';
import { customDef } from '@savekit/core/kit';
import { graphImage } from '@savekit/core/graph';
import {
  arbitrary,
  fuzzInput,
  fuzzLoop,
  fuzzSuite,
  fuzzSuiteIsolated,
  hostileInputs,
  mutate,
  roundTripSuite,
  SuiteError,
} from '../src/index';
import { encodesBackTheSame } from './generated-round-trip';

const framing = { marker: fourcc({ alnum: true }), length: u32le, align: 4, endMarker: (m: string) => m.toUpperCase() };
interface Tree {
  value: number;
  children: Tree[];
}
const tree: Codec<Tree> = struct({ value: u8, children: lazy(() => array(tree, u8)) });
const identity = { name: 'identity', compress: (b: Uint8Array) => b.slice(), decompress: (b: Uint8Array) => b.slice() };

const codecs: Array<[string, AnyCodec]> = [
  ['integers and floats', struct({ a: u8, b: u16le, c: u48le, d: i64le, e: f32le, f: f64le })],
  ['bits', bits({ a: 1, b: 3, c: 12 }, { order: 'lsb' })],
  [
    'strings',
    struct({
      c: cstring('utf8'),
      p: pstring(u8, 'cp437'),
      f: fixedString(10, 'ascii'),
      s: fixedString(6, 'ascii', { pad: 0x20 }),
    }),
  ],
  [
    'bytes, magic, literal, padding',
    struct({ m: magic('AB', 'CD'), v: literal(u8, 1, 2), pad: padding(3), b: bytes(u16le), rest: bytes('rest') }),
  ],
  [
    'dependent struct',
    struct({
      version: u8,
      count: u8,
      items: (p: { count: number }) => array(u16le, p.count),
      extra: (p: { version: number }) => maybe(p.version > 1, u32le),
    }),
  ],
  ['optional, nothing', struct({ a: u8, n: nothing, tail: optional(u16le) })],
  ['tagged union with otherwise', taggedUnion(u8, { 1: u32le, 2: cstring('ascii') }, { otherwise: bytes('rest') })],
  ['lazy tree', tree],
  ['map', map(u8, { decode: (n: number) => n * 2, encode: (n: number) => n / 2 })],
  [
    'sized, checksum, transform',
    struct({
      s: sized(u16le, cstring('ascii')),
      c: checksum(u32le, { algorithm: crc32, stored: u32le }),
      t: sized(u8, transform(bytes('rest'), xor('K'))),
    }),
  ],
  ['transformKeeping', sized(u16le, transformKeeping(array(u16le, 'rest'), compression(identity)))],
  [
    'chunks',
    struct({
      one: chunk(framing, 'Vari', struct({ n: cstring('ascii') })),
      list: chunkList(framing, { Vari: cstring('ascii'), Wads: u32le }, { until: ['ENDE'] }),
      end: magic('ENDE'),
    }),
  ],
  ['pointers in an arena', arena(struct({ slots: array(pointer(u16le, cstring('ascii')), 3) }))],
  ['graph images', graphImage],
];

describe('arbitrary(codec)', () => {
  test.each(codecs)('%s: every generated value encodes and decodes back to the same bytes', (_name, codec) => {
    fc.assert(
      fc.property(arbitrary(codec), (value) => {
        encodesBackTheSame(codec, value);
      }),
      { numRuns: 300 },
    );
  });

  test('a custom codec with no model or samples asks for an override, and overrides are used', () => {
    const custom: Codec<number> = { ...u8, def: customDef('opaque'), name: 'custom' };
    expect(() => arbitrary(custom)).toThrow(/no arbitrary can be derived for the custom codec custom \(opaque\)/);
    const values = fc.sample(
      arbitrary(struct({ x: custom }), { overrides: new Map([[custom as AnyCodec, fc.constant(7)]]) }),
      5,
    );
    expect(values).toEqual(Array(5).fill({ x: 7 }));
  });
});

// A tiny format to hold the kit to what it claims: it must catch broken formats.
const record = struct({ magic: magic('TKIT'), level: u8, name: cstring('ascii'), values: array(u16le, u8) });
type Rec = ReturnType<typeof record.read>;
const goodFormat: SaveFormat<Rec> = {
  id: 'tkit',
  title: 'testkit sample',
  extensions: ['.tk'],
  input: 'file',
  sniff: (input) => (input instanceof Uint8Array && input[0] === 0x54 ? 1 : 0),
  decode: (input, options) => decode(record, input as Uint8Array, options),
  encode: (doc) => encode(record, doc),
  json: record.json,
};
const sample = (() => {
  const r = encode(record, { magic: 'TKIT', level: 3, name: 'hero', values: [1, 2, 3] });
  if (E.isLeft(r)) throw r.left;
  return r.right;
})();

describe('roundTripSuite', () => {
  test('a correct format passes, with no hand-written generators', () => {
    const report = roundTripSuite(goodFormat, { samples: [sample], codec: record, record: false });
    expect(report.failures).toEqual([]);
    expect(report.iterations).toBeGreaterThanOrEqual(1001);
  });

  test('catches an encoder that drops a byte', () => {
    const dropsAByte: SaveFormat<Rec> = {
      ...goodFormat,
      encode: (doc) => E.map((b: Uint8Array) => b.subarray(0, b.length - 1))(encode(record, doc)),
    };
    expect(() => roundTripSuite(dropsAByte, { samples: [sample], codec: record, record: false })).toThrow(SuiteError);
  });

  test('catches a sniffer that does not recognise its own output', () => {
    expect(() => roundTripSuite({ ...goodFormat, sniff: () => 0 }, { samples: [sample], record: false })).toThrow(
      /sniff does not recognise the sample/,
    );
  });
});

describe('fuzzSuite', () => {
  test('a correct format gives only DecodeErrors', () => {
    const report = fuzzSuite(goodFormat, { seeds: [sample], iterations: 20_000, record: false });
    expect(report.failures).toEqual([]);
    expect(report.slowest?.ms).toBeGreaterThanOrEqual(0);
  });

  test('catches a decoder that throws a TypeError', () => {
    const throws: SaveFormat<Rec> = {
      ...goodFormat,
      decode: (input, options) => {
        if ((input as Uint8Array).length < 10) throw new TypeError('cannot read properties of undefined');
        return goodFormat.decode(input, options);
      },
    };
    expect(() => fuzzSuite(throws, { seeds: [sample], iterations: 5_000, record: false })).toThrow(
      /decode threw TypeError: cannot read properties of undefined/,
    );
  });

  test('catches a decoder that answers with a plain Error instead of a DecodeError, or hangs', () => {
    const wrongError: SaveFormat<Rec> = {
      ...goodFormat,
      decode: (input, options) => E.mapLeft(() => new Error('nope') as never)(goodFormat.decode(input, options)),
    };
    expect(() => fuzzSuite(wrongError, { seeds: [sample], iterations: 2_000, record: false })).toThrow(
      /something other than a DecodeError/,
    );
    const slow: SaveFormat<Rec> = {
      ...goodFormat,
      decode: (input, options) => {
        const until = Date.now() + 30;
        while (Date.now() < until) {
          /* a decoder that spins */
        }
        return goodFormat.decode(input, options);
      },
    };
    expect(() => fuzzSuite(slow, { seeds: [sample], iterations: 3, timeoutMs: 10, record: false })).toThrow(
      /over 10 ms, and \d+ ms at best when timed again/,
    );
  });

  test('catches a decoder that keeps what it allocates past the limit, on the heap or in array buffers', () => {
    // Kept past the decode (as a leak or a cache would), so no collection in between undoes the growth.
    const kept: unknown[] = [];
    const leaks = (make: () => unknown): SaveFormat<Rec> => ({
      ...goodFormat,
      decode: (input, options) => {
        kept.push(make());
        return goodFormat.decode(input, options);
      },
    });
    const options = { seeds: [sample], iterations: 3, maxAllocationBytes: 8 * 2 ** 20, record: false };
    expect(() =>
      fuzzSuite(
        leaks(() => new Uint8Array(32 * 2 ** 20).fill(1)),
        options,
      ),
    ).toThrow(/decode grew memory by 32 MiB/);
    expect(() =>
      fuzzSuite(
        leaks(() => Array.from({ length: 2 ** 20 }, (_, i) => ({ i }))),
        options,
      ),
    ).toThrow(/decode grew memory by \d+ MiB/);
    kept.length = 0;
  });

  test('a decode that is slow once (a pause, not a hang) is timed again and not reported', () => {
    let calls = 0;
    const pausedOnce: SaveFormat<Rec> = {
      ...goodFormat,
      decode: (input, options) => {
        if (++calls === 2) {
          // Far over the limit, which is far over a healthy decode (microseconds): the verdict does
          // not hang on how fast the machine is.
          const until = Date.now() + 300;
          while (Date.now() < until) {
            /* the machine paused during this decode */
          }
        }
        return goodFormat.decode(input, options);
      },
    };
    const report = fuzzSuite(pausedOnce, { seeds: [sample], iterations: 5, timeoutMs: 200, record: false });
    expect(report.failures).toEqual([]);
    expect(report.retimed).toBe(1);
    expect(calls).toBe(6);
    expect(report.slowest!.ms).toBeLessThan(200);
  });

  test('mutations change inputs in every advertised way', () => {
    let s = 1;
    const random = () => {
      s = (s * 16807) % 2147483647;
      return s / 2147483647;
    };
    for (const kind of ['flip', 'truncate', 'insert', 'inflate', 'duplicate', 'swap', 'zero', 'hostile'] as const) {
      const results = Array.from({ length: 50 }, () => mutate(sample, kind, random));
      expect(results.some((r) => r.length !== sample.length || r.some((b, i) => b !== sample[i]))).toBe(true);
    }
  });

  test('seeds with nothing to mutate are refused up front: none, or an empty folder', () => {
    expect(() => fuzzSuite(goodFormat, { seeds: [], iterations: 1, record: false })).toThrow(
      'fuzzSuite needs at least one seed',
    );
    // An empty folder used to reach mutate() as undefined and fail with a TypeError of its own.
    expect(() => fuzzSuite(goodFormat, { seeds: [sample, new Map()], iterations: 4, record: false })).toThrow(
      'fuzzSuite: seed 1 is an empty folder, with no file to mutate',
    );
    expect(() => fuzzInput({ seeds: [new Map()] }, 0)).toThrow(
      'fuzzSuite: seed 0 is an empty folder, with no file to mutate',
    );
  });

  test('fuzzInput regenerates the inputs of the loop exactly, folder seeds included', () => {
    const rejectsAll: SaveFormat<Rec> = {
      ...goodFormat,
      decode: () => {
        throw new TypeError('rejects everything');
      },
    };
    const options = {
      seeds: [
        sample,
        new Map([
          ['a.bin', sample],
          ['b.bin', sample.subarray(0, 4)],
        ]),
      ],
      iterations: 20,
      record: false,
    };
    const report = fuzzLoop(rejectsAll, options);
    expect(report.failures).toHaveLength(20);
    report.failures.forEach((failure, i) => {
      const { kind, input } = fuzzInput(options, i);
      expect([failure.check, failure.input]).toEqual([`iteration ${i} (${kind})`, input]);
    });
    expect(report.failures.filter((f) => /^[ab]\.bin: /.test(f.input ?? '')).length).toBe(10);
  });
});

test('the hostile list covers what the issue names', () => {
  const names = hostileInputs.bytes.map((b) => b.name);
  expect(names).toEqual(expect.arrayContaining(['u32 2^32-1', 'LZO bomb', 'invalid UTF-8', 'f64 NaN']));
  expect(hostileInputs.deepJson().length).toBe(2_000_000);
  expect(hostileInputs.paths).toEqual(expect.arrayContaining(['../escape', '/etc/passwd', 'name\0.txt']));
  for (const json of hostileInputs.json) {
    const parsed = JSON.parse(json);
    const r = goodFormat.json.decode({ magic: 'TKIT', level: 1, name: 'x', values: [], ...parsed });
    expect(E.isRight(r) && Object.getPrototypeOf(r.right)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }
});

describe('fuzzSuiteIsolated', () => {
  const { mkdtempSync, writeFileSync, rmSync } = require('node:fs') as typeof import('node:fs');
  const { join } = require('node:path') as typeof import('node:path');
  const { tmpdir } = require('node:os') as typeof import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'savekit-fuzz-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const examplePlugin = join(__dirname, '..', '..', '..', 'examples', 'dist', 'skirmish.js');

  test('runs a format from its module in a worker and passes a correct one', async () => {
    const { readFileSync } = require('node:fs') as typeof import('node:fs');
    const seed = new Uint8Array(
      readFileSync(join(__dirname, '..', '..', '..', 'examples', 'saves', 'skirmish-01.sks')),
    );
    const report = await fuzzSuiteIsolated({ module: examplePlugin, seeds: [seed], iterations: 3_000, record: false });
    expect(report.format).toBe('skirmish');
    expect(report.failures).toEqual([]);
  });

  test('stops a decoder that hangs and names the input', async () => {
    const hanging = join(dir, 'hanging.mjs');
    writeFileSync(
      hanging,
      `export const format = { id: 'hangs', sniff: () => 0, encode: () => ({ _tag: 'Left', left: new Error('read only') }), decode(input) { if (input.length < 6) { for (;;) {} } return { _tag: 'Left', left: { name: 'DecodeError', path: [], offset: 0 } }; } };`,
    );
    // The limit is generous and the verdict is which input: only the short ones never return (at
    // most 5 bytes, 10 hex digits), so a healthy decode stalled by a busy machine cannot pass for it.
    await expect(
      fuzzSuiteIsolated({ module: hanging, seeds: [sample], iterations: 10_000, timeoutMs: 1000, record: false }),
    ).rejects.toThrow(/decode did not return within 1000 ms, 3 times out of 3 \(input [0-9a-f]{0,10}\)/);
  });

  test('a decode over the limit once (a pause of the machine, not a hang) is run again and not reported', async () => {
    // The decoder spins far past the limit on its first call only (a marker file tells later workers).
    const paused = join(dir, 'paused.mjs');
    const marker = join(dir, 'paused-once');
    writeFileSync(
      paused,
      `import { existsSync, writeFileSync } from 'node:fs';
      export const format = { id: 'pauses', sniff: () => 0, encode: () => ({ _tag: 'Left', left: new Error('read only') }), decode() {
        if (!existsSync(${JSON.stringify(marker)})) { writeFileSync(${JSON.stringify(marker)}, ''); const until = Date.now() + 3000; while (Date.now() < until) {} }
        return { _tag: 'Left', left: { name: 'DecodeError', path: [], offset: 0 } };
      } };`,
    );
    const report = await fuzzSuiteIsolated({
      module: paused,
      seeds: [sample],
      iterations: 200,
      timeoutMs: 1000,
      record: false,
    });
    expect(report.failures).toEqual([]);
    expect(report.retimed).toBeGreaterThanOrEqual(1);
  });
});
