// The commands run in-process through runCli (fast: no process per call), on the example format
// and UQM, as the built binary would run them; cli.test.ts drives the binary itself.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import pc from 'picocolors';
import { encodeOrThrow, FormatRegistry } from '@savekit/core';
import { createUqmSave, format as uqm, setRoster, uqmSave } from '@savekit/uqm';
import { format as skirmish } from '../../../examples/src/skirmish';
import { runCli, type CliIo } from '../src/program';
import { renderTree, SUMMARY_LIMITS } from '../src/tree';
import { stripComments } from '../src/commands/edit';
import { encodeSave, fromEnvelope, parseJsonBytes } from '../src/document';
import { scratchFolder } from './binary';

// version.ts reads package.json through import.meta, which the CommonJS that jest runs lacks.
jest.mock('../src/version', () => ({ version: '0.0.0-test' }));

const root = join(__dirname, '..', '..', '..');
const sample = join(root, 'examples', 'saves', 'skirmish-01.sks');
const uqmSample = join(root, 'examples', 'saves', 'uqm-01.sav');
const commands = ['formats', 'inspect', 'dump', 'build', 'verify', 'diff', 'hexdump', 'edit'];
const scratch = scratchFolder('savekit-commands-', { binary: false });

interface Run {
  code: number;
  stdout: string;
  bytes: Buffer;
  stderr: string;
}

/** A stream that keeps what is written, and says whether it is a terminal. */
function capture(isTTY: boolean): CliIo['stdout'] & { chunks: Buffer[] } {
  const chunks: Buffer[] = [];
  const write = (chunk: string | Uint8Array) => {
    chunks.push(Buffer.from(chunk));
    return true;
  };
  return { chunks, isTTY, write } as unknown as CliIo['stdout'] & { chunks: Buffer[] };
}

