import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpus, corpusRoot, CORPUS_VARIABLE } from '@savekit/testkit';

let base: string;
let root: string;
const saved = process.env[CORPUS_VARIABLE];

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'savekit-corpus-'));
  root = join(base, 'shared', 'vectors-found');
  mkdirSync(join(root, 'uqm', 'nested'), { recursive: true });
  writeFileSync(join(root, 'uqm', 'uqmsave.12'), Uint8Array.of(1, 2, 3));
  writeFileSync(join(root, 'uqm', '01-Start.dat'), Uint8Array.of(9));
  writeFileSync(join(root, 'uqm', 'README.txt'), 'the saves');
  mkdirSync(join(base, 'repo', 'packages', 'uqm'), { recursive: true });
  delete process.env[CORPUS_VARIABLE];
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
  if (saved === undefined) delete process.env[CORPUS_VARIABLE];
  else process.env[CORPUS_VARIABLE] = saved;
  jest.restoreAllMocks();
});

describe('corpus', () => {
  test('finds shared/vectors-found above the starting folder, as a worktree or a package folder sees it', () => {
    expect(corpusRoot({ from: join(base, 'repo', 'packages', 'uqm') })).toBe(root);
    expect(corpusRoot({ from: base })).toBe(root);
  });

  test('SAVEKIT_CORPUS wins over the search, and an explicit root over both', () => {
    process.env[CORPUS_VARIABLE] = join(base, 'elsewhere');
    expect(corpusRoot({ from: join(base, 'repo') })).toBe(join(base, 'elsewhere'));
    expect(corpus('uqm', { from: join(base, 'repo') }).present).toBe(false);
    expect(corpusRoot({ root, from: join(base, 'repo') })).toBe(root);
  });

  test("lists a format's files sorted, without folders, filtered; reads bytes and text", () => {
    const uqm = corpus('uqm', { root });
    expect(uqm.present).toBe(true);
    expect(uqm.dir).toBe(join(root, 'uqm'));
    expect(uqm.names()).toEqual(['01-Start.dat', 'README.txt', 'uqmsave.12']);
    const saves = uqm.files((name) => !name.endsWith('.txt'));
    expect([...saves.keys()]).toEqual(['01-Start.dat', 'uqmsave.12']);
    expect(saves.get('uqmsave.12')).toEqual(Uint8Array.of(1, 2, 3));
    expect(uqm.file('01-Start.dat')).toEqual(Uint8Array.of(9));
    expect(uqm.text('README.txt')).toBe('the saves');
  });

  test('absent files, folders and paths out of the folder are undefined, not read', () => {
    writeFileSync(join(root, 'secret'), 'outside');
    const uqm = corpus('uqm', { root });
    expect(uqm.file('missing.sav')).toBeUndefined();
    expect(uqm.file('nested')).toBeUndefined();
    expect(uqm.file('../secret')).toBeUndefined();
    expect(uqm.text('')).toBeUndefined();
    expect(() => corpus('../uqm', { root })).toThrow(RangeError);
    expect(() => corpus('', { root })).toThrow(RangeError);
  });

  test('an absent format is empty, and warnIfAbsent says which tests are skipped and why', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const edge = corpus('edge', { root });
    expect([edge.present, edge.names(), edge.files().size, edge.file('a.sav')]).toEqual([false, [], 0, undefined]);
    expect(edge.warnIfAbsent('EDGE golden files')).toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toBe(
      `EDGE golden files: the corpus folder ${join(root, 'edge')} is absent (set SAVEKIT_CORPUS); these tests are skipped`,
    );
    expect(corpus('uqm', { root }).warnIfAbsent('UQM real saves')).toBe(true);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  test('with no corpus anywhere above, the warning names the search', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const lonely = mkdtempSync(join(tmpdir(), 'savekit-no-corpus-'));
    try {
      // Nothing above the temporary folder holds a corpus (checked, so the case below is the one meant).
      expect(corpusRoot({ from: lonely })).toBeUndefined();
      const uqm = corpus('uqm', { from: lonely });
      expect([uqm.present, uqm.dir, uqm.names()]).toEqual([false, undefined, []]);
      expect(uqm.warnIfAbsent('UQM')).toBe(false);
      expect(warn.mock.calls[0]?.[0]).toMatch(
        /^UQM: the corpus folder shared.vectors-found \(not found above .*\) is absent/,
      );
    } finally {
      rmSync(lonely, { recursive: true, force: true });
    }
  });
});
