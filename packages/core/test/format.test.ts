import * as E from 'fp-ts/lib/Either';
import {
  checkTreePath,
  decode,
  encode,
  FormatRegistry,
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
