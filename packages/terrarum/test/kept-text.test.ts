// A save's CSV files and its actors that neither JSON form reproduces keep their file's text beside
// their value (rows, JSON value), written back while the value still comes from it. An edit of the
// value alone is written afresh; an edit of the text alone was silently dropped (the value is what is
// written). It is now refused at the text, with what to do instead.
import * as E from 'fp-ts/lib/Either';
import { decodeSave, encodeSave, parseCsv } from '@savekit/terrarum';
import { ourSaveTree } from './save-fixture';

function decoded(tree: Map<string, Uint8Array>) {
  const result = decodeSave(tree);
  if (E.isLeft(result)) throw result.left;
  return result.right.value;
}

/** The fixture's save, with its actor's file written with spaces after the colons (no JSON form of ours). */
function spacedSave() {
  const tree = ourSaveTree();
  const [name] = [...tree.keys()].filter((k) => /^[0-9A-F]+$/.test(k));
  const spaced = new TextDecoder().decode(tree.get(name!)).replaceAll('":', '": ');
  tree.set(name!, new TextEncoder().encode(spaced));
  return { save: decoded(tree), name: name!, spaced };
}

function refusal(result: E.Either<{ path: unknown; message: string }, unknown>) {
  if (E.isRight(result)) throw new Error('expected the save to be refused');
  return result.left;
}

test("a CSV file's text edited alone is refused at the text; its rows edited are written", () => {
  const save = decoded(ourSaveTree());
  const file = save.worldinfo2;
  expect(typeof file.text).toBe('string');
  file.text = `${file.text}"extra";"row"\n`;
  const error = refusal(encodeSave(save));
  expect(error.path).toEqual(['worldinfo2', 'text']);
  expect(error.message).toMatch(/^the text was edited but the rows were not/);
  // The text and the rows edited together: written, and read back as edited.
  file.rows = parseCsv(file.text).rows;
  const both = encodeSave(save);
  if (E.isLeft(both)) throw both.left;
  expect(decoded(both.right).worldinfo2.rows).toEqual(file.rows);
  // The rows edited alone (the text stale): the rows are written.
  const again = decoded(ourSaveTree());
  again.worldinfo2.rows[1]![0] = 'edited';
  const rows = encodeSave(again);
  if (E.isLeft(rows)) throw rows.left;
  expect(decoded(rows.right).worldinfo2.rows[1]![0]).toBe('edited');
});

test("an actor's kept text edited alone is refused at the text; its value edited is written", () => {
  const { save, name, spaced } = spacedSave();
  const actor = save.actors[name]!;
  expect(actor.text).toBe(spaced);
  const unchanged = encodeSave(save);
  if (E.isLeft(unchanged)) throw unchanged.left;
  expect(new TextDecoder().decode(unchanged.right.get(name))).toBe(spaced);
  actor.text = spaced.replace('Nimbus', 'Cirrus');
  const error = refusal(encodeSave(save));
  expect(error.path).toEqual(['actors', name, 'text']);
  expect(error.message).toMatch(/^the text was edited but the value was not/);
  const edited = spacedSave();
  (edited.save.actors[edited.name]!.value as { actorValue: { name: string } }).actorValue.name = 'Cirrus';
  const written = encodeSave(edited.save);
  if (E.isLeft(written)) throw written.left;
  expect(decoded(written.right).actors[edited.name]!.value).toMatchObject({ actorValue: { name: 'Cirrus' } });
});
