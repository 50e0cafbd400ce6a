// Writes the API reference's landing page, docs/api/index.md, in place of TypeDoc's bare list of
// package names: one section per package with what it is for (its package.json description), its
// entry points (its `exports` map, each with its module comment), its command if it has one, and
// its main exports with a one-line description each. "Main" is what the package's own README
// imports in its examples (the authors' choice of what a reader meets first), plus a format
// package's `format`. Everything comes from TypeDoc's JSON model (`npm run api` writes it), the
// sidebar TypeDoc writes (for the links) and the packages' metadata, so the page cannot go stale.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatPackages, root, workspacePackages } from './packages.mjs';

const docs = join(root, 'docs');
const modelFile = join(docs, '.vitepress', 'cache', 'api.json');
const sidebarFile = join(docs, 'api', 'typedoc-sidebar.json');
for (const file of [modelFile, sidebarFile]) {
  if (!existsSync(file)) {
    console.error(`api index: ${file} is missing (run npm run api first)`);
    process.exit(1);
  }
}
const model = JSON.parse(readFileSync(modelFile, 'utf8'));
const sidebar = JSON.parse(readFileSync(sidebarFile, 'utf8'));

// TypeDoc's ReflectionKind values (typedoc/dist/lib/models/kind), the ones a package exports.
const KIND = {
  2: 'module',
  4: 'namespace',
  8: 'enum',
  32: 'constant',
  64: 'function',
  128: 'class',
  256: 'interface',
  2097152: 'type',
  4194304: 're-export',
};
// The sidebar group TypeDoc's markdown theme files each kind under.
const GROUP = {
  4: 'Namespaces',
  8: 'Enumerations',
  32: 'Variables',
  64: 'Functions',
  128: 'Classes',
  256: 'Interfaces',
  2097152: 'Type Aliases',
};

/** A comment's parts as Markdown (inline `{@link x}` shown as `x`). */
function partsText(parts = []) {
  return parts.map((p) => (p.kind === 'inline-tag' ? `\`${p.text}\`` : p.text)).join('');
}

