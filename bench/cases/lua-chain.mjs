// Zippy's Lua path on a 1,000,000-link table chain (`t.next = {next = …}`): saveLua and loadLua
// through fengari, each phase in a process of its own (a fresh heap, as a game saving or loading has),
// timed in CPU seconds of the call alone and with the process's peak memory. The target (issue 19):
// save and load each ≤ 5 s on the 2-core machine. No other library saves Lua values.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const phaseScript = fileURLToPath(new URL('../peers/lua-chain-phase.mjs', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'savekit-lua-chain-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

/** Runs one phase in its own process; returns its CPU seconds and peak resident size. */
function phase(name, links, file, options) {
  const args = [phaseScript, name, String(links), file, ...(options ? [JSON.stringify(options)] : [])];
  const run = spawnSync(process.execPath, args, {
    encoding: 'utf8',
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    maxBuffer: 1 << 20,
  });
  if (run.status !== 0) throw new Error(`lua chain ${name} failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) / 2)];

export function cases(quick, { compare = false } = {}) {
  const links = quick ? 10_000 : 1_000_000;
  const peers = [
    { name: 'savekit zippy', options: undefined },
    ...(compare ? [{ name: 'savekit zippy (interpreted)', options: { compiled: false } }] : []),
  ];
  return ['save', 'load'].map((op) => ({
    name: `zippy lua-chain ${links >= 1e6 ? `${links / 1e6}M` : links} links ${op}`,
    description: `${op}Lua of a table chain, each run in a fresh process (CPU seconds of the call)`,
    ours: 'savekit zippy',
    // Timed here, not by tinybench: each run is a process of its own.
    measureSelf: ({ runs }) => {
      const times = new Map(peers.map((p) => [p.name, []]));
      const peaks = new Map(peers.map((p) => [p.name, []]));
      for (let run = 0; run < Math.max(runs, quick ? 1 : 3); run++) {
        for (const peer of peers) {
          const file = join(scratch, `chain-${peer.options ? 'interpreted' : 'compiled'}.zsav`);
          // A load reads the file its own peer saved: made once, before the first timed load.
          if (op === 'load' && run === 0) phase('save', links, file, peer.options);
          const result = phase(op, links, file, peer.options);
          times.get(peer.name).push(result.seconds * 1000);
          peaks.get(peer.name).push(result.peakBytes);
        }
      }
      const oursList = times.get('savekit zippy');
      const ours = median(oursList);
      return peers.map((peer) => {
        const list = times.get(peer.name);
        const ms = median(list);
        // Each run's ratio to ours in the same run (the runs interleave the peers).
        const ratios = list.map((t, run) => t / oursList[run]);
        return {
          case: `zippy lua-chain ${links >= 1e6 ? `${links / 1e6}M` : links} links ${op}`,
          peer: peer.name,
          opsPerSecond: 1000 / ms,
          medianMs: ms,
          p95Ms: Math.max(...list),
          samples: list.length,
          oursVsPeer: ms / ours,
          ...(list.length > 1 ? { ratioSpread: [Math.min(...ratios), Math.max(...ratios)], runs: list.length } : {}),
          // Peak resident size of the whole phase process (the chain and the Lua state included).
          ...(peer.name === 'savekit zippy' ? { peakMemoryMB: median(peaks.get(peer.name)) / 1e6 } : {}),
        };
      });
    },
    peers: peers.map((p) => ({ name: p.name, run: () => undefined })),
  }));
}
