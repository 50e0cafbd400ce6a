// Hostile LZO1X streams for the fuzz tests (decompress.test.ts, wasm.test.ts): random bytes every
// fourth time, else a compressed seed with 1–4 bytes changed, cuts or insertions.
import { randomBytes } from './corpus';

/** Stream `i` of a run: `next` is the run's random source (its draws depend on earlier streams). */
export function hostileStream(i: number, seeds: ReadonlyArray<Uint8Array>, next: () => number): Uint8Array {
  if (i % 4 === 0) return randomBytes(1 + ((next() * 200) | 0), i);
  let stream = seeds[i % seeds.length]!.slice();
  const edits = 1 + ((next() * 4) | 0);
  for (let e = 0; e < edits; e++) {
    const at = (next() * stream.length) | 0;
    const kind = next();
    if (kind < 0.6) stream[at] = (next() * 256) | 0;
    else if (kind < 0.8) stream = stream.subarray(0, at);
    else {
      const grown = new Uint8Array(stream.length + 1);
      grown.set(stream.subarray(0, at));
      grown[at] = (next() * 256) | 0;
      grown.set(stream.subarray(at), at + 1);
      stream = grown;
    }
  }
  return stream;
}