/** The first sentence of a comment summary, on one line. */
function oneLine(comment, dropPrefix) {
  let text = partsText(comment?.summary)
    .split(/\n\s*\n/)[0]
    .replace(/\s*\n\s*/g, ' ')
    .trim();
  // Module comments open with "`@savekit/x`: …"; the entry point is already named beside it.
  if (dropPrefix !== undefined && text.startsWith(`\`${dropPrefix}\``))
    text = text.slice(dropPrefix.length + 2).replace(/^[:\s—-]+/, '');
  // A sentence ends at ". " before a capital or a backtick, outside code spans.
  let inCode = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '`') inCode = !inCode;
    else if (!inCode && text[i] === '.' && (i === text.length - 1 || /\s[A-Z`]/.test(text.slice(i + 1, i + 3)))) {
      text = text.slice(0, i + 1);
      break;
    }
  }
  return text === '' ? '' : text[0].toUpperCase() + text.slice(1);
}

/** The comment of an export: its own, or its first signature's (functions, constructors). */
function commentOf(reflection) {
  return (
    reflection.comment ?? reflection.signatures?.[0]?.comment ?? reflection.type?.declaration?.signatures?.[0]?.comment
  );
}

/** Every link under a sidebar node, by the name shown: [{ group, link }]. */
function sidebarLinks(node, group = '', out = new Map()) {
  for (const item of node.items ?? []) {
    if (item.items !== undefined) sidebarLinks(item, item.text, out);
    else if (item.link !== undefined) out.set(item.text, [...(out.get(item.text) ?? []), { group, link: item.link }]);
  }
  return out;
}

/** The names a README's code examples import from `specifier`, in order of appearance. */
function readmeImports(readme, specifier) {
  const names = [];
  const pattern = /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g;
  for (const match of readme.matchAll(pattern)) {
    if (match[2] !== specifier) continue;
    for (const raw of match[1].split(',')) {
      const name = raw
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]
        .trim();
      if (name !== '' && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

const packages = workspacePackages().filter((p) => p.manifest.private !== true);
const formats = new Map((await formatPackages()).map((p) => [p.manifest.name, p.formats]));
// Core first, format packages last, the rest in between (the order a reader builds up from).
const rank = (p) => (p.manifest.name === '@savekit/core' ? 0 : formats.has(p.manifest.name) ? 2 : 1);
packages.sort((a, b) => rank(a) - rank(b) || a.folder.localeCompare(b.folder));

const lines = [
  '# API reference',
  '',
  'Every published package, what it is for, the entry points it can be imported from and the exports',
  "a reader meets first. Each name links to its full reference; on a package's pages the sidebar lists",
  'every export of that package (of that entry point, for a package with several).',
  "This page is generated from the packages' metadata and their TSDoc by `docs/scripts/api-index.mjs`.",
  '',
  '| package | what it is for |',
  '|---|---|',
];
/** The anchor VitePress gives a heading (its slugify: special characters become one dash, trimmed). */
const anchor = (heading) =>
  heading
    .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
for (const pkg of packages)
  lines.push(`| [\`${pkg.manifest.name}\`](#${anchor(pkg.manifest.name)}) | ${pkg.manifest.description ?? ''} |`);

let documented = 0;
for (const pkg of packages) {
  const name = pkg.manifest.name;
  const reflection = model.children?.find((c) => c.name === name);
  const node = sidebar.find((n) => n.text === name);
  if (reflection === undefined || node === undefined) {
    console.error(`api index: ${name} is not in the TypeDoc output (add it to docs/typedoc.json's entryPoints)`);
    process.exit(1);
  }
  documented++;
  // A package with subpath exports is a set of modules named by import specifier (see
  // typedoc-entry-names.mjs); a package with one entry point is its module.
  const subModules = (reflection.children ?? []).filter((c) => c.kind === 2);
  const modules = subModules.length > 0 ? subModules : [reflection];
  const moduleNodes =
    subModules.length > 0
      ? new Map(node.items.filter((i) => i.link !== undefined).map((i) => [i.text, i]))
      : new Map([[name, node]]);

  lines.push('', `## ${name}`, '', pkg.manifest.description ?? '');
  const formatList = formats.get(name);
  if (formatList !== undefined) {
    const list = formatList.map((f) => `\`${f.id}\` (${f.title})`).join(', ');
    lines.push(
      '',
      `A format package: its \`format\` export registers ${list} with the CLI, the playground and any \`FormatRegistry\`. The bytes, layouts and edits are on its [format page](/formats/${pkg.folder}).`,
    );
  }
  const bin = pkg.manifest.bin;
  if (bin !== undefined) {
    const commands = typeof bin === 'string' ? [pkg.manifest.name.split('/').pop()] : Object.keys(bin);
    lines.push('', `Command: ${commands.map((c) => `\`npx ${c}\``).join(', ')} — see [the CLI](/guide/cli).`);
  }

  lines.push('', '| import from | what it holds |', '|---|---|');
  const exportsMap = pkg.manifest.exports ?? { '.': pkg.manifest.main };
  for (const key of Object.keys(exportsMap)) {
    if (key === './package.json') continue;
    const specifier = key === '.' ? name : `${name}/${key.replace(/^\.\//, '')}`;
    const module =
      modules.find((m) => m.name === specifier) ?? (modules.length === 1 && key === '.' ? modules[0] : undefined);
    const moduleNode = moduleNodes.get(specifier) ?? (key === '.' ? moduleNodes.get(name) : undefined);
    if (module === undefined || moduleNode === undefined) {
      console.error(`api index: ${specifier} (an entry point of ${name}) is not in the TypeDoc output`);
      process.exit(1);
    }
    lines.push(`| [\`${specifier}\`](${moduleNode.link}) | ${oneLine(module.comment, specifier) || '—'} |`);
  }

  const readmeFile = join(pkg.dir, 'README.md');
  const readme = existsSync(readmeFile) ? readFileSync(readmeFile, 'utf8') : '';
  for (const module of modules) {
    const moduleNode = moduleNodes.get(module.name) ?? node;
    const links = sidebarLinks(moduleNode);
    const exported = module.children ?? [];
    let main = readmeImports(readme, module.name);
    if (formatList !== undefined && module.name === name) main = ['format', ...main.filter((n) => n !== 'format')];
    // With no example in the README, the classes and functions stand in for it.
    if (main.length === 0) main = exported.filter((c) => c.kind === 64 || c.kind === 128).map((c) => c.name);
    const shown = main.map((n) => exported.find((c) => c.name === n)).filter((c) => c !== undefined);
    if (shown.length === 0) continue;
    lines.push('', modules.length > 1 ? `Main exports of \`${module.name}\`:` : 'Main exports:', '');
    for (const item of shown) {
      const target = item.kind === 4194304 ? (exported.find((c) => c.id === item.target) ?? item) : item;
      const candidates = links.get(item.name) ?? [];
      const link = (candidates.find((c) => c.group === GROUP[target.kind]) ?? candidates[0])?.link;
      const label = link === undefined ? `\`${item.name}\`` : `[\`${item.name}\`](${link})`;
      const description = oneLine(commentOf(target));
      lines.push(`- ${label} — ${KIND[target.kind] ?? 'export'}${description === '' ? '' : `: ${description}`}`);
    }
    const counts = new Map();
    for (const c of exported) counts.set(KIND[c.kind] ?? 'export', (counts.get(KIND[c.kind] ?? 'export') ?? 0) + 1);
    const summary = [...counts]
      .map(([kind, n]) => `${n} ${kind}${n === 1 ? '' : kind.endsWith('s') ? 'es' : 's'}`)
      .join(', ');
    lines.push('', `[All ${exported.length} exports of \`${module.name}\`](${moduleNode.link}): ${summary}.`);
  }
}

writeFileSync(join(docs, 'api', 'index.md'), `${lines.join('\n')}\n`);
console.log(`api index: ${documented} packages written to docs/api/index.md`);
