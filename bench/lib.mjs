// The shared harness: every case names its peers, proves they agree, then times them side by side.
import { Bench } from 'tinybench';
import { isDeepStrictEqual } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';

// A full collection before each peer is timed (warm-up and run), so no peer starts with the
// garbage of the one before it: with batched samples a peer's own garbage brings on its own
// collections, and the old generation another peer filled would otherwise be collected in
// whichever peer's time it fell. The flag lets a context made after it see `gc`.
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc');

/**
 * A benchmark case.
 * @typedef {object} Peer
 * @property {string} name      the library or approach
 * @property {() => unknown} run one operation
 * @property {() => unknown} [check] what the operation produces, compared across peers before timing
 * @property {string} [fails]   why this peer cannot do the case (recorded, not timed)
 *
 * @typedef {object} Case
 * @property {string} name
 * @property {string} description
 * @property {number} bytesPerOp bytes processed by one operation (for MB/s)
 * @property {string} ours       the peer that is savekit
 * @property {Peer[]} peers
 */

/** Throws unless every peer that can run the case produces the same value as ours. */
export function verify(benchCase) {
  const ours = benchCase.peers.find((p) => p.name === benchCase.ours);
  const expected = (ours.check ?? ours.run)();
  for (const peer of benchCase.peers) {
    if (peer === ours || peer.fails) continue;
    const actual = (peer.check ?? peer.run)();
    if (!isDeepStrictEqual(normalise(actual), normalise(expected))) {
      throw new Error(`${benchCase.name}: ${peer.name} disagrees with ${benchCase.ours}`);
    }
  }
}

// Libraries differ in incidental representation (Buffer vs Uint8Array, class instances vs plain objects).
function normalise(value) {
  if (value instanceof Uint8Array) return Array.from(value);
  if (Array.isArray(value)) return value.map(normalise);
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const key of Object.keys(value)) out[key] = normalise(value[key]);
    return out;
  }
  return value;
}

function percentile(sorted, p) {
  if (!sorted || sorted.length === 0) return NaN;
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[at];
}

/**
 * Times every peer of a case `runs` times (each run a Bench of all peers, so the runs interleave
 * and a burst of load on a shared machine hits one run, not one peer); each peer's figures are
 * from the run with its median median, and `ratioSpread` is the lowest and highest ratio over the runs.
 */
export async function measure(benchCase, { quick, runs = 1 }) {
  // A case that times itself (each run a process of its own) returns its rows.
  if (benchCase.measureSelf) return benchCase.measureSelf({ quick, runs });
  verify(benchCase);
  const all = [];
  for (let run = 0; run < runs; run++) all.push(await measureOnce(benchCase, { quick }));
  if (runs === 1) return all[0];
  return all[0].map((first, i) => {
    if (first.fails) return first;
    const byRun = all.map((rows) => rows[i]).filter((row) => row.medianMs !== undefined);
    const sorted = [...byRun].sort((a, b) => a.medianMs - b.medianMs);
    const middle = sorted[Math.floor((sorted.length - 1) / 2)];
    const ratios = byRun.map((row) => row.oursVsPeer).filter((r) => r !== undefined);
    // The ratio reported is the median of the runs' ratios (each from one run, side by side).
    const ratio = [...ratios].sort((a, b) => a - b)[Math.floor((ratios.length - 1) / 2)];
    return {
      ...middle,
      oursVsPeer: ratio,
      ratioSpread: ratios.length > 1 ? [Math.min(...ratios), Math.max(...ratios)] : undefined,
      runs: byRun.length,
    };
  });
}

/**
 * Shortest sample, in milliseconds: every peer's operation is run in batches of K calls, K chosen
 * per peer (the same rule for all) so that one batch takes at least this long, and a sample is the
 * batch's mean. An operation that allocates (100,000 records: 10–17 MB, about one young-generation
 * collection per call) timed one call at a time gave a sample either with or without a collection,
 * and the median then told where the collections fell rather than what they cost; an operation of
 * tens of nanoseconds timed one call at a time measured the timer. A batch of this length spans
 * many collections (each peer pays for its own garbage) and many timer ticks.
 */
export const SAMPLE_MS = 100;

/** Calls per batch for `run`: enough for {@link SAMPLE_MS}, from the time of calls made back to back. */
function batchSize(run, sampleMs) {
  if (sampleMs <= 0) return 1;
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  // About a tenth of a sample's time, and at least one call.
  do {
    run();
    calls++;
    elapsed = performance.now() - start;
  } while (elapsed < sampleMs / 10);
  return Math.max(1, Math.ceil((sampleMs * calls) / elapsed));
}

// Each result is compared with an object no operation returns, so none goes unused (and none is
// optimised away), and none outlives the next call: a batch that kept each result while the next
// call ran had the young generation's collections copy the previous result (10 MB of records)
// every time, which timing one call at a time never did.
const NEVER = {};
const counts = { same: 0 };

