// What reconciling a file's structure definitions with the reader's tables says (a field the file
// lacks, fewer elements than the reader's, a size the reader stores otherwise) is said where that
// definition is in the document, as `dump` shows it: `chunks[i].body.value.fields[n]` for a field the
// file declares, `….fields` for one it lacks — not at `<Stru, mobj_t, tag>`, which names no part of the
// document. A save written with the engine's own (older) layout has such warnings.
import * as E from 'fp-ts/lib/Either';
import { decode, documentPath, encodeOrThrow, toJson, type Warning } from '@savekit/core';
import { convertVariant, createSave, edgeSave, newInstance, type EdgeSave } from '@savekit/edge';
import { pathResolves } from '@savekit/testkit';

const RECONCILING = new Set(['missing-field', 'missing-elements', 'extra-elements', 'size-changed', 'ref-changed']);

function decodedSave(variant: 'A' | 'C'): { value: EdgeSave; warnings: ReadonlyArray<Warning> } {
  const doc = createSave({
    variables: { LEVEL: 'MAP01' },
    arrays: { mobjs: [newInstance('mobj_t')], players: [newInstance('player_t')] },
  });
  const result = decode(edgeSave, encodeOrThrow(edgeSave, convertVariant(doc, variant)));
  if (E.isLeft(result)) throw result.left;
  return result.right;
}

// Variant C's engine layout lacks fields its release table has (variant A's has them all).
describe('variant C', () => {
  const variant = 'C';
  test('each reconciling warning names the definition, by its document path', () => {
    const { value, warnings } = decodedSave(variant);
    const json = toJson(edgeSave, value) as {
      chunks: Array<{ id: string; body: { value: { name: string; fields: Array<{ name: string }> } } }>;
    };
    const said = warnings.filter((w) => RECONCILING.has(w.code));
    expect(said.length).toBeGreaterThan(3);
    const kinds = new Set<string>();
    for (const warning of said) {
      const path = documentPath(warning.path);
      expect({ warning: warning.message, resolves: pathResolves(json, warning.path) }).toEqual({
        warning: warning.message,
        resolves: true,
      });
      // chunks[i].body.value.fields, and the field's index when the file declares it.
      expect(path.slice(0, 5)).toEqual(['chunks', path[1], 'body', 'value', 'fields']);
      const chunk = json.chunks[path[1] as number]!;
      const [, field, struct] = /^(?:numeric )?field (\S+) of (\S+)/.exec(warning.message) ?? [];
      expect({ id: chunk.id, struct: chunk.body.value.name }).toEqual({ id: 'Stru', struct });
      const declared = chunk.body.value.fields.findIndex((f) => f.name === field);
      if (warning.code === 'missing-field') {
        expect(path).toHaveLength(5);
        expect(declared).toBe(-1);
      } else {
        expect(path).toEqual([...path.slice(0, 5), declared]);
      }
      kinds.add(warning.code);
    }
    expect(kinds).toEqual(new Set(['missing-field', 'missing-elements']));
  });

  test('two fields a definition lacks are two warnings (said at the same `fields`)', () => {
    const { warnings } = decodedSave(variant);
    const lacking = warnings.filter((w) => w.code === 'missing-field' && / of mobj_t /.test(w.message));
    expect(lacking.length).toBeGreaterThanOrEqual(2);
    expect(new Set(lacking.map((w) => w.message)).size).toBe(lacking.length);
  });
});

test('a field whose kind the file changed is an error at that field of the definition', () => {
  const doc = createSave({ variables: { LEVEL: 'MAP01' }, arrays: { mobjs: [] } });
  type Definition = { name: string; fields: Array<{ name: string; kind: string; size: number }> };
  const chunks = doc.chunks as unknown as Array<{ id: string; body?: { value: Definition } }>;
  const at = chunks.findIndex((c) => c.id === 'Stru' && c.body?.value.name === 'mobj_t');
  const def = chunks[at]!.body!.value;
  const x = def.fields.findIndex((f) => f.name === 'x');
  def.fields[x] = { ...def.fields[x]!, kind: 'string', size: 0 };
  const result = decode(edgeSave, encodeOrThrow(edgeSave, doc));
  if (E.isRight(result)) throw new Error('decoded a definition whose field changed kind');
  expect(documentPath(result.left.path)).toEqual(['chunks', at, 'body', 'value', 'fields', x]);
  expect(result.left.message).toMatch(/field x of mobj_t changed kind from numeric to string/);
});
