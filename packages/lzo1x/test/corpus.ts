// Deterministic test inputs for the LZO tests: no randomness that changes between runs.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** A small, seeded PRNG (mulberry32), so every run sees the same "random" bytes. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomBytes(length: number, seed: number): Uint8Array {
  const next = prng(seed);
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (next() * 256) | 0;
  return out;
}

const WORDS = 'the quick brown fox jumps over lazy dog save game level player monster weapon door key secret sector line thing map episode skill health armor ammo'.split(' ');

/** English-like text: words from a small vocabulary, with punctuation and line breaks. */
export function text(length: number, seed: number): Uint8Array {
  const next = prng(seed);
  let s = '';
  while (s.length < length) {
    s += WORDS[(next() * WORDS.length) | 0];
    const r = next();
    s += r < 0.08 ? '.\n' : r < 0.15 ? ', ' : ' ';
  }
  return new TextEncoder().encode(s.slice(0, length));
}

/** Repetitive data: short patterns, runs and slowly drifting values, like save payloads. */
export function repetitive(length: number, seed: number): Uint8Array {
  const next = prng(seed);
  const out = new Uint8Array(length);
  let i = 0;
  while (i < length) {
    const kind = next();
    const run = 1 + ((next() * 300) | 0);
    const value = (next() * 256) | 0;
    for (let k = 0; k < run && i < length; k++, i++) {
      out[i] = kind < 0.4 ? value : kind < 0.8 ? (value + (k % 7)) & 0xff : (i * 13) & 0xff;
    }
  }
  return out;
}

/** The corpus folder, or undefined where it is absent. */
export function corpusDir(): string | undefined {
  const dir = process.env.SAVEKIT_CORPUS ?? join(__dirname, '..', '..', '..', '..', 'shared', 'vectors-found');
  return existsSync(dir) ? dir : undefined;
}

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
  const dir = corpusDir();
  if (dir === undefined) return [];
  const edge = join(dir, 'edge');
  const chunks: EdgeChunk[] = [];
  for (const name of readdirSync(edge).filter((f) => f.endsWith('.json')).sort()) {
    const doc = JSON.parse(readFileSync(join(edge, name), 'utf8'));
    for (const c of doc.top_level_chunks) {
      chunks.push({
        file: doc.file,
        marker: c.marker,
        storedForm: c.stored_form,
        stored: fromHex(c.stored_bytes_hex),
        plain: fromHex(c.plain_payload_hex),
        xored: c.xored_payload_hex ? fromHex(c.xored_payload_hex) : undefined,
        origLength: c.orig_length,
      });
    }
  }
  return chunks;
}

/** The named inputs of the interop corpus (at least 200, up to 4 MiB). */
export function interopCorpus(): Array<[string, Uint8Array]> {
  const inputs: Array<[string, Uint8Array]> = [['empty', new Uint8Array(0)], ['one byte', Uint8Array.of(0x41)]];
  const sizes = [1, 2, 3, 4, 5, 7, 15, 16, 17, 18, 19, 20, 21, 22, 29, 30, 31, 32, 33, 63, 64, 100, 237, 238, 239, 240, 255, 256, 257, 1000, 2048, 2049, 4096, 16383, 16384, 16385, 49151, 49152, 49153, 65536, 100_000, 262_144];
  sizes.forEach((size, i) => {
    inputs.push([`zeros ${size}`, new Uint8Array(size)]);
    inputs.push([`random ${size}`, randomBytes(size, 1000 + i)]);
    inputs.push([`text ${size}`, text(size, 2000 + i)]);
    inputs.push([`repetitive ${size}`, repetitive(size, 3000 + i)]);
    inputs.push([`ones ${size}`, new Uint8Array(size).fill(0xff)]);
  });
  inputs.push(['text 1 MiB', text(1 << 20, 7)], ['repetitive 4 MiB', repetitive(4 << 20, 8)], ['random 1 MiB', randomBytes(1 << 20, 9)], ['text 4 MiB', text(4 << 20, 10)]);
  for (const c of edgeChunks()) {
    inputs.push([`${c.file} ${c.marker} payload`, c.plain]);
    if (c.xored) inputs.push([`${c.file} ${c.marker} xored payload`, c.xored]);
  }
  return inputs;
}
