// Types for the native `lzo` package (liblzo2 2.09), the test oracle and benchmark peer.
declare module 'lzo' {
  /** LZO1X-1 compression. */
  export function compress(input: Buffer): Buffer;
  /** Safe LZO1X decompression into a buffer of `length` bytes. */
  export function decompress(input: Buffer, length: number): Buffer;
  /** The liblzo2 version, such as "2.09". */
  export const version: string;
}
