import * as E from 'fp-ts/lib/Either';
import {
  checkTreePath,
  decode,
  encode,
  FormatRegistry,
  fileFormat as formatOf,
  NAME_CONFIDENCE,
  formatsOf,
  isSaveFormat,
  isSaveTree,
  magic,
  struct,
  u8,
  type SaveFormat,
} from '../src/index';

const tiny = struct({ magic: magic('TINY'), level: u8 });
type Tiny = { magic: 'TINY'; level: number };

function fileFormat(id: string, sniffScore: number): SaveFormat<Tiny> {
  return {
    id,
    title: `Tiny ${id}`,
    extensions: ['.tiny'],
    input: 'file',
    sniff: (input) => (input instanceof Uint8Array && input[0] === 0x54 ? sniffScore : 0),
    decode: (input, options) => (input instanceof Uint8Array ? decode(tiny, input, options) : E.left(null as never)),
    encode: (doc, options) => encode(tiny, doc, options),
    json: tiny.json,
  };
}

describe('FormatRegistry', () => {
  test('picks the most confident format; ignores throwing sniffers and kinds that do not fit', () => {
    const thrower: SaveFormat<Tiny> = {
      ...fileFormat('thrower', 1),
      sniff: () => {
        throw new TypeError('bug');
      },
    };
    const treeOnly: SaveFormat<Tiny> = { ...fileFormat('tree', 1), input: 'tree' };
    const registry = new FormatRegistry([fileFormat('low', 0.3), fileFormat('high', 0.9), thrower, treeOnly]);
    const input = Uint8Array.from([0x54, 0x49, 0x4e, 0x59, 3]);
    expect(registry.sniff(input).map((r) => r.format.id)).toEqual(['high', 'low']);
    expect(registry.detect(input)?.id).toBe('high');
    expect(registry.detect(new Uint8Array([1]))).toBeUndefined();
    expect(registry.get('low')?.title).toBe('Tiny low');
    expect(registry.list()).toHaveLength(4);
    expect(() => registry.register(fileFormat('low', 1))).toThrow(/already registered/);
  });

  test("a file's name settles a close call between formats that claim it, and never claims by itself", () => {
    const starinfo: SaveFormat<Tiny> = { ...fileFormat('starinfo', 0.5), fileNames: ['starinfo.dat'] };
    const randgrp: SaveFormat<Tiny> = { ...fileFormat('randgrp', 0.6), fileNames: ['randgrp.dat'] };
    const registry = new FormatRegistry([randgrp, starinfo]);
    const input = Uint8Array.from([0x54, 0x49, 0x4e, 0x59, 3]);
    expect(registry.detect(input)?.id).toBe('randgrp'); // no name: the bytes decide
    expect(registry.detect(input, 'saves/extracted/STARINFO.DAT')?.id).toBe('starinfo'); // base name, any case
    expect(registry.detect(input, 'C:\\uqm\\starinfo.dat')?.id).toBe('starinfo');
    expect(registry.sniff(input, 'starinfo.dat')).toEqual([
      { format: starinfo, confidence: 0.5 + NAME_CONFIDENCE },
      { format: randgrp, confidence: 0.6 },
    ]);
    expect(registry.detect(input, 'other.dat')?.id).toBe('randgrp');
    // Bytes the format refuses stay refused, whatever the name.
    expect(registry.detect(new Uint8Array([1]), 'starinfo.dat')).toBeUndefined();
    // fileFormat carries the names.
    expect(formatOf(tiny, { id: 't', title: 'T', fileNames: ['tiny.dat'] }).fileNames).toEqual(['tiny.dat']);
  });

  test('save trees are maps of checked relative paths', () => {
    const tree = new Map([['world', new Uint8Array(1)]]);
    expect(isSaveTree(tree)).toBe(true);
    expect(isSaveTree(new Uint8Array(1))).toBe(false);
    expect(checkTreePath('computers/0a1b/disk')).toBeUndefined();
    for (const bad of ['', '/etc/passwd', '../x', 'a/../b', 'a//b', 'a/./b', 'C:\\x', 'a\\b', 'a\0b']) {
      expect(checkTreePath(bad)).toBeDefined();
    }
  });
});

describe('formatsOf: the formats a plugin module exports', () => {
  test('format, default and formats, each once, in that order; what is not a format is skipped', () => {
    const a = fileFormat('a', 1);
    const b = fileFormat('b', 1);
    const c = fileFormat('c', 1);
    expect(formatsOf({ formats: [c, a], default: b, format: a })).toEqual([a, b, c]);
    expect(formatsOf({ format: { id: 'half', decode: () => 0 }, formats: 'not a list', other: a })).toEqual([]);
    expect(formatsOf({})).toEqual([]);
  });

  test('isSaveFormat needs an id and sniff, decode and encode functions', () => {
    const a = fileFormat('a', 1);
    expect(isSaveFormat(a)).toBe(true);
    expect(
      [null, 1, 'a', { ...a, id: 7 }, { ...a, sniff: undefined }, { ...a, encode: 'x' }].map(isSaveFormat),
    ).toEqual([false, false, false, false, false, false]);
  });
});
