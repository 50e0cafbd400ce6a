/**
 * The LZO1X decoding loop and the LZO1X-1 compressor's block loop as a WebAssembly module, assembled
 * here byte by byte (no toolchain, no file: the bytes are built once, in memory, on first use).
 *
 * The module exports its memory `m` and two functions. `d(inEnd, outBase, outEnd) → i32` decodes:
 * the stream lies at `[0, inEnd)`, the output goes to `[outBase, outEnd)`. It returns the
 * decompressed length, or {@link WASM_REFUSED} on any bad stream, or {@link WASM_FULL} when the
 * output would pass `outEnd`. It reports no reason or offset: the caller reruns the TypeScript
 * decoder for those, so errors are the same whichever code ran. `c(start, length, carried, op) → op`
 * compresses one block (see {@link DICTIONARY_BYTES} for its memory). Like liblzo, copies go in whole
 * 8-byte steps and may write up to 7 bytes past a run (and read up to 7 past it): the caller leaves
 * {@link WASM_SLACK} bytes of room after the input and after the output.
 *
 * @module
 */

/** The decoder's result for a stream it refuses (any reason). */
export const WASM_REFUSED = -1;
/** The decoder's result when the output would not fit in `[outBase, outEnd)`. */
export const WASM_FULL = -2;
/** Bytes the caller keeps free after the input and after the output's end (the 8-byte steps' overrun). */
export const WASM_SLACK = 16;

// Opcodes (WebAssembly core specification 2.0, binary format).
const BLOCK = 0x02;
const LOOP = 0x03;
const IF = 0x04;
const ELSE = 0x05;
const END = 0x0b;
const BR = 0x0c;
const BR_IF = 0x0d;
const RETURN = 0x0f;
const SELECT = 0x1b;
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const LOCAL_TEE = 0x22;
const I32_LOAD = 0x28;
const I64_LOAD = 0x29;
const I32_LOAD8_U = 0x2d;
const I32_LOAD16_U = 0x2f;
const I32_STORE = 0x36;
const I64_STORE = 0x37;
const I32_STORE8 = 0x3a;
const I32_STORE16 = 0x3b;
const I32_CONST = 0x41;
const I32_EQZ = 0x45;
const I32_EQ = 0x46;
const I32_NE = 0x47;
const I32_LT_U = 0x49;
const I32_GT_S = 0x4a;
const I32_GT_U = 0x4b;
const I32_LE_S = 0x4c;
const I32_GE_S = 0x4e;
const I32_LE_U = 0x4d;
const I32_GE_U = 0x4f;
const I32_MUL = 0x6c;
const I64_CTZ = 0x7a;
const I64_XOR = 0x85;
const I32_WRAP_I64 = 0xa7;
const I32_ADD = 0x6a;
const I32_SUB = 0x6b;
const I32_AND = 0x71;
const I32_OR = 0x72;
const I32_SHL = 0x74;
const I32_SHR_U = 0x76;
const UNREACHABLE = 0x00;
const VOID = 0x40;
/** `memory.copy 0 0` and `memory.fill 0` (bulk memory). */
const MEMORY_COPY = [0xfc, 10, 0, 0];
const MEMORY_FILL = [0xfc, 11, 0];
const I32 = 0x7f;

/** Unsigned LEB128. */
function uleb(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return bytes;
}

/** Signed LEB128 (for `i32.const`). */
function sleb(value: number): number[] {
  const bytes: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)) {
      bytes.push(byte);
      return bytes;
    }
    bytes.push(byte | 0x80);
  }
}

/**
 * A piece of code: opcodes and immediates, nested pieces, and named labels. `{ label }` opens a
 * block or loop's name, `{ to }` is a branch depth to be resolved against the open names, so the
 * code below can say `br('next')` instead of counting nesting levels.
 */
type Code = number | { readonly label: string | null } | { readonly to: string } | { readonly close: true } | Code[];

