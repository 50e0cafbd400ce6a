/**
 * Checksums over a byte range: verified on decode (a mismatch is an error, or a warning on request)
 * and computed afresh on encode. CRC-32 comes from `crc-32` (or the runtime's native zlib, where there
 * is one), Adler-32 from `adler-32`, SHA-256 from `@noble/hashes`; a format can bring its own algorithm.
 *
 * @module
 */
import CRC32 from 'crc-32';
import ADLER32 from 'adler-32';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { defineCodec, readChild, writeChild, type Codec } from './codec.js';
import { DecodeError, pathAnnotation, type Path, type Warning } from './errors.js';
import type { ChecksumPolicy } from './options.js';
import type { Reader } from './reader.js';
import { bytesEqual } from './bytes.js';
import { toHex } from './json.js';
import { patch } from './sized.js';

/**
 * The one place that decides what a checksum mismatch is: under `checksums: 'warn'` a
 * `checksum-mismatch` {@link Warning} to record, otherwise (the default, `'error'`) a
 * {@link DecodeError} with code `checksum-mismatch` to throw or return. For code that checks a
 * checksum outside a reader (a save folder's cross-file checks); inside a codec use
 * {@link reportChecksumMismatch}.
 *
 * @example
 * ```ts
 * const outcome = checksumMismatch(options.checksums, ['worldinfo2'], 0, 'CRC stored 0x1, computed 0x2');
 * if (outcome instanceof DecodeError) return E.left(outcome);
 * warnings.push(outcome);
 * ```
 */
export function checksumMismatch(
  policy: ChecksumPolicy | undefined,
  path: Path,
  offset: number,
  message: string,
): Warning | DecodeError {
  if (policy === 'warn') return { code: 'checksum-mismatch', path, offset, message };
  return new DecodeError(path, offset, message, 'checksum-mismatch');
}

/**
 * Reports a checksum mismatch found while reading, by the decode's checksum policy: records a
 * `checksum-mismatch` warning and returns (`checksums: 'warn'`), or throws a DecodeError with code
 * `checksum-mismatch` (the default). `offset` is where the stored digest is; `digest` names it as a
 * path annotation when the document does not hold it (`<crc32>`), so the path still resolves.
 *
 * @example
 * ```ts
 * if (stored !== actual) reportChecksumMismatch(r, `CRC-32 stored ${stored}, computed ${actual}`, at, 'crc');
 * ```
 */
export function reportChecksumMismatch(r: Reader, message: string, offset: number = r.pos, digest?: string): void {
  const path = r.state.path.slice();
  if (digest !== undefined) path.push(pathAnnotation(digest));
  const outcome = checksumMismatch(r.state.options.checksums, path, offset, message);
  if (outcome instanceof DecodeError) throw outcome;
  r.state.addWarning(outcome);
}

/** A checksum or hash algorithm producing digests of type `D`. */
export interface ChecksumAlgorithm<D> {
  /** Its name in messages, such as `CRC-32`. */
  readonly name: string;
  /** The digest of `bytes`. */
  compute(bytes: Uint8Array): D;
  /**
   * For running checksums (CRC-32, Adler-32): the digest of the bytes that gave `previous` followed by
   * `bytes`, so data in parts is checksummed without joining them.
   */
  continue?(previous: D, bytes: Uint8Array): D;
  /** Whether two digests are equal. */
  equals(a: D, b: D): boolean;
  /** A digest as readable text. */
  show(digest: D): string;
}

const showU32 = (d: number) => `0x${(d >>> 0).toString(16).padStart(8, '0')}`;

/** A 32-bit checksum from a package's `buf(bytes, seed)` (crc-32 and adler-32 share the shape). */
function u32Checksum(name: string, buf: (bytes: Uint8Array, seed?: number) => number): ChecksumAlgorithm<number> {
  return {
    name,
    compute: (bytes) => buf(bytes) >>> 0,
    continue: (previous, bytes) => buf(bytes, previous) >>> 0,
    equals: (a, b) => a >>> 0 === b >>> 0,
    show: showU32,
  };
}

type Crc32Function = (bytes: Uint8Array, seed?: number) => number;

/**
 * Node's `zlib.crc32` (Node 20.15 and later), reached without a static import so that browser bundles
 * need no `zlib`: the same digests as `crc-32` at about six times the speed (56 MB: 9 ms against 55).
 * Undefined elsewhere (browsers, older runtimes), where `crc-32` runs.
 */
