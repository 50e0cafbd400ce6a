import { defineConfig } from 'vitepress';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
// The studio is a static app of its own (esbuild), built into the site's studio/app/ folder.
import { buildStudio } from '../scripts/studio-build.mjs';
import { apiSidebars } from './api-sidebar.mjs';

// The API sidebar TypeDoc writes (docs/api/typedoc-sidebar.json), once `npm run api` has run.
const apiSidebarFile = fileURLToPath(new URL('../api/typedoc-sidebar.json', import.meta.url));
const apiSidebar = existsSync(apiSidebarFile) ? JSON.parse(readFileSync(apiSidebarFile, 'utf8')) : [];

export default defineConfig({
  title: 'savekit',
  description: 'Read, write, inspect and edit game savegames through one schema-driven serialization framework.',
  base: process.env.SAVEKIT_DOCS_BASE ?? '/',
  cleanUrls: false,
  lastUpdated: false,
  // A dead internal link fails the build (VitePress checks them by default; said here on purpose).
  ignoreDeadLinks: false,
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/' },
      { text: 'Formats', link: '/formats/' },
      { text: 'Plugin tutorial', link: '/guide/plugin-tutorial' },
      { text: 'API', link: '/api/' },
      { text: 'Playground', link: '/playground' },
      { text: 'Studio', link: '/studio/' },
      { text: 'Benchmarks', link: '/benchmarks' },
    ],
    sidebar: {
      '/guide/': [
        {
          text: 'Start',
          items: [
            { text: 'What savekit is', link: '/guide/' },
            { text: 'Install and first decode', link: '/guide/getting-started' },
            { text: 'The CLI', link: '/guide/cli' },
            { text: 'Authoring a format plugin', link: '/guide/plugin-tutorial' },
          ],
        },
        {
          text: 'Concepts',
          items: [
            { text: 'Codecs and their laws', link: '/guide/codecs' },
            { text: 'Chunks', link: '/guide/chunks' },
            { text: 'Declarations: rebuild, look-ahead, hooks', link: '/guide/declarations' },
            { text: 'Transforms and checksums', link: '/guide/transforms' },
            { text: 'Pointers', link: '/guide/pointers' },
            { text: 'Bit fields', link: '/guide/bit-fields' },
            { text: 'Self-describing schemas', link: '/guide/schemas' },
            { text: 'Object graphs and restore_first', link: '/guide/graphs' },
            { text: 'Errors and warnings', link: '/guide/errors' },
            { text: 'Limits and budgets', link: '/guide/limits' },
            { text: 'Compiled codecs', link: '/guide/compiled' },
            { text: 'Lossless JSON', link: '/guide/json' },
            { text: "Entry points and the codec author's kit", link: '/guide/kit' },
          ],
        },
      ],
      '/formats/': [
        {
          text: 'Formats',
          items: [
            { text: 'Overview', link: '/formats/' },
            { text: 'EDGE', link: '/formats/edge' },
            { text: 'The Ur-Quan Masters', link: '/formats/uqm' },
            { text: 'Zippy', link: '/formats/zippy' },
            { text: 'Terrarum', link: '/formats/terrarum' },
          ],
        },
      ],
      ...apiSidebars(apiSidebar),
    },
    search: { provider: 'local' },
    editLink: { pattern: 'https://github.com/savekit/savekit/edit/main/docs/:path', text: 'Edit this page' },
    socialLinks: [{ icon: 'github', link: 'https://github.com/savekit/savekit' }],
    outline: [2, 3],
  },
  async buildEnd(site) {
    await buildStudio(join(site.outDir, 'studio', 'app'));
  },
  vite: {
    // The playground decodes in the browser with the real packages: bundle their ES modules.
    optimizeDeps: { include: ['fp-ts/lib/Either.js', 'io-ts', 'crc-32', 'adler-32'] },
    ssr: { noExternal: [] },
    build: { chunkSizeWarningLimit: 4000 },
  },
});
