// fixedField and segmentField: one field of a struct declaration read in place gives what decoding
// the struct gives for it, in either byte order, at any place of any buffer; a range too short is
// undefined; declarations whose field has no fixed place are refused when the field is made.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import { byteOrdered, cstring, decode, f32le, i16be, reordered, struct, u8, u16, u32, type Endian } from '../src/index';
import { fixedField } from '../src/kit';
import { GraphImageBuilder, segmentField } from '../src/graph';

const head = byteOrdered((order: Endian) =>
  struct({ tag: u32(order), kind: u8, dataType: u32(order), flags: u16(order) }),
);

describe('fixedField', () => {
  test.each<Endian>(['be', 'le'])('reads what decoding the struct reads (%s), in place', (order) => {
    const layout = head(order);
    const fields = (['tag', 'kind', 'dataType', 'flags'] as const).map((name) => fixedField(layout, name));
    expect(fields.map((f) => [f.name, f.offset, f.size])).toEqual([
      ['tag', 0, 4],
      ['kind', 4, 1],
      ['dataType', 5, 4],
      ['flags', 9, 2],
    ]);
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 11, maxLength: 11 }),
        fc.nat({ max: 5 }),
        fc.nat({ max: 5 }),
        (record, before, after) => {
          // The record somewhere in a larger buffer, read through a view and through the whole buffer.
          const buffer = new Uint8Array(before + 11 + after).fill(0xee);
          buffer.set(record, before);
          const decoded = decode(layout, record);
          if (!E.isRight(decoded)) throw new Error('an 11-byte record decodes');
          const view = buffer.subarray(before, before + 11);
          for (const field of fields) {
            const value = decoded.right.value[field.name as 'tag'];
            expect(field.read(view)).toBe(value);
            expect(field.read(buffer, before, before + 11)).toBe(value);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  test('a range too short for the field is undefined; one just long enough is read', () => {
    const dataType = fixedField(head('be'), 'dataType');
    const bytes = Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 1, 2);
    expect(dataType.read(bytes)).toBe(0x102);
    expect(dataType.read(bytes, 0, 8)).toBeUndefined();
    expect(dataType.read(bytes, 1)).toBeUndefined();
    expect(dataType.read(bytes, -1)).toBeUndefined();
    expect(dataType.read(bytes, 0, 10)).toBeUndefined();
  });

  test('reads stay right across jobs and buffers (its reader is dropped when a job ends)', async () => {
    const dataType = fixedField(head('le'), 'dataType');
    const one = Uint8Array.of(0, 0, 0, 0, 0, 1, 0, 0, 0);
    const two = Uint8Array.of(0, 0, 0, 0, 0, 2, 0, 0, 0);
    expect([dataType.read(one), dataType.read(two), dataType.read(one)]).toEqual([1, 2, 1]);
    await Promise.resolve();
    one[5] = 7;
    expect([dataType.read(one), dataType.read(two)]).toEqual([7, 2]);
    await new Promise((done) => setTimeout(done, 0));
    expect(dataType.read(two.subarray(0))).toBe(2);
  });

  test('the stored order of a reordered struct, and floats', () => {
    const layout = reordered({ a: i16be, b: f32le }, ['b', 'a']);
    const b = fixedField(layout, 'b');
    const a = fixedField(layout, 'a');
    expect([b.offset, a.offset]).toEqual([0, 4]);
    const bytes = Uint8Array.of(0, 0, 0xc0, 0x3f, 0xff, 0xfe);
    expect([b.read(bytes), a.read(bytes)]).toEqual([1.5, -2]);
  });

  test('a field without a fixed place or size is refused where it is made', () => {
    const text = struct({ name: cstring('ascii'), n: u8 });
    expect(() => fixedField(text, 'n')).toThrow('depends on the bytes');
    expect(() => fixedField(text, 'name')).toThrow('is not read at a fixed size');
    const dependent = struct({ n: u8, m: (p: { n: number }) => (p.n === 0 ? u8 : u16('le')) });
    expect(() => fixedField(dependent, 'm')).toThrow('depends on earlier fields');
    expect(() => fixedField(head('le'), 'none' as 'tag')).toThrow('has no field none');
    expect(() => fixedField(u8 as never, 'x' as never)).toThrow('is not a struct');
  });
});

describe('segmentField', () => {
  test('the field of any segment of any object, or undefined where there is none', () => {
    const dataType = fixedField(head('le'), 'dataType');
    const record = (type: number) => {
      const bytes = new Uint8Array(11);
      new DataView(bytes.buffer).setUint32(5, type, true);
      return bytes;
    };
    const builder = new GraphImageBuilder();
    const k = builder.kind('k');
    builder.add(k, 0, [], [record(7), record(8)]);
    builder.add(k, 0, [], []);
    builder.add(k, 0, [], [record(9).subarray(0, 8)]);
    builder.add(k, 0, [], [new Uint8Array(3), record(0xfffffffe)]);
    const image = builder.image([1], []);
    expect(segmentField(image, 1, dataType)).toBe(7);
    expect(segmentField(image, 1, dataType, 1)).toBe(8);
    expect(segmentField(image, 1, dataType, 2)).toBeUndefined();
    expect(segmentField(image, 2, dataType)).toBeUndefined();
    // Too short, though the data goes on after it (the next object's bytes are not read).
    expect(segmentField(image, 3, dataType)).toBeUndefined();
    expect(segmentField(image, 4, dataType)).toBeUndefined();
    expect(segmentField(image, 4, dataType, 1)).toBe(0xfffffffe);
    for (const n of [0, 5, 1.5, -1, Number.NaN]) expect(segmentField(image, n, dataType)).toBeUndefined();
    expect(segmentField(image, 1, dataType, -1)).toBeUndefined();
  });
});
