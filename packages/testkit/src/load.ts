/** Finding the format a module exports, and the kit's own scripts that load one in another thread or process. */
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatsOf, isSaveFormat, type AnySaveFormat } from '@savekit/core';

/**
 * The format a module exports as `name`, else its first by the plugin contract (`format`, the default
 * export, then `formats`: the core's `formatsOf`).
 */
export function formatOf(module: Record<string, unknown>, name?: string): AnySaveFormat {
  const candidate = name !== undefined ? module[name] : formatsOf(module)[0];
  if (!isSaveFormat(candidate)) throw new Error(`the module exports no format${name ? ` named ${name}` : ''}`);
  return candidate;
}

/** `require`, resolving from the working directory (the project under test). */
const fromProject = () => createRequire(pathToFileURL(join(process.cwd(), 'noop.js')).href);

/** A script of the installed kit's `dist` (a worker or child entry point). */
export function kitScript(name: string): string {
  // Found through the installed package, so this works from ESM, CommonJS and test transpilers alike.
  return join(dirname(fromProject().resolve('@savekit/testkit/package.json')), 'dist', name);
}

/**
 * The file URL of a format module given as a file URL, a path (absolute, or relative to the working
 * directory), or a package name resolved from the working directory (`@savekit/edge`).
 */
export function moduleUrl(module: string): string {
  if (module.startsWith('file:')) return module;
  if (isAbsolute(module) || module.startsWith('.'))
    return pathToFileURL(join(isAbsolute(module) ? '' : process.cwd(), module)).href;
  return pathToFileURL(fromProject().resolve(module)).href;
}
