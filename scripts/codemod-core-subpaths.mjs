#!/usr/bin/env node
// Moves imports of names that left the front door of @savekit/core to the subpath that exports them
// now (`@savekit/core/kit`, `/graph`, `/schema`, …):
//
//   import { decode, Reader, readGraph, type Codec } from '@savekit/core';
// becomes
//   import { decode, type Codec } from '@savekit/core';
//   import { Reader } from '@savekit/core/kit';
//   import { readGraph } from '@savekit/core/graph';
//
// What moved is not a list kept here: it is read from the package itself. Every subpath in
// packages/core/package.json `exports` is mapped to its source entry (`./dist/kit.d.ts` →
// `src/kit.ts`), the TypeScript checker lists each entry's exports (following `export *`), and a name
// a subpath exports that `src/index.ts` does not is a moved name. Run it again after the entries
// change (a merge, a new kit export) and it moves what moved since; on a tree already rewritten it
// changes nothing.
//
// Rewritten: `import`/`import type`/`export … from` lists (one line or many, `type` modifiers and
// `as` renames kept), merged into an import of the subpath that the file — or, in Markdown, the same
// code block — already has; `import('@savekit/core').Name` types and `require('@savekit/core').Name`.
// Inside packages/core, relative imports of `src/index` are treated as `@savekit/core` and rewritten
// to the relative path of the entry. Namespace imports (`import * as core`) that use a moved name are
// reported for a hand edit, not rewritten.
//
//   node scripts/codemod-core-subpaths.mjs             rewrite packages/*, examples, bench, docs,
//                                                      test and README.md (.ts .mts .cts .tsx .js
//                                                      .mjs .cjs .vue .md; not dist, node_modules,
//                                                      generated docs or CHANGELOG.md)
//   node scripts/codemod-core-subpaths.mjs --check     change nothing; exit 1 if a file would change
//   node scripts/codemod-core-subpaths.mjs PATH…       only these files or folders
//   … --root=DIR                                       another checkout of the same layout
//   … --list                                           print the moved names by subpath and stop
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ts = createRequire(import.meta.url)('typescript');

const args = process.argv.slice(2);
const rootArg = args.find((a) => a.startsWith('--root='));
const root = rootArg ? resolve(rootArg.slice('--root='.length)) : join(dirname(fileURLToPath(import.meta.url)), '..');
const check = args.includes('--check');
const listOnly = args.includes('--list');
const paths = args.filter((a) => !a.startsWith('--'));

const PACKAGE = '@savekit/core';
const coreDir = join(root, 'packages', 'core');
const coreSrc = join(coreDir, 'src');
const DEFAULT_ROOTS = ['packages', 'examples', 'bench', 'docs', 'test', 'README.md'];
const EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.tsx', '.js', '.mjs', '.cjs', '.vue', '.md']);
/** Folders never walked: build output, dependencies, generated pages and caches. */
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'cache', '.generated', 'results', 'test-output']);
const SKIP_PATHS = [join('docs', 'api'), join('docs', 'formats', 'generated'), join('docs', '.vitepress', 'dist')];
/** Release notes describe the API of their time: left as written. */
const SKIP_FILES = new Set(['CHANGELOG.md']);
const LINE_WIDTH = 120;

// ---------------------------------------------------------------------------------------------
// What moved where, read from the package.

/** Subpath (`.`, `./kit`, …) → its source entry, from the `types` targets of package.json exports. */
function entrySources() {
  const manifest = JSON.parse(readFileSync(join(coreDir, 'package.json'), 'utf8'));
  const entries = new Map();
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    const types = typeof target === 'object' && target !== null ? target.types : undefined;
    if (typeof types !== 'string') continue;
    const source = join(coreDir, types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts'));
    if (!existsSync(source)) throw new Error(`${subpath}: no source entry ${relative(root, source)} for ${types}`);
    entries.set(subpath, source);
  }
  if (!entries.has('.')) throw new Error(`${PACKAGE} has no "." export`);
  return entries;
}

