// Object graphs (tree, cyclic chain, random sharing): savekit's graph writer + binary image against
// v8.serialize, flatted, devalue and msgpackr (structured clone mode), each a full round trip.
import v8 from 'node:v8';
import * as flatted from 'flatted';
import * as devalue from 'devalue';
import { Packr } from 'msgpackr';
import * as E from 'fp-ts/lib/Either.js';
import { compile, decode, encode } from '@savekit/core';
import { graphImage, readGraph, writeGraph } from '@savekit/core/graph';
import { prng } from '../data.mjs';

// writeData copies, so one scratch buffer serves every node.
const scratch = new Uint8Array(4);
const saver = {
  kindOf: () => 'node',
  save(node, sink) {
    const id = node.id;
    scratch[0] = id;
    scratch[1] = id >> 8;
    scratch[2] = id >> 16;
    scratch[3] = id >> 24;
    sink.writeData(scratch);
    for (const ref of node.refs) sink.writeReference(ref);
  },
};
const restorer = {
  allocate: () => ({ id: -1, refs: [] }),
  restore(node, ctx) {
    const data = ctx.getObjectData();
    node.id = data[0] | (data[1] << 8) | (data[2] << 16) | (data[3] << 24);
    for (let k = 0; k < ctx.referenceCount; k++) node.refs.push(ctx.readReference());
  },
};

const compiledImage = compile(graphImage);

function savekitRoundTrip(root, codec = compiledImage, options = undefined) {
  const image = writeGraph([root], saver);
  if (E.isLeft(image)) throw image.left;
  const bytes = encode(codec, image.right, options);
  if (E.isLeft(bytes)) throw bytes.left;
  const back = decode(codec, bytes.right, options);
  if (E.isLeft(back)) throw back.left;
  const graph = readGraph(back.right.value, restorer);
  if (E.isLeft(graph)) throw graph.left;
  return graph.right.roots[0];
}

/** A summary of a graph, computed without recursion: node count, id sum, edges, shared edges. */
function summary(root) {
  const seen = new Set();
  const work = [root];
  let ids = 0;
  let edges = 0;
  while (work.length > 0) {
    const node = work.pop();
    if (node === null || seen.has(node)) continue;
    seen.add(node);
    ids += node.id;
    for (const ref of node.refs) {
      edges++;
      work.push(ref);
    }
  }
  return { nodes: seen.size, ids, edges };
}

function tree(count) {
  const nodes = Array.from({ length: count }, (_, id) => ({ id, refs: [] }));
  for (let i = 1; i < count; i++) nodes[(i - 1) >> 1].refs.push(nodes[i]);
  return nodes[0];
}

function chain(count) {
  const nodes = Array.from({ length: count }, (_, id) => ({ id, refs: [] }));
  for (let i = 0; i < count; i++) nodes[i].refs.push(nodes[(i + 1) % count]);
  return nodes[0];
}

function shared(count) {
  const next = prng(11);
  const nodes = Array.from({ length: count }, (_, id) => ({ id, refs: [] }));
  // A spanning tree so everything is reachable, plus random extra edges: sharing and cycles.
  for (let i = 1; i < count; i++) nodes[(next() * i) | 0].refs.push(nodes[i]);
  for (let i = 0; i < count; i++) if (next() < 0.5) nodes[i].refs.push(nodes[(next() * count) | 0]);
  return nodes[0];
}

// Runs a peer once to see whether it can do the case at all (deep recursion, cycles): a failure is
// recorded in the table instead of timed.
function probe(peer) {
  try {
    // Keep only the summary: million-node results of every peer would crowd the heap.
    peer.summary = summary(peer.run());
    return undefined;
  } catch (error) {
    return error instanceof Error ? `${error.constructor.name}: ${error.message.slice(0, 60)}` : String(error);
  }
}

export function cases(quick, { compare = false } = {}) {
  const count = quick ? 10_000 : 1_000_000;
  const packr = new Packr({ structuredClone: true });
  return [
    ['tree', tree(count)],
    ['cyclic chain', chain(count)],
    ['random sharing', shared(count)],
  ].map(([shape, root]) => {
    const peers = [
      { name: 'savekit graph', run: () => savekitRoundTrip(root) },
      ...(compare
        ? [{ name: 'savekit graph (interpreted)', run: () => savekitRoundTrip(root, graphImage, { compiled: false }) }]
        : []),
      { name: 'v8.serialize', run: () => v8.deserialize(v8.serialize(root)) },
      { name: 'flatted', run: () => flatted.parse(flatted.stringify(root)) },
      { name: 'devalue', run: () => devalue.parse(devalue.stringify(root)) },
      { name: 'msgpackr (structured clone)', run: () => packr.unpack(packr.pack(root)) },
    ];
    for (const peer of peers) {
      peer.fails = probe(peer);
      // What the probe produced is what gets compared: no extra million-node run.
      peer.check = () => peer.summary;
    }
    return {
      name: `graph ${shape} ${count >= 1e6 ? `${count / 1e6}M` : count} nodes`,
      description: 'serialize and deserialize the same object graph, identity kept',
      bytesPerOp: 0,
      iterations: quick ? 3 : 4,
      warmupIterations: 1,
      warmupTime: 0,
      time: 0,
      ours: 'savekit graph',
      peers,
    };
  });
}
