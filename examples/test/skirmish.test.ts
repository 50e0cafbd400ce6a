// The example plugin's own round-trip tests: the bundled sample, generated documents, and the
// plugin contract (sniff recognises its own output, JSON dump and build are the identity).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import { toJson, fromJson, encode, isRawChunk } from '@savekit/core';
import { format, skirmishSave, type SkirmishSave } from '../src/skirmish';

const sample = new Uint8Array(readFileSync(join(__dirname, '..', 'saves', 'skirmish-01.sks')));

function ok<L, R>(result: E.Either<L, R>): R {
  if (E.isLeft(result)) throw new Error(String(result.left));
  return result.right;
}

const name = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 30 });
const unit = fc.record({
  id: fc.integer({ min: 0, max: 65535 }),
  kind: fc.stringMatching(/^[a-z]{0,8}$/),
  x: fc.float({ noNaN: true }).map(Math.fround),
  y: fc.float({ noNaN: true }).map(Math.fround),
  health: fc.integer({ min: 0, max: 255 }),
});
const chunk = fc.oneof(
  name.map((body) => ({ id: 'Name' as const, body })),
  fc.integer({ min: 0, max: 2 ** 32 - 1 }).map((body) => ({ id: 'Turn' as const, body })),
  fc.array(unit, { maxLength: 5 }).map((body) => ({ id: 'Unit' as const, body })),
  fc.tuple(fc.stringMatching(/^[A-Z][a-z0-9]{3}$/), fc.uint8Array({ maxLength: 16 })).map(([id, raw]) => ({ id, raw: raw.subarray(0, raw.length - (raw.length % 4)) })),
);
const saves: fc.Arbitrary<SkirmishSave> = fc.record({
  magic: fc.constant('SKRM' as const),
  version: fc.integer({ min: 0, max: 65535 }),
  options: fc.record({ fogOfWar: fc.integer({ min: 0, max: 1 }), difficulty: fc.integer({ min: 0, max: 7 }), turnLimit: fc.integer({ min: 0, max: 4095 }) }),
  chunks: fc.array(chunk, { maxLength: 6 }) as fc.Arbitrary<SkirmishSave['chunks']>,
  end: fc.constant('ENDE' as const),
});

describe('the Skirmish example format', () => {
  test('the bundled sample decodes and re-encodes byte for byte', () => {
    const decoded = ok(format.decode(sample));
    expect(decoded.warnings).toEqual([]);
    const chunks = decoded.value.chunks;
    expect(chunks.map((c) => c.id)).toEqual(['Name', 'Turn', 'Unit', 'Mods']);
    expect(isRawChunk(chunks[3])).toBe(true);
    expect(ok(format.encode(decoded.value))).toEqual(sample);
  });

  test('sniff recognises its own output and nothing else', () => {
    expect(format.sniff(sample)).toBeGreaterThan(0.5);
    expect(format.sniff(new Uint8Array([1, 2, 3, 4]))).toBe(0);
    expect(format.sniff(new Map())).toBe(0);
  });

  test('generated saves: decode(encode(doc)) = doc, JSON dump and build are the identity', () => {
    fc.assert(
      fc.property(saves, (doc) => {
        const bytes = ok(encode(skirmishSave, doc));
        const back = ok(format.decode(bytes)).value;
        expect(ok(format.encode(back))).toEqual(bytes);
        const json = JSON.parse(JSON.stringify(toJson(skirmishSave, back)));
        expect(ok(format.encode(ok(fromJson(skirmishSave, json))))).toEqual(bytes);
        expect(format.sniff(bytes)).toBeGreaterThan(0);
      }),
      { numRuns: 1000 },
    );
  });

  test('every truncation and every flipped byte of the sample is a DecodeError', () => {
    for (let cut = 0; cut < sample.length; cut++) {
      const r = format.decode(sample.subarray(0, cut));
      expect(E.isLeft(r) && r.left.name).toBe('DecodeError');
    }
    for (let at = 0; at < sample.length; at++) {
      const changed = sample.slice();
      changed[at] ^= 0xff;
      expect(E.isLeft(format.decode(changed))).toBe(true);
    }
  });
});
