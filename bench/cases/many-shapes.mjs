// Many struct shapes in one process: ten fixed-layout structs (different names, widths, byte orders)
// are compiled and run before anything is measured, as a format with many record types does. Then
// the flat struct of flat-struct.mjs (four u32le) is timed against hand-written code, and all ten
// shapes together against binary-parser (which generates a function per shape).
import { Parser } from 'binary-parser';
import * as E from 'fp-ts/lib/Either.js';
import { array, compile, decode, encode, struct } from '@savekit/core';
import { f32le, f64le, i16le, i32le, i8, u16be, u16le, u32be, u32le, u8 } from '@savekit/core';
import { flatRecords } from '../data.mjs';

// [name, savekit codec, binary-parser method, size, DataView getter, little-endian]
const T = {
  u8: [u8, 'uint8', 1, 'getUint8', true],
  i8: [i8, 'int8', 1, 'getInt8', true],
  u16le: [u16le, 'uint16le', 2, 'getUint16', true],
  u16be: [u16be, 'uint16be', 2, 'getUint16', false],
  i16le: [i16le, 'int16le', 2, 'getInt16', true],
  u32le: [u32le, 'uint32le', 4, 'getUint32', true],
  u32be: [u32be, 'uint32be', 4, 'getUint32', false],
  i32le: [i32le, 'int32le', 4, 'getInt32', true],
  f32le: [f32le, 'floatle', 4, 'getFloat32', true],
  f64le: [f64le, 'doublele', 8, 'getFloat64', true],
};

/** Field lists of the ten shapes; the first is flat-struct.mjs's record. */
const SHAPES = [
  { a: 'u32le', b: 'u32le', c: 'u32le', d: 'u32le' },
  { id: 'u16le', kind: 'u8', flags: 'u8', x: 'f32le', y: 'f32le' },
  { tag: 'u32be', len: 'u16be', crc: 'u32be' },
  { hp: 'i16le', mp: 'i16le', level: 'u8', exp: 'u32le', gold: 'i32le', str: 'u8', dex: 'u8' },
  { t: 'f64le', v: 'f32le' },
  { r: 'u8', g: 'u8', b: 'u8', alpha: 'u8', depth: 'u16le', stencil: 'u16le' },
  { left: 'i32le', top: 'i32le', right: 'i32le', bottom: 'i32le', z: 'i8', layer: 'u8' },
  { seed: 'u32le', turn: 'u16le', phase: 'u8', owner: 'i8', score: 'f64le' },
  {
    p0: 'u16le',
    p1: 'u16le',
    p2: 'u16le',
    p3: 'u16le',
    p4: 'u16le',
    p5: 'u16le',
    p6: 'u16le',
    p7: 'u16le',
    p8: 'u16le',
  },
  { version: 'u8', size: 'u32le', offset: 'u32le', mtime: 'u32le' },
];

export async function cases(quick, { compare = false } = {}) {
  const count = quick ? 1000 : 100_000;
  const each = quick ? 100 : 10_000;
  const shapes = SHAPES.map((fields) => {
    const entries = Object.entries(fields);
    const size = entries.reduce((n, [, t]) => n + T[t][2], 0);
    const plain = struct(Object.fromEntries(entries.map(([k, t]) => [k, T[t][0]])));
    const plainMany = array(plain, each);
    const bytes = new Uint8Array(size * each);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 131 + 7) & 0x7f; // no NaN floats
    let bp = new Parser();
    for (const [k, t] of entries) bp = bp[T[t][1]](k);
    const bpMany = new Parser().array('items', { type: bp, length: each });
    const many = compile(plainMany);
    const values = unwrap(decode(many, bytes)).value;
    return { size, plainMany, many, bytes, bpMany, values };
  });
  // Every shape decoded and encoded enough times to be optimised before anything is measured.
  for (let round = 0; round < (quick ? 1 : 30); round++) {
    for (const s of shapes) {
      unwrap(decode(s.many, s.bytes));
      unwrap(encode(s.many, s.values));
    }
  }

  const { bytes, values, handDecode: handMany, handEncode: encodeHand } = flatRecords(count);
  const plainRecords = array(struct({ a: u32le, b: u32le, c: u32le, d: u32le }), count);
  const records = compile(plainRecords);
  const interpreted = (peer) => (compare ? [{ name: 'savekit (interpreted)', ...peer }] : []);
  // The interpreted peers decode with `compiled: false`: a struct or array runs its plan otherwise.
  const INTERPRETED = { compiled: false };
  const decodeAll = (key, options) => () => shapes.map((s) => unwrap(decode(s[key], s.bytes, options)).value);
  const encodeAll = (key, options) => () => shapes.map((s) => unwrap(encode(s[key], s.values, options)));
  const allBytes = shapes.reduce((n, s) => n + s.bytes.length, 0);
  return [
    {
      name: `many-shapes flat decode ×${count}`,
      description: `flat-struct's ${count} records of four u32le, after ten struct shapes ran in the process`,
      bytesPerOp: bytes.length,
      ours: 'savekit',
      peers: [
        { name: 'savekit', run: () => unwrap(decode(records, bytes)).value },
        ...interpreted({ run: () => unwrap(decode(plainRecords, bytes, INTERPRETED)).value }),
        { name: 'DataView (hand-written)', run: handMany },
      ],
    },
    {
      name: `many-shapes flat encode ×${count}`,
      description: `flat-struct's ${count} records of four u32le written, after ten struct shapes ran in the process`,
      bytesPerOp: bytes.length,
      ours: 'savekit',
      peers: [
        { name: 'savekit', run: () => unwrap(encode(records, values)) },
        ...interpreted({ run: () => unwrap(encode(plainRecords, values, INTERPRETED)) }),
        { name: 'DataView (hand-written)', run: encodeHand },
      ],
    },
    {
      name: `many-shapes decode ten shapes ×${each}`,
      description: `${each} records of each of ten struct shapes`,
      bytesPerOp: allBytes,
      ours: 'savekit',
      peers: [
        { name: 'savekit', run: decodeAll('many') },
        ...interpreted({ run: decodeAll('plainMany', INTERPRETED) }),
        {
          name: 'binary-parser',
          run: () => shapes.map((s) => s.bpMany.parse(s.bytes).items),
          check: () => shapes.map((s) => s.bpMany.parse(s.bytes).items.map((o) => ({ ...o }))),
        },
      ],
    },
    {
      name: `many-shapes encode ten shapes ×${each}`,
      description: `${each} records of each of ten struct shapes written`,
      bytesPerOp: allBytes,
      ours: 'savekit',
      peers: [
        { name: 'savekit', run: encodeAll('many') },
        ...interpreted({ run: encodeAll('plainMany', INTERPRETED) }),
      ],
    },
  ];
}

function unwrap(result) {
  if (E.isLeft(result)) throw result.left;
  return result.right;
}