/** `run` timed `k` calls at a time: the sample is the mean of the batch (see {@link SAMPLE_MS}). */
function batched(run, k, now) {
  if (k === 1) return run;
  return () => {
    const start = now();
    for (let i = 0; i < k; i++) if (run() === NEVER) counts.same++;
    const total = now() - start;
    return { overriddenDuration: total / k, overriddenIterationCost: total };
  };
}

async function measureOnce(benchCase, { quick }) {
  const sampleMs = quick ? 0 : (benchCase.sampleMs ?? SAMPLE_MS);
  // Heavy cases (a million-node graph) say how many runs are enough. Samples are batches of at
  // least SAMPLE_MS, so a few suffice: the time budget decides how many there are.
  const iterations = quick ? 3 : (benchCase.iterations ?? 16);
  const bench = new Bench({
    time: quick ? 20 : (benchCase.time ?? 1500),
    warmupTime: quick ? 5 : (benchCase.warmupTime ?? 300),
    warmupIterations: quick ? 1 : (benchCase.warmupIterations ?? Math.min(2, iterations)),
    iterations,
    retainSamples: true,
    setup: () => collectGarbage(),
  });
  const batches = {};
  for (const peer of benchCase.peers) {
    if (peer.fails) continue;
    const k = batchSize(peer.run, sampleMs);
    batches[peer.name] = k;
    bench.add(
      peer.name,
      batched(peer.run, k, () => bench.now()),
    );
  }
  await bench.run();
  const rows = benchCase.peers.map((peer) => {
    if (peer.fails) return { case: benchCase.name, peer: peer.name, fails: peer.fails };
    const task = bench.getTask(peer.name);
    const result = task.result;
    if (result.state !== 'completed')
      return { case: benchCase.name, peer: peer.name, fails: String(result.error ?? result.state) };
    const samples = result.latency.samples ? [...result.latency.samples] : undefined;
    const medianMs = result.latency.p50;
    return {
      case: benchCase.name,
      peer: peer.name,
      opsPerSecond: 1000 / medianMs,
      mbPerSecond: benchCase.bytesPerOp ? benchCase.bytesPerOp / 1e6 / (medianMs / 1000) : undefined,
      medianMs,
      p95Ms: percentile(samples, 95),
      samples: result.latency.samplesCount,
      callsPerSample: batches[peer.name],
    };
  });
  const ours = rows.find((r) => r.peer === benchCase.ours);
  if (benchCase.memory && ours.medianMs !== undefined) {
    // Peak memory of one operation, from a process of its own (see peers/memory-probe.mjs).
    const memory = benchCase.memory();
    ours.peakMemoryMB = memory.extra / 1e6;
    ours.peakVsInput = memory.extra / memory.inputBytes;
    // Formats that compress their data also say it against what the codecs walk (EDGE's chunk data).
    if (benchCase.dataBytes) ours.peakVsData = memory.extra / benchCase.dataBytes;
  }
  for (const row of rows) {
    // ratio: how many times faster savekit is than this peer (above 1: savekit is faster).
    if (row.medianMs !== undefined && ours.medianMs !== undefined) row.oursVsPeer = row.medianMs / ours.medianMs;
  }
  return rows;
}

const fmt = (n, digits = 2) => (n === undefined || Number.isNaN(n) ? '' : n >= 100 ? n.toFixed(0) : n.toFixed(digits));

/** Prints rows as an aligned table. */
export function printTable(rows) {
  const header = ['case', 'peer', 'ops/s', 'MB/s', 'median ms', 'p95 ms', 'savekit ×', 'peak MB (× input)'];
  const body = rows.map((r) =>
    r.fails
      ? [r.case, r.peer, `fails: ${r.fails}`, '', '', '', '', '']
      : [
          r.case,
          r.peer,
          fmt(r.opsPerSecond),
          fmt(r.mbPerSecond),
          fmt(r.medianMs, 4),
          fmt(r.p95Ms, 4),
          r.ratioSpread === undefined || (r.ratioSpread[0] === 1 && r.ratioSpread[1] === 1)
            ? fmt(r.oursVsPeer)
            : `${fmt(r.oursVsPeer)} (${fmt(r.ratioSpread[0])}–${fmt(r.ratioSpread[1])})`,
          r.peakMemoryMB === undefined
            ? ''
            : r.peakVsInput === undefined
              ? `${fmt(r.peakMemoryMB)} (process)`
              : `${fmt(r.peakMemoryMB)} (${fmt(r.peakVsInput)}×${r.peakVsData === undefined ? '' : `; ${fmt(r.peakVsData)}× data`})`,
        ],
  );
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => String(row[i]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of body) console.log(line(row));
}
