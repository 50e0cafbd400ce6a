// The EDGE golden files and their JSON descriptions: the testkit's corpus ('edge' under SAVEKIT_CORPUS
// or ../shared/vectors-found).
import { corpus } from '@savekit/testkit';

const edge = corpus('edge');

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
  return edge
    .names((f) => f.endsWith('.sav'))
    .map((name) => {
      const description = edge.text(name.replace(/\.sav$/, '.json'));
      if (description === undefined) throw new Error(`the golden file ${name} has no JSON description beside it`);
      return { name, bytes: edge.file(name) as Uint8Array /* listed just now */, json: JSON.parse(description) };
    });
}

/** Warns once, in each test file that needs the corpus, that it is absent. */
export function warnIfAbsent(what: string): void {
  edge.warnIfAbsent(what);
}

/**
 * The golden files for one test file, warning once that they are absent, with the `describe` to run
 * them under: `describe.skip` where there are none.
 */
export function goldensFor(what: string): { files: Golden[]; maybe: jest.Describe } {
  warnIfAbsent(what);
  const files = goldens();
  return { files, maybe: files.length > 0 ? describe : describe.skip };
}
