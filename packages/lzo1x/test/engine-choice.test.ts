import { chooseEngine, compress, decompress, lastEngine, LzoError } from '../src/index';

// The public engine choice: the same bytes and errors through each code, the choice kept until changed.
describe('chooseEngine', () => {
  afterEach(() => chooseEngine('auto'));
  const input = new Uint8Array(100_000);
  for (let i = 0; i < input.length; i++) input[i] = i % 97 < 40 ? (i * 7) & 0x3f : 'IMP_RUN'.charCodeAt(i % 7);

  it("'typescript' runs no WebAssembly and gives the same stream and output as 'wasm'", () => {
    chooseEngine('wasm');
    const viaWasm = compress(input);
    expect(lastEngine()).toBe('wasm');
    chooseEngine('typescript');
    const viaTs = compress(input);
    expect(lastEngine()).toBe('typescript');
    expect(viaTs).toEqual(viaWasm);
    const back = decompress(viaTs, { outputLength: input.length });
    expect(lastEngine()).toBe('typescript');
    expect(back).toEqual(input);
  });

  it("'typescript' keeps a cut stream's typed error", () => {
    chooseEngine('wasm');
    const packed = compress(input);
    chooseEngine('typescript');
    const cut = packed.subarray(0, packed.length >> 1);
    expect(() => decompress(cut, { outputLength: input.length })).toThrow(LzoError);
    expect(lastEngine()).toBe('typescript');
  });

  it("'auto' uses WebAssembly again where Node allows it", () => {
    chooseEngine('typescript');
    chooseEngine('auto');
    compress(input);
    expect(lastEngine()).toBe('wasm');
  });

  it('refuses an unknown choice', () => {
    expect(() => chooseEngine('native' as never)).toThrow(TypeError);
    compress(input);
    expect(lastEngine()).toBe('wasm');
  });
});
