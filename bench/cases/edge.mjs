// EDGE saves: a synthetic engine-layout save of 10,000 mobjs (each referring to another) plus a
// player, in variant A (XOR + LZO) and C (zlib): decode, re-encode unchanged (stored streams reused)
// and encode afresh (every chunk compressed). MB/s of the decompressed chunk data.
import * as E from 'fp-ts/lib/Either.js';
import { compile, decode, encode } from '@savekit/core';
import { convertVariant, createSave, edgeSave, newInstance, refTo } from '@savekit/edge';
import { prng } from '../data.mjs';

/** A save of `count` mobjs, each targeting another, and a player, in the given variant (also used by saves.mjs). */
export function syntheticSave(count, variant) {
  const random = prng(7);
  const mobjs = [];
  for (let i = 0; i < count; i++) {
    mobjs.push({
      ...newInstance('mobj_t'),
      x: Math.fround((random() - 0.5) * 8192),
      y: Math.fround((random() - 0.5) * 8192),
      z: Math.fround(random() * 256),
      angle: Math.floor(random() * 2 ** 32),
      health: Math.fround(random() * 100),
      info: ['IMP', 'ZOMBIEMAN', 'DEMON', 'BARREL'][i % 4],
      state: `*:SEE:${1 + (i % 4)}`,
      next_state: `*:SEE:${2 + (i % 4)}`,
      flags: (i * 2654435761) >>> 8,
      tics: i % 35,
    });
  }
  for (const m of mobjs) m.target = refTo('mobjs', mobjs[Math.floor(random() * count)], 0);
  const player = newInstance('player_t');
  player.mo = refTo('mobjs', mobjs[0]);
  return convertVariant(
    createSave({
      variables: { LEVEL: 'MAP01', SKILL: '3', LEVEL_TIME: '12345' },
      arrays: { mobjs, players: [player] },
    }),
    variant,
  );
}

function must(result) {
  if (E.isLeft(result)) throw result.left;
  return result.right;
}

/** The same codec run interpreted, for --compare. */
const INTERPRETED = { compiled: false };

export function cases(quick, { compare = false } = {}) {
  const compiledSave = compile(edgeSave);
  const both = (run) => [
    { name: 'savekit edge', run: () => run(compiledSave, undefined) },
    ...(compare ? [{ name: 'savekit edge (interpreted)', run: () => run(edgeSave, INTERPRETED) }] : []),
  ];
  const count = quick ? 500 : 10_000;
  return ['A', 'C'].flatMap((variant) => {
    const fresh = syntheticSave(count, variant);
    const bytes = must(encode(edgeSave, fresh));
    const doc = must(decode(edgeSave, bytes)).value;

    // The decompressed size: what the codecs walk.
    let payload = 0;
    for (let at = 16; ; ) {
      const marker = String.fromCharCode(...bytes.subarray(at, at + 4));
      if (marker === 'ENDE') break;
      const view = new DataView(bytes.buffer, bytes.byteOffset);
      const stored = view.getUint32(at + 4, true);
      payload += view.getUint32(at + 8, true);
      at += 12 + stored + (variant === 'A' ? 4 : 0);
    }
    const label = `edge ${variant} ${count} mobjs (${(bytes.length / 1e6).toFixed(2)} MB file, ${(payload / 1e6).toFixed(2)} MB data)`;

    const options = quick ? {} : { iterations: 10, warmupIterations: 2 };
    return [
      {
        name: `${label} decode`,
        description: 'decode the whole save (MB/s of decompressed data)',
        bytesPerOp: payload,
        ours: 'savekit edge',
        ...options,
        peers: both((codec, options) => must(decode(codec, bytes, options)).value.version),
      },
      {
        name: `${label} re-encode unchanged`,
        description: 'encode the decoded document: every stored stream checked and reused',
        bytesPerOp: payload,
        ours: 'savekit edge',
        ...options,
        peers: both((codec, options) => must(encode(codec, doc, options)).length),
      },
      {
        name: `${label} encode afresh`,
        description: 'encode a new document: every chunk compressed',
        bytesPerOp: payload,
        ours: 'savekit edge',
        ...options,
        peers: both((codec, options) => must(encode(codec, fresh, options)).length),
      },
    ];
  });
}
