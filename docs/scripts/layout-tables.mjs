// Byte-layout tables generated from the codec declarations themselves, so the docs cannot drift
// from the code: the core's `layoutOf` walks a codec's definition (`codec.def`: struct fields, bit
// fields, checksummed and fixed-size bodies) and this writes a Markdown table of offsets, sizes, types
// and names into docs/formats/generated/. Containers (tagged unions, switches, chunk lists) are one
// row each that links to the tables of their cases (`partsOf`), and `layoutTables` gives every codec
// a format package exports a table, with the structures those hold (test/layout-tables.test.ts
// checks that none is left out). `layoutOf`, `partsOf` and `typeNameOf` switch over every definition
// variant, so the compiler names any the tables would miss.
import { mkdirSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { isCodec } from '@savekit/core';
import { layoutOf, layoutTables } from '@savekit/core/kit';
import * as edge from '@savekit/edge';
import * as uqm from '@savekit/uqm';
import * as zippy from '@savekit/zippy';
import * as terrarum from '@savekit/terrarum';
import * as skirmish from '@savekit/examples/skirmish';
import { formatPackages } from './packages.mjs';

function sizeText(row) {
  if (row.bits !== undefined) return `${row.bits.width} bit${row.bits.width === 1 ? '' : 's'} @ ${row.bits.at}`;
  return row.size === undefined ? 'varies' : String(row.size);
}

/** A heading anchor for a table name (`uqmDocument`, `file.entries:element`). */
function anchorOf(page, name) {
  return `${page}-${name}`
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

const cell = (text) => String(text).replace(/\|/g, '\\|');

/**
 * A codec's layout as a Markdown table. A row that holds parts with a layout of their own (the cases
 * of a tagged union, a switch or a chunk list, an array's element …) links to their tables through
 * `linkOf(codec)` (a URL, or undefined when the part is said in full by its type).
 */
function table(codec, rows = layoutOf(codec), linkOf = () => undefined) {
  const withParts = rows.some((r) => r.parts.length > 0);
  const lines = withParts
    ? ['| offset | size | field | type | holds |', '|---:|---:|---|---|---|']
    : ['| offset | size | field | type |', '|---:|---:|---|---|'];
  for (const r of rows) {
    const type = r.bits === undefined ? r.type : `bits (${r.bits.order})`;
    const parts = r.parts.map((p) => {
      const link = linkOf(p.codec);
      const key = cell(JSON.stringify(p.key).slice(1, -1));
      return link === undefined ? `${key}: \`${cell(p.codec.name)}\`` : `[${key}](${link})`;
    });
    lines.push(
      `| ${r.offset === undefined ? '…' : r.offset} | ${sizeText(r)} | ${r.path === '' ? '(the value)' : `\`${r.path}\``} | \`${cell(type)}\` |${withParts ? ` ${parts.join(' · ')} |` : ''}`,
    );
  }
  const total = codec.size === undefined ? 'varies' : `${codec.size} bytes`;
  return `${lines.join('\n')}\n\n*Total: ${total}. Generated from \`${codec.name}\` by \`docs/scripts/layout-tables.mjs\`.*\n`;
}

// Tables the format pages show next to their prose, by name.
const tables = {
  'edge-vari': edge.vari,
  'edge-wher': edge.wher,
  'edge-when': edge.when,
  'edge-skil': edge.skil,
  'edge-desc': edge.desc,
  'edge-lvck': edge.lvck,
  'edge-dfck': edge.dfck,
  'edge-wdck': edge.wdck,
  'edge-float': edge.edgeFloat,
  'edge-file': edge.edgeSave,
  'edge-struct-def': edge.structDef,
  'edge-field-def': edge.fieldDef,
  'edge-array-def': edge.arrayDef,
  'edge-thumbnail': edge.thumbnail,
  'uqm-sis': uqm.sisCore,
  'uqm-summary': uqm.summaryTail,
  'uqm-glst': uqm.globalState,
  'uqm-racq': uqm.raceEntry,
  'uqm-ship': uqm.shipEntry,
  'uqm-igpq': uqm.ipGroupEntry,
  'uqm-evts': uqm.eventEntry,
  'uqm-enct': uqm.encounterEntry,
  'uqm-grps': uqm.groupListEntry,
  'uqm-btgp-ship': uqm.battleShip,
  'uqm-star': uqm.starDesc,
  'uqm-group-header': uqm.groupHeader,
  'uqm-ip-group': uqm.ipGroup,
  'uqm-ship-fragment': uqm.shipFragment,
  'uqm-legacy-summary': uqm.legacySummary,
  'uqm-legacy-globals': uqm.legacyGlobals,
  'skirmish-unit': skirmish.unit,
  'zippy-file': zippy.zippyFile,
  'terrarum-world-meta': terrarum.worldMeta,
  'terrarum-tevd-header': terrarum.tevdHeader,
  'terrarum-tvda-header-extension': terrarum.tvdaHeaderExtension,
  'terrarum-tevd-entry-header': terrarum.tevdEntryHeader,
  'terrarum-tvda-entry-header': terrarum.tvdaEntryHeader,
};

const out = new URL('../formats/generated/', import.meta.url);
mkdirSync(out, { recursive: true });
let written = 0;
const write = (name, text) => {
  writeFileSync(new URL(`${name}.md`, out), text);
  written++;
};

// Every structure of every format package (found by the core's `formatsOf`, as the CLI finds
// plugins): a table per codec the package exports, containers included, and per structure they hold.
// The format page includes it as ./generated/<folder>-structures.md; a curated table above links into it.
const linksOf = new Map(); // codec → URL of its table, per page
for (const pkg of await formatPackages()) {
  const module = await import(pkg.manifest.name);
  const exported = Object.fromEntries(Object.entries(module).filter(([, value]) => isCodec(value)));
  const all = layoutTables(exported);
  const anchors = new Map(all.map((t) => [t.codec, anchorOf(pkg.folder, t.name)]));
  const linkOf = (codec) => (anchors.has(codec) ? `#${anchors.get(codec)}` : undefined);
  for (const [codec, anchor] of anchors) if (!linksOf.has(codec)) linksOf.set(codec, `#${anchor}`);
  const sections = all.map(
    (t) => `### \`${t.name}\` {#${anchorOf(pkg.folder, t.name)}}\n\n${table(t.codec, t.rows, linkOf)}`,
  );
  write(
    `${pkg.folder}-structures`,
    `Every codec \`${pkg.manifest.name}\` exports (${Object.keys(exported).length}), and every structure they hold: ${all.length} tables. A row that holds other structures links to their tables.\n\n${sections.join('\n')}`,
  );
}
for (const [name, codec] of Object.entries(tables))
  write(
    name,
    table(codec, layoutOf(codec), (c) => linksOf.get(c)),
  );

// The benchmark page's table: the last full run (bench/results/full.json, committed), and whether
// the latest run on this machine was only the quick smoke run.
const full = new URL('../../bench/results/full.json', import.meta.url);
const latest = new URL('../../bench/results/latest.json', import.meta.url);
const source = existsSync(full) ? full : existsSync(latest) ? latest : undefined;
let bench =
  'The benchmark suite has not run on the machine that built this site. Run `npm run bench` at the repository root, then rebuild the docs.\n';
if (source !== undefined) {
  const results = JSON.parse(readFileSync(source, 'utf8'));
  const f = (x, d = 2) => (typeof x === 'number' ? (x >= 100 ? x.toFixed(0) : x.toFixed(d)) : '—');
  const lines = [
    `Run on ${results.date.slice(0, 16).replace('T', ' ')} UTC on ${results.machine?.cpu ?? 'an unknown CPU'} (${results.machine?.cores ?? '?'} cores, ${results.machine?.memoryGiB ?? '?'} GiB, Node ${results.machine?.node ?? '?'}, ${results.machine?.platform ?? ''})${results.quick ? ' in **quick** mode: a smoke run that checks the cases still run, not their speed' : ''}.`,
    '',
    '| case | peer | ops/s | MB/s | median ms | p95 ms | savekit × (above 1: savekit is faster) | peak memory of one operation |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of results.rows ?? []) {
    // A case timed in processes of its own (the Lua chain) gives the whole process's peak.
    const memory =
      r.peakMemoryMB === undefined
        ? ''
        : r.peakVsInput === undefined
          ? `${f(r.peakMemoryMB)} MB (the process)`
          : `${f(r.peakMemoryMB)} MB (${f(r.peakVsInput)}× the input${r.peakVsData === undefined ? '' : `; ${f(r.peakVsData)}× the data`})`;
    lines.push(
      `| ${r.case} | ${r.peer} | ${f(r.opsPerSecond)} | ${f(r.mbPerSecond)} | ${f(r.medianMs, 3)} | ${f(r.p95Ms, 3)} | ${r.fails ? `fails: ${String(r.fails).replace(/\|/g, '/').slice(0, 80)}` : f(r.oursVsPeer) + (r.ratioSpread && !(r.ratioSpread[0] === 1 && r.ratioSpread[1] === 1) ? ` (${f(r.ratioSpread[0])}–${f(r.ratioSpread[1])})` : '')} | ${memory} |`,
    );
  }
  bench = `${lines.join('\n')}\n`;
}
writeFileSync(new URL('benchmarks.md', out), bench);
console.log(`layout tables: ${written} pages written to docs/formats/generated/`);
