#!/usr/bin/env node
// The packed-package check (`npm run check:packages`, run by .ci/run): every publishable package is
// packed, installed from its tarball into a fresh project outside the repository (dependencies from
// the registry, as a user gets them), and there:
//   files      the tarball ships LICENSE, README.md, dist — and no dist/.tsbuildinfo or tests; the
//              package.json has repository (with directory), homepage, bugs, engines, sideEffects;
//   example    the README's example (the ```ts block after `<!-- example`) runs as an ES module;
//   types      the example type-checks with moduleResolution nodenext and with bundler, and
//              `import x = require(…)` of every entry type-checks from a .cts file (nodenext);
//   attw       @arethetypeswrong/cli finds no problem in the tarball. One rule is ignored,
//              cjs-resolves-to-esm: the packages are ES modules only, and a CommonJS `require` of them
//              is what Node ≥ 20.19 supports (require(esm)) and TypeScript ≥ 5.8 types under
//              nodenext — attw's own TypeScript (5.6) does not model it. The `cjs` step tests it;
//   bundle     each browser entry (not cli/testkit, not ./node) bundles with esbuild for the browser
//              with no Node built-in and one copy of fp-ts; the minified and gzipped sizes are printed;
//   browser    the README example of each browser package, bundled for the browser (only node:assert
//              left out), runs — so the browser builds the bundle picks (fp-ts's ES build,
//              fengari-web) work; so does every test/packages/browser/*.mjs (zippy/lua on fengari-web);
//   cjs        where the README says `require('…')` works on Node ≥ X: the engines field says ≥ X,
//              every entry loads with require(), and the README example runs as CommonJS.
// The build is assumed done. Exits 1 on any problem, after a summary. `--keep` keeps the temp folder;
// `--root DIR` and `--browser a,b` check another workspace (test/check-packages.test.ts gives it a
// broken one, to see every check fail).
import { execFile as execFileCb } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import ts from 'typescript';

const execFile = promisify(execFileCb);
/** Where the tools (esbuild, TypeScript, attw, @types/node) are: this repository. */
const toolRoot = resolve(import.meta.dirname, '..');
const option = (name) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
};
/** The workspace whose packages/* are checked. */
const root = resolve(option('--root') ?? toolRoot);
const keep = process.argv.includes('--keep');
const started = Date.now();

/** Packages meant for the browser; the others (and core's ./node, terrarum's ./node) are Node-only. */
const BROWSER_PACKAGES = new Set(
  option('--browser')?.split(',') ?? ['core', 'lzo1x', 'edge', 'uqm', 'zippy', 'terrarum'],
);
const NODE_ONLY_ENTRIES = new Set(['./node', './package.json']);
const EXAMPLE_MARKER = /<!--\s*example\b[^>]*-->\s*\n```(ts|js)\n([\s\S]*?)```/g;
const CJS_CLAIM = /`require\('([^']+)'\)`\s+works\s+on\s+Node\s+≥\s+(\d+\.\d+)/;

/** Problems found, by package and step; the summary prints them all. */
const problems = [];
/** Summary cells: package → step → text. */
const cells = new Map();
function note(pkg, step, ok, text, detail) {
  if (!cells.has(pkg)) cells.set(pkg, {});
  cells.get(pkg)[step] = `${ok ? 'ok' : 'FAIL'}${text ? ` ${text}` : ''}`;
  if (!ok) problems.push(`${pkg} ${step}: ${detail ?? text}`);
}

const packages = readdirSync(join(root, 'packages'))
  .filter((dir) => existsSync(join(root, 'packages', dir, 'package.json')))
  .map((dir) => ({ dir, json: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) }))
  .filter((p) => p.json.private !== true);
for (const p of packages) {
  const main = p.json.exports?.['.']?.default ?? p.json.main ?? './dist/index.js';
  if (!existsSync(join(root, 'packages', p.dir, main))) {
    console.error(`check-packages: packages/${p.dir}/${main} is missing — run \`npm run build\` first`);
    process.exit(1);
  }
}

