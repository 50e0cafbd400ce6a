// Errors inside a C structure's payload name the offset of the value they are about: a reference
// slot the object does not have, in a List's third item, a Class's members or an Instance's fields,
// is refused at that value's slot bytes — not at the payload's start — and a segment that does not
// start with ADATA_TAG is refused at 0 before any payload is read.
import { encodeOrThrow } from '@savekit/core';
import {
  adataSegment,
  allocateAData,
  DataType,
  restoreAData,
  SegmentError,
  SegmentReader,
  ZClass,
} from '@savekit/zippy';

const segment = adataSegment();
const klass = new ZClass('K', null, null, false);

/** The SegmentError restoring `bytes` as a structure of `dataType` throws; slot 0 is a Class, others unknown. */
function refusal(dataType: number, bytes: Uint8Array): SegmentError {
  const reader = new SegmentReader(bytes, (slot, at) => {
    if (slot === 0) return klass;
    throw new SegmentError(`no reference slot ${slot}`, at);
  });
  try {
    restoreAData(allocateAData(dataType), reader, { value: (v) => v });
  } catch (error) {
    if (error instanceof SegmentError) return error;
    throw error;
  }
  throw new Error('restored');
}

// Each case: the structure, its payload, and where the refused slot's bytes are.
test.each([
  // tag 0–3, DataType 4–7, count 8–11, nil at 12, true at 13, a reference at 14 (its slot at 15).
  ['a List item: at its own slot bytes', DataType.List, { items: [null, true, { slot: 7 }] }, 15],
  // name 8–12 (length, 'C'), superclass nil at 13, members a reference at 14 (slot at 15).
  [
    "a Class's members: after its name and superclass",
    DataType.Class,
    { name: 'C', superclass: null, members: { slot: 7 }, bindByName: 0 },
    15,
  ],
  // class a reference at 8 (slot 0, a Class), fields a reference at 13 (slot at 14).
  [
    "an Instance's fields: after its class reference",
    DataType.Instance,
    { cls: { slot: 0 }, fields: { slot: 7 }, native: new Uint8Array(0) },
    14,
  ],
] as const)('%s', (_name, dataType, payload, offset) => {
  const bytes = encodeOrThrow(segment, { tag: 0x44415441, dataType, payload } as never);
  expect(refusal(dataType, bytes).offset).toBe(offset);
});

test('a segment that is not a structure: unknown-tag at 0, whatever follows', () => {
  const bytes = Uint8Array.of(0x58, 0x58, 0x58, 0x58, 0, 0, 0, 3, 0xff, 0xff, 0xff, 0xff);
  const error = refusal(DataType.List, bytes);
  expect([error.offset, error.code]).toEqual([0, 'unknown-tag']);
});