const label = (name: string | null): Code => ({ label: name });
const block = (name: string, ...body: Code[]): Code => [BLOCK, VOID, label(name), body, END, { close: true }];
const loop = (name: string, ...body: Code[]): Code => [LOOP, VOID, label(name), body, END, { close: true }];
/** `if … else … end` (an unnamed level for the branch depths). */
const when = (then: Code[], otherwise?: Code[]): Code => [
  IF,
  VOID,
  label(null),
  then,
  otherwise === undefined ? [] : [ELSE, otherwise],
  END,
  { close: true },
];
const br = (name: string): Code => [BR, { to: name }];
const brIf = (name: string): Code => [BR_IF, { to: name }];
const get = (local: number): Code => [LOCAL_GET, local];
const set = (local: number): Code => [LOCAL_SET, local];
const tee = (local: number): Code => [LOCAL_TEE, local];
const i32 = (value: number): Code => [I32_CONST, ...sleb(value)];
/** A memory access with its alignment hint (log2) and a constant offset. */
const mem = (opcode: number, align: number, offset = 0): Code => [opcode, align, offset];
/** `return value` when the condition on the stack holds. */
const failIf = (value: number): Code => when([i32(value), RETURN]);

/** Flattens code, resolving branch names to depths. */
function assemble(code: Code, out: number[], names: (string | null)[]): void {
  if (typeof code === 'number') out.push(code);
  else if (Array.isArray(code)) for (const part of code) assemble(part, out, names);
  else if ('label' in code) names.push(code.label);
  else if ('close' in code) names.pop();
  else {
    const depth = names.length - 1 - names.lastIndexOf(code.to);
    if (depth >= names.length) throw new Error(`no open label ${code.to}`);
    out.push(...uleb(depth));
  }
}

// Locals: the three parameters, then the decoder's state.
const IN_END = 0;
const OUT_BASE = 1;
const OUT_END = 2;
const IP = 3;
const OP = 4;
const T = 5;
const COUNT = 6;
const DISTANCE = 7;
const STATE = 8;
const FROM = 9;
const END_AT = 10;
const LENGTH = 11;

/** `count > inEnd − ip` (unsigned): the input cannot supply `count` more bytes. */
const inputShort = (count: Code): Code => [count, get(IN_END), get(IP), I32_SUB, I32_GT_U];
/** `count > outEnd − op`: the output cannot take `count` more bytes. */
const outputShort = (count: Code): Code => [count, get(OUT_END), get(OP), I32_SUB, I32_GT_U];

/**
 * `count = base + 255·zeros + final byte`, reading from `ip`. A run of zeros that passes the
 * output's room cannot fit: {@link WASM_FULL} then (also keeps the sum far from overflowing).
 */
const extendedLength = (base: number): Code => [
  i32(0),
  set(LENGTH),
  block(
    'done',
    loop(
      'zeros',
      [get(IP), get(IN_END), I32_GE_U, failIf(WASM_REFUSED)],
      [get(IP), mem(I32_LOAD8_U, 0), tee(T)],
      [get(IP), i32(1), I32_ADD, set(IP)],
      [get(T), brIf('done')],
      [get(LENGTH), i32(255), I32_ADD, tee(LENGTH)],
      [get(OUT_END), get(OUT_BASE), I32_SUB, i32(255), I32_ADD, I32_GT_U, failIf(WASM_FULL)],
      br('zeros'),
    ),
  ),
  [get(LENGTH), i32(base), I32_ADD, get(T), I32_ADD, set(COUNT)],
];

/**
 * Copies `count` bytes from `from` to `op` (locals) in 8-byte steps (the last step may run past),
 * or with `memory.copy` when long and the source ends before `op`. Leaves `op` at the end of the
 * copy; `endAt` is scratch. The source must be at least 8 bytes behind (or elsewhere).
 */
const copyRun = (op: number, from: number, count: number, endAt: number): Code => [
  [get(op), get(count), I32_ADD, set(endAt)],
  [get(count), i32(64), I32_GT_U, get(from), get(count), I32_ADD, get(op), I32_LE_U, I32_AND],
  when(
    [
      [get(op), get(from), get(count), MEMORY_COPY],
      [get(endAt), set(op)],
    ],
    [
      loop(
        'step',
        [get(op), get(from), mem(I64_LOAD, 0), mem(I64_STORE, 0)],
        [get(from), i32(8), I32_ADD, set(from)],
        [get(op), i32(8), I32_ADD, tee(op), get(endAt), I32_LT_U, brIf('step')],
      ),
      [get(endAt), set(op)],
    ],
  ),
];
const copy8 = copyRun(OP, FROM, COUNT, END_AT);

