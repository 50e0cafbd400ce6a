// Builds savekit studio (docs/studio) into a static folder: the page, its worker, the bundled samples
// and two plugins as self-contained ES modules (Skirmish from the examples, and the studio's demo
// plugin with a view of each kind). `node docs/scripts/studio-build.mjs [outdir]` (default
// docs/studio/dist); the docs build calls it with the site's `studio/app` folder.
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const studio = join(here, '..', 'studio');
const root = join(here, '..', '..');

/** Builds the studio into `outdir`. */
export async function buildStudio(outdir = join(studio, 'dist')) {
  mkdirSync(join(outdir, 'samples'), { recursive: true });
  const common = {
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    legalComments: 'none',
    logLevel: 'warning',
    // Node's built-ins are never reached from the page: a stray import stays external, not bundled.
    external: ['node:*'],
  };
  await build({
    ...common,
    entryPoints: { main: join(studio, 'src', 'main.ts'), worker: join(studio, 'src', 'worker.ts') },
    outdir,
  });
  await build({
    ...common,
    entryPoints: {
      'plugins/skirmish': join(root, 'examples', 'dist', 'skirmish.js'),
      'plugins/studio-demo': join(studio, 'test-plugin', 'studio-demo.ts'),
    },
    outdir,
  });
  for (const file of ['index.html', 'studio.css']) copyFileSync(join(studio, file), join(outdir, file));
  for (const name of ['edge-01.esg', 'uqm-01.sav', 'zippy-01.zsav', 'terrarum-01.tevd', 'skirmish-01.sks'])
    copyFileSync(join(root, 'examples', 'saves', name), join(outdir, 'samples', name));
  return outdir;
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const out = await buildStudio(process.argv[2] ? resolve(process.argv[2]) : undefined);
  console.log(`studio: built into ${out}`);
}
