// The repository's packages as the docs see them: every packages/*/package.json, and which of them
// are format packages. A format package is one whose main entry exports a SaveFormat by the core's
// `formatsOf` — the rule the CLI loads plugins with (`format`, `formats` or a default export with id,
// sniff, decode and encode) — so a new format package is found without a list to keep up to date.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatsOf } from '@savekit/core';

/** The repository root. */
export const root = fileURLToPath(new URL('../../', import.meta.url));

/** Every package under packages/: its folder name, directory and package.json, sorted by folder. */
export function workspacePackages() {
  const dir = join(root, 'packages');
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'package.json')))
    .map((entry) => ({
      folder: entry.name,
      dir: join(dir, entry.name),
      manifest: JSON.parse(readFileSync(join(dir, entry.name, 'package.json'), 'utf8')),
    }))
    .sort((a, b) => a.folder.localeCompare(b.folder));
}

/** The file a package's main entry (`exports["."]`) loads, from its built output. */
function mainEntry(pkg) {
  const main = pkg.manifest.exports?.['.'];
  const file = typeof main === 'string' ? main : (main?.import ?? main?.default ?? pkg.manifest.main);
  return file === undefined ? undefined : join(pkg.dir, file);
}

/**
 * The format packages, each with the formats its main entry exports. Needs the packages built
 * (the docs build runs after `npm run build`); a package whose entry is not built is an error, not
 * silently "not a format".
 */
export async function formatPackages() {
  const found = [];
  for (const pkg of workspacePackages()) {
    if (pkg.manifest.private === true) continue;
    const entry = mainEntry(pkg);
    if (entry === undefined) continue;
    if (!existsSync(entry))
      throw new Error(`${pkg.manifest.name} is not built (${entry} is missing): run npm run build first`);
    const module = await import(pathToFileURL(entry).href);
    const formats = formatsOf(module);
    if (formats.length > 0) found.push({ ...pkg, formats });
  }
  return found;
}
