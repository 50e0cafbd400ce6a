// Flat structs: four u32le (16 bytes), decoded one record per call and as an array of records.
import { Parser } from 'binary-parser';
import * as r from 'restructure';
import * as tb from 'typed-binary';
import { compileKsy, KaitaiStream } from '../peers/kaitai.mjs';
import * as E from 'fp-ts/lib/Either.js';
import { array, compile, decode, decoder, encode, struct, u32le } from '@savekit/core';
import { flatRecords } from '../data.mjs';

export async function cases(quick, { compare = false } = {}) {
  // FLAT_COUNT (a diagnostic) sets the record count: how fast a decode of many records is depends
  // on where the collector's young-generation scavenges fall, so one count alone can mislead.
  const count = Number(process.env.FLAT_COUNT) || (quick ? 1000 : 100_000);
  const { bytes, values, handDecode: handMany, handEncode: encodeHand } = flatRecords(count);
  const one = bytes.subarray(0, 16);
  const oneView = new DataView(one.buffer, one.byteOffset, 16);

  // savekit runs compiled codecs; --compare adds the interpreted ones (the same declarations, with
  // `compiled: false`: a struct or array runs its plan otherwise).
  const INTERPRETED = { compiled: false };
  const plainRecord = struct({ a: u32le, b: u32le, c: u32le, d: u32le });
  const plainRecords = array(plainRecord, count);
  const record = compile(plainRecord);
  const records = compile(plainRecords);
  const readRecord = decoder(record);
  const interpreted = (peer) => (compare ? [{ name: 'savekit (interpreted)', ...peer }] : []);
  const bpRecord = new Parser().uint32le('a').uint32le('b').uint32le('c').uint32le('d');
  const bpRecords = new Parser().array('items', { type: bpRecord, length: count });
  const rsRecord = new r.Struct({ a: r.uint32le, b: r.uint32le, c: r.uint32le, d: r.uint32le });
  const rsRecords = new r.Array(rsRecord, count);
  const tbRecord = tb.object({ a: tb.u32, b: tb.u32, c: tb.u32, d: tb.u32 });
  const tbRecords = tb.arrayOf(tbRecord, count);
  const tbRead = (schema, input) => schema.read(new tb.BufferReader(input, { endianness: 'little' }));
  const tbWrite = (schema, value, size) => {
    const out = new ArrayBuffer(size);
    schema.write(new tb.BufferWriter(out, { endianness: 'little' }), value);
    return new Uint8Array(out);
  };
  const u4 = (id) => ({ id, type: 'u4' });
  const KsRecords = await compileKsy({
    meta: { id: 'flat_records', endian: 'le' },
    seq: [{ id: 'records', type: 'record', repeat: 'eos' }],
    types: { record: { seq: [u4('a'), u4('b'), u4('c'), u4('d')] } },
  });
  const KsRecord = await compileKsy({
    meta: { id: 'flat_record', endian: 'le' },
    seq: [u4('a'), u4('b'), u4('c'), u4('d')],
  });
  const ksMany = () => new KsRecords(new KaitaiStream(bytes)).records;
  const ksOne = () => new KsRecord(new KaitaiStream(one));

  const handOne = () => ({
    a: oneView.getUint32(0, true),
    b: oneView.getUint32(4, true),
    c: oneView.getUint32(8, true),
    d: oneView.getUint32(12, true),
  });
  const ours = (codec, input, options) => () => {
    const result = decode(codec, input, options);
    if (E.isLeft(result)) throw result.left;
    return result.right.value;
  };
  const plain = (o) => ({ a: o.a, b: o.b, c: o.c, d: o.d });

  const encodeWith = (codec, options) => () => {
    const result = encode(codec, values, options);
    if (E.isLeft(result)) throw result.left;
    return result.right;
  };
  const encodeOurs = encodeWith(records);
  return [
    {
      name: `flat-struct encode ×${count}`,
      description: `${count} records of 16 bytes written to one buffer`,
      bytesPerOp: bytes.length,
      ours: 'savekit',
      peers: [
        { name: 'savekit', run: encodeOurs },
        ...interpreted({ run: encodeWith(plainRecords, INTERPRETED) }),
        { name: 'DataView (hand-written)', run: encodeHand },
        {
          name: 'restructure',
          run: () => rsRecords.toBuffer(values),
          check: () => new Uint8Array(rsRecords.toBuffer(values)),
        },
        { name: 'typed-binary', run: () => tbWrite(tbRecords, values, count * 16) },
        { name: 'binary-parser', run: () => undefined, fails: 'binary-parser only decodes' },
        { name: 'Kaitai Struct', run: () => undefined, fails: "Kaitai Struct's JavaScript target only reads" },
      ],
    },
    {
      name: 'flat-struct decode ×1',
      description:
        'one 16-byte struct of four u32le per call (per-call overhead dominates); savekit: the hot-loop entry `decoder(codec)`',
      bytesPerOp: 16,
      ours: 'savekit',
      peers: [
        { name: 'savekit', run: () => readRecord(one) },
        { name: 'savekit decode()', run: ours(record, one) },
        ...interpreted({ run: ours(plainRecord, one, INTERPRETED) }),
        { name: 'DataView (hand-written)', run: handOne },
        { name: 'binary-parser', run: () => bpRecord.parse(one), check: () => plain(bpRecord.parse(one)) },
        { name: 'restructure', run: () => rsRecord.fromBuffer(one), check: () => plain(rsRecord.fromBuffer(one)) },
        { name: 'typed-binary', run: () => tbRead(tbRecord, one) },
        { name: 'Kaitai Struct', run: ksOne, check: () => plain(ksOne()) },
      ],
    },
    {
      name: `flat-struct decode ×${count}`,
      description: `${count} records of 16 bytes in one buffer`,
      bytesPerOp: bytes.length,
      ours: 'savekit',
      peers: [
        { name: 'savekit', run: ours(records, bytes) },
        ...interpreted({ run: ours(plainRecords, bytes, INTERPRETED) }),
        { name: 'DataView (hand-written)', run: handMany },
        {
          name: 'binary-parser',
          run: () => bpRecords.parse(bytes).items,
          check: () => bpRecords.parse(bytes).items.map(plain),
        },
        {
          name: 'restructure',
          run: () => rsRecords.fromBuffer(bytes),
          check: () => rsRecords.fromBuffer(bytes).map(plain),
        },
        { name: 'typed-binary', run: () => tbRead(tbRecords, bytes) },
        { name: 'Kaitai Struct', run: ksMany, check: () => ksMany().map(plain) },
      ],
    },
  ];
}