/** The decoding loop (see `decompress.ts` for the stream format, which the TypeScript decoder documents). */
const body: Code = [
  [get(OUT_BASE), set(OP)],
  [get(IN_END), I32_EQZ, failIf(WASM_REFUSED)],
  // First byte over 17: that many literals minus 17.
  [i32(0), mem(I32_LOAD8_U, 0), tee(T), i32(17), I32_GT_U],
  when([
    [get(T), i32(17), I32_SUB, set(COUNT), i32(1), set(IP)],
    [inputShort(get(COUNT)), failIf(WASM_REFUSED)],
    [outputShort(get(COUNT)), failIf(WASM_FULL)],
    [get(IP), set(FROM), copy8, get(IP), get(COUNT), I32_ADD, set(IP)],
    // 1–3 literals: the next opcode under 16 is a 2-byte match; 4 or more: a 3-byte one at 2049+.
    [i32(1), i32(4), get(COUNT), i32(4), I32_LT_U, SELECT, set(STATE)],
  ]),
  block(
    'stop',
    loop(
      'next',
      [get(IP), get(IN_END), I32_GE_U, failIf(WASM_REFUSED)],
      [get(IP), mem(I32_LOAD8_U, 0), set(T), get(IP), i32(1), I32_ADD, set(IP)],
      block(
        'match',
        [get(T), i32(16), I32_LT_U],
        when([
          [get(STATE), I32_EQZ],
          when([
            // A literal run of 4 or more.
            get(T),
            when([get(T), i32(3), I32_ADD, set(COUNT)], [extendedLength(15), get(COUNT), i32(3), I32_ADD, set(COUNT)]),
            [inputShort(get(COUNT)), failIf(WASM_REFUSED)],
            [outputShort(get(COUNT)), failIf(WASM_FULL)],
            [get(IP), set(FROM), copy8, get(IP), get(COUNT), I32_ADD, set(IP)],
            [i32(4), set(STATE), br('next')],
          ]),
          // A 2-byte match (after 1–3 literals) or a 3-byte one at 2049+ (after a literal run).
          [get(IP), get(IN_END), I32_GE_U, failIf(WASM_REFUSED)],
          [get(T), i32(2), I32_SHR_U, get(IP), mem(I32_LOAD8_U, 0), i32(2), I32_SHL, I32_ADD],
          [i32(2049), i32(1), get(STATE), i32(4), I32_EQ, SELECT, I32_ADD, set(DISTANCE)],
          [i32(3), i32(2), get(STATE), i32(4), I32_EQ, SELECT, set(COUNT)],
          [get(IP), i32(1), I32_ADD, set(IP), br('match')],
        ]),
        [get(T), i32(64), I32_GE_U],
        when([
          // M2.
          [get(IP), get(IN_END), I32_GE_U, failIf(WASM_REFUSED)],
          [get(T), i32(2), I32_SHR_U, i32(7), I32_AND, get(IP), mem(I32_LOAD8_U, 0), i32(3), I32_SHL, I32_ADD],
          [i32(1), I32_ADD, set(DISTANCE)],
          [get(T), i32(5), I32_SHR_U, i32(1), I32_ADD, set(COUNT)],
          [get(IP), i32(1), I32_ADD, set(IP), br('match')],
        ]),
        [get(T), i32(32), I32_GE_U],
        when([
          // M3.
          [get(T), i32(31), I32_AND, tee(COUNT)],
          when(
            [get(COUNT), i32(2), I32_ADD, set(COUNT)],
            [extendedLength(31), get(COUNT), i32(2), I32_ADD, set(COUNT)],
          ),
          [inputShort(i32(2)), failIf(WASM_REFUSED)],
          [get(IP), mem(I32_LOAD16_U, 0), tee(T), i32(2), I32_SHR_U, i32(1), I32_ADD, set(DISTANCE)],
          [get(IP), i32(2), I32_ADD, set(IP), br('match')],
        ]),
        // M4, or the end-of-stream marker.
        [get(T), i32(8), I32_AND, i32(11), I32_SHL, set(DISTANCE)],
        [get(T), i32(7), I32_AND, tee(COUNT)],
        when([get(COUNT), i32(2), I32_ADD, set(COUNT)], [extendedLength(7), get(COUNT), i32(2), I32_ADD, set(COUNT)]),
        [inputShort(i32(2)), failIf(WASM_REFUSED)],
        [get(IP), mem(I32_LOAD16_U, 0), tee(T), i32(2), I32_SHR_U, get(DISTANCE), I32_ADD, tee(DISTANCE)],
        [get(IP), i32(2), I32_ADD, set(IP)],
        [I32_EQZ, brIf('stop')],
        [get(DISTANCE), i32(0x4000), I32_ADD, set(DISTANCE)],
      ),
      // The match: from within the output, and room for it.
      [get(DISTANCE), get(OP), get(OUT_BASE), I32_SUB, I32_GT_U, failIf(WASM_REFUSED)],
      [outputShort(get(COUNT)), failIf(WASM_FULL)],
      [get(OP), get(DISTANCE), I32_SUB, set(FROM)],
      [get(DISTANCE), i32(8), I32_GE_U],
      when(
        [copy8],
        [
          // Closer than 8 bytes: byte by byte, each byte may be one just written.
          [get(OP), get(COUNT), I32_ADD, set(END_AT)],
          loop(
            'byte',
            [get(OP), get(FROM), mem(I32_LOAD8_U, 0), mem(I32_STORE8, 0)],
            [get(FROM), i32(1), I32_ADD, set(FROM)],
            [get(OP), i32(1), I32_ADD, tee(OP), get(END_AT), I32_LT_U, brIf('byte')],
          ),
        ],
      ),
      // Then 0–3 literals, from the low bits of the opcode or the first distance byte.
      [get(T), i32(3), I32_AND, tee(COUNT), I32_EQZ],
      when(
        [i32(0), set(STATE)],
        [
          [inputShort(get(COUNT)), failIf(WASM_REFUSED)],
          [outputShort(get(COUNT)), failIf(WASM_FULL)],
          [get(OP), get(IP), mem(I32_LOAD, 0), mem(I32_STORE, 0)],
          [get(OP), get(COUNT), I32_ADD, set(OP), get(IP), get(COUNT), I32_ADD, set(IP)],
          [i32(1), set(STATE)],
        ],
      ),
      br('next'),
    ),
  ),
  // The end marker: nothing may follow it.
  [get(IP), get(IN_END), I32_NE, failIf(WASM_REFUSED)],
  [get(OP), get(OUT_BASE), I32_SUB],
];

