// Paths of errors, warnings and trace spans are document paths: they resolve in toJson(value), with
// layers, pointer offsets and framing fields as annotations, not as segments that do not exist.
import * as E from 'fp-ts/lib/Either';
import {
  arena,
  array,
  checksum,
  chunk,
  chunkList,
  type Codec,
  crc32,
  cstring,
  decode,
  documentPath,
  encode,
  formatPath,
  fourcc,
  isPathAnnotation,
  type Path,
  pathAnnotation,
  pointer,
  sized,
  struct,
  toJson,
  transform,
  transformKeeping,
  u8,
  u16le,
  u32le,
  xor,
} from '../src/index';
import { decodeFails, encodeFails, encodeOk } from './laws';

/** How many document segments of `path` resolve in `json`. */
function resolved(json: unknown, path: Path): number {
  let at = json;
  let n = 0;
  for (const segment of documentPath(path)) {
    if (
      typeof segment === 'number'
        ? Array.isArray(at) && segment < at.length
        : typeof at === 'object' && at !== null && Object.hasOwn(at, segment)
    ) {
      at = (at as Record<string | number, unknown>)[segment];
      n += 1;
    } else break;
  }
  return n;
}

/** Decodes with tracing and expects every span and warning path to resolve in the document. */
function expectDocumentPaths<A>(codec: Codec<A>, bytes: Uint8Array): string[] {
  const decoded = decode(codec, bytes, { trace: true, checksums: 'warn' });
  if (E.isLeft(decoded)) throw decoded.left;
  const json = toJson(codec, decoded.right.value);
  const paths = [...(decoded.right.spans ?? []).map((s) => s.path), ...decoded.right.warnings.map((w) => w.path)];
  expect(paths.length).toBeGreaterThan(0);
  for (const path of paths)
    expect([formatPath(path), resolved(json, path)]).toEqual([formatPath(path), documentPath(path).length]);
  return paths.map(formatPath);
}

/** Cuts `bytes` at every length: each error's path resolves in the full document. */
function expectErrorPathsResolve<A>(codec: Codec<A>, bytes: Uint8Array): number {
  const json = toJson(codec, (decode(codec, bytes) as E.Right<{ value: A }>).right.value);
  let failures = 0;
  for (let n = 0; n < bytes.length; n++) {
    const cut = decode(codec, bytes.subarray(0, n));
    if (E.isRight(cut)) continue;
    failures += 1;
    expect([n, formatPath(cut.left.path), resolved(json, cut.left.path)]).toEqual([
      n,
      formatPath(cut.left.path),
      documentPath(cut.left.path).length,
    ]);
  }
  return failures;
}

const framing = { marker: fourcc(), length: u32le };
const vari = struct({ name: cstring('ascii'), value: u16le });

describe('formatPath and documentPath', () => {
  test('annotations print in angle brackets, consecutive ones together, and are not document segments', () => {
    const path: Path = ['chunks', 2, 'body', pathAnnotation('lzo1x'), pathAnnotation('xor'), 'elements', 0, 'target'];
    expect(formatPath(path)).toBe('chunks[2].body <lzo1x, xor> .elements[0].target');
    expect(documentPath(path)).toEqual(['chunks', 2, 'body', 'elements', 0, 'target']);
    expect(formatPath([pathAnnotation('rle')])).toBe('<rle>');
    expect(formatPath(['dir', 'target', pathAnnotation('@44'), 3, 'name'])).toBe('dir.target <@44> [3].name');
    expect(formatPath([0, pathAnnotation('length')])).toBe('[0] <length>');
    expect(isPathAnnotation(pathAnnotation('x'))).toBe(true);
    expect(isPathAnnotation('x')).toBe(false);
    expect(isPathAnnotation(0)).toBe(false);
  });
});

