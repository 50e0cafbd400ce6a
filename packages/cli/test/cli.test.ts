// The built `savekit` binary, driven as a user would: a spawned process per command, on the example
// format from examples/ (loaded with --plugin). commands.test.ts runs the commands in-process.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bin, plugin, type Run, root, sample, savekit, scratchFolder } from './binary';

const scratch = scratchFolder('savekit-cli-');

function file(name: string, bytes?: Uint8Array): string {
  const path = join(scratch.path, name);
  if (bytes !== undefined) writeFileSync(path, bytes);
  return path;
}

const noStackTrace = (run: Run) => expect(`${run.stdout}${run.stderr}`).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);

describe('commands on the example format', () => {
  test('formats', () => {
    const run = savekit(['formats']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^skirmish\s+Skirmish \(the example format\)$/m);
    // The plugin, and every installed format package (registered without being named).
    const listed = JSON.parse(savekit(['formats', '--json']).stdout) as Array<{ id: string }>;
    expect(listed).toContainEqual({
      id: 'skirmish',
      title: 'Skirmish (the example format)',
      extensions: ['.sks'],
      input: 'file',
      reads: true,
      writes: true,
    });
    expect(listed.map((f) => f.id)).toContain('edge');
  });

  test('inspect: summary, tree with depth, warnings, --json', () => {
    const run = savekit(['inspect', sample]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Skirmish (the example format) (skirmish), 120 bytes');
    expect(run.stdout).toContain('body: "Bridge at Ütersen ░▒▓"');
    expect(run.stdout).toMatch(/^\s+\[0\] \{5\} …$/m); // units beyond depth 4
    const shallow = savekit(['inspect', '--depth', '1', sample]);
    expect(shallow.stdout).toMatch(/^ {2}chunks \[4\] …$/m);
    const json = JSON.parse(savekit(['inspect', '--json', sample]).stdout);
    expect(json).toMatchObject({ format: 'skirmish', size: 120, warnings: [] });
    expect(json.document.chunks[1]).toEqual({ id: 'Turn', body: 42 });
  });

  test('dump → build gives identical bytes', () => {
    const dumped = savekit(['dump', sample]);
    expect(dumped.code).toBe(0);
    const envelope = JSON.parse(dumped.stdout);
    expect(envelope).toMatchObject({ savekit: 1, format: 'skirmish' });
    const json = file('sample.json');
    expect(savekit(['dump', sample, '-o', json]).code).toBe(0);
    const rebuilt = file('rebuilt.sks');
    const build = savekit(['build', json, '-o', rebuilt]);
    expect(build.code).toBe(0);
    expect(readFileSync(rebuilt)).toEqual(readFileSync(sample));
  });

  test('build reports every problem of an invalid document with its path', () => {
    const envelope = JSON.parse(savekit(['dump', sample]).stdout);
    envelope.document.version = 70000;
    envelope.document.chunks[2].body[0].health = -1;
    const bad = file('bad.json', new TextEncoder().encode(JSON.stringify(envelope)));
    const run = savekit(['build', bad, '-o', file('never.sks')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('at document.version: expected an integer from 0 to 65535');
    expect(run.stderr).toContain('at document.chunks[2].body[0].health: expected an integer from 0 to 255');
    expect(existsSync(join(scratch.path, 'never.sks'))).toBe(false);
    noStackTrace(run);
  });

  test('verify: ok for the sample; exit 1 and the offset for a flipped byte', () => {
    const ok = savekit(['verify', sample]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('1 save: 1 ok, 0 invalid, 0 differs');
    // One flipped bit in the turn number: the file still parses, the checksum catches it.
    const bytes = new Uint8Array(readFileSync(sample));
    bytes[48]! ^= 0x01;
    const flipped = file('flipped.sks', bytes);
    const run = savekit(['verify', sample, flipped]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^invalid .*flipped\.sks: \[checksum-mismatch\] at <Adler-32> \(offset 116\): Adler-32 mismatch: stored 0x[0-9a-f]{8}, computed 0x[0-9a-f]{8}$/m,
    );
    expect(run.stdout).toContain('2 saves: 1 ok, 1 invalid, 0 differs');
    const json = JSON.parse(savekit(['verify', '--json', flipped]).stdout);
    expect(json.results[0]).toMatchObject({
      status: 'invalid',
      offset: 116,
      path: '<Adler-32>',
      code: 'checksum-mismatch',
    });
    // One flipped bit inside a unit's fixed-size name: named at that very byte.
    const inName = new Uint8Array(readFileSync(sample));
    inName[70]! ^= 0x01;
    expect(savekit(['verify', file('flipped-name.sks', inName)]).stdout).toMatch(
      /\[invalid-value\] at chunks\[2\]\.body\[0\]\.kind \(offset 70\): byte 0x1 after the NUL terminator would be lost/,
    );
  });

  test('diff lists field-level differences', () => {
    const envelope = JSON.parse(savekit(['dump', sample]).stdout);
    envelope.document.chunks[2].body[0].health = 50;
    envelope.document.chunks[1].body = 43;
    const json = file('changed.json', new TextEncoder().encode(JSON.stringify(envelope)));
    const changed = file('changed.sks');
    expect(savekit(['build', json, '-o', changed]).code).toBe(0);
    const run = savekit(['diff', sample, changed]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('~ chunks[1].body: 42 → 43');
    expect(run.stdout).toContain('~ chunks[2].body[0].health: 100 → 50');
    expect(run.stdout).toContain('2 differences');
    expect(savekit(['diff', sample, sample]).stdout).toContain('no differences');
    expect(JSON.parse(savekit(['diff', '--json', sample, changed]).stdout).differences).toHaveLength(2);
  });

  test('hexdump shows the field path of each byte range', () => {
    const run = savekit(['hexdump', sample]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^00000000 {2}53 4b 52 4d 03 00 .*\|SKRM.*\| {2}magic@0 version@4 options@6/);
    expect(lines).toHaveLength(Math.ceil(120 / 16));
    // Labels are document paths (as dump and diff print them): chunk bodies at .body, no chunk
    // marker posing as a field.
    expect(run.stdout).toMatch(/chunks\[\d\]\.body/);
    expect(run.stdout).not.toMatch(/[\w\]]\.(Name|Turn|Unit|Mods)\b|\.@\d/);
    const ranged = savekit(['hexdump', '--range', '0x10:0x20', sample]).stdout.trim().split('\n');
    expect(ranged).toHaveLength(1);
    expect(ranged[0]).toMatch(/^00000010 /);
    expect(savekit(['hexdump', '--range', 'x', sample]).code).toBe(2);
  });

  test('edit with a scripted $EDITOR changes one field and leaves a .bak', () => {
    const target = file('edited.sks');
    copyFileSync(sample, target);
    const editor = file(
      'editor.cjs',
      new TextEncoder().encode(
        "const fs = require('fs'); const f = process.argv[2]; const d = JSON.parse(fs.readFileSync(f, 'utf8')); d.document.chunks[1].body = 99; fs.writeFileSync(f, JSON.stringify(d));",
      ),
    );
    const run = savekit(['edit', target], { EDITOR: `"${process.execPath}" "${editor}"` });
    expect(run.code).toBe(0);
    expect(readFileSync(`${target}.bak`)).toEqual(readFileSync(sample));
    const after = JSON.parse(savekit(['dump', target]).stdout);
    expect(after.document.chunks[1].body).toBe(99);
    const diff = savekit(['diff', sample, target]);
    expect(diff.stdout.trim().split('\n')).toEqual(['~ chunks[1].body: 42 → 99', '1 difference']);
    // An editor that fails writes nothing.
    const failing = savekit(['edit', target], { EDITOR: 'false' });
    expect(failing.code).toBe(1);
    expect(failing.stderr).toMatch(/exited with status 1; nothing was written/);
  });
});

describe('usage errors and bad input', () => {
  test('usage errors exit 2 with a helpful message', () => {
    const unknown = savekit(['inspectt', sample]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command 'inspectt'/);
    expect(unknown.stderr).toMatch(/Did you mean inspect\?/);
    const missing = savekit(['inspect', join(scratch.path, 'nope.sks')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe(`savekit: ${join(scratch.path, 'nope.sks')}: no such file or folder`);
    expect(savekit(['build', join(scratch.path, 'no-such.json'), '-o', join(scratch.path, 'never.sks')]).code).toBe(2);
    expect(savekit([]).code).toBe(2);
    expect(savekit(['inspect', '--format', 'nope', sample]).stderr).toMatch(
      /unknown format "nope" \(known: ([\w-]+, )*skirmish(, [\w-]+)*\)/,
    );
    expect(savekit(['--plugin', './no/such/plugin.js', 'formats']).code).toBe(2);
  });

  test('truncated, empty, directory and random inputs: one error line, never a stack trace', () => {
    const bytes = new Uint8Array(readFileSync(sample));
    let seed = 7;
    const random = Uint8Array.from({ length: 200 }, () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed >>> 24;
    });
    const inputs = [
      file('truncated.sks', bytes.subarray(0, 60)),
      file('empty.sks', new Uint8Array(0)),
      file('random.bin', random),
      file('sks-random.sks', Uint8Array.from([...bytes.subarray(0, 8), ...random])),
    ];
    const folder = join(scratch.path, 'a-folder');
    mkdirSync(folder, { recursive: true });
    const commands = (input: string): string[][] => [
      ['inspect', input],
      ['dump', input],
      ['verify', input],
      ['diff', input, sample],
      ['hexdump', input],
      ['edit', input],
      ['build', input, '-o', join(scratch.path, 'out.sks')],
    ];
    for (const input of [...inputs, folder]) {
      for (const args of commands(input)) {
        const run = savekit(args, { EDITOR: 'true' });
        // None of these is a valid save or JSON document: every command refuses it (1 or 2).
        expect({ args, refused: run.code === 1 || run.code === 2 }).toEqual({ args, refused: true });
        noStackTrace(run);
        if (args[0] !== 'verify') expect(run.stderr.trim().split('\n')[0]).toMatch(/^savekit: /);
      }
    }
  });
});

describe('verify over many files', () => {
  let folder: string;
  beforeAll(() => {
    folder = join(scratch.path, 'many');
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < 1000; i++) copyFileSync(sample, join(folder, `save-${String(i).padStart(4, '0')}.sks`));
  });

  test('in a pipe: no progress bar, one line per save and a summary', () => {
    const run = savekit(['verify', folder]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('1,000 saves: 1,000 ok, 0 invalid, 0 differs');
    expect(run.stderr).not.toMatch(/verifying/);
    expect(run.stdout.split('\n').filter((l) => l.startsWith('ok ')).length).toBe(1000);
  });

  test('globs are expanded', () => {
    const run = savekit(['verify', `${folder}/save-00*.sks`]);
    expect(run.stdout).toContain('100 saves: 100 ok');
  });

  const hasScript = spawnSync('script', ['--version']).status === 0;
  (hasScript ? test : test.skip)('on a terminal: a progress bar', () => {
    // `script` gives the command a pseudo-terminal, as a user's shell would.
    const command = [process.execPath, bin, '--plugin', plugin, 'verify', folder].map((a) => `'${a}'`).join(' ');
    const run = spawnSync('script', ['-qec', command, '/dev/null'], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/verifying .*\d+\/1000 files/);
    expect(run.stdout).toContain('1,000 saves: 1,000 ok, 0 invalid, 0 differs');
  });
});

describe('plugins named by a path relative to the working directory', () => {
  function run(cwd: string, args: string[]): Run {
    const done = spawnSync(process.execPath, [bin, ...args], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', SAVEKIT_PLUGINS: '' },
    });
    return { code: done.status, signal: done.signal, stdout: done.stdout, stderr: done.stderr };
  }
  const examples = join(root, 'examples');

  test('`--plugin dist/wad.js` loads the file, as `node dist/wad.js` would run it', () => {
    for (const spelling of ['dist/wad.js', './dist/wad.js', join(examples, 'dist', 'wad.js')]) {
      const listed = run(examples, ['--plugin', spelling, 'formats']);
      expect(listed.stderr).toBe('');
      expect(listed.stdout).toMatch(/^wad\s+Doom WAD$/m);
    }
    // A path that does not exist is named as a file, not looked up as a package.
    const missing = run(examples, ['--plugin', 'dist/nope.js', 'formats']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot load plugin dist\/nope\.js: Cannot find module/);
    expect(missing.stderr).not.toMatch(/Cannot find package/);
  });

  test('the WAD plugin reads, verifies and rebuilds a WAD', () => {
    // PWAD, one 3-byte lump "abc" at 12, the directory after it at 15.
    const wad = Uint8Array.from([
      ...Buffer.from('PWAD'),
      1,
      0,
      0,
      0,
      15,
      0,
      0,
      0,
      0x61,
      0x62,
      0x63,
      12,
      0,
      0,
      0,
      3,
      0,
      0,
      0,
      ...Buffer.from('LUMP\0\0\0\0'),
    ]);
    const path = file('demo.wad', wad);
    const inspected = run(examples, ['--plugin', 'dist/wad.js', 'inspect', path]);
    expect(inspected.code).toBe(0);
    expect(inspected.stdout).toMatch(/PWAD, 1 lump/);
    expect(run(examples, ['--plugin', 'dist/wad.js', 'verify', path]).stdout).toMatch(
      /^ok .*demo\.wad \(wad, 31 bytes\)$/m,
    );
  });
});
