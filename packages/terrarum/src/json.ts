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

/** Parses JSON, refusing prototype-polluting keys. */
export function parseJsonSafely(text: string): unknown {
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