describe('chunk lists', () => {
  const list = struct({ chunks: chunkList(framing, { Vari: vari }) });
  const bytes = encodeOk(list, {
    chunks: [
      { id: 'Vari', body: { name: 'hp', value: 7 } },
      { id: 'Junk', raw: new Uint8Array([1, 2, 3]) },
    ],
  });

  test('a chunk body is at chunks[i].body, not chunks[i].<marker>; the length is an annotation', () => {
    const paths = expectDocumentPaths(list, bytes);
    expect(paths).toContain('chunks[0].body.name');
    expect(paths).toContain('chunks[0].id');
    expect(paths).toContain('chunks[0] <length>');
    expect(paths.some((p) => p.includes('Vari'))).toBe(false);
  });

  test('errors inside a chunk body and from cut-short input name document paths', () => {
    const bad = bytes.slice();
    bad[8] = 0x80; // the first byte of the name
    const error = decodeFails(list, bad);
    expect(error.path).toEqual(['chunks', 0, 'body', 'name']);
    expect(error.code).toBe('invalid-text');
    expect(expectErrorPathsResolve(list, bytes)).toBeGreaterThan(10);
  });

  test('encode errors name the same paths', () => {
    const error = encodeFails(list, { chunks: [{ id: 'Vari', body: { name: 'hp', value: 70000 } }] });
    expect(error.path).toEqual(['chunks', 0, 'body', 'value']);
    expect(error.code).toBe('out-of-range');
  });

  test('a single chunk: its body at .body', () => {
    const one = struct({ head: chunk(framing, 'Vari', vari) });
    const paths = expectDocumentPaths(one, encodeOk(one, { head: { id: 'Vari', body: { name: 'a', value: 1 } } }));
    expect(paths).toContain('head.body.value');
  });
});

describe('transforms', () => {
  const codec = struct({ data: sized(u8, transform(struct({ elements: array(vari, u8) }), xor('K'))) });
  const value = { data: { elements: [{ name: 'x', value: 1 }] } };
  const bytes = encodeOk(codec, value);

  test('layers are annotations between the document segments', () => {
    const paths = expectDocumentPaths(codec, bytes);
    expect(paths).toContain('data <xor> .elements[0].name');
    expect(expectErrorPathsResolve(codec, bytes)).toBeGreaterThan(0);
  });

  test('an encode error under a layer', () => {
    const error = encodeFails(codec, { data: { elements: [{ name: 'x', value: -1 }] } });
    expect(formatPath(error.path)).toBe('data <xor> .elements[0].value');
  });

  test('transformKeeping: the value is at .value', () => {
    const kept = struct({ data: transformKeeping(vari, xor('K')) });
    const paths = expectDocumentPaths(kept, encodeOk(kept, { data: { value: { name: 'y', value: 2 } } }));
    expect(paths).toContain('data.value <xor> .name');
  });
});

describe('pointers', () => {
  const entry = struct({ size: u8, name: pointer(u8, cstring('ascii')) });
  const codec = arena(struct({ entries: array(entry, u8) }));
  const bytes = encodeOk(codec, {
    root: {
      entries: [
        { size: 1, name: { target: 'a' } },
        { size: 2, name: { target: 'bc' } },
      ],
    },
    unclaimed: [],
  });

  test('a target is at .target, its offset an annotation', () => {
    const paths = expectDocumentPaths(codec, bytes);
    expect(paths).toContain('root.entries[1].name.target <@7>');
    expect(paths.some((p) => /\.@\d/.test(p))).toBe(false);
    expect(expectErrorPathsResolve(codec, bytes)).toBeGreaterThan(0);
  });

  test('errors inside a target, on decode and encode', () => {
    const bad = bytes.slice();
    bad[7] = 0x80;
    const error = decodeFails(codec, bad);
    expect(formatPath(error.path)).toBe('root.entries[1].name.target <@7>');
    const encodeError = encodeFails(codec, { root: { entries: [{ size: 1, name: { target: 'é' } }] }, unclaimed: [] });
    expect(documentPath(encodeError.path)).toEqual(['root', 'entries', 0, 'name', 'target']);
    expect(encodeError.code).toBe('invalid-text');
  });
});

describe('sized fields and checksums', () => {
  test('a sized field is its value; a checksum digest is an annotation', () => {
    const codec = struct({ body: checksum(sized(u16le, vari), { algorithm: crc32, stored: u32le }) });
    const bytes = encodeOk(codec, { body: { name: 'abc', value: 9 } });
    const paths = expectDocumentPaths(codec, bytes);
    expect(paths).toContain('body.name');
    expect(paths).toContain('body <CRC-32>');
    bytes[bytes.length - 1]! ^= 1;
    const warned = decode(codec, bytes, { checksums: 'warn' });
    expect(E.isRight(warned) && warned.right.warnings.map((w) => formatPath(w.path))).toEqual(['body <CRC-32>']);
    expect(decodeFails(codec, bytes).path).toEqual(['body', pathAnnotation('CRC-32')]);
  });
});

test('a failed decode or encode keeps the annotation objects it was given (no stray strings)', () => {
  const codec = transform(u32le, xor('K'));
  const error = decodeFails(codec, new Uint8Array(2));
  expect(error.path.every((s) => typeof s === 'number' || typeof s === 'string' || isPathAnnotation(s))).toBe(true);
  expect(E.isRight(encode(codec, 1))).toBe(true);
});
