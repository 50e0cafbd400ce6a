// Real saves: every format's registered plugin, decode and encode, in MB/s of file bytes, with the
// peak memory of one operation measured in a process of its own. On the bundled samples, and on
// synthetic saves scaled to ~50 MB where the format allows it (UQM's saves are bounded by the game:
// its largest possible save — every star system scanned — is the synthetic case there).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encode } from '@savekit/core';
import { edgeSave, format as edgeFormat, variantOf } from '@savekit/edge';
import { syntheticSave } from './edge.mjs';
import { createUqmSave, format as uqmFormat, uqmSave } from '@savekit/uqm';
import { adataSaver, format as zippyFormat, Vector, writeSavefile } from '@savekit/zippy';
import { format as terrarumFormat } from '@savekit/terrarum';
import { format as skirmishFormat } from '@savekit/examples/skirmish';
import { prng } from '../data.mjs';
import { must } from '../either.mjs';
import { terrarumSynthetic } from '../synthetic.mjs';

const samples = fileURLToPath(new URL('../../examples/saves/', import.meta.url));
const probe = fileURLToPath(new URL('../peers/memory-probe.mjs', import.meta.url));
// Synthetic inputs go to one folder, overwritten by every run (the memory probes read them from there).
// The synthetic saves are written to files (the memory probe reads them in its own process): a folder
// of this run's own, so two runs on one machine (a CI job and a developer) never share them.
const scratch = mkdtempSync(join(tmpdir(), 'savekit-bench-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

/** Peak memory of one operation, measured in a fresh process. */
function peakMemory(moduleName, op, file, options) {
  const args = ['--expose-gc', probe, moduleName, op, file, ...(options ? [JSON.stringify(options)] : [])];
  const run = spawnSync(process.execPath, args, {
    encoding: 'utf8',
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    maxBuffer: 1 << 20,
  });
  if (run.status !== 0) throw new Error(`memory probe ${moduleName} ${op} ${file} failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** The decompressed size of an EDGE save's top-level chunks: the data its codecs walk. */
function edgeChunkData(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Header: magic (8), padding (4), version (4); variant A ends each chunk with a 4-byte end marker.
  const variantA = variantOf(view.getUint32(12, true)) === 'A';
  let total = 0;
  for (let at = 16; at + 12 <= bytes.length; ) {
    if (String.fromCharCode(...bytes.subarray(at, at + 4)) === 'ENDE') break;
    total += view.getUint32(at + 8, true);
    at += 12 + view.getUint32(at + 4, true) + (variantA ? 4 : 0);
  }
  return total;
}

function edgeSynthetic(count) {
  return must(encode(edgeSave, syntheticSave(count, 'C')));
}

function uqmLargest() {
  const random = prng(3);
  const systems = Array.from({ length: 502 }, (_, star) => ({
    star,
    worlds: Array.from({ length: 1 + (star % 16) }, () => ({
      mineral: Math.floor(random() * 2 ** 32),
      energy: Math.floor(random() * 2 ** 32),
      bio: Math.floor(random() * 2 ** 32),
    })),
  }));
  return must(encode(uqmSave, createUqmSave({ name: 'every system scanned', scan: { systems } })));
}

function zippySynthetic(count) {
  const random = prng(9);
  const roots = Array.from(
    { length: count },
    () => new Vector(Array.from({ length: 30 }, () => Math.round(random() * 1e6) / 64)),
  );
  return must(writeSavefile(roots, adataSaver));
}

/** Decoding and encoding with the codecs interpreted, for --compare. */
const INTERPRETED = { compiled: false };

export async function cases(quick, { compare = false } = {}) {
  const formats = [
    {
      id: 'edge',
      module: '@savekit/edge',
      format: edgeFormat,
      dataBytes: edgeChunkData,
      sample: 'edge-01.esg',
      synthetic: () => edgeSynthetic(quick ? 1500 : 170_000),
    },
    { id: 'uqm', module: '@savekit/uqm', format: uqmFormat, sample: 'uqm-01.sav', synthetic: uqmLargest },
    {
      id: 'zippy',
      module: '@savekit/zippy',
      format: zippyFormat,
      sample: 'zippy-01.zsav',
      synthetic: () => zippySynthetic(quick ? 2000 : 200_000),
    },
    {
      id: 'terrarum',
      module: '@savekit/terrarum',
      format: terrarumFormat,
      sample: 'terrarum-01.tevd',
      synthetic: () => terrarumSynthetic(quick ? 350 : 3600),
    },
    { id: 'skirmish', module: '@savekit/examples/skirmish', format: skirmishFormat, sample: 'skirmish-01.sks' },
  ];
  const out = [];
  for (const f of formats) {
    const inputs = [{ label: `sample ${f.sample}`, path: join(samples, f.sample) }];
    if (f.synthetic) {
      const path = join(scratch, `${f.id}-synthetic`);
      writeFileSync(path, f.synthetic());
      inputs.push({ label: f.id === 'uqm' ? 'largest the game writes' : 'synthetic', path });
    }
    for (const input of inputs) {
      const bytes = new Uint8Array(readFileSync(input.path));
      const doc = must(f.format.decode(bytes, f.decodeOptions)).value;
      // Unchanged, the document writes the same bytes: checked before anything is timed.
      if (Buffer.compare(Buffer.from(must(f.format.encode(doc))), Buffer.from(bytes)) !== 0)
        throw new Error(`${f.id} ${input.label}: re-encoding differs`);
      const size = `${bytes.length >= 1e6 ? `${(bytes.length / 1e6).toFixed(1)} MB` : `${(bytes.length / 1e3).toFixed(1)} kB`}`;
      const dataBytes = f.dataBytes?.(bytes);
      const heavy = bytes.length > 1e6 && !quick ? { iterations: 5, warmupIterations: 1, time: 500 } : {};
      for (const op of ['decode', 'encode']) {
        out.push({
          name: `saves ${f.id} ${input.label} (${size}) ${op}`,
          description: `${f.id}: ${op} through the format plugin (MB/s of file bytes)`,
          bytesPerOp: bytes.length,
          ...(dataBytes !== undefined ? { dataBytes } : {}),
          ours: `savekit ${f.id}`,
          ...heavy,
          memory: () => peakMemory(f.module, op, input.path, f.decodeOptions),
          peers: [
            {
              name: `savekit ${f.id}`,
              run:
                op === 'decode'
                  ? () => must(f.format.decode(bytes, f.decodeOptions)).value
                  : () => must(f.format.encode(doc)),
              check: () => true,
            },
            ...(compare
              ? [
                  {
                    name: `savekit ${f.id} (interpreted)`,
                    run:
                      op === 'decode'
                        ? () => must(f.format.decode(bytes, { ...f.decodeOptions, ...INTERPRETED })).value
                        : () => must(f.format.encode(doc, INTERPRETED)),
                    check: () => true,
                  },
                ]
              : []),
          ],
        });
      }
    }
  }
  return out;
}
