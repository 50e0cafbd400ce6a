// LZO1X-1: ours (pure TypeScript) against liblzo 2.09 (the native `lzo` package), same buffers.
import { createRequire } from 'node:module';
import { compress, decompress } from '@savekit/lzo1x';
import { randomBytes, savePayload, text } from '../data.mjs';

const native = createRequire(import.meta.url)('lzo');

// LZO1X is a routine, not a codec tree: --compare lists the interpreted peer with the reason.
const NO_CODEC = 'no codec tree to compile: LZO1X is a routine (the same code in both modes)';

export function cases(quick, { compare = false } = {}) {
  const interpreted = compare ? [{ name: 'savekit (interpreted)', fails: NO_CODEC }] : [];
  const size = quick ? 64 * 1024 : 1 << 20;
  const inputs = [
    ['text', text(size, 1)],
    ['save payload', savePayload(size, 2)],
    ['random', randomBytes(size, 3)],
  ];
  return inputs.flatMap(([label, input]) => {
    const buffer = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    const packed = native.compress(buffer);
    const packedBytes = new Uint8Array(packed);
    return [
      {
        name: `lzo1x compress ${label} ${size >> 10} KiB`,
        description: 'LZO1X-1 compression (MB/s of input)',
        bytesPerOp: input.length,
        ours: 'savekit lzo1x',
        peers: [
          { name: 'savekit lzo1x', run: () => compress(input) },
          { name: 'liblzo2 2.09 (native)', run: () => native.compress(buffer) },
          ...interpreted,
        ],
      },
      {
        name: `lzo1x decompress ${label} ${size >> 10} KiB`,
        description: 'safe LZO1X decompression (MB/s of output)',
        bytesPerOp: input.length,
        ours: 'savekit lzo1x',
        peers: [
          { name: 'savekit lzo1x', run: () => decompress(packedBytes, { outputLength: input.length }) },
          { name: 'liblzo2 2.09 (native)', run: () => native.decompress(packed, input.length) },
          ...interpreted,
        ],
      },
    ];
  });
}
