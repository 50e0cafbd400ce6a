/**
 * A document's JSON form as an indented tree, summarised so that a small save prints a screenful:
 * containers past a depth, arrays and objects past a few entries, long strings and byte strings are
 * cut, each saying how much was left out. The output depends only on the document.
 *
 * @module
 */
import type { Colors } from 'picocolors/types.js';
import { grouped, plural } from '@savekit/core/kit';
import { showJson, showName } from './show.js';

/** How much of a document {@link renderTree} shows. `Infinity` anywhere means "all of it". */
export interface TreeLimits {
  /** Containers deeper than this are one line: `name [n] …` or `name {n} …`. */
  readonly depth: number;
  /** Elements shown of an array before `… N more`. */
  readonly items: number;
  /** Fields shown of an object before `… N more`. */
  readonly fields: number;
  /** Characters shown of a string before `… N chars`. */
  readonly text: number;
  /** Hex digits shown of a byte string (the JSON form of bytes) before `… N bytes`. */
  readonly hex: number;
}

/** What `inspect` shows by default. */
export const SUMMARY_LIMITS: TreeLimits = { depth: 4, items: 8, fields: 24, text: 72, hex: 32 };

/** What `inspect --full` shows: everything. */
export const FULL_LIMITS: TreeLimits = {
  depth: Infinity,
  items: Infinity,
  fields: Infinity,
  text: Infinity,
  hex: Infinity,
};

/** Array elements at most this long (as text) are shown on their array's line. */
const INLINE_LEAF = 24;

const isHex = (text: string) => text.length % 2 === 0 && /^[0-9a-f]+$/.test(text);

function leaf(value: unknown, c: Colors, limits: TreeLimits): string {
  if (typeof value === 'string') {
    // Bytes are lower-case hex in the JSON form; say how many bytes rather than how many digits.
    if (value.length > limits.hex && isHex(value))
      return `${c.green(showJson(JSON.stringify(value.slice(0, limits.hex))))} ${c.dim(`… ${plural(value.length / 2, 'byte')}`)}`;
    if (value.length > limits.text)
      return `${c.green(showJson(JSON.stringify(value.slice(0, limits.text))))} ${c.dim(`… ${plural(value.length, 'char')}`)}`;
    return c.green(showJson(JSON.stringify(value)));
  }
  if (typeof value === 'number' || typeof value === 'boolean') return c.yellow(String(value));
  if (value === null) return c.dim('null');
  return c.dim(String(value));
}

/** An array of short scalars, shown on one line when summarising. */
function inlineable(node: ReadonlyArray<unknown>, limits: TreeLimits): boolean {
  if (limits.items === Infinity || node.length === 0) return false;
  return node.every(
    (v) =>
      v === null ||
      typeof v === 'number' ||
      typeof v === 'boolean' ||
      (typeof v === 'string' && v.length + 2 <= INLINE_LEAF),
  );
}

type Work = { label: string; value: unknown; level: number } | { more: number; level: number };

/**
 * Lines of a tree of `value`. `limits` is how much to show (a number is the depth, with the
 * summary's other limits; see {@link SUMMARY_LIMITS} and {@link FULL_LIMITS}). Iterative, so a
 * deeply nested document cannot overflow the stack.
 */
export function renderTree(
  value: unknown,
  limits: number | Partial<TreeLimits>,
  c: Colors,
  label = 'document',
): string[] {
  const shown: TreeLimits =
    typeof limits === 'number' ? { ...SUMMARY_LIMITS, depth: limits } : { ...SUMMARY_LIMITS, ...limits };
  const lines: string[] = [];
  const work: Work[] = [{ label, value, level: 0 }];
  while (work.length > 0) {
    const item = work.pop()!;
    const indent = '  '.repeat(item.level);
    if ('more' in item) {
      lines.push(`${indent}${c.dim(`… ${grouped(item.more)} more`)}`);
      continue;
    }
    const { value: node, level } = item;
    const name = showName(item.label); // a key of the document: an entry name, a file name
    if (node === null || typeof node !== 'object') {
      lines.push(`${indent}${c.cyan(name)}: ${leaf(node, c, shown)}`);
      continue;
    }
    const isArray = Array.isArray(node);
    const count = isArray ? node.length : Object.keys(node).length;
    const size = isArray ? `[${count}]` : `{${count}}`;
    const limit = isArray ? shown.items : shown.fields;
    // A short list of scalars is one line at any depth: the depth limit saves nothing there.
    if (isArray && inlineable(node, shown)) {
      const elements = node.slice(0, limit).map((v) => leaf(v, c, shown));
      const rest = count > limit ? `, ${c.dim(`… ${grouped(count - limit)} more`)}` : '';
      lines.push(`${indent}${c.cyan(name)} ${c.dim(size)}: ${elements.join(', ')}${rest}`);
      continue;
    }
    if (level >= shown.depth && count > 0) {
      lines.push(`${indent}${c.cyan(name)} ${c.dim(`${size} …`)}`);
      continue;
    }
    lines.push(`${indent}${c.cyan(name)} ${c.dim(size)}`);
    const entries = isArray
      ? node.slice(0, limit).map((v, i) => [`[${i}]`, v] as const)
      : Object.entries(node).slice(0, limit);
    // Pushed in reverse so that they pop in order, the "more" line last.
    if (count > entries.length) work.push({ more: count - entries.length, level: level + 1 });
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!; // i is within entries
      work.push({ label: key, value: child, level: level + 1 });
    }
  }
  return lines;
}