/** Bytes of the compressor's dictionary, at address 0: 2^14 positions of 16 bits. */
export const DICTIONARY_BYTES = 1 << 15;
/** Where the compressor leaves the count of literals still to emit after a block (an i32). */
export const CARRIED_AT = DICTIONARY_BYTES;
/** Where the compressor's input starts (after the dictionary and that slot). */
export const COMPRESS_INPUT_AT = DICTIONARY_BYTES + 16;

// The compressor's locals: its four parameters, then its state.
const C_START = 0;
const C_LENGTH = 1;
const C_CARRIED = 2;
const C_OP = 3;
const C_IP_END = 4;
const C_II = 5;
const C_IP = 6;
const C_TI = 7;
const C_DV = 8;
const C_INDEX = 9;
const C_MPOS = 10;
const C_MLEN = 11;
const C_K = 12;
const C_MOFF = 13;
const C_MARKER = 14;
const C_LMAX = 15;
const C_REST = 16;
const C_COUNT = 17;
const C_FROM = 18;
const C_END = 19;

/** How many of the eight bytes at two addresses are equal, counted from the first (0–8). */
const equalBytes8 = (a: Code, b: Code): Code => [
  [a, mem(I64_LOAD, 0), b, mem(I64_LOAD, 0), I64_XOR, I64_CTZ, I32_WRAP_I64, i32(3), I32_SHR_U],
];
/** `mem[op++] = value`. */
const emitByte = (value: Code): Code => [get(C_OP), value, mem(I32_STORE8, 0), get(C_OP), i32(1), I32_ADD, set(C_OP)];
/** `rest` as LZO's length continuation: a zero byte per 255, then the remainder. */
const emitRest: Code = [
  block(
    'short',
    loop('zeros', [get(C_REST), i32(255), I32_LE_U, brIf('short')], emitByte(i32(0)), [
      get(C_REST),
      i32(255),
      I32_SUB,
      set(C_REST),
      br('zeros'),
    ]),
  ),
  emitByte(get(C_REST)),
];

