// Law checks shared by the core's tests: every codec must satisfy
//   decode(encode(v)) = v   for arbitrary valid values, and
//   encode(decode(b)) = b   for every byte string it accepts.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import { decode, encode, fromJson, toJson, type Codec } from '../src/index';

/** Runs per law; the issue asks for at least 1,000 each. */
export const RUNS = 1000;

export function encodeOk<A>(codec: Codec<A>, value: A): Uint8Array {
  const result = encode(codec, value);
  if (E.isLeft(result)) throw new Error(`encode failed: ${result.left.toString()}`);
  return result.right;
}

/** Random bytes, and encodings of valid values with a few bytes changed (so many are accepted). */
export function candidateBytes<A>(codec: Codec<A>, values: fc.Arbitrary<A>): fc.Arbitrary<Uint8Array> {
  const mutated = fc
    .tuple(values, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }), fc.nat({ max: 8 }))
    .map(([value, flips, cut]) => {
      const bytes = encodeOk(codec, value).slice();
      for (const [at, b] of flips) if (bytes.length > 0) bytes[at % bytes.length] = b;
      return cut === 0 && bytes.length > 0 ? bytes.subarray(0, bytes.length - 1) : bytes;
    });
  return fc.oneof(
    fc.uint8Array({ maxLength: 64 }),
    mutated,
    values.map((v) => encodeOk(codec, v)),
  );
}

export interface LawOptions<A> {
  /** Byte strings to try for the second law; defaults to {@link candidateBytes}. */
  readonly bytes?: fc.Arbitrary<Uint8Array>;
  /** How to compare values (defaults to jest's toEqual, which tells -0 from 0). */
  readonly equal?: (a: A, b: A) => void;
}

/** Asserts both laws and the JSON round trip for a codec. Returns how many byte strings were accepted. */
export function checkLaws<A>(codec: Codec<A>, values: fc.Arbitrary<A>, options: LawOptions<A> = {}): number {
  const equal = options.equal ?? ((a: A, b: A) => expect(a).toEqual(b));
  fc.assert(
    fc.property(values, (value) => {
      const bytes = encodeOk(codec, value);
      const back = decode(codec, bytes);
      if (E.isLeft(back)) throw new Error(`decode of own encoding failed: ${back.left.toString()}`);
      equal(back.right.value, value);
      // Lossless JSON: through JSON text and back.
      const json = JSON.parse(JSON.stringify(toJson(codec, value)));
      const fromText = fromJson(codec, json);
      if (E.isLeft(fromText)) throw new Error(`fromJson failed: ${fromText.left.toString()}`);
      equal(fromText.right, value);
    }),
    { numRuns: RUNS },
  );
  let accepted = 0;
  fc.assert(
    fc.property(options.bytes ?? candidateBytes(codec, values), (bytes) => {
      const decoded = decode(codec, bytes);
      if (E.isRight(decoded)) {
        accepted++;
        expect(encodeOk(codec, decoded.right.value)).toEqual(bytes);
      } else {
        expect(decoded.left.name).toBe('DecodeError');
      }
    }),
    { numRuns: RUNS },
  );
  return accepted;
}

/** Decodes and expects a DecodeError; returns it. */
export function decodeFails<A>(codec: Codec<A>, bytes: Uint8Array) {
  const result = decode(codec, bytes);
  if (E.isRight(result))
    throw new Error(`expected a DecodeError, decoded ${JSON.stringify(toJson(codec, result.right.value))}`);
  return result.left;
}

/** Encodes and expects an EncodeError; returns it. */
export function encodeFails<A>(codec: Codec<A>, value: A) {
  const result = encode(codec, value);
  if (E.isRight(result)) throw new Error('expected an EncodeError');
  return result.left;
}

export const hexBytes = (hex: string) =>
  Uint8Array.from(hex.replace(/\s+/g, '').match(/../g) ?? [], (h) => parseInt(h, 16));
