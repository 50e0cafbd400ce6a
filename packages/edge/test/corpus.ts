// The EDGE golden files (../shared/vectors-found/edge, or SAVEKIT_CORPUS/edge) and their JSON descriptions.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The corpus folder, or undefined where it is absent. */
export function corpusDir(): string | undefined {
  const dir = process.env.SAVEKIT_CORPUS ?? join(__dirname, '..', '..', '..', '..', 'shared', 'vectors-found');
  return existsSync(dir) ? dir : undefined;
}

/** One item of a golden file's content tree. */
export interface GoldenItem {
  type: 'chunk' | 'int' | 'short' | 'byte' | 'angle' | 'float' | 'string' | 'marker';
  value?: unknown;
  marker?: string;
  end_marker?: string;
  offset: number;
  data_length?: number;
  hex?: string;
  float32_bits?: string;
  content?: GoldenItem[];
}

/** A top-level chunk as the golden JSON describes it. */
export interface GoldenChunk {
  marker: string;
  end_marker?: string;
  file_offset: number;
  stored_length: number;
  orig_length: number;
  stored_form: string;
  plain_payload_hex: string;
  xored_payload_hex?: string;
  stored_bytes_hex: string;
  content: GoldenItem[];
}

/** A golden file: its bytes and its description. */
export interface Golden {
  name: string;
  bytes: Uint8Array;
  json: {
    version_field: string;
    file_size: number;
    header_hex: string;
    top_level_chunks: GoldenChunk[];
    trailer_hex: string;
    crc: string;
  };
}

export const fromHex = (hex: string): Uint8Array => Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
export const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** Every golden file, sorted by name (empty where the corpus is absent). */
export function goldens(): Golden[] {
  const dir = corpusDir();
  if (dir === undefined) return [];
  const edge = join(dir, 'edge');
  return readdirSync(edge)
    .filter((f) => f.endsWith('.sav'))
    .sort()
    .map((name) => ({
      name,
      bytes: new Uint8Array(readFileSync(join(edge, name))),
      json: JSON.parse(readFileSync(join(edge, name.replace(/\.sav$/, '.json')), 'utf8')),
    }));
}

/** Warns once, in each test file that needs the corpus, that it is absent. */
export function warnIfAbsent(what: string): void {
  if (corpusDir() === undefined)
    console.warn(`${what}: ../shared/vectors-found is absent (set SAVEKIT_CORPUS); the golden-file tests are skipped`);
}
