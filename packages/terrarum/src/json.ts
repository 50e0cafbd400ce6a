/**
 * JSON as the game wrote it, parsed safely: a `__proto__` (or `constructor`/`prototype`) key is
 * refused, so a hostile actor file cannot pollute prototypes; objects come out null-prototyped.
 *
 * @module
 */

/** Why a JSON text was refused. */
export class JsonParseError extends Error {
  override readonly name = 'JsonParseError';
}

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/** How deep JSON may nest by default (as `DecodeOptions.maxDepth`). */
export const DEFAULT_JSON_DEPTH = 512;

/**
 * The deepest nesting of arrays and objects in a JSON text, scanned once (strings skipped), stopping
 * as soon as it passes `limit`: a hostile text of a million `[` costs one pass, not a stack overflow.
 */
export function jsonDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string (a backslash escapes the next character).
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/**
 * Parses JSON, refusing prototype-polluting keys, and nesting deeper than `maxDepth` (default
 * {@link DEFAULT_JSON_DEPTH}) before parsing: the reviver that checks keys recurses.
 */
export function parseJsonSafely(text: string, options: { readonly maxDepth?: number | undefined } = {}): unknown {
  const maxDepth = options.maxDepth ?? DEFAULT_JSON_DEPTH;
  if (jsonDepth(text, maxDepth) > maxDepth)
    throw new JsonParseError(`nested deeper than ${maxDepth} levels (DecodeOptions.maxDepth)`);
  let value: unknown;
  try {
    value = JSON.parse(text, (key, v) => {
      if (FORBIDDEN.has(key))
        throw new JsonParseError(`the key ${JSON.stringify(key)} is refused (prototype pollution)`);
      return v;
    });
  } catch (error) {
    if (error instanceof JsonParseError) throw error;
    throw new JsonParseError(error instanceof Error ? error.message : String(error));
  }
  // JSON.parse's reviver does not see a literal "__proto__" key on its own object: check the text too.
  if (/"__proto__"\s*:/.test(text)) throw new JsonParseError('the key "__proto__" is refused (prototype pollution)');
  return value;
}
