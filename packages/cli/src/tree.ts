/**
 * A document's JSON form as an indented tree, depth-limited.
 *
 * @module
 */
import type { Colors } from 'picocolors/types.js';

const MAX_TEXT = 72;

function leaf(value: unknown, c: Colors): string {
  if (typeof value === 'string') {
    const shown = value.length > MAX_TEXT ? `${JSON.stringify(value.slice(0, MAX_TEXT))}… (${value.length} chars)` : JSON.stringify(value);
    return c.green(shown);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return c.yellow(String(value));
  if (value === null) return c.dim('null');
  return c.dim(String(value));
}

/**
 * Lines of a tree of `value` down to `depth` levels (deeper containers are summarised). Iterative,
 * so a deeply nested document cannot overflow the stack.
 */
export function renderTree(value: unknown, depth: number, c: Colors, label = 'document'): string[] {
  const lines: string[] = [];
  const work: Array<{ label: string; value: unknown; level: number }> = [{ label, value, level: 0 }];
  while (work.length > 0) {
    const { label: name, value: node, level } = work.pop()!;
    const indent = '  '.repeat(level);
    if (node !== null && typeof node === 'object') {
      const entries = Array.isArray(node) ? node.map((v, i) => [`[${i}]`, v] as const) : Object.entries(node);
      const size = Array.isArray(node) ? `[${node.length}]` : `{${entries.length}}`;
      if (level >= depth && entries.length > 0) {
        lines.push(`${indent}${c.cyan(name)} ${c.dim(`${size} …`)}`);
        continue;
      }
      lines.push(`${indent}${c.cyan(name)} ${c.dim(size)}`);
      for (let i = entries.length - 1; i >= 0; i--) work.push({ label: entries[i][0], value: entries[i][1], level: level + 1 });
    } else {
      lines.push(`${indent}${c.cyan(name)}: ${leaf(node, c)}`);
    }
  }
  return lines;
}
