/**
 * The container's CRC-32, computed by the runtime's native zlib where there is one (Node's
 * `zlib.crc32`, reached without a static import so that bundles for the browser need no `zlib`),
 * else by the core's `crc32`. The same checksum either way — same name, same digests, same
 * messages — at a few times the speed: the trailer of a 80 MB save is read and written in
 * milliseconds, not a large part of a second.
 *
 * @module
 */
import { crc32, type ChecksumAlgorithm } from '@savekit/core';

type NativeCrc32 = (data: Uint8Array, value?: number) => number;

/** Node's `zlib.crc32` (Node 20.15 and later), when this runtime has it. */
function nativeCrc32(): NativeCrc32 | undefined {
  const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
  try {
    const zlib = host.process?.getBuiltinModule?.('node:zlib') as { crc32?: unknown } | undefined;
    return typeof zlib?.crc32 === 'function' ? (zlib.crc32 as NativeCrc32) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CRC-32 (ISO-HDLC, as zlib), computed by `native` — by default the runtime's, when it has one —
 * else (null) the core's `crc32` itself.
 */
export function fastCrc32(native: NativeCrc32 | null = nativeCrc32() ?? null): ChecksumAlgorithm<number> {
  if (native === null) return crc32;
  return {
    ...crc32,
    compute: (bytes) => native(bytes) >>> 0,
    continue: (previous, bytes) => native(bytes, previous >>> 0) >>> 0,
  };
}
