#!/usr/bin/env node
// node alloc.mjs [case files…] — bytes each peer allocates per operation, for the decode cases
// of the named case files (default: flat-struct and records). A deterministic measure where
// timings are not (a shared machine): how much an operation allocates decides how often the
// collector runs.
//
// Each peer: a few warm-up operations, a full collection, then N operations whose results are
// all kept, with a young generation too large to be collected meanwhile (the process re-runs
// itself with --max-semi-space-size); the figure is the young generation's growth (its ordinary
// and large-object spaces) over N, and `old` the old generation's (arrays that grew in place
// past the young generation's limits).
import { spawnSync } from 'node:child_process';
import v8 from 'node:v8';
import { fileURLToPath } from 'node:url';

const FLAGS = ['--expose-gc', '--min-semi-space-size=512', '--max-semi-space-size=512'];
if (!process.execArgv.includes('--max-semi-space-size=512')) {
  const child = spawnSync(process.execPath, [...FLAGS, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exit(child.status ?? 1);
}

const files = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['flat-struct', 'records'];
const spaces = () => {
  let young = 0;
  let old = 0;
  for (const s of v8.getHeapSpaceStatistics()) {
    if (s.space_name === 'new_space' || s.space_name === 'new_large_object_space') young += s.space_used_size;
    else old += s.space_used_size;
  }
  return { young, old };
};
// Operations per peer: enough to average, few enough that what they keep fits the young generation.
const BUDGET = 150e6;

for (const file of files) {
  const module = await import(`./cases/${file}.mjs`);
  for (const benchCase of await module.cases(false, { compare: true })) {
    if (!benchCase.name.includes('decode')) continue;
    for (const peer of benchCase.peers) {
      if (peer.fails) continue;
      for (let i = 0; i < 5; i++) peer.run();
      // One operation's size sets how many are measured.
      globalThis.gc();
      const probe = spaces();
      const sample = peer.run();
      const once = Math.max(1, spaces().young - probe.young);
      const n = Math.max(1, Math.min(100_000, Math.floor(BUDGET / once)));
      const keep = new Array(n);
      keep[0] = sample;
      globalThis.gc();
      const before = spaces();
      for (let i = 0; i < n; i++) keep[i] = peer.run();
      const after = spaces();
      const young = (after.young - before.young) / n;
      const old = (after.old - before.old) / n;
      console.log(
        `${benchCase.name.padEnd(34)} ${peer.name.padEnd(24)} ${young.toFixed(0).padStart(10)} B/op young ${old.toFixed(0).padStart(9)} B/op old  (${n} ops)`,
      );
    }
  }
}
