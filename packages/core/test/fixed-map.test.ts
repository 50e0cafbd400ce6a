// fixedMap (a map that keeps the stored codec's in-place fast path) and withModel (a model for tools,
// nothing else changed): both laws, size, the fast path taken, and errors with path and offset.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import {
  array,
  compile,
  cstring,
  decode,
  fixedMap,
  literal,
  map,
  struct,
  u16le,
  u8,
  withModel,
  type Codec,
} from '../src/index';
import { checkLaws, decodeFails, encodeFails, encodeOk, hexBytes } from './laws';

// Minutes and seconds presented as seconds; a stored second past 59 is refused.
const time: Codec<number> = fixedMap(struct({ minutes: u8, seconds: u8 }), {
  name: 'time',
  decode: ({ minutes, seconds }) => {
    if (seconds > 59) throw new Error(`${seconds} is not a second`);
    return minutes * 60 + seconds;
  },
  encode: (total: number) => {
    if (!Number.isInteger(total) || total < 0) throw new Error(`${total} is not a time`);
    return { minutes: Math.floor(total / 60), seconds: total % 60 };
  },
  is: (u): u is number => typeof u === 'number',
});
const times = fc.integer({ min: 0, max: 255 * 60 + 59 });

describe('fixedMap', () => {
  test('keeps the stored size and offers the in-place read and write', () => {
    expect(time.size).toBe(2);
    expect(time.minSize).toBe(2);
    expect(time.readFixed).toBeDefined();
    expect(time.writeFixed).toBeDefined();
    expect(time.def.type).toBe('map');
    // A plain map of the same codec has the size, not the fast path.
    expect(map(struct({ minutes: u8, seconds: u8 }), { decode: (v) => v, encode: (v) => v }).readFixed).toBeUndefined();
  });

  test('both laws, alone, in a struct and in an array (read at offsets)', () => {
    checkLaws(time, times, { bytes: fc.uint8Array({ minLength: 0, maxLength: 3 }) });
    const lap = struct({ id: u16le, best: time, last: time });
    expect(lap.readFixed).toBeDefined();
    checkLaws(lap, fc.record({ id: fc.integer({ min: 0, max: 0xffff }), best: times, last: times }), {
      bytes: fc.uint8Array({ minLength: 6, maxLength: 6 }),
    });
    checkLaws(array(time, 3), fc.array(times, { minLength: 3, maxLength: 3 }), {
      bytes: fc.uint8Array({ minLength: 6, maxLength: 6 }),
    });
  });

  test('a refused value is an error with its path and offset, from the fast path as from the slow one', () => {
    const laps = array(time, 3);
    const read = decodeFails(laps, hexBytes('0100 0200 033c'));
    expect([read.path, read.offset, read.message]).toEqual([[2], 4, 'time: 60 is not a second']);
    const inStruct = decodeFails(struct({ name: cstring('ascii'), at: time }), hexBytes('6100 0a3d'));
    expect([inStruct.path, inStruct.offset]).toEqual([['at'], 2]);
    const written = encodeFails(laps, [1, -5, 2]);
    expect([written.path, written.message]).toEqual([[1], 'time: -5 is not a time']);
    const short = decodeFails(struct({ first: time, second: time }), hexBytes('0100 02'));
    expect([short.path, short.offset, short.code]).toEqual([['second', 'seconds'], 3, 'short-read']); // the stored field that is short
  });

  test('the compiled codec reads and writes the same bytes and the same errors', () => {
    const laps = compile(array(time, 2));
    expect(encodeOk(laps, [61, 3])).toEqual(hexBytes('0101 0003'));
    const bad = decode(laps, hexBytes('0101 0040'));
    expect(E.isLeft(bad) && [bad.left.path, bad.left.offset]).toEqual([[1], 2]);
  });

  test('a stored codec without a fixed size is refused where it is declared', () => {
    expect(() => fixedMap(cstring('ascii'), { decode: (s) => s, encode: (s) => s })).toThrow(
      'fixedMap(cstring(ascii)): the stored codec has no fixed size',
    );
  });
});

describe('withModel', () => {
  const model = literal(u8, 1, 2, 3);
  const kind = withModel(u8, { name: 'kind', model: () => model });

  test('the same bytes, values, size and fast path; the model is on the definition', () => {
    expect([kind.name, kind.size, kind.readFixed, kind.writeFixed]).toEqual(['kind', 1, u8.readFixed, u8.writeFixed]);
    expect(kind.def.type === 'map' && kind.def.bijection.model?.()).toBe(model);
    checkLaws(kind, fc.integer({ min: 0, max: 255 }), { bytes: fc.uint8Array({ maxLength: 2 }) });
  });

  test('errors are the codec’s own, with path and offset', () => {
    const rec = struct({ a: u8, kind });
    const short = decodeFails(rec, hexBytes('01'));
    expect([short.path, short.offset, short.code]).toEqual([['kind'], 1, 'short-read']);
    const wide = encodeFails(rec, { a: 1, kind: 300 });
    expect(wide.path).toEqual(['kind']);
  });

  test('another JSON form replaces the codec’s', () => {
    const named = withModel(u8, { json: literal(u8, 7).json as never });
    expect(named.json).not.toBe(u8.json);
    expect(named.name).toBe(u8.name);
  });
});