const work = mkdtempSync(join(tmpdir(), 'savekit-packages-'));
const tarballs = join(work, 'tarballs');
const project = join(work, 'project');
mkdirSync(tarballs);
mkdirSync(project);
const step = (what) => console.log(`check-packages: ${what} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

try {
  // --- pack (one npm process for every workspace) ---------------------------------------------
  step(`packing ${packages.length} packages`);
  const { stdout: packed } = await execFile(
    'npm',
    [
      'pack',
      '--json',
      '--pack-destination',
      tarballs,
      ...packages.flatMap((p) => ['--workspace', `packages/${p.dir}`]),
    ],
    { cwd: root, maxBuffer: 64 << 20 },
  );
  const packInfo = new Map(JSON.parse(packed).map((info) => [info.name, info]));
  for (const p of packages) {
    const info = packInfo.get(p.json.name);
    p.tarball = join(tarballs, info.filename.replace(/^@/, '').replace('/', '-'));
    if (!existsSync(p.tarball)) p.tarball = join(tarballs, info.filename);
    const files = info.files.map((f) => f.path);
    const entryFiles = Object.values(p.json.exports ?? {}).flatMap((target) =>
      typeof target === 'string' ? [target] : Object.values(target),
    );
    const missing = ['LICENSE', 'README.md', 'package.json', ...entryFiles.map((f) => f.replace(/^\.\//, ''))].filter(
      (f, i, all) => !files.includes(f) && all.indexOf(f) === i,
    );
    const unwanted = files.filter((f) => /(^|\/)\.tsbuildinfo$|\.test\.[cm]?[jt]s$|(^|\/)test\//.test(f));
    const j = p.json;
    const fields = [
      j.license === 'MIT' || 'license',
      (j.repository?.url && j.repository?.directory === `packages/${p.dir}`) || 'repository with directory',
      typeof j.homepage === 'string' || 'homepage',
      typeof j.bugs?.url === 'string' || 'bugs',
      typeof j.engines?.node === 'string' || 'engines.node',
      'sideEffects' in j || 'sideEffects',
    ].filter((x) => x !== true);
    const bad = [
      ...missing.map((f) => `missing ${f}`),
      ...unwanted.map((f) => `ships ${f}`),
      ...fields.map((f) => `package.json lacks ${f}`),
    ];
    note(
      p.dir,
      'files',
      bad.length === 0,
      `${info.entryCount} files, ${(info.size / 1024).toFixed(0)} KB`,
      bad.join('; '),
    );
  }

  // --- a fresh project with the tarballs installed ----------------------------------------------
  step('installing the tarballs into a fresh project');
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'savekit-packed-check', private: true, type: 'module' }, null, 2)}\n`,
  );
  await execFile(
    'npm',
    ['install', ...packages.map((p) => p.tarball), '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
    { cwd: project, maxBuffer: 64 << 20 },
  );

  // attw runs in the background (its own processes) while the rest goes on.
  const attwBin = join(toolRoot, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
  const attw = runLimited(
    packages.map((p) => async () => {
      try {
        await execFile(
          process.execPath,
          [
            attwBin,
            '--ignore-rules',
            'cjs-resolves-to-esm',
            '--format',
            'table-flipped',
            '--no-color',
            '--no-emoji',
            p.tarball,
          ],
          { maxBuffer: 64 << 20 },
        );
        note(p.dir, 'attw', true, '');
      } catch (error) {
        note(p.dir, 'attw', false, 'problems', `\n${error.stdout || error.message}`);
      }
    }),
    2,
  );

  // --- README examples: as ES modules, and their types -------------------------------------------
  step('running the README examples');
  const examples = [];
  for (const p of packages) {
    const readme = readFileSync(join(root, 'packages', p.dir, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(EXAMPLE_MARKER)].map((m) => m[2]);
    if (blocks.length === 0) {
      note(p.dir, 'example', false, 'none', 'the README marks no example (`<!-- example -->` before a ```ts block)');
      continue;
    }
    p.examples = blocks.map((code, i) => {
      const name = `example-${p.dir}-${i}`;
      writeFileSync(join(project, `${name}.ts`), `${code}\nexport {};\n`);
      const js = esbuild.transformSync(code, { loader: 'ts', format: 'esm', target: 'node20' }).code;
      writeFileSync(join(project, `${name}.mjs`), js);
      // The same example as CommonJS: every import becomes a require() of the installed package.
      writeFileSync(
        join(project, `${name}.cjs`),
        esbuild.transformSync(code, { loader: 'ts', format: 'cjs', target: 'node20' }).code,
      );
      return name;
    });
    examples.push(...p.examples.map((name) => `${name}.ts`));
  }
  // The testkit's suites append their totals to CI's file when it is set; an example must not.
  const env = { ...process.env, SAVEKIT_TESTKIT_TOTALS: '' };
  delete env.SAVEKIT_TESTKIT_TOTALS;
  await runLimited(
    packages
      .filter((p) => p.examples)
      .map((p) => async () => {
        const failures = [];
        for (const name of p.examples) {
          try {
            await execFile(process.execPath, [`${name}.mjs`], { cwd: project, env, timeout: 120_000 });
          } catch (error) {
            failures.push(`${name}: ${(error.stderr || error.message).trim().split('\n').slice(0, 8).join('\n')}`);
          }
        }
        note(p.dir, 'example', failures.length === 0, `${p.examples.length} ran`, failures.join('\n'));
      }),
    2,
  );

  // --- CommonJS: the README's claim, the engines field, require() of every entry, the example ---
  step('CommonJS require()');
  const cjsChecks = [];
  for (const p of packages) {
    const readme = readFileSync(join(root, 'packages', p.dir, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const claim = CJS_CLAIM.exec(readme);
    p.entries = Object.keys(p.json.exports ?? { '.': {} })
      .filter((k) => k !== './package.json')
      .map((k) => (k === '.' ? p.json.name : `${p.json.name}/${k.slice(2)}`));
    if (!claim || claim[1] !== p.json.name) {
      note(
        p.dir,
        'cjs',
        false,
        'no claim',
        "the README does not say whether `require('…')` works (\"`require('NAME')` works on Node ≥ X\")",
      );
      continue;
    }
    const version = claim[2];
    if (p.json.engines?.node !== `>=${version}`) {
      note(
        p.dir,
        'cjs',
        false,
        'engines',
        `the README says Node ≥ ${version}, engines.node is ${JSON.stringify(p.json.engines?.node)}`,
      );
      continue;
    }
    const [major, minor] = process.versions.node.split('.').map(Number);
    const [needMajor, needMinor] = version.split('.').map(Number);
    if (major < needMajor || (major === needMajor && minor < needMinor)) {
      note(
        p.dir,
        'cjs',
        false,
        'old node',
        `this Node (${process.versions.node}) is older than the claimed ${version}: the claim is not tested`,
      );
      continue;
    }
    const probe = `cjs-${p.dir}.cjs`;
    writeFileSync(
      join(project, probe),
      `// Every entry of ${p.json.name} through require().\n${p.entries.map((e) => `if (Object.keys(require(${JSON.stringify(e)})).length === 0) throw new Error(${JSON.stringify(`${e}: no exports`)});`).join('\n')}\n`,
    );
    cjsChecks.push(async () => {
      const failures = [];
      for (const file of [probe, ...(p.examples ?? []).map((name) => `${name}.cjs`)]) {
        try {
          await execFile(process.execPath, [file], { cwd: project, env, timeout: 120_000 });
        } catch (error) {
          failures.push(`${file}: ${(error.stderr || error.message).trim().split('\n').slice(0, 8).join('\n')}`);
        }
      }
      note(
        p.dir,
        'cjs',
        failures.length === 0,
        `Node ≥ ${version}: ${p.entries.length} ${p.entries.length === 1 ? 'entry' : 'entries'} + example`,
        failures.join('\n'),
      );
    });
    // TypeScript's side of require(esm): `import x = require()` of every entry from a .cts file.
    writeFileSync(
      join(project, `types-${p.dir}.cts`),
      `${p.entries.map((e, i) => `import entry${i} = require(${JSON.stringify(e)});\nvoid entry${i};`).join('\n')}\nexport {};\n`,
    );
    examples.push(`types-${p.dir}.cts`);
  }
  await runLimited(cjsChecks, 2);

  // --- types: nodenext and bundler ---------------------------------------------------------------
  step('type-checking the examples (nodenext, bundler)');
  const typeRoots = [join(toolRoot, 'node_modules', '@types')];
  const common = {
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    typeRoots,
  };
  const modes = {
    nodenext: { ...common, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
    bundler: { ...common, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler },
  };
  for (const [mode, options] of Object.entries(modes)) {
    // .cts files are CommonJS: only nodenext has require() of ES modules.
    const files = examples.filter((f) => mode === 'nodenext' || !f.endsWith('.cts')).map((f) => join(project, f));
    const program = ts.createProgram(files, options);
    const diagnostics = ts.getPreEmitDiagnostics(program);
    for (const p of packages) {
      const own = diagnostics.filter(
        (d) =>
          d.file === undefined ||
          basename(d.file.fileName).includes(`-${p.dir}`) ||
          d.file.fileName.includes(`/node_modules/${p.json.name}/`),
      );
      const text = own
        .map(
          (d) => `${d.file ? basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
        )
        .join('\n');
      note(p.dir, mode, own.length === 0, '', text);
    }
    const others = diagnostics.filter(
      (d) =>
        d.file !== undefined &&
        !packages.some(
          (p) =>
            basename(d.file.fileName).includes(`-${p.dir}`) ||
            d.file.fileName.includes(`/node_modules/${p.json.name}/`),
        ),
    );
    if (others.length > 0)
      problems.push(
        `types ${mode}: ${others.map((d) => `${d.file.fileName}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`).join('\n')}`,
      );
  }

  // --- browser bundles ---------------------------------------------------------------------------
  step('bundling for the browser');
  const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
  for (const p of packages) {
    if (!BROWSER_PACKAGES.has(p.dir)) {
      cells.get(p.dir).bundle = 'node-only';
      cells.get(p.dir).browser = 'node-only';
      continue;
    }
    const entries = Object.keys(p.json.exports ?? { '.': {} }).filter((k) => !NODE_ONLY_ENTRIES.has(k));
    const sizes = [];
    const failures = [];
    for (const entry of entries) {
      const specifier = entry === '.' ? p.json.name : `${p.json.name}/${entry.slice(2)}`;
      try {
        // Everything the entry exports, so the size is the whole entry's (an app pays less).
        const result = await esbuild.build({
          stdin: { contents: `export * from ${JSON.stringify(specifier)};`, resolveDir: project, loader: 'js' },
          bundle: true,
          platform: 'browser',
          format: 'esm',
          minify: true,
          write: false,
          metafile: true,
          logLevel: 'silent',
        });
        const inputs = Object.keys(result.metafile.inputs);
        const imports = Object.values(result.metafile.inputs).flatMap((input) => input.imports.map((i) => i.path));
        const nodeBuiltins = [...new Set(imports.filter((i) => builtins.has(i)))];
        const fpCopies = new Set(
          inputs
            .filter((i) => i.includes('node_modules/fp-ts/'))
            .map((i) => i.split('node_modules/fp-ts/')[1].split('/')[0]),
        );
        const code = result.outputFiles[0].contents;
        if (nodeBuiltins.length > 0)
          failures.push(`${specifier}: Node built-ins in the bundle: ${nodeBuiltins.join(', ')}`);
        if (fpCopies.size > 1) failures.push(`${specifier}: fp-ts twice (${[...fpCopies].join(' and ')})`);
        sizes.push(
          `${specifier.replace(/^@savekit\//, '')} ${(code.length / 1024).toFixed(1)} KB (${(gzipSync(code).length / 1024).toFixed(1)} gz)`,
        );
      } catch (error) {
        failures.push(
          `${specifier}: ${(error.errors ?? [error])
            .map((e) => e.text ?? e.message)
            .slice(0, 6)
            .join('; ')}`,
        );
      }
    }
    note(p.dir, 'bundle', failures.length === 0, sizes.join(', '), failures.join('\n'));

    // The example as a browser bundle, run (Node stands in for the browser: nothing Node-only is in it).
    const smokes = (p.examples ?? []).map((name) => join(project, `${name}.mjs`));
    const extra = join(root, 'test', 'packages', 'browser');
    // Copied into the project, so their imports resolve to the installed tarballs, not the workspace.
    if (existsSync(extra)) {
      for (const f of readdirSync(extra).filter((f) => f.startsWith(`${p.dir}-`) && f.endsWith('.mjs'))) {
        writeFileSync(join(project, `smoke-${f}`), readFileSync(join(extra, f)));
        smokes.push(join(project, `smoke-${f}`));
      }
    }
    const ran = [];
    for (const file of smokes) {
      const out = join(project, `browser-${basename(file)}`);
      try {
        await esbuild.build({
          entryPoints: [file],
          absWorkingDir: project,
          bundle: true,
          platform: 'browser',
          format: 'esm',
          external: ['node:assert', 'node:assert/strict'],
          outfile: out,
          logLevel: 'silent',
        });
        await execFile(process.execPath, [out], { cwd: project, env, timeout: 120_000 });
        ran.push(basename(file));
      } catch (error) {
        failures.push(
          `${basename(file)} bundled for the browser: ${(error.errors?.map((e) => e.text).join('; ') || error.stderr || error.message).trim().split('\n').slice(0, 8).join('\n')}`,
        );
        note(p.dir, 'browser', false, '', failures.at(-1));
      }
    }
    if (!cells.get(p.dir).browser) note(p.dir, 'browser', true, ran.join(', '));
  }

  await attw;
} catch (error) {
  problems.push(`check-packages: ${error.stack ?? error}${error.stderr ? `\n${error.stderr}` : ''}`);
} finally {
  if (keep) console.log(`check-packages: kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

// --- summary ---------------------------------------------------------------------------------------
const columns = ['files', 'example', 'nodenext', 'bundler', 'attw', 'cjs', 'bundle', 'browser'];
console.log('');
for (const p of packages) {
  const row = cells.get(p.dir) ?? {};
  console.log(`${p.json.name}`);
  for (const c of columns) console.log(`  ${c.padEnd(9)} ${row[c] ?? '—'}`);
}
console.log('');
if (problems.length > 0) {
  console.log(`check-packages: ${problems.length} problem${problems.length === 1 ? '' : 's'}:`);
  for (const p of problems) console.log(`- ${p}`);
}
console.log(
  `check-packages: ${packages.length} packages, ${problems.length} problems, ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
process.exit(problems.length === 0 ? 0 : 1);

/** Runs the tasks, at most `limit` at a time (the machine has two cores). */
async function runLimited(tasks, limit) {
  const queue = [...tasks];
  await Promise.all(
    Array.from({ length: Math.min(limit, queue.length) }, async () => {
      while (queue.length > 0) await queue.shift()();
    }),
  );
}