/** The exported names of each entry, by the TypeScript checker (so `export *` is followed). */
function exportedNames(entries) {
  const program = ts.createProgram([...entries.values()], {
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    // Export lists need the modules, not the standard library or global types: skipping them
    // makes a run seconds faster.
    noLib: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const names = new Map();
  for (const [subpath, file] of entries) {
    const source = program.getSourceFile(file);
    const symbol = source && checker.getSymbolAtLocation(source);
    if (!symbol) throw new Error(`cannot read the exports of ${relative(root, file)}`);
    names.set(subpath, new Set(checker.getExportsOfModule(symbol).map((s) => s.name)));
  }
  return names;
}

/** Moved name → the subpath (`kit`, `graph`, …) that exports it; `front` = what `.` still exports. */
function movedNames() {
  const entries = entrySources();
  const names = exportedNames(entries);
  const front = names.get('.');
  const moved = new Map();
  const conflicts = [];
  for (const [subpath, exported] of names) {
    if (subpath === '.') continue;
    for (const name of exported) {
      if (front.has(name)) continue;
      const already = moved.get(name);
      if (already !== undefined) conflicts.push(`${name} is exported by ${already} and ${subpath.slice(2)}`);
      else moved.set(name, subpath.slice(2));
    }
  }
  return { entries, front, moved, conflicts };
}

// ---------------------------------------------------------------------------------------------
// Import statements.

// `import {…} from '…'`, `import type {…} from '…'`, `export {…} from '…'`, at the start of a line
// (after indentation), with the list on any number of lines.
const STATEMENT = /^([ \t]*)(import|export)(\s+type)?\s*\{([^{}]*)\}\s*from\s*(['"])([^'"\n]+)\5([ \t]*;)?/gm;
const NAMESPACE = /^[ \t]*import\s+(?:type\s+)?\*\s+as\s+(\w+)\s+from\s*['"]([^'"\n]+)['"]/gm;
const EXPRESSION = /\b(import|require)\(\s*(['"])([^'"\n]+)\2\s*\)(\s*\.\s*)(\w+)/g;

/** One `name`, `type name` or `name as alias` of a list. */
function parseSpecifier(text) {
  const match = /^(type\s+)?([\w$]+)(?:\s+as\s+([\w$]+))?$/.exec(text);
  if (!match) return undefined;
  return { type: match[1] !== undefined, name: match[2], alias: match[3] };
}

function specifierText(spec, statementIsType) {
  const name = spec.alias === undefined ? spec.name : `${spec.name} as ${spec.alias}`;
  return spec.type && !statementIsType ? `type ${name}` : name;
}

function render(statement) {
  const { indent, keyword, isType, specs, quote, spec, semicolon } = statement;
  const head = `${indent}${keyword}${isType ? ' type' : ''} `;
  const tail = ` from ${quote}${spec}${quote}${semicolon ? ';' : ''}`;
  const items = specs.map((s) => specifierText(s, isType));
  const oneLine = `${head}{ ${items.join(', ')} }${tail}`;
  if (oneLine.length <= LINE_WIDTH) return oneLine;
  return `${head}{\n${items.map((item) => `${indent}  ${item},\n`).join('')}${indent}}${tail}`;
}

/** Spans of fenced code blocks of a Markdown file: statements merge only within one block. */
function scopesOf(text, isMarkdown) {
  if (!isMarkdown) return [[0, text.length]];
  const scopes = [];
  const fence = /^([ \t]*)(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\2[ \t]*$/gm;
  for (const m of text.matchAll(fence)) scopes.push([m.index, m.index + m[0].length]);
  return scopes;
}

/**
 * What a module specifier of `file` names: `{ subpath }` for @savekit/core and its subpaths (and,
 * inside packages/core, relative paths to its source entries), else undefined.
 */
function classify(file, specifier, entries) {
  if (specifier === PACKAGE) return { subpath: '.' };
  if (specifier.startsWith(`${PACKAGE}/`)) return { subpath: `./${specifier.slice(PACKAGE.length + 1)}` };
  if (!specifier.startsWith('.') || !file.startsWith(coreDir + sep)) return undefined;
  const target = resolve(dirname(file), specifier);
  const extension = /\.(js|ts)$/.exec(specifier)?.[0] ?? '';
  const bare = extension ? target.slice(0, -extension.length) : target;
  for (const [subpath, source] of entries) {
    const entryBare = source.replace(/\.ts$/, '');
    if (bare === entryBare || (subpath === '.' && bare === coreSrc)) return { subpath, extension };
  }
  return undefined;
}

/** The specifier `file` uses for `subpath`, in the style of the one it had (`extension`). */
function specifierFor(file, subpath, entries, relativeStyle) {
  if (relativeStyle === undefined) return subpath === '.' ? PACKAGE : `${PACKAGE}/${subpath.slice(2)}`;
  let path = relative(dirname(file), entries.get(subpath).replace(/\.ts$/, '')).split(sep).join('/');
  if (!path.startsWith('.')) path = `./${path}`;
  return path + relativeStyle;
}

/** Rewrites one file's text; returns the new text and the problems that need a hand edit. */
function rewrite(file, text, plan) {
  const { entries, moved } = plan;
  const problems = [];
  const scopes = scopesOf(text, extname(file) === '.md');
  const scopeOf = (at) => scopes.findIndex(([start, end]) => at >= start && at < end);
  const statements = [];
  for (const m of text.matchAll(STATEMENT)) {
    const kind = classify(file, m[6], entries);
    if (kind === undefined) continue;
    const body = m[4];
    const location = `${relative(root, file)}:${text.slice(0, m.index).split('\n').length}`;
    if (/\/\/|\/\*/.test(body)) {
      const bare = body.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '');
      if (kind.subpath === '.' && bare.split(',').some((s) => moved.has(parseSpecifier(s.trim())?.name)))
        problems.push(`${location}: an import list with comments; move its names by hand`);
      continue;
    }
    const parts = body
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    const specs = parts.map(parseSpecifier);
    if (specs.some((s) => s === undefined)) {
      problems.push(`${location}: an import list not understood: ${body.replace(/\s+/g, ' ').trim()}`);
      continue;
    }
    statements.push({
      start: m.index,
      end: m.index + m[0].length,
      scope: scopeOf(m.index),
      subpath: kind.subpath,
      relativeStyle: kind.extension,
      indent: m[1],
      keyword: m[2],
      isType: m[3] !== undefined,
      specs,
      quote: m[5],
      spec: m[6],
      semicolon: m[7] !== undefined,
      changed: false,
      added: [],
    });
  }

  for (const statement of statements.filter((s) => s.subpath === '.')) {
    const groups = new Map();
    const stay = [];
    for (const spec of statement.specs) {
      const to = moved.get(spec.name);
      if (to === undefined) stay.push(spec);
      else {
        if (!groups.has(to)) groups.set(to, []);
        // A name from `import type {…}` stays a type wherever it goes.
        groups.get(to).push({ ...spec, type: spec.type || statement.isType });
      }
    }
    if (groups.size === 0) continue;
    statement.specs = stay;
    statement.changed = true;
    for (const [to, specs] of groups) {
      const subpath = `./${to}`;
      const allTypes = specs.every((s) => s.type);
      const sameList = (s) =>
        s.subpath === subpath &&
        s.keyword === statement.keyword &&
        s.scope === statement.scope &&
        s.relativeStyle === statement.relativeStyle;
      // Prefer a plain list of that subpath (it takes values and types); a type-only list only
      // takes types.
      const target =
        statements.find((s) => sameList(s) && !s.isType) ??
        (allTypes ? statements.find((s) => sameList(s) && s.isType) : undefined);
      if (target !== undefined) {
        for (const spec of specs) {
          const have = target.specs.find((s) => s.name === spec.name && s.alias === spec.alias);
          if (have === undefined) target.specs.push(target.isType ? { ...spec, type: false } : spec);
          else if (have.type && !spec.type) have.type = false; // a value import covers the type too
        }
        target.changed = true;
      } else {
        const fresh = {
          start: -1,
          end: -1,
          added: [],
          subpath,
          relativeStyle: statement.relativeStyle,
          scope: statement.scope,
          indent: statement.indent,
          keyword: statement.keyword,
          isType: allTypes,
          specs: allTypes ? specs.map((s) => ({ ...s, type: false })) : specs,
          quote: statement.quote,
          spec: specifierFor(file, subpath, entries, statement.relativeStyle),
          semicolon: statement.semicolon,
          changed: true,
        };
        statement.added.push(fresh);
        // Later statements of the file merge into it rather than add another.
        statements.push(fresh);
      }
    }
  }

  // Replace changed statements from the end, so earlier offsets stay valid.
  let out = text;
  const edits = statements.filter((s) => s.start >= 0 && (s.changed || s.added.length > 0));
  for (const statement of edits.sort((a, b) => b.start - a.start)) {
    const lines = [];
    if (statement.specs.length > 0) lines.push(render(statement));
    const order = [...entries.keys()];
    for (const fresh of statement.added.sort((a, b) => order.indexOf(a.subpath) - order.indexOf(b.subpath)))
      lines.push(render(fresh));
    let { start, end } = statement;
    // An emptied statement takes its line with it.
    if (lines.length === 0 && out[end] === '\n') end++;
    out = out.slice(0, start) + lines.join('\n') + out.slice(end);
  }

  // `import('@savekit/core').Reader` in types and JSDoc, `require('@savekit/core').plural`.
  out = out.replace(EXPRESSION, (whole, call, quote, specifier, dot, name) => {
    const kind = classify(file, specifier, entries);
    const to = kind?.subpath === '.' ? moved.get(name) : undefined;
    if (to === undefined) return whole;
    return `${call}(${quote}${specifierFor(file, `./${to}`, entries, kind.extension)}${quote})${dot}${name}`;
  });

  for (const m of out.matchAll(NAMESPACE)) {
    if (classify(file, m[2], entries)?.subpath !== '.') continue;
    const used = [...out.matchAll(new RegExp(`\\b${m[1]}\\.(\\w+)`, 'g'))].map((u) => u[1]).filter((n) => moved.has(n));
    if (used.length > 0)
      problems.push(
        `${relative(root, file)}: namespace import ${m[1]} uses moved names: ${[...new Set(used)].map((n) => `${n} (${moved.get(n)})`).join(', ')}`,
      );
  }
  return { text: out, problems };
}

// ---------------------------------------------------------------------------------------------

function* files(path) {
  const stat = statSync(path);
  if (stat.isFile()) {
    if (EXTENSIONS.has(extname(path)) && !SKIP_FILES.has(path.split(sep).pop())) yield path;
    return;
  }
  const rel = relative(root, path);
  if (SKIP_PATHS.includes(rel)) return;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.isDirectory() && SKIP_DIRS.has(entry.name)) continue;
    if (entry.isDirectory() || entry.isFile()) yield* files(join(path, entry.name));
  }
}

const plan = movedNames();
if (plan.conflicts.length > 0) {
  for (const c of plan.conflicts) console.error(`codemod-core-subpaths: ${c}`);
  process.exit(2);
}
if (listOnly) {
  const bySubpath = new Map();
  for (const [name, to] of plan.moved) bySubpath.set(to, [...(bySubpath.get(to) ?? []), name]);
  for (const [to, names] of bySubpath)
    console.log(`${PACKAGE}/${to} (${names.length}): ${names.sort((a, b) => a.localeCompare(b)).join(', ')}`);
  process.exit(0);
}

const targets = (paths.length > 0 ? paths.map((p) => resolve(p)) : DEFAULT_ROOTS.map((p) => join(root, p))).filter(
  (p) => existsSync(p),
);
let changed = 0;
const problems = [];
for (const target of targets) {
  for (const file of files(target)) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes(PACKAGE) && !file.startsWith(coreDir + sep)) continue;
    const result = rewrite(file, text, plan);
    problems.push(...result.problems);
    if (result.text === text) continue;
    changed++;
    console.log(`${check ? 'would rewrite' : 'rewrote'} ${relative(root, file)}`);
    if (!check) writeFileSync(file, result.text);
  }
}
for (const p of problems) console.error(`codemod-core-subpaths: ${p}`);
console.log(
  `codemod-core-subpaths: ${plan.moved.size} names live in subpaths; ${changed} file(s) ${check ? 'to rewrite' : 'rewritten'}${problems.length > 0 ? `, ${problems.length} to edit by hand` : ''}`,
);
process.exit(problems.length > 0 || (check && changed > 0) ? 1 : 0);