async function savekit(args: string[], options: { tty?: boolean; env?: Record<string, string> } = {}): Promise<Run> {
  const stdout = capture(options.tty === true);
  const stderr = capture(options.tty === true);
  const changes: Record<string, string | undefined> = {
    NO_COLOR: '1',
    ...options.env,
    ...(options.env?.EDITOR !== undefined ? { VISUAL: undefined } : {}),
  };
  const saved = Object.fromEntries(Object.keys(changes).map((key) => [key, process.env[key]]));
  const setEnv = (values: Record<string, string | undefined>) => {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
  setEnv(changes);
  try {
    const code = await runCli(args, { stdout, stderr }, { formats: [skirmish, uqm] });
    const bytes = Buffer.concat(stdout.chunks);
    return { code, stdout: bytes.toString('utf8'), bytes, stderr: Buffer.concat(stderr.chunks).toString('utf8') };
  } finally {
    setEnv(saved);
  }
}

function file(name: string, content?: Uint8Array | string): string {
  const path = join(scratch.path, name);
  if (content !== undefined) writeFileSync(path, content);
  return path;
}

describe('verify: files no format recognises', () => {
  let folder: string;
  beforeAll(() => {
    folder = join(scratch.path, 'mixed');
    mkdirSync(folder);
    copyFileSync(sample, join(folder, 'a.sks'));
    copyFileSync(uqmSample, join(folder, 'b.sav'));
    writeFileSync(join(folder, 'README.txt'), 'Saves from the 2024 tournament.\n');
    writeFileSync(join(folder, 'a.json'), '{"notes": true}\n');
  });

  test('in a folder they are skipped and counted, not failures', async () => {
    const run = await savekit(['verify', folder]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`skipped ${folder}/README.txt: no format recognises it`);
    expect(run.stdout).toContain(`skipped ${folder}/a.json: no format recognises it`);
    expect(run.stdout).toMatch(/^ok .*a\.sks \(skirmish, 120 bytes\)$/m);
    expect(run.stdout).toMatch(/^ok .*b\.sav \(uqm, 2,709 bytes\)$/m);
    expect(run.stdout.trim().split('\n').slice(-2)).toEqual([
      '2 saves: 2 ok, 0 invalid, 0 differs',
      'skipped: 2 files no format recognises',
    ]);
  });

  test('a real failure still fails the run; skipped files do not', async () => {
    const bad = join(scratch.path, 'mixed-bad');
    mkdirSync(bad);
    const bytes = new Uint8Array(readFileSync(sample));
    bytes[48]! ^= 0x01; // the checksum catches it
    writeFileSync(join(bad, 'flipped.sks'), bytes);
    writeFileSync(join(bad, 'notes.txt'), 'x');
    const run = await savekit(['verify', bad]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('1 save: 0 ok, 1 invalid, 0 differs');
    expect(run.stdout).toContain('skipped: 1 file no format recognises');
  });

  test('--json: skipped files listed apart, the summary in the words of the text', async () => {
    const run = await savekit(['verify', '--json', folder]);
    const json = JSON.parse(run.stdout) as {
      results: Array<{ status: string }>;
      skipped: string[];
      summary: Record<string, number>;
    };
    expect(json.skipped).toEqual([`${folder}/README.txt`, `${folder}/a.json`]);
    expect(json.results.map((r) => r.status)).toEqual(['ok', 'ok']);
    expect(json.summary).toEqual({ saves: 2, ok: 2, invalid: 0, differs: 0, skipped: 2 });
    // One vocabulary: every --json summary word is the word the text summary uses.
    const text = (await savekit(['verify', folder])).stdout;
    for (const word of ['ok', 'invalid', 'differs']) expect(text).toContain(`${json.summary[word]} ${word}`);
  });

  test('a file named on its own that no format recognises is an error', async () => {
    const run = await savekit(['verify', join(folder, 'README.txt')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^invalid .*README\.txt: no registered format recognises this file/m);
    expect(run.stdout).toContain('1 save: 0 ok, 1 invalid, 0 differs');
  });

  test('a folder with no save at all is a usage error', async () => {
    const empty = join(scratch.path, 'notes-only');
    mkdirSync(empty);
    writeFileSync(join(empty, 'README.txt'), 'nothing here');
    const run = await savekit(['verify', empty]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe('savekit: no save among 1 file: no format recognises any of them');
  });
});

describe('edit: a document that does not build goes back to the editor', () => {
  // A scripted editor: what it does in each round comes from EDIT_SCRIPT; it logs what it was shown.
  const editor = () =>
    file(
      'editor.cjs',
      `
const fs = require('fs');
const path = process.argv[2];
const log = process.env.EDIT_LOG;
const shown = fs.readFileSync(path, 'utf8');
fs.appendFileSync(log, JSON.stringify(shown) + '\\n');
const round = fs.readFileSync(log, 'utf8').trim().split('\\n').length;
const action = process.env.EDIT_SCRIPT.split(',')[round - 1];
const doc = () => JSON.parse(shown.split('\\n').filter((l) => !l.startsWith('#')).join('\\n'));
if (action === 'break') { const d = doc(); d.document.version = 70000; d.document.chunks[1].body = 77; fs.writeFileSync(path, JSON.stringify(d)); }
if (action === 'fix') { const d = doc(); d.document.version = 3; fs.writeFileSync(path, JSON.stringify(d)); }
if (action === 'garble') fs.writeFileSync(path, '{ "savekit": 1, oops');
if (action === 'empty') fs.writeFileSync(path, '# nothing\\n\\n');
// "keep": save it as shown
`,
    );

  async function edit(target: string, script: string): Promise<Run & { shown: string[] }> {
    const log = file(`${script.replace(/,/g, '-')}.log`, '');
    const run = await savekit(['edit', target], {
      env: { EDITOR: `"${process.execPath}" "${editor()}"`, EDIT_LOG: log, EDIT_SCRIPT: script },
    });
    const shown = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as string);
    return { ...run, shown };
  }

  test('the error is shown at the top, the edits kept, and the fixed document written', async () => {
    const target = file('reopen.sks', readFileSync(sample));
    const run = await edit(target, 'break,fix');
    expect(run.code).toBe(0);
    expect(run.shown).toHaveLength(2);
    // First the plain JSON document, as dump writes it; then the error on top of the user's edits.
    expect(run.shown[0]).toBe(`${(await savekit(['dump', sample])).stdout.trimEnd()}\n`);
    const second = run.shown[1]!;
    expect(second.split('\n').slice(0, 5)).toEqual([
      '# The document was not saved:',
      '#   at document.version: expected an integer from 0 to 65535',
      '#',
      `# Editing ${target} (skirmish). Lines starting with # at the top are ignored.`,
      '# Fix it and save to try again; save it unchanged, or empty the file, to cancel.',
    ]);
    // What the user typed in the first round is what they see again.
    expect(JSON.parse(stripComments(second)).document).toMatchObject({
      version: 70000,
      chunks: [{}, { body: 77 }, {}, {}],
    });
    expect(readFileSync(`${target}.bak`)).toEqual(readFileSync(sample));
    const after = JSON.parse((await savekit(['dump', target])).stdout);
    expect(after.document.version).toBe(3);
    expect(after.document.chunks[1].body).toBe(77);
  });

  test('saving the reopened file unchanged gives up: nothing written, the edits kept for the user', async () => {
    const target = file('give-up.sks', readFileSync(sample));
    const run = await edit(target, 'garble,keep');
    expect(run.code).toBe(1);
    expect(run.shown[1]).toMatch(/^# The document was not saved:\n# {3}not valid JSON: /);
    const match = /^savekit: .*give-up\.sks: not written \(not valid JSON: .*\); your edits are in (.+)$/m.exec(
      run.stderr,
    );
    expect(match).not.toBeNull();
    const kept = match![1]!;
    expect(stripComments(readFileSync(kept, 'utf8'))).toBe('{ "savekit": 1, oops');
    rmSync(join(kept, '..'), { recursive: true, force: true });
    expect(readFileSync(target)).toEqual(readFileSync(sample));
    expect(existsSync(`${target}.bak`)).toBe(false);
  });

  test('an empty document cancels the edit', async () => {
    const target = file('emptied.sks', readFileSync(sample));
    const run = await edit(target, 'empty');
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(`savekit: ${target}: the document is empty; nothing was written`);
    expect(readFileSync(target)).toEqual(readFileSync(sample));
  });

  test('comment lines are stripped only before the document', () => {
    expect(stripComments('# a\n  # b\n{"x": "# not a comment"}\n')).toBe('{"x": "# not a comment"}\n');
    expect(stripComments('{}\n# after\n')).toBe('{}\n# after\n');
  });
});

describe('diff of two formats', () => {
  test('says which formats, exit 2', async () => {
    const run = await savekit(['diff', sample, uqmSample]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `savekit: ${sample} is Skirmish (the example format) (skirmish), ${uqmSample} is The Ur-Quan Masters save (uqm): different formats`,
    );
    expect(run.stdout).toBe('');
  });

  test('saves of one format still diff', async () => {
    const run = await savekit(['diff', uqmSample, uqmSample]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe('no differences');
  });
});

describe('inspect: a summary by default, everything with --full', () => {
  test('long arrays and objects end in "… N more"; short scalar arrays take one line', async () => {
    const run = await savekit(['inspect', uqmSample]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.length).toBeLessThan(150); // it was 577
    expect(lines).toContain('      moduleSlots [16]: 0, 0, 0, 0, 0, 0, 0, 0, … 8 more');
    expect(lines).toContain('      jetSlots [8]: 0, 0, 0, 0, 0, 0, 0, 0');
    // GmSt has 406 game-state fields: 24 shown, then the rest counted.
    const gmst = lines.indexOf('      id: "GmSt"');
    expect(lines[gmst + 1]).toBe('      body {406}');
    expect(lines[gmst + 2 + 24]).toBe('        … 382 more');
    expect(run.stdout).toBe((await savekit(['inspect', uqmSample])).stdout); // deterministic
  });

  test('--full shows every element; --depth still limits it', async () => {
    const full = await savekit(['inspect', '--full', uqmSample]);
    expect(full.stdout).not.toMatch(/… [\d,]+ more/);
    expect(full.stdout).toContain('        [15]: 0');
    expect(full.stdout.split('\n').length).toBeGreaterThan(600);
    const shallow = await savekit(['inspect', '--full', '--depth', '1', uqmSample]);
    expect(shallow.stdout).toMatch(/^ {2}chunks \[6\] …$/m);
  });

  test('long byte strings are cut with their size in bytes; other long strings with theirs in chars', () => {
    const lines = renderTree(
      { data: 'ab'.repeat(4096), text: 'x'.repeat(100), short: 'cafe' },
      SUMMARY_LIMITS,
      pc.createColors(false),
    );
    expect(lines).toEqual([
      'document {3}',
      `  data: "${'ab'.repeat(16)}" … 4,096 bytes`,
      `  text: "${'x'.repeat(72)}" … 100 chars`,
      '  short: "cafe"',
    ]);
  });
});

describe('counts', () => {
  test('a UQM save with one escort says "1 escort"', async () => {
    const save = createUqmSave({ name: 'One escort' });
    setRoster(save, [
      {
        race: 2,
        captainsNameIndex: 0,
        raceId: 2,
        index: 0,
        crewLevel: 18,
        maxCrew: 18,
        energyLevel: 18,
        maxEnergy: 18,
      },
    ]);
    const path = file('one-escort.sav', encodeOrThrow(uqmSave, save));
    const run = await savekit(['inspect', path]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/, 1 escort\n/);
    expect(run.stdout).not.toContain('1 escorts');
  });
});

describe('help', () => {
  test('the program and every command show examples', async () => {
    const main = await savekit(['--help']);
    expect(main.code).toBe(0);
    expect(main.stdout).toMatch(/\nExamples:\n {2}\$ savekit formats /);
    for (const command of commands) {
      const run = await savekit([command, '--help']);
      expect({ command, code: run.code }).toEqual({ command, code: 0 });
      expect(run.stdout).toMatch(new RegExp(`\\nExamples:\\n {2}\\$ savekit ${command} `));
    }
  });

  test('build --help says where the save goes without -o', async () => {
    const run = await savekit(['build', '--help']);
    expect(run.stdout).toMatch(/default: standard output, when\s+it is not a terminal/);
    expect(run.stdout).toContain('on a terminal it is refused');
  });
});

describe('build without -o', () => {
  let json: string;
  beforeAll(async () => {
    json = file('to-stdout.json', (await savekit(['dump', sample])).stdout);
  });

  test('writes the save to standard output when it is not a terminal', async () => {
    for (const args of [
      ['build', json],
      ['build', json, '-o', '-'],
    ]) {
      const run = await savekit(args);
      expect(run.code).toBe(0);
      expect(run.bytes).toEqual(readFileSync(sample));
      expect(run.stderr.trim()).toBe('wrote 120 bytes to standard output (skirmish)');
    }
  });

  test('refuses a terminal, in one line, before doing anything', async () => {
    const run = await savekit(['build', json], { tty: true });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'savekit: build writes a binary save: give -o SAVE, or redirect standard output (savekit build IN.json > SAVE)\n',
    );
  });
});

describe('build of a deeply nested document', () => {
  /** The dumped sample with the document, or its first field, an array nested `depth` deep. */
  async function deepJson(name: string, depth: number, whole: boolean): Promise<{ path: string; field: string }> {
    const envelope = JSON.parse((await savekit(['dump', sample])).stdout) as { document: Record<string, unknown> };
    const field = Object.keys(envelope.document)[0]!;
    if (whole) (envelope as { document: unknown }).document = '@deep@';
    else envelope.document[field] = '@deep@';
    const text = JSON.stringify(envelope).replace('"@deep@"', `${'['.repeat(depth)}1${']'.repeat(depth)}`);
    return { path: file(name, text), field: whole ? 'document' : `document.${field}` };
  }

  test.each([4_100, 10_000, 100_000])('an array %i deep: one line naming the path, exit 1', async (depth) => {
    for (const whole of [true, false]) {
      const { path, field } = await deepJson(`deep-${depth}.json`, depth, whole);
      const run = await savekit(['build', path, '-o', file(`deep-${depth}.sks`)]);
      expect(run.code).toBe(1);
      expect(run.stderr).not.toContain('internal error');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      // The problem's code first, as for a decode or encode error: the type's own message
      // (`expected an object`) or a plain mismatch (the magic's literal).
      expect(run.stderr).toContain(
        `deep-${depth}.json: [${whole ? 'invalid-value' : 'wrong-type'}] at ${field}: expected`,
      );
      expect(run.stderr.length).toBeLessThan(400);
    }
  });
});

describe('documents too long for one string', () => {
  test('dump writes JSON.stringify(envelope, null, 2) a part at a time, to a file and to standard output', async () => {
    const uqmJson = file('uqm-dump.json');
    expect((await savekit(['dump', uqmSample, '-o', uqmJson])).code).toBe(0);
    const envelope = JSON.parse(readFileSync(uqmJson, 'utf8'));
    expect(readFileSync(uqmJson, 'utf8')).toBe(`${JSON.stringify(envelope, null, 2)}\n`);
    const stdout = capture(false);
    expect(await runCli(['dump', uqmSample], { stdout, stderr: capture(false) }, { formats: [uqm] })).toBe(0);
    expect(Buffer.concat(stdout.chunks).toString('utf8')).toBe(`${JSON.stringify(envelope, null, 2)}\n`);
    // Lines go out as the text is made, not as one string.
    expect(stdout.chunks.length).toBeGreaterThan(1);
  });

  test('build reads a long document in parts: the value JSON.parse gives, keys in order', async () => {
    const dumped = file('uqm-parts.json');
    expect((await savekit(['dump', uqmSample, '-o', dumped])).code).toBe(0);
    const bytes = new Uint8Array(readFileSync(dumped));
    // A threshold of 0 sends even this document through the parser in parts.
    const inParts = parseJsonBytes(bytes, dumped, 0);
    expect(JSON.stringify(inParts)).toBe(JSON.stringify(JSON.parse(readFileSync(dumped, 'utf8'))));
    // And on, as build goes: the save comes back byte for byte.
    const { format, doc } = fromEnvelope(new FormatRegistry([uqm]), inParts, dumped);
    expect(encodeSave(format, doc, dumped)).toEqual(new Uint8Array(readFileSync(uqmSample)));
    expect(() => parseJsonBytes(bytes.subarray(0, bytes.length - 3), dumped, 0)).toThrow(/not valid JSON/);
  });

  test('edit refuses a document too long for one string in words that say so, touching nothing', async () => {
    const save = file('long.sks', readFileSync(sample));
    // What JSON.stringify throws past the longest string (a 3,600 × 3,600 world's document is longer).
    const stringify = jest.spyOn(JSON, 'stringify').mockImplementationOnce(() => {
      throw new RangeError('Invalid string length');
    });
    try {
      const run = await savekit(['edit', save], { env: { EDITOR: 'false' } });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /longer than one text can be \(about 512 MiB\), so it cannot be edited; savekit dump -o FILE\.json still writes it/,
      );
      expect(readFileSync(save)).toEqual(readFileSync(sample));
    } finally {
      stringify.mockRestore();
    }
    // Another RangeError (a stack overflow) is not mistaken for the length.
    const overflow = jest.spyOn(JSON, 'stringify').mockImplementationOnce(() => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    try {
      const run = await savekit(['edit', save], { env: { EDITOR: 'false' } });
      expect(run.code).not.toBe(0);
      expect(run.stderr).not.toMatch(/longer than one text/);
    } finally {
      overflow.mockRestore();
    }
  });
});
