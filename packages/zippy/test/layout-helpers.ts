// Fixtures for the layout tests: the first layout's worked example as it was written (container
// version 1), and two independent rewrites of a file — every integer and number byte-swapped field by
// field (what a machine of the other byte order writes), and a version-2 file in version 1's layout —
// walking each segment by the README's tables, not by the package's code.
import { decodeOrThrow, encodeOrThrow } from '@savekit/core';
import { zippyFile, type ZippyFile, type ZObject } from '@savekit/zippy';

/** The worked example as container version 1 wrote it (the README's dump before version 2): 248 bytes. */
export const V1_WORKED_EXAMPLE = Uint8Array.from(
  Buffer.from(
    '5a5341560001000000000002000000030000000100000000000000240000006c' +
      '000000014c554100000000000000000300000001000000000000005044415441' +
      '0000000400000000000000010000005000000014414441540000001400000000' +
      '000000010000006400000020000000010000000200000003000000404c554100' +
      '00000002033ff000000000000004000000016100000003040000000473656c66' +
      '050000000004000000017505000000010400000001760500000002000000000d' +
      '444154410000000004deadbeef0000000000001c414441540000000100000002' +
      '3ff8000000000000c0000000000000005a454e44adc7bd89',
    'hex',
  ),
);

/** Walks a segment as the README lays it out, calling `field(at, size)` for every integer and number. */
function walk(
  segment: Uint8Array,
  tag: string,
  major: 1 | 2,
  numberSize: number,
  field: (at: number, size: number) => void,
) {
  const view = new DataView(segment.buffer, segment.byteOffset, segment.byteLength);
  let p = 0;
  const u32 = (): number => {
    const v = view.getUint32(p, false); // read before `field` may rewrite it
    field(p, 4);
    p += 4;
    return v;
  };
  const number = () => {
    field(p, numberSize);
    p += numberSize;
  };
  const value = () => {
    const type = segment[p++];
    if (type === 0x03) number();
    else if (type === 0x04) {
      const length = u32();
      p += length;
    } else if (type === 0x05) u32();
    else if (type === 0x06) {
      field(p, 8);
      p += 8;
    } else if (type! > 0x06) throw new Error(`value type ${type} at ${p - 1}`);
  };
  u32(); // the tag
  const userdata = () => {
    value();
    {
      const length = u32();
      p += length;
    }
  };
  const table = () => {
    const n = u32();
    for (let i = 0; i < n; i++) value();
    const m = u32();
    for (let i = 0; i < 2 * m; i++) value();
    value();
  };
  if (tag === 'LUA\0') {
    if (major === 1) return table();
    const type = u32();
    if (type === 5) table();
    else if (type === 7) userdata();
    else value();
    return;
  }
  if (tag === 'DATA' && major === 1) return userdata();
  const dataType = u32();
  if (dataType === 1) {
    const n = u32();
    for (let i = 0; i < n; i++) number();
  } else if (dataType === 2) {
    number();
    number();
    u32();
  } else if (dataType === 3) {
    const n = u32();
    for (let i = 0; i < n; i++) value();
  } else if (dataType === 4) {
    {
      const length = u32();
      p += length;
    }
    value();
    value();
    u32();
  } else if (dataType === 5) {
    value();
    value();
    {
      const length = u32();
      p += length;
    }
  } else throw new Error(`DataType ${dataType}`);
}

/** `bytes` (a big-endian file) with every integer and number byte-swapped: magic `VASZ`. */
export function byteSwapped(bytes: Uint8Array): Uint8Array {
  const file: ZippyFile = decodeOrThrow(zippyFile, bytes);
  if (file.byteOrder !== 'be') throw new Error('byteSwapped takes a big-endian file');
  const numberSize = file.numberFormat === 1 ? 4 : 8;
  const objects = file.objects.map((o): ZObject => {
    const segment = o.segments[0]!.slice();
    walk(segment, o.tag, file.major, numberSize, (at, size) => segment.subarray(at, at + size).reverse());
    return { ...o, segments: [segment, ...o.segments.slice(1)] };
  });
  return encodeOrThrow(zippyFile, { ...file, byteOrder: 'le', objects });
}

/** A big-endian version-2 file rewritten in version 1's layout (`ADAT` structures, `DATA` userdata, no Lua type). */
export function asVersion1(bytes: Uint8Array): Uint8Array {
  const file: ZippyFile = decodeOrThrow(zippyFile, bytes);
  const objects = file.objects.map((o): ZObject => {
    const s = o.segments[0]!;
    const rest = o.segments.slice(1);
    if (o.tag === 'DATA')
      return { ...o, tag: 'ADAT', segments: [Uint8Array.from([0x41, 0x44, 0x41, 0x54, ...s.subarray(4)]), ...rest] };
    if (o.tag !== 'LUA\0') return o;
    const type = new DataView(s.buffer, s.byteOffset).getUint32(4, false);
    if (type === 5) return { ...o, segments: [Uint8Array.from([...s.subarray(0, 4), ...s.subarray(8)]), ...rest] };
    if (type === 7)
      return { ...o, tag: 'DATA', segments: [Uint8Array.from([0x44, 0x41, 0x54, 0x41, ...s.subarray(8)]), ...rest] };
    throw new Error('version 1 has no objects for nil, booleans, numbers or strings');
  });
  return encodeOrThrow(zippyFile, { ...file, major: 1, objects });
}