export function nativeCrc32(): Crc32Function | undefined {
  const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
  try {
    const zlib = host.process?.getBuiltinModule?.('node:zlib') as { crc32?: unknown } | undefined;
    if (typeof zlib?.crc32 !== 'function') return undefined;
    const native = zlib.crc32 as (bytes: Uint8Array, value?: number) => number;
    // zlib takes the running value unsigned; crc-32 gives and takes it signed.
    return (bytes, seed) => native(bytes, seed === undefined ? 0 : seed >>> 0);
  } catch {
    return undefined;
  }
}

/** CRC-32 (ISO-HDLC, as zlib and PNG), as an unsigned 32-bit number. */
export const crc32: ChecksumAlgorithm<number> = u32Checksum('CRC-32', nativeCrc32() ?? CRC32.buf);

/** Adler-32 (as zlib), as an unsigned 32-bit number. */
export const adler32: ChecksumAlgorithm<number> = u32Checksum('Adler-32', ADLER32.buf);

/** SHA-256, as 32 bytes. */
export const sha256: ChecksumAlgorithm<Uint8Array> = {
  name: 'SHA-256',
  compute: (bytes) => nobleSha256(bytes),
  equals: bytesEqual,
  show: toHex,
};

/** Options of {@link checksum}. */
export interface ChecksumOptions<D> {
  /** The algorithm. */
  readonly algorithm: ChecksumAlgorithm<D>;
  /** How the digest is stored (`u32le`, `u32be`, `bytes(32)`, …). */
  readonly stored: Codec<D>;
  /** Whether the digest comes after the data it covers (default) or before it. */
  readonly position?: 'after' | 'before';
  /**
   * What the digest covers: the wrapped value's bytes (default), or — with `position: 'after'` —
   * everything from the start of the current window up to the digest (a file trailer's checksum).
   */
  readonly covers?: 'value' | 'window';
}

/**
 * `body` with a checksum over its bytes. The value is the body's; the digest is not part of it, since
 * encoding always computes it anew.
 *
 * @example
 * ```ts
 * // A header, a body, then a CRC-32 of both as u32le.
 * const file = checksum(struct({ header, body }), { algorithm: crc32, stored: u32le });
 * ```
 */
export function checksum<A, D>(body: Codec<A>, options: ChecksumOptions<D>): Codec<A> {
  const { algorithm, stored } = options;
  const before = options.position === 'before';
  const wholeWindow = options.covers === 'window';
  if (before && wholeWindow)
    throw new RangeError('checksum: a digest before its data cannot cover the window up to itself');
  const key = algorithm.name;
  // The digest is not in the document: its path segment is an annotation (`<CRC-32>`).
  const digestKey = pathAnnotation(key);
  return defineCodec<A>({
    name: `checksum(${body.name}, ${algorithm.name})`,
    def: {
      type: 'checksum',
      body,
      algorithm,
      stored,
      position: before ? 'before' : 'after',
      covers: wholeWindow ? 'window' : 'value',
    },
    json: body.json,
    size: body.size !== undefined && stored.size !== undefined ? body.size + stored.size : undefined,
    minSize: body.minSize + stored.minSize,
    children: [
      { key: 'value', codec: body },
      { key, codec: stored },
    ],
    read(r) {
      let digestAt: number;
      let expected: D;
      let from: number;
      let value: A;
      if (before) {
        digestAt = r.pos;
        expected = readChild(r, digestKey, stored);
        from = r.pos;
        value = body.read(r);
      } else {
        from = wholeWindow ? r.start : r.pos;
        value = body.read(r);
        digestAt = r.pos;
        expected = readChild(r, digestKey, stored);
      }
      const actual = algorithm.compute(r.bytes.subarray(from, before ? r.pos : digestAt));
      if (!algorithm.equals(expected, actual)) {
        const message = `${algorithm.name} mismatch: stored ${algorithm.show(expected)}, computed ${algorithm.show(actual)}`;
        reportChecksumMismatch(r, message, digestAt, key);
      }
      return value;
    },
    write(w, value) {
      if (before) {
        if (stored.size === undefined)
          throw w.error('invalid-value', 'a digest before its data must have a fixed size');
        const slot = w.reserve(stored.size);
        const from = w.length;
        body.write(w, value);
        w.state.path.push(digestKey);
        patch(w, slot, stored, algorithm.compute(w.buf.subarray(from, w.length)));
        w.state.path.pop();
        return;
      }
      const from = wholeWindow ? w.origin : w.length;
      body.write(w, value);
      writeChild(w, digestKey, stored, algorithm.compute(w.buf.subarray(from, w.length)));
    },
  });
}
