/**
 * Which formats the CLI knows: the format packages that are installed, and plugins named on the
 * command line (`--plugin`) or in `SAVEKIT_PLUGINS`.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FormatRegistry, formatsOf, type AnySaveFormat } from '@savekit/core';
import { UsageError } from './errors.js';

/** Format packages the CLI registers when they are installed. */
export const BUILTIN_FORMAT_PACKAGES = ['@savekit/edge', '@savekit/uqm', '@savekit/terrarum', '@savekit/zippy'];

/** The formats a module exports (the core's plugin contract; kept here as the CLI's export too). */
export { formatsOf };

/**
 * What to import for a plugin argument. A path — `./wad.js`, `/abs/wad.js`, `dist/wad.js`, or any
 * name that is a file in the working directory or ends in `.js`/`.mjs`/`.cjs` — is a file, resolved
 * against the working directory as `node dist/wad.js` would; anything else (`my-plugin`,
 * `@scope/plugin`) is a package name.
 */
export function specifierOf(plugin: string, cwd: string = process.cwd()): string {
  const path = resolve(cwd, plugin);
  const isPath = plugin.startsWith('.') || isAbsolute(plugin) || /\.[cm]?js$/.test(plugin) || existsSync(path);
  return isPath ? pathToFileURL(path).href : plugin;
}

/**
 * A registry with every installed format package and every plugin. With `formats`, those are the
 * formats instead of the installed packages (for embedders and tests); plugins still add to them.
 */
export async function loadRegistry(
  plugins: ReadonlyArray<string>,
  formats?: ReadonlyArray<AnySaveFormat>,
): Promise<FormatRegistry> {
  const registry = new FormatRegistry();
  const add = (format: AnySaveFormat) => {
    if (registry.get(format.id) === undefined) registry.register(format);
  };
  formats?.forEach(add);
  for (const name of formats === undefined ? BUILTIN_FORMAT_PACKAGES : []) {
    try {
      formatsOf((await import(name)) as Record<string, unknown>).forEach(add);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    }
  }
  const fromEnv = (process.env.SAVEKIT_PLUGINS ?? '').split(/[;,]/).filter((p) => p.trim() !== '');
  for (const plugin of [...fromEnv, ...plugins]) {
    let module: Record<string, unknown>;
    try {
      module = (await import(specifierOf(plugin))) as Record<string, unknown>;
    } catch (error) {
      throw new UsageError(
        `cannot load plugin ${plugin}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      );
    }
    const formats = formatsOf(module);
    if (formats.length === 0)
      throw new UsageError(
        `plugin ${plugin} exports no format (export \`format\`, \`formats\` or a default SaveFormat)`,
      );
    formats.forEach(add);
  }
  return registry;
}
