/** Finding the format a module exports. */
import type { AnySaveFormat } from '@savekit/core';

/** The format a module exports as `name`, else `format`, else its default export. */
export function formatOf(module: Record<string, unknown>, name?: string): AnySaveFormat {
  const candidate = (name !== undefined ? module[name] : (module.format ?? module.default)) as
    | AnySaveFormat
    | undefined;
  if (candidate === undefined || typeof candidate.decode !== 'function')
    throw new Error(`the module exports no format${name ? ` named ${name}` : ''}`);
  return candidate;
}
