#!/usr/bin/env node
// The public API of every published package, as text: each entry point's exported names with their
// declarations (from the built .d.ts files, comments removed, so a TSDoc edit is not an API change).
//
//   node scripts/api-report.mjs            check: a package whose API differs from its last release
//                                          needs a pending changeset naming it (.changeset/*.md)
//   node scripts/api-report.mjs --baseline record the current API as released (run by `npm run version`)
//   node scripts/api-report.mjs --print    print the reports
//   … --root=DIR                           another repository of the same layout
//
// The released API lives in packages/<dir>/etc/<dir>.released-api.txt, so the check works on a fresh
// clone with no tags or history, and a reviewer sees an API change as a diff of those files at release.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ts = createRequire(import.meta.url)('typescript');
// --root=DIR checks another repository of the same layout (the script's own tests use it).
const rootArg = process.argv.find((a) => a.startsWith('--root='));
const root = rootArg ? resolve(rootArg.slice('--root='.length)) : join(dirname(fileURLToPath(import.meta.url)), '..');
const mode = process.argv.slice(2).find((a) => !a.startsWith('--root=')) ?? '--check';

/** Published packages: every workspace package under packages/ that is not private. */
function publishedPackages() {
  return readdirSync(join(root, 'packages'))
    .map((dir) => join(root, 'packages', dir))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => !manifest.private)
    .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
}

/** Entry points: subpath → the .d.ts its `types` condition names. */
function entryPoints({ dir, manifest }) {
  const entries = [];
  for (const [subpath, target] of Object.entries(manifest.exports ?? { '.': { types: manifest.types } })) {
    const types = typeof target === 'object' && target !== null ? target.types : undefined;
    if (typeof types === 'string') entries.push({ subpath, file: join(dir, types) });
  }
  return entries;
}

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** The report of one package: one block per entry point, one declaration per exported name, sorted. */
function report(pkg) {
  const entries = entryPoints(pkg);
  for (const { file } of entries) {
    if (!existsSync(file)) throw new Error(`${pkg.manifest.name}: ${file} is missing (run npm run build first)`);
  }
  const program = ts.createProgram(
    entries.map((e) => e.file),
    {
      noEmit: true,
      skipLibCheck: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
    },
  );
  const checker = program.getTypeChecker();
  const blocks = [];
  for (const { subpath, file } of entries) {
    const source = program.getSourceFile(file);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    const lines = [];
    for (const exported of moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : []) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      for (const declaration of symbol.declarations ?? []) {
        const text = printer
          .printNode(ts.EmitHint.Unspecified, declaration, declaration.getSourceFile())
          .replace(/\s+/g, ' ')
          .trim();
        lines.push(`${exported.name}: ${text}`);
      }
    }
    lines.sort();
    blocks.push(`## ${pkg.manifest.name}${subpath === '.' ? '' : subpath.slice(1)}\n${lines.join('\n')}\n`);
  }
  return blocks.join('\n');
}

function baselineFile(pkg) {
  const dir = pkg.dir.split(/[\\/]/).pop();
  return join(pkg.dir, 'etc', `${dir}.released-api.txt`);
}

/** Package names that pending changesets (.changeset/*.md front matter) name. */
function packagesWithChangesets() {
  const names = new Set();
  const dir = join(root, '.changeset');
  for (const file of existsSync(dir) ? readdirSync(dir) : []) {
    if (!file.endsWith('.md') || file === 'README.md') continue;
    const front = /^---\n([\s\S]*?)\n---/.exec(readFileSync(join(dir, file), 'utf8'));
    for (const line of front ? front[1].split('\n') : []) {
      const match = /^\s*['"]?(@?[^'":]+)['"]?\s*:/.exec(line);
      if (match) names.add(match[1].trim());
    }
  }
  return names;
}

/** A long changed declaration cut to the part around its first difference from `other`. */
function around(line, other) {
  if (line.length <= 160) return line;
  let at = 0;
  while (at < line.length && line[at] === other[at]) at++;
  const start = Math.max(line.indexOf(':') + 2, at - 60);
  return `${line.slice(0, line.indexOf(':') + 1)} …${line.slice(start, start + 140)}…`;
}

/**
 * What changed between two reports, a line per declaration: `-` removed, `+` added, and for a name whose
 * declaration changed, both, cut to where they differ.
 */
function lineDiff(before, after) {
  const byName = (text) =>
    new Map(
      text
        .split('\n')
        .filter((l) => l.includes(': '))
        .map((l) => [l, l.slice(0, l.indexOf(': '))]),
    );
  const old = byName(before);
  const now = byName(after);
  const oldByName = new Map([...old].map(([line, name]) => [name, line]));
  const nowByName = new Map([...now].map(([line, name]) => [name, line]));
  const lines = [];
  for (const [line, name] of old) {
    if (now.has(line)) continue;
    const other = nowByName.get(name) ?? '';
    lines.push(`  - ${around(line, other)}`);
    if (other && !old.has(other)) lines.push(`  + ${around(other, line)}`);
  }
  for (const [line, name] of now) {
    if (!old.has(line) && !oldByName.has(name)) lines.push(`  + ${around(line, '')}`);
  }
  return lines;
}

const packages = publishedPackages();
if (mode === '--baseline') {
  for (const pkg of packages) {
    mkdirSync(dirname(baselineFile(pkg)), { recursive: true });
    writeFileSync(baselineFile(pkg), report(pkg));
  }
  console.log(`api: recorded the released API of ${packages.length} packages (packages/*/etc/*.released-api.txt)`);
} else if (mode === '--print') {
  for (const pkg of packages) process.stdout.write(`${report(pkg)}\n`);
} else if (mode === '--check') {
  const named = packagesWithChangesets();
  const missing = [];
  let changed = 0;
  for (const pkg of packages) {
    const { name } = pkg.manifest;
    const file = baselineFile(pkg);
    const released = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const current = report(pkg);
    if (released === current) continue;
    changed++;
    if (named.has(name)) continue;
    missing.push(name);
    const diff = lineDiff(released, current);
    console.error(`api: ${name}'s public API changed since its last release and no changeset names it:`);
    for (const line of diff.slice(0, 20)) console.error(line);
    if (diff.length > 20) console.error(`  … ${diff.length - 20} more lines (node scripts/api-report.mjs --print)`);
  }
  if (missing.length > 0) {
    console.error(`api: add a changeset for ${missing.join(', ')} (npx changeset), saying what changed for users`);
    process.exit(1);
  }
  console.log(
    `api: ${packages.length} packages checked, ${changed} changed since their last release, each with a changeset`,
  );
} else {
  console.error('usage: node scripts/api-report.mjs [--check | --baseline | --print]');
  process.exit(2);
}