/**
 * One block of LZO1X-1 compression, `c(start, length, carried, op) → op`: the TypeScript
 * `compressBlock` of `compress.ts` step for step (so the bytes are liblzo's), on absolute addresses.
 * The count of literals left for the caller goes to {@link CARRIED_AT}.
 */
const compressBody: Code = [
  [get(C_START), get(C_LENGTH), I32_ADD, i32(20), I32_SUB, set(C_IP_END)],
  [get(C_START), set(C_II), get(C_CARRIED), set(C_TI)],
  [get(C_START), i32(4), get(C_CARRIED), I32_SUB, i32(0), get(C_CARRIED), i32(4), I32_LT_U, SELECT, I32_ADD, set(C_IP)],
  [i32(0), i32(0), i32(DICTIONARY_BYTES), MEMORY_FILL],
  [get(C_IP), i32(1), get(C_IP), get(C_II), I32_SUB, i32(5), I32_SHR_U, I32_ADD, I32_ADD, set(C_IP)],
  loop(
    'outer',
    // Find a position whose four bytes were seen before.
    block(
      'found',
      loop(
        'search',
        [get(C_IP), get(C_IP_END), I32_GE_S],
        when([
          [i32(CARRIED_AT), get(C_START), get(C_LENGTH), I32_ADD, get(C_II), get(C_TI), I32_SUB, I32_SUB],
          [mem(I32_STORE, 2), get(C_OP), RETURN],
        ]),
        [get(C_IP), mem(I32_LOAD, 0), tee(C_DV), i32(0x1824429d), I32_MUL, i32(32 - 14), I32_SHR_U, i32(1), I32_SHL],
        [tee(C_INDEX), mem(I32_LOAD16_U, 1), get(C_START), I32_ADD, set(C_MPOS)],
        [get(C_INDEX), get(C_IP), get(C_START), I32_SUB, mem(I32_STORE16, 1)],
        [get(C_DV), get(C_MPOS), mem(I32_LOAD, 0), I32_EQ, brIf('found')],
        [get(C_IP), i32(1), get(C_IP), get(C_II), I32_SUB, i32(5), I32_SHR_U, I32_ADD, I32_ADD, set(C_IP)],
        br('search'),
      ),
    ),
    // Emit the literals before the match (and any carried from the previous block).
    [get(C_II), get(C_TI), I32_SUB, set(C_II), i32(0), set(C_TI)],
    [get(C_IP), get(C_II), I32_GT_S],
    when([
      [get(C_IP), get(C_II), I32_SUB, set(C_COUNT)],
      [get(C_COUNT), i32(3), I32_LE_U],
      when(
        // 1–3: carried in the state bits of the previous instruction.
        [
          [get(C_OP), i32(2), I32_SUB, tee(C_REST), get(C_REST), mem(I32_LOAD8_U, 0)],
          [get(C_COUNT), I32_OR, mem(I32_STORE8, 0)],
        ],
        [
          [get(C_COUNT), i32(18), I32_LE_U],
          when(
            [emitByte([get(C_COUNT), i32(3), I32_SUB])],
            [emitByte(i32(0)), [get(C_COUNT), i32(18), I32_SUB, set(C_REST)], emitRest],
          ),
        ],
      ),
      [get(C_II), set(C_FROM)],
      copyRun(C_OP, C_FROM, C_COUNT, C_END),
    ]),
    // Extend the match eight bytes at a time, as liblzo does on 64-bit machines.
    [i32(4), set(C_MLEN)],
    [equalBytes8([get(C_IP), i32(4), I32_ADD], [get(C_MPOS), i32(4), I32_ADD]), tee(C_K), i32(8), I32_EQ],
    when(
      [
        block(
          'stopped',
          loop(
            'more',
            [get(C_MLEN), i32(8), I32_ADD, set(C_MLEN)],
            [equalBytes8([get(C_IP), get(C_MLEN), I32_ADD], [get(C_MPOS), get(C_MLEN), I32_ADD]), set(C_K)],
            [get(C_IP), get(C_MLEN), I32_ADD, get(C_IP_END), I32_GE_S, brIf('stopped')],
            [get(C_K), i32(8), I32_EQ, brIf('more')],
          ),
          [get(C_MLEN), get(C_K), I32_ADD, set(C_MLEN)],
        ),
      ],
      [[get(C_MLEN), get(C_K), I32_ADD, set(C_MLEN)]],
    ),
    [get(C_IP), get(C_MPOS), I32_SUB, set(C_MOFF)],
    [get(C_IP), get(C_MLEN), I32_ADD, tee(C_IP), set(C_II)],
    [get(C_MLEN), i32(8), I32_LE_S, get(C_MOFF), i32(0x800), I32_LE_S, I32_AND],
    when(
      [
        // M2: two bytes.
        [get(C_MOFF), i32(1), I32_SUB, set(C_MOFF)],
        emitByte([
          get(C_MLEN),
          i32(1),
          I32_SUB,
          i32(5),
          I32_SHL,
          get(C_MOFF),
          i32(7),
          I32_AND,
          i32(2),
          I32_SHL,
          I32_OR,
        ]),
        emitByte([get(C_MOFF), i32(3), I32_SHR_U]),
      ],
      [
        [get(C_MOFF), i32(0x4000), I32_LE_S],
        when(
          [
            [get(C_MOFF), i32(1), I32_SUB, set(C_MOFF)],
            [i32(32), set(C_MARKER), i32(33), set(C_LMAX)],
          ],
          [
            [get(C_MOFF), i32(0x4000), I32_SUB, tee(C_MOFF), i32(11), I32_SHR_U, i32(8), I32_AND, i32(16), I32_OR],
            [set(C_MARKER), i32(9), set(C_LMAX)],
          ],
        ),
        [get(C_MLEN), get(C_LMAX), I32_LE_S],
        when(
          [emitByte([get(C_MARKER), get(C_MLEN), i32(2), I32_SUB, I32_OR])],
          [emitByte(get(C_MARKER)), [get(C_MLEN), get(C_LMAX), I32_SUB, set(C_REST)], emitRest],
        ),
        emitByte([get(C_MOFF), i32(2), I32_SHL]),
        emitByte([get(C_MOFF), i32(6), I32_SHR_U]),
      ],
    ),
    br('outer'),
  ),
  UNREACHABLE,
];

