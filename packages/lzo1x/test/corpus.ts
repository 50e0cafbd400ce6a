// Deterministic test inputs for the LZO tests (generators from the testkit), and the EDGE payloads.
import { corpus, prng, randomBytes, repetitive, text } from '@savekit/testkit';

export { prng, randomBytes, repetitive, text } from '@savekit/testkit';

/** The EDGE golden files (the testkit's corpus 'edge'), whose chunk payloads are LZO1X. */
export const edgeCorpus = corpus('edge');

export interface EdgeChunk {
  readonly file: string;
  readonly marker: string;
  readonly storedForm: string;
  readonly stored: Uint8Array;
  readonly plain: Uint8Array;
  readonly xored?: Uint8Array;
  readonly origLength: number;
}

const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));

/** Every top-level chunk of the EDGE golden files, from their JSON descriptions. */
export function edgeChunks(): EdgeChunk[] {
  const chunks: EdgeChunk[] = [];
  for (const name of edgeCorpus.names((f) => f.endsWith('.json'))) {
    const doc = JSON.parse(edgeCorpus.text(name) as string); // listed just now
    for (const c of doc.top_level_chunks) {
      chunks.push({
        file: doc.file,
        marker: c.marker,
        storedForm: c.stored_form,
        stored: fromHex(c.stored_bytes_hex),
        plain: fromHex(c.plain_payload_hex),
        ...(c.xored_payload_hex ? { xored: fromHex(c.xored_payload_hex) } : {}),
        origLength: c.orig_length,
      });
    }
  }
  return chunks;
}

/**
 * Save-like records (48 bytes: small integers, fixed-point coordinates, an angle, a short name and
 * zero padding), as the benchmark's save payload: many short matches at multiples of four apart.
 */
export function records(length: number, seed: number): Uint8Array {
  const next = prng(seed);
  const out = new Uint8Array(length);
  const view = new DataView(out.buffer);
  const names = ['MAP01', 'IMP', 'ZOMBIEMAN', 'MEDIKIT', 'SHOTGUN', 'T:SKY1', 'F:FLOOR4_8'].map((n) =>
    new TextEncoder().encode(n),
  );
  for (let at = 0; at + 48 <= length; at += 48) {
    view.setUint32(at, (next() * 2000) | 0, true);
    view.setInt32(at + 4, ((next() - 0.5) * 65536 * 4096) | 0, true);
    view.setInt32(at + 8, ((next() - 0.5) * 65536 * 4096) | 0, true);
    view.setUint16(at + 12, (next() * 360) | 0, true);
    out.set(names[(next() * names.length) | 0]!, at + 16);
  }
  return out;
}

/** The named inputs of the interop corpus (at least 200, up to 4 MiB). */
export function interopCorpus(): Array<[string, Uint8Array]> {
  const inputs: Array<[string, Uint8Array]> = [
    ['empty', new Uint8Array(0)],
    ['one byte', Uint8Array.of(0x41)],
  ];
  const sizes = [
    1, 2, 3, 4, 5, 7, 15, 16, 17, 18, 19, 20, 21, 22, 29, 30, 31, 32, 33, 63, 64, 100, 237, 238, 239, 240, 255, 256,
    257, 1000, 2048, 2049, 4096, 16383, 16384, 16385, 49151, 49152, 49153, 65536, 100_000, 262_144,
  ];
  sizes.forEach((size, i) => {
    inputs.push([`zeros ${size}`, new Uint8Array(size)]);
    inputs.push([`random ${size}`, randomBytes(size, 1000 + i)]);
    inputs.push([`text ${size}`, text(size, 2000 + i)]);
    inputs.push([`repetitive ${size}`, repetitive(size, 3000 + i)]);
    inputs.push([`ones ${size}`, new Uint8Array(size).fill(0xff)]);
    inputs.push([`records ${size}`, records(size, 4000 + i)]);
  });
  inputs.push(
    ['text 1 MiB', text(1 << 20, 7)],
    ['repetitive 4 MiB', repetitive(4 << 20, 8)],
    ['random 1 MiB', randomBytes(1 << 20, 9)],
    ['records 1 MiB', records(1 << 20, 11)],
    ['text 4 MiB', text(4 << 20, 10)],
  );
  for (const c of edgeChunks()) {
    inputs.push([`${c.file} ${c.marker} payload`, c.plain]);
    if (c.xored) inputs.push([`${c.file} ${c.marker} xored payload`, c.xored]);
  }
  return inputs;
}
