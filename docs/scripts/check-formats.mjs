// Fails the docs build when a format package is missing from the pages that list the formats: the
// home page, the guide's index, the formats overview, the formats sidebar and the playground, and a
// format page that does not show the generated layout of all its structures. Format
// packages are found from the packages themselves (docs/scripts/packages.mjs), so adding one
// without its docs is caught here rather than by a reader.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatPackages, root } from './packages.mjs';

const docs = join(root, 'docs');
const read = (file) => readFileSync(join(docs, file), 'utf8');
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A Markdown link, or a frontmatter `link:`, to the format's page (with or without .md/.html and a hash). */
const linksTo = (text, page) =>
  new RegExp(
    `(\\]\\(|link:\\s*)(${escapeRegExp(page)}|\\./${escapeRegExp(page.split('/').pop())})(\\.md|\\.html)?(#[^)\\s]*)?(\\)|\\s*$)`,
    'm',
  ).test(text);

const packages = await formatPackages();
if (packages.length === 0) {
  console.error('docs check: no format packages found — is the package discovery broken?');
  process.exit(1);
}

const problems = [];
for (const pkg of packages) {
  const name = pkg.manifest.name;
  const page = `/formats/${pkg.folder}`;
  const ids = pkg.formats.map((f) => f.id).join(', ');
  const missing = (where, what) => problems.push(`${name} (format ${ids}): ${where} ${what}`);
  if (!existsSync(join(docs, 'formats', `${pkg.folder}.md`)))
    missing(`docs/formats/${pkg.folder}.md`, 'does not exist (every format has its page)');
  else if (!read(`formats/${pkg.folder}.md`).includes(`<!--@include: ./generated/${pkg.folder}-structures.md-->`))
    missing(
      `docs/formats/${pkg.folder}.md`,
      `does not include ./generated/${pkg.folder}-structures.md (the layout of every structure it exports)`,
    );
  for (const [file, label] of [
    ['index.md', 'the home page'],
    ['guide/index.md', 'the guide index'],
  ]) {
    const text = read(file);
    if (!linksTo(text, page)) missing(`${label} (docs/${file})`, `has no link to ${page}`);
    if (!text.includes(`\`${name}\``)) missing(`${label} (docs/${file})`, `does not name \`${name}\``);
  }
  if (!linksTo(read('formats/index.md'), page))
    missing('the formats overview (docs/formats/index.md)', `has no link to ${page}`);
  if (!read('.vitepress/config.mts').includes(`link: '${page}'`))
    missing('the formats sidebar (docs/.vitepress/config.mts)', `has no entry for ${page}`);
  if (!read('.vitepress/theme/Playground.vue').includes(`from '${name}'`))
    missing('the playground (docs/.vitepress/theme/Playground.vue)', `does not register ${name}`);
}

if (problems.length > 0) {
  console.error(`docs check: ${problems.length} problem${problems.length === 1 ? '' : 's'} with the format pages:`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(
  `docs check: ${packages.length} format packages (${packages.map((p) => p.manifest.name).join(', ')}) on every page that lists formats`,
);
