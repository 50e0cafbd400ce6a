// Errors speak the document's language: the path of every DecodeError a damaged save gives — cut
// short anywhere, a byte flipped anywhere — is a path of the document as `dump` shows it (each of its
// document segments resolves in the JSON form of the save as it was; framing the document has no
// place for, a magic or a header count, is named as an annotation). And an EncodeError for a leaf
// set to a value of the wrong kind names that leaf or a value holding it. A file with bytes past its
// end is refused (the READMEs say so). For every format's bundled sample and every real file of the
// corpus.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either';
import { type AnySaveFormat, documentPath, formatPath, formatsOf } from '@savekit/core';
import * as edge from '@savekit/edge';
import { documentChild, documentKeys, isDocumentBranch } from '@savekit/core/kit';
import { corpus, resolvePath, testBudget } from '@savekit/testkit';
import * as terrarum from '@savekit/terrarum';
import * as uqm from '@savekit/uqm';
import * as zippy from '@savekit/zippy';

const FORMATS: AnySaveFormat[] = [edge, uqm, zippy, terrarum].flatMap((m) => formatsOf(m as Record<string, unknown>));

/** Every single-file input a format reads: the bundled samples and the corpus's real files. */
function inputs(): Array<{ name: string; bytes: Uint8Array; format: AnySaveFormat }> {
  const samples = join(__dirname, '..', 'examples', 'saves');
  const files: Array<[string, Uint8Array]> = readdirSync(samples).map((n) => [
    n,
    new Uint8Array(readFileSync(join(samples, n))),
  ]);
  for (const id of ['edge', 'uqm', 'terrarum'])
    for (const [n, bytes] of corpus(id).files((f) => !f.endsWith('.txt') && !f.endsWith('.md')))
      files.push([`${id}/${n}`, bytes]);
  const found: Array<{ name: string; bytes: Uint8Array; format: AnySaveFormat }> = [];
  for (const [name, bytes] of files) {
    const format = FORMATS.find((f) => f.input !== 'tree' && f.sniff(bytes) > 0.5 && E.isRight(f.decode(bytes)));
    if (format !== undefined) found.push({ name, bytes, format });
  }
  return found;
}

const INPUTS = inputs();
/** Offsets tried per file, spread over it (every offset of a small file). */
const OFFSETS = testBudget({ quick: 400, heavy: 2000 });
/** Leaves set to a value of the wrong kind per file, spread over its document. */
const LEAVES = testBudget({ quick: 150, heavy: 800 });

/** The number and text leaves of a document, by path (iteratively). */
function leavesOf(root: unknown): Array<Array<string | number>> {
  const out: Array<Array<string | number>> = [];
  const stack: Array<[unknown, Array<string | number>]> = [[root, []]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (typeof node === 'number' || typeof node === 'string') out.push(path);
    else if (isDocumentBranch(node))
      for (const key of documentKeys(node)) stack.push([documentChild(node, key), [...path, key]]);
  }
  return out.reverse();
}

/** A copy of `root` with the leaf at `path` replaced: only the nodes on the path are copied (prototypes kept). */
function setIn(root: unknown, path: ReadonlyArray<string | number>, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(root)) return root.map((v, i) => (i === head ? setIn(v, rest, value) : v));
  if (root instanceof Map) return new Map(root).set(head, setIn(root.get(head), rest, value));
  const copy = Object.assign(Object.create(Object.getPrototypeOf(root)) as object, root) as Record<string, unknown>;
  copy[head as string] = setIn((root as Record<string, unknown>)[head as string], rest, value);
  return copy;
}

/** `count` offsets spread over `[0, length)`. */
function spread(length: number, count: number): number[] {
  if (length <= count) return Array.from({ length }, (_, i) => i);
  return Array.from({ length: count }, (_, i) => Math.floor((i * length) / count));
}

/** Records a save keys by data (a file's name): a damaged file may have a key the save had not. */
const RECORDS = ['save.actors', 'save.files', 'save.lists'];

test('the inputs: every format has some', () => {
  const ids = new Set(INPUTS.map((i) => i.format.id));
  expect([...ids].sort()).toEqual(['edge', 'terrarum', 'uqm', 'zippy']);
});

describe.each(INPUTS.map((i) => [i.name, i] as const))('%s', (_name, { bytes, format }) => {
  const value = (format.decode(bytes) as E.Right<{ value: unknown }>).right.value;
  const json = format.json.encode(value);

  test('a cut or a flipped byte anywhere: the error names a path of the document', () => {
    const wrong: string[] = [];
    let errors = 0;
    // A cut file is the start of the save: its error names a place the whole document has. A flipped
    // byte may give the file another shape (a count, a marker): its error may go on past the
    // document's places, but only by an element the damaged file has (`chunks[8]` where the save had
    // eight) or a file it names (`save.actors.1071`), never by a name the document does not use. The first four bytes are left alone: they
    // pick the format and its branch, and another branch names its own places.
    const check = (damaged: Uint8Array, what: string, cut: boolean) => {
      const result = format.decode(damaged);
      if (E.isRight(result)) return;
      errors++;
      const path = result.left.path;
      const document = documentPath(path);
      const resolved = resolvePath(json, path);
      const next = document[resolved];
      const recordKey = RECORDS.includes(formatPath(document.slice(0, resolved)));
      if (resolved === document.length || (!cut && (typeof next === 'number' || recordKey))) return;
      wrong.push(`${what}: ${formatPath(path)} (${result.left.code})`);
    };
    for (const at of spread(bytes.length - 4, OFFSETS).map((i) => i + 4)) {
      check(bytes.subarray(0, at), `cut at ${at}`, true);
      const flipped = bytes.slice();
      flipped[at] = flipped[at]! ^ 0xff;
      check(flipped, `byte ${at} flipped`, false);
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(errors).toBeGreaterThan(0);
  });

  test('bytes past the end are refused, never silently cut (no engine reads past its trailer)', () => {
    for (const extra of [Uint8Array.of(0), Uint8Array.of(1, 2, 3), bytes.subarray(0, 16)]) {
      const longer = new Uint8Array(bytes.length + extra.length);
      longer.set(bytes);
      longer.set(extra, bytes.length);
      const result = format.decode(longer);
      expect(E.isLeft(result) && result.left.name).toBe('DecodeError');
    }
  });

  test('a leaf set to a value of the wrong kind: the EncodeError names it or a value holding it', () => {
    const wrong: string[] = [];
    let refused = 0;
    const leaves = leavesOf(value);
    for (const at of spread(leaves.length, LEAVES)) {
      const leaf = leaves[at]!;
      const old = leaf.reduce<unknown>((node, key) => documentChild(node as object, key), value);
      const result = format.encode(setIn(value, leaf, typeof old === 'number' ? 'x' : 12345));
      if (E.isRight(result)) continue;
      refused++;
      const named = documentPath(result.left.path);
      const holds = named.length <= leaf.length && named.every((segment, i) => segment === leaf[i]);
      if (!holds) wrong.push(`${formatPath(leaf)}: ${formatPath(result.left.path)} (${result.left.code})`);
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(refused).toBeGreaterThan(0);
  });
});
