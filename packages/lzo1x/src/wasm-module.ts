/**
 * The LZO1X decoding loop as a WebAssembly module, assembled here byte by byte (no toolchain, no
 * file: the bytes are built once, in memory, on first use).
 *
 * The module exports its memory `m` and one function `d(inEnd, outBase, outEnd) → i32`: the stream
 * lies at `[0, inEnd)`, the output goes to `[outBase, outEnd)`. It returns the decompressed length, or
 * {@link WASM_REFUSED} on any bad stream, or {@link WASM_FULL} when the output would pass `outEnd`.
 * It reports no reason or offset: the caller reruns the TypeScript decoder for those, so errors are
 * the same whichever path ran. Like liblzo, copies go in whole 8-byte steps and may write up to 7
 * bytes past a run (and read up to 7 past it): the caller leaves {@link WASM_SLACK} bytes of room
 * after the input and after `outEnd`.
 *
 * @module
 */

/** {@link wasmModuleBytes}'s result for a stream the decoder refuses (any reason). */
export const WASM_REFUSED = -1;
/** {@link wasmModuleBytes}'s result when the output would not fit in `[outBase, outEnd)`. */
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
const I32_CONST = 0x41;
const I32_EQZ = 0x45;
const I32_EQ = 0x46;
const I32_NE = 0x47;
const I32_LT_U = 0x49;
const I32_GT_U = 0x4b;
const I32_LE_U = 0x4d;
const I32_GE_U = 0x4f;
const I32_ADD = 0x6a;
const I32_SUB = 0x6b;
const I32_AND = 0x71;
const I32_SHL = 0x74;
const I32_SHR_U = 0x76;
const VOID = 0x40;
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
/** A memory access with its alignment hint (log2) and offset 0. */
const mem = (opcode: number, align: number): Code => [opcode, align, 0];
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
 * Copies `count` bytes from `FROM` to `OP` in 8-byte steps (the last step may run past), or with
 * `memory.copy` when long and the source does not overlap. Leaves `OP` at the end of the copy.
 * The source must be at least 8 bytes behind (or elsewhere).
 */
const copy8: Code = [
  [get(OP), get(COUNT), I32_ADD, set(END_AT)],
  [get(COUNT), i32(64), I32_GT_U, get(FROM), get(COUNT), I32_ADD, get(OP), I32_LE_U, I32_AND],
  when(
    [
      [get(OP), get(FROM), get(COUNT), 0xfc, 10, 0, 0],
      [get(END_AT), set(OP)],
    ],
    [
      loop(
        'step',
        [get(OP), get(FROM), mem(I64_LOAD, 0), mem(I64_STORE, 0)],
        [get(FROM), i32(8), I32_ADD, set(FROM)],
        [get(OP), i32(8), I32_ADD, tee(OP), get(END_AT), I32_LT_U, brIf('step')],
      ),
      [get(END_AT), set(OP)],
    ],
  ),
];

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
    [i32(4), i32(1), get(COUNT), i32(4), I32_LT_U, SELECT, set(STATE)],
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

/** A section: its id, then its length-prefixed contents. */
const section = (id: number, contents: number[]): number[] => [id, ...uleb(contents.length), ...contents];
const name = (text: string): number[] => [text.length, ...Array.from(text, (c) => c.charCodeAt(0))];

/** The module's bytes: one function type, one function, one memory (1 page, growable), two exports. */
export function wasmModuleBytes(): Uint8Array<ArrayBuffer> {
  const code: number[] = [];
  assemble(body, code, []);
  // Locals after the parameters: ip, op, t, count, distance, state, from, endAt, length (all i32).
  const functionBody = [1, 9, I32, ...code, END];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 3, I32, I32, I32, 1, I32]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0x00, 1]),
    ...section(7, [2, ...name('m'), 0x02, 0, ...name('d'), 0x00, 0]),
    ...section(10, [1, ...uleb(functionBody.length), ...functionBody]),
  ]);
}