/** A section: its id, then its length-prefixed contents. */
const section = (id: number, contents: number[]): number[] => [id, ...uleb(contents.length), ...contents];
const name = (text: string): number[] => [text.length, ...Array.from(text, (c) => c.charCodeAt(0))];

/** The module's bytes: two function types, the decoder and the compressor, one memory (1 page, growable), three exports. */
export function wasmModuleBytes(): Uint8Array<ArrayBuffer> {
  const decoder: number[] = [];
  assemble(body, decoder, []);
  const compressor: number[] = [];
  assemble(compressBody, compressor, []);
  // Locals after the parameters, all i32: the decoder's 9, the compressor's 16.
  const decoderBody = [1, 9, I32, ...decoder, END];
  const compressorBody = [1, 16, I32, ...compressor, END];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [2, 0x60, 3, I32, I32, I32, 1, I32, 0x60, 4, I32, I32, I32, I32, 1, I32]),
    ...section(3, [2, 0, 1]),
    ...section(5, [1, 0x00, 1]),
    ...section(7, [3, ...name('m'), 0x02, 0, ...name('d'), 0x00, 0, ...name('c'), 0x00, 1]),
    ...section(10, [2, ...uleb(decoderBody.length), ...decoderBody, ...uleb(compressorBody.length), ...compressorBody]),
  ]);
}
