import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import {
  fileFormat,
  arena,
  array,
  checksum,
  chunkList,
  type Codec,
  crc32,
  cstring,
  encode,
  fourcc,
  pathAnnotation,
  pointer,
  sized,
  struct,
  transform,
  u8,
  u16le,
  u32le,
  xor,
} from '@savekit/core';
import { defineCodec, readChild, customDef } from '@savekit/core/kit';
import {
  checkDecodedPaths,
  checkErrorPaths,
  pathResolves,
  resolvePath,
  roundTripSuite,
  SuiteError,
} from '../src/index';

const encoded = <A>(codec: Codec<A>, value: A): Uint8Array => {
  const r = encode(codec, value);
  if (E.isLeft(r)) throw r.left;
  return r.right;
};

// One document with every core construct that used to invent path segments.
const vari = struct({ name: cstring('ascii'), value: u16le });
const framing = { marker: fourcc(), length: u32le };
const save = struct({
  chunks: sized(u16le, chunkList(framing, { Vari: vari, Pack: transform(array(vari, u8), xor('K')) })),
  table: sized(u8, arena(struct({ names: array(pointer(u8, cstring('ascii')), u8) }))),
  tail: checksum(u8, { algorithm: crc32, stored: u32le }),
});
const bytes = encoded(save, {
  chunks: [
    { id: 'Vari', body: { name: 'hp', value: 7 } },
    { id: 'Pack', body: [{ name: 'a', value: 1 }] },
    { id: 'Junk', raw: new Uint8Array([9]) },
  ],
  table: { root: { names: [{ target: 'x' }, { target: 'yz' }] }, unclaimed: [] },
  tail: 5,
});

describe('resolvePath', () => {
  test('counts the document segments that resolve, skipping annotations', () => {
    const json = { chunks: [{ id: 'Glob', body: { x: 1 } }] };
    expect(resolvePath(json, ['chunks', 0, 'body', 'x'])).toBe(4);
    expect(resolvePath(json, ['chunks', 0, pathAnnotation('lzo1x'), 'body'])).toBe(3);
    expect(resolvePath(json, ['chunks', 1, 'body'])).toBe(1);
    expect(resolvePath(json, ['chunks', 0, 'Glob'])).toBe(2);
    expect(pathResolves(json, ['chunks', 0, pathAnnotation('length')])).toBe(true);
    expect(pathResolves(json, ['chunks', 0, 'Glob'])).toBe(false);
  });
});

describe('checkDecodedPaths and checkErrorPaths', () => {
  test('the core constructs give document paths: spans, warnings and errors of cut-short input', () => {
    expect(checkDecodedPaths(save, bytes)).toEqual([]);
    const bad = bytes.slice();
    bad[bad.length - 1]! ^= 1;
    expect(checkDecodedPaths(save, bad, { checksums: 'warn' })).toEqual([]);
    expect(checkErrorPaths(save, bytes)).toEqual([]);
  });

  test('a codec that invents a segment is caught, on spans and on errors', () => {
    // A hand-written codec pushing a segment the document does not have (as chunk lists once did).
    const inventive = defineCodec<{ value: number }>({
      name: 'inventive',
      def: customDef('inventive', { model: struct({ value: u16le }) }),
      json: struct({ value: u16le }).json,
      minSize: 2,
      read: (r) => ({ value: readChild(r, 'Glob', u16le) }),
      write: (w, v) => u16le.write(w, v.value),
    });
    const codec = struct({ head: inventive });
    const input = encoded(codec, { head: { value: 3 } });
    expect(checkDecodedPaths(codec, input)).toEqual([{ source: 'span', path: 'head.Glob', resolved: 1 }]);
    expect(checkErrorPaths(codec, input)).toEqual([
      { source: 'error', path: 'head.Glob', resolved: 1, cutAt: 0 },
      { source: 'error', path: 'head.Glob', resolved: 1, cutAt: 1 },
    ]);
    const docs = fc.constant({ head: { value: 3 } });
    const format = fileFormat(codec, { id: 'inventive', title: 'inventive', extensions: ['.inv'], sniff: () => 1 });
    expect(() =>
      roundTripSuite(format, { samples: [input], codec, arbitraries: docs, numRuns: 5, record: false }),
    ).toThrow(SuiteError);
    expect(() =>
      roundTripSuite(format, { samples: [input], codec, arbitraries: docs, numRuns: 5, record: false }),
    ).toThrow(/paths? do(es)? not resolve in the document: span head\.Glob/);
    expect(
      roundTripSuite(format, {
        samples: [input],
        codec,
        arbitraries: docs,
        numRuns: 5,
        checkPaths: false,
        record: false,
      }).failures,
    ).toEqual([]);
  });

  test('the round-trip suite checks paths on derived documents of the core constructs', () => {
    const format = fileFormat(save, { id: 'paths', title: 'paths', extensions: ['.p'], sniff: () => 1 });
    const report = roundTripSuite(format, { samples: [bytes], codec: save, numRuns: 100, record: false });
    expect(report.failures).toEqual([]);
    expect(report.iterations).toBeGreaterThan(100);
  });
});
