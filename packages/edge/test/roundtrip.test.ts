// The conformance kit's round-trip suite: the golden files, and generated engine-layout saves of
// every variant (random variables, mobjs with random floats, strings and references, players, an
// unknown Glob lump) — each encodes, decodes, re-encodes byte for byte, survives JSON and is sniffed.
import fc from 'fast-check';
import type { Instance } from '@savekit/core/schema';
import { convertVariant, createSave, format, newInstance, refTo, type EdgeSave } from '@savekit/edge';
import { roundTripSuite } from '@savekit/testkit';
import { goldens } from './corpus';

const float32 = fc.float({ noNaN: true, noDefaultInfinity: true }).map((x) => (x === 0 ? 0 : x));
const text = fc.option(
  fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ_:*0123456789 '), maxLength: 12 }),
  { nil: null },
);

const mobj = fc.record({
  x: float32,
  y: float32,
  z: float32,
  angle: fc.nat({ max: 0xffffffff }),
  health: float32,
  info: text,
  state: text,
  flags: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
  mom: fc.tuple(float32, float32, float32),
});

const saves: fc.Arbitrary<EdgeSave> = fc
  .record({
    variant: fc.constantFrom('A', 'B', 'C', 'D' as const),
    level: text,
    extra: fc.dictionary(fc.string({ unit: fc.constantFrom(...'ABCXYZ_'), minLength: 1, maxLength: 6 }), text, {
      maxKeys: 3,
    }),
    mobjs: fc.array(mobj, { maxLength: 12 }),
    targets: fc.array(fc.nat(), { maxLength: 12 }),
    unknownLump: fc.option(fc.uint8Array({ maxLength: 9 }).map((b) => b.subarray(0, b.length - (b.length % 4)))),
  })
  .map(({ variant, level, extra, mobjs, targets, unknownLump }) => {
    const elements: Instance[] = mobjs.map((m) => ({ ...newInstance('mobj_t'), ...m }));
    elements.forEach((element, i) => {
      if (targets[i] !== undefined && elements.length > 0) {
        const position = targets[i]! % elements.length;
        element.target = refTo('mobjs', elements[position]!, position + 1);
      }
    });
    const player = newInstance('player_t');
    if (elements.length > 0) player.mo = refTo('mobjs', elements[0]!, 1);
    const save = convertVariant(
      createSave({ variables: { LEVEL: level, ...extra }, arrays: { mobjs: elements, players: [player] } }),
      variant,
    );
    if (unknownLump !== null)
      (save.chunks[0] as { body: { value: unknown[] } }).body.value.push({ id: 'Xtra', raw: unknownLump });
    return save;
  });

test('the round-trip suite: the golden files and 150 generated saves of every variant', () => {
  const report = roundTripSuite(format, { samples: goldens().map((g) => g.bytes), arbitraries: saves, numRuns: 150 });
  expect(report.failures).toEqual([]);
});
