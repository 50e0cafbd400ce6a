// dataTypeAt reads the DataType (a v2 LUA\0 object's Lua type) through the declared head of
// segment 0: a segment too short to hold it is the same short-read DecodeError at the object,
// whether the file is read as a document (readSavefile) or as an image (loadLua).
import * as E from 'fp-ts/lib/Either';
import type { GraphSaver } from '@savekit/core/graph';
import { adataRestorer, readSavefile, writeSavefile } from '@savekit/zippy';
import { loadLua } from '@savekit/zippy/lua';
import { newState } from './lua-helpers';

/** A file of one object of `kind` whose segment 0 is `segment`. */
function fileOf(kind: string, segment: Uint8Array, byteOrder: 'be' | 'le'): Uint8Array {
  const root = {};
  const saver: GraphSaver<object> = {
    kindOf: () => kind,
    save: (_object, sink) => sink.writeData(segment),
    sizeOf: () => 0,
  };
  const written = writeSavefile([root], saver, { byteOrder });
  if (E.isLeft(written)) throw written.left;
  return written.right;
}

/** `length` bytes starting with the u32 `tag` in `byteOrder` (the rest zero). */
function tagged(tag: number, length: number, byteOrder: 'be' | 'le'): Uint8Array {
  const bytes = new Uint8Array(length);
  new DataView(bytes.buffer).setUint32(0, tag, byteOrder === 'le');
  return bytes;
}

const failure = (result: E.Either<{ path: unknown; offset: number; code: string; message: string }, unknown>) =>
  E.isLeft(result) ? [result.left.path, result.left.offset, result.left.code, result.left.message] : 'loaded';

describe.each(['be', 'le'] as const)('%s', (byteOrder) => {
  test('a C structure whose segment 0 is shorter than its head: short-read at the object', () => {
    const file = fileOf('DATA', tagged(0x44415441, 7, byteOrder), byteOrder);
    expect(failure(readSavefile(file, adataRestorer))).toEqual([
      ['objects', 0],
      0,
      'short-read',
      'object 1: segment 0 has no DataType',
    ]);
  });

  test('a Lua value whose segment 0 is shorter than its head: short-read at the object', () => {
    const file = fileOf('LUA\0', tagged(0x4c554100, 4, byteOrder), byteOrder);
    expect(failure(loadLua(newState(), file))).toEqual([
      ['objects', 0],
      0,
      'short-read',
      'object 1: segment 0 has no DataType',
    ]);
  });

  test('the DataType is read in the file’s byte order', () => {
    // DataType 3 (a List) of no items: the head, then a u32 count of 0.
    const head = tagged(0x44415441, 12, byteOrder);
    new DataView(head.buffer).setUint32(4, 3, byteOrder === 'le');
    const read = readSavefile(fileOf('DATA', head, byteOrder), adataRestorer);
    expect(E.isRight(read) && read.right.roots[0]?.constructor.name).toBe('List');
  });
});
