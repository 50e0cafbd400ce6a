// Byte-layout tables generated from the codec declarations themselves, so the docs cannot drift
// from the code: the core's `layoutOf` walks a codec's definition (`codec.def`: struct fields, bit
// fields, checksummed and fixed-size bodies) and this writes a Markdown table of offsets, sizes, types
// and names into docs/formats/generated/. `layoutOf` and `typeNameOf` switch over every definition
// variant, so the compiler names any the tables would miss.
import { mkdirSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { layoutOf } from '@savekit/core';
import * as edge from '@savekit/edge';
import * as uqm from '@savekit/uqm';
import * as zippy from '@savekit/zippy';
import * as terrarum from '@savekit/terrarum';
import * as skirmish from '@savekit/examples/skirmish';

function sizeText(row) {
  if (row.bits !== undefined) return `${row.bits.width} bit${row.bits.width === 1 ? '' : 's'} @ ${row.bits.at}`;
  return row.size === undefined ? 'varies' : String(row.size);
}

function table(codec) {
  const lines = ['| offset | size | field | type |', '|---:|---:|---|---|'];
  for (const r of layoutOf(codec)) {
    const type = r.bits === undefined ? r.type : `bits (${r.bits.order})`;
    lines.push(
      `| ${r.offset === undefined ? '…' : r.offset} | ${sizeText(r)} | \`${r.path}\` | \`${type.replace(/\|/g, '\\|')}\` |`,
    );
  }
  const total = codec.size === undefined ? 'varies' : `${codec.size} bytes`;
  return `${lines.join('\n')}\n\n*Total: ${total}. Generated from \`${codec.name}\` by \`docs/scripts/layout-tables.mjs\`.*\n`;
}

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
for (const [name, codec] of Object.entries(tables)) writeFileSync(new URL(`${name}.md`, out), table(codec));

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
    const memory = r.peakMemoryMB === undefined ? '' : `${f(r.peakMemoryMB)} MB (${f(r.peakVsInput)}× the input)`;
    lines.push(
      `| ${r.case} | ${r.peer} | ${f(r.opsPerSecond)} | ${f(r.mbPerSecond)} | ${f(r.medianMs, 3)} | ${f(r.p95Ms, 3)} | ${r.fails ? `fails: ${String(r.fails).replace(/\|/g, '/').slice(0, 80)}` : f(r.oursVsPeer) + (r.ratioSpread && !(r.ratioSpread[0] === 1 && r.ratioSpread[1] === 1) ? ` (${f(r.ratioSpread[0])}–${f(r.ratioSpread[1])})` : '')} | ${memory} |`,
    );
  }
  bench = `${lines.join('\n')}\n`;
}
writeFileSync(new URL('benchmarks.md', out), bench);
console.log(`layout tables: ${Object.keys(tables).length} written to docs/formats/generated/`);
