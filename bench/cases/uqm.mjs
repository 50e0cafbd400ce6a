// UQM saves: decode and encode of the real 0.8 saves (../shared/vectors-found/uqm), and of the 0.7
// (LZHUF) saves made from them; MB/s of file bytes.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { compile, decode, encode } from '@savekit/core';
import { legacySave, saveToLegacy, uqmSave } from '@savekit/uqm';

function must(result) {
  if (E.isLeft(result)) throw result.left;
  return result.right;
}

/** The same codecs run interpreted, for --compare. */
const INTERPRETED = { compiled: false };

export function cases(quick, { compare = false } = {}) {
  const dir =
    process.env.SAVEKIT_CORPUS ??
    join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'shared', 'vectors-found');
  const uqm = join(dir, 'uqm');
  if (!existsSync(uqm)) {
    console.warn('uqm bench: ../shared/vectors-found/uqm is absent; skipped');
    return [];
  }
  const files = readdirSync(uqm)
    .filter((f) => !f.endsWith('.txt'))
    .map((f) => new Uint8Array(readFileSync(join(uqm, f))));
  const docs = files.map((b) => must(decode(uqmSave, b)).value);
  const legacyFiles = docs.map((d) => must(encode(legacySave, saveToLegacy(d))));
  const legacyDocs = legacyFiles.map((b) => must(decode(legacySave, b)).value);
  const save = compile(uqmSave);
  const legacy = compile(legacySave);
  const total = (list) => list.reduce((n, b) => n + b.length, 0);
  const options = quick ? {} : { time: 1000 };
  return [
    {
      name: `uqm 0.8 decode (${files.length} real saves, ${total(files)} bytes)`,
      bytes: total(files),
      run: (codec, options) => files.map((b) => must(decode(codec ?? save, b, options)).value.magic),
    },
    {
      name: `uqm 0.8 encode (${files.length} real saves)`,
      bytes: total(files),
      run: (codec, options) => docs.map((d) => must(encode(codec ?? save, d, options)).length),
    },
    {
      name: `uqm 0.7 decode (LZHUF, ${legacyFiles.length} saves, ${total(legacyFiles)} bytes)`,
      bytes: total(legacyFiles),
      run: (codec, options) =>
        legacyFiles.map((b) => must(decode(codec ?? legacy, b, options)).value.summary.sis.resUnits),
    },
    {
      name: `uqm 0.7 encode (LZHUF, ${legacyFiles.length} saves)`,
      bytes: total(legacyFiles),
      run: (codec, options) => legacyDocs.map((d) => must(encode(codec ?? legacy, d, options)).length),
    },
  ].map(({ name, bytes, run }) => ({
    name,
    description: 'MB/s of file bytes',
    bytesPerOp: bytes,
    ours: 'savekit uqm',
    ...options,
    peers: [
      { name: 'savekit uqm', run: () => run(undefined, undefined) },
      ...(compare ? [{ name: 'savekit uqm (interpreted)', run: () => run(undefined, INTERPRETED) }] : []),
    ],
  }));
}
