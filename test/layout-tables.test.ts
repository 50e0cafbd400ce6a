// The docs' layout tables cover every structure of every format: each codec a format package
// exports gets a table (docs/scripts/layout-tables.mjs writes `layoutTables` of the package's
// exports to docs/formats/generated/<folder>-structures.md), and everything a row holds — the cases of
// chunk lists, tagged unions and switches, array elements, pointer targets — is either a table of its
// own or said in full by the row's type. Format packages are found as the CLI and the docs find them
// (`formatsOf` over each package's exports), so a new one is checked without a list to keep.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatsOf, isCodec, type AnyCodec } from '@savekit/core';
import { layoutOf, layoutTables } from '@savekit/core/kit';

const packagesDir = join(__dirname, '..', 'packages');

function formatPackages(): Array<{ folder: string; module: Record<string, unknown> }> {
  const found = [];
  for (const folder of readdirSync(packagesDir).sort()) {
    const manifest = JSON.parse(readFileSync(join(packagesDir, folder, 'package.json'), 'utf8')) as {
      name: string;
      private?: boolean;
      bin?: unknown;
    };
    // A program (the CLI) is not a library of formats, and loads its version through import.meta,
    // which the CommonJS jest runs lacks.
    if (manifest.private === true || manifest.bin !== undefined) continue;
    // require, not import(): jest runs this file as CommonJS (the packages map to their sources).
    const module = require(manifest.name) as Record<string, unknown>;
    if (formatsOf(module).length > 0) found.push({ folder, module });
  }
  return found;
}

test('every format package is found, and each exports codecs', () => {
  const found = formatPackages();
  expect(found.map((p) => p.folder)).toEqual(expect.arrayContaining(['edge', 'terrarum', 'uqm', 'zippy']));
  for (const { module } of found) expect(Object.values(module).filter(isCodec).length).toBeGreaterThan(0);
});

test('every codec a format exports gets a table, and nothing a row holds is left without one', () => {
  const uncovered: string[] = [];
  for (const { folder, module } of formatPackages()) {
    const exported = Object.fromEntries(Object.entries(module).filter(([, value]) => isCodec(value))) as Record<
      string,
      AnyCodec
    >;
    const tables = layoutTables(exported);
    const tabled = new Set(tables.map((t) => t.codec));
    for (const [name, codec] of Object.entries(exported)) {
      const own = tables.find((t) => t.codec === codec);
      if (own === undefined || own.rows.length === 0) uncovered.push(`${folder}: export ${name} has no table`);
    }
    for (const t of tables)
      for (const row of t.rows)
        for (const part of row.parts) {
          const said = layoutOf(part.codec);
          const byType = said.length === 1 && said[0]!.parts.length === 0 && part.codec.def.type !== 'struct';
          if (!tabled.has(part.codec) && !byType)
            uncovered.push(`${folder}: ${t.name}.${row.path} holds ${part.key} (${part.codec.name}) with no table`);
        }
  }
  expect(uncovered).toEqual([]);
});

test('the docs script tables exactly this: layoutTables over each format package’s codec exports', () => {
  // The script is an ES module run at docs build time; this keeps it on the checked rule.
  const script = readFileSync(join(__dirname, '..', 'docs', 'scripts', 'layout-tables.mjs'), 'utf8');
  expect(script).toMatch(/for \(const pkg of await formatPackages\(\)\)/);
  expect(script).toMatch(/filter\(\(\[, value\]\) => isCodec\(value\)\)/);
  expect(script).toMatch(/layoutTables\(exported\)/);
});
