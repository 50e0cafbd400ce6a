#!/usr/bin/env node
// npm run bench [-- <filter>] [-- --quick] [-- --compare]
// Runs every case whose name contains the filter, prints a table, writes results/latest.json.
// --compare adds savekit's interpreted codecs next to the compiled ones (see README.md).
// --runs=N measures each case N times and reports the median ratio with its spread.
import { writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import os from 'node:os';
import { measure, printTable } from './lib.mjs';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const compare = args.includes('--compare');
const runsArg = args.find((a) => a.startsWith('--runs='));
const runs = runsArg === undefined ? 1 : Math.max(1, Number.parseInt(runsArg.slice('--runs='.length), 10) || 1);
const filters = args.filter((a) => !a.startsWith('--'));

const allFiles = readdirSync(new URL('./cases/', import.meta.url))
  .filter((f) => f.endsWith('.mjs'))
  .sort();
// A filter that names a case file (`records`, `flat-struct`) loads only the files named: building
// the data of every case (a 50 MB save, a million-node graph) takes minutes.
const named = allFiles.filter((f) => filters.some((filter) => f.slice(0, -'.mjs'.length) === filter));
const caseFiles = named.length > 0 && named.length === filters.length ? named : allFiles;
const rows = [];
for (const file of caseFiles) {
  const module = await import(`./cases/${file}`);
  for (const benchCase of await module.cases(quick, { compare })) {
    if (filters.length > 0 && !filters.some((f) => benchCase.name.includes(f))) continue;
    console.error(`running ${benchCase.name} …`);
    rows.push(...(await measure(benchCase, { quick, runs })));
  }
}
printTable(rows);
const machine = {
  cpu: os.cpus()[0]?.model,
  cores: os.cpus().length,
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
};
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
const report = JSON.stringify({ date: new Date().toISOString(), quick, compare, runs, machine, rows }, null, 2);
writeFileSync(new URL('./results/latest.json', import.meta.url), report);
// A full run of every case is the one the docs publish (results/full.json is committed).
if (!quick && filters.length === 0) writeFileSync(new URL('./results/full.json', import.meta.url), report);
console.log(
  `\n${quick ? 'quick smoke run (speeds not meaningful); ' : ''}machine: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}`,
);
