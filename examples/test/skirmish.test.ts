// The example plugin's own tests: the bundled sample byte for byte, and the conformance kit's
// round-trip and fuzz suites (sniffing, JSON identity and generated documents included).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either';
import { isRawChunk } from '@savekit/core';
import { defaultIterations, fuzzSuite, roundTripSuite } from '@savekit/testkit';
import { format, skirmishSave } from '../src/skirmish';

const sample = new Uint8Array(readFileSync(join(__dirname, '..', 'saves', 'skirmish-01.sks')));

function ok<L, R>(result: E.Either<L, R>): R {
  if (E.isLeft(result)) throw new Error(String(result.left));
  return result.right;
}

describe('the Skirmish example format', () => {
  test('the bundled sample decodes and re-encodes byte for byte', () => {
    const decoded = ok(format.decode(sample));
    expect(decoded.warnings).toEqual([]);
    const chunks = decoded.value.chunks;
    expect(chunks.map((c) => c.id)).toEqual(['Name', 'Turn', 'Unit', 'Mods']);
    expect(isRawChunk(chunks[3]!)).toBe(true);
    expect(ok(format.encode(decoded.value))).toEqual(sample);
  });

  test('sniff recognises its own output and nothing else', () => {
    expect(format.sniff(sample)).toBeGreaterThan(0.5);
    expect(format.sniff(new Uint8Array([1, 2, 3, 4]))).toBe(0);
    expect(format.sniff(new Map())).toBe(0);
  });

  test('the conformance kit: round-trip suite on the sample and 1,000 documents derived from the codec', () => {
    // No hand-written generators: the kit derives them from the format's own declarations.
    const report = roundTripSuite(format, { samples: [sample], codec: skirmishSave });
    expect(report.failures).toEqual([]);
  });

  test(`the conformance kit: fuzz suite (${defaultIterations()} mutations)`, () => {
    const report = fuzzSuite(format, { seeds: [sample] });
    expect(report.failures).toEqual([]);
  });

  test('every truncation and every flipped byte of the sample is a DecodeError', () => {
    for (let cut = 0; cut < sample.length; cut++) {
      const r = format.decode(sample.subarray(0, cut));
      expect(E.isLeft(r) && r.left.name).toBe('DecodeError');
    }
    for (let at = 0; at < sample.length; at++) {
      const changed = sample.slice();
      changed[at]! ^= 0xff;
      expect(E.isLeft(format.decode(changed))).toBe(true);
    }
  });
});
