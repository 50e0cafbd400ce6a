// The CLI as a careful file-system tool, driven through the built binary (issue 17, items 8 and 10):
// special files and files over the size limit refused before reading; -o through symbolic links,
// never into a FIFO or a device; file-system errors one line with the old save intact; names
// printed escaped; a folder save never written through a link out of its folder.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  chmodSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';
import { ourSaveTree } from '../../terrarum/test/save-fixture';
import { bin, HANG_GUARD_MS, root, type Run, sample, savekit, scratchFolder } from './binary';

const edgeSample = join(root, 'examples', 'saves', 'edge-01.esg');
const scratch = scratchFolder('savekit-files-');

/** Exit 1 with exactly one line on standard error, `savekit: …`, no internal error, nothing on stdout. */
function oneLineFailure(run: Run, pattern: RegExp): void {
  expect(run.signal).toBeNull();
  expect(run.stderr).toMatch(/^savekit: [^\n]*\n$/);
  expect(run.stderr).not.toContain('internal error');
  expect(run.stderr).toMatch(pattern);
  expect(run.code).toBe(1);
}

function fresh(name: string): string {
  const dir = join(scratch.path, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

function mkfifo(path: string): void {
  const made = spawnSync('mkfifo', [path]);
  expect(made.status).toBe(0);
}

/** Control characters (C0 but newline, DEL, C1) in printed text: there must be none. */
const controls = (text: string) =>
  [...text].filter((char) => {
    const code = char.codePointAt(0) as number;
    return (code < 0x20 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);
  });

/** Files in `dir` a failed write may have left behind (temporary siblings). */
const leftovers = (dir: string) =>
  readdirSync(dir).filter((name) => name.endsWith('.tmp') || name.includes('savekit-'));

describe('reading: only regular files and folders, never over the size limit', () => {
  test('/dev/zero (a character device) is refused before it is read', () => {
    const run = savekit(['inspect', '/dev/zero']);
    oneLineFailure(
      run,
      /^savekit: \/dev\/zero: a character device, not a save: savekit reads regular files and folders only$/m,
    );
  });

  test('a FIFO with no writer is refused without being opened (it would block forever)', () => {
    const fifo = join(fresh('fifo-read'), 'save.sks');
    mkfifo(fifo);
    for (const command of ['inspect', 'dump', 'hexdump', 'edit'])
      oneLineFailure(savekit([command, fifo], { EDITOR: 'true' }), /a FIFO \(named pipe\), not a save/);
    const verify = savekit(['verify', fifo]);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toMatch(/^invalid .*save\.sks: a FIFO \(named pipe\), not a save/m);
    // A symbolic link to it, too; and as build's JSON document.
    const link = join(dirname(fifo), 'link.sks');
    symlinkSync(fifo, link);
    oneLineFailure(savekit(['inspect', link]), /link\.sks: a FIFO \(named pipe\), not a save/);
    oneLineFailure(savekit(['build', fifo, '-o', join(dirname(fifo), 'out.sks')]), /a FIFO \(named pipe\)/);
  });

  test('a socket is refused', async () => {
    const path = join(fresh('socket'), 's.sock');
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      oneLineFailure(savekit(['inspect', path]), /s\.sock: a socket, not a save/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test('a 3 GB (sparse) file is "too large" in one line, before a byte is read', () => {
    const big = join(fresh('big'), 'big.sks');
    expect(spawnSync('truncate', ['-s', '3G', big]).status).toBe(0);
    const run = savekit(['inspect', big]);
    oneLineFailure(
      run,
      /big\.sks: too large: 3 GiB, over the limit of 1 GiB \(--max-size or SAVEKIT_MAX_SIZE sets another\)$/m,
    );
    // Raising the limit past what one buffer holds is a usage error, not a crash.
    expect(savekit(['--max-size', '8G', 'inspect', big]).code).toBe(2);
  });

  test('--max-size and SAVEKIT_MAX_SIZE set the limit; a bad value is a usage error', () => {
    oneLineFailure(
      savekit(['--max-size', '100', 'inspect', sample]),
      /too large: 120 bytes, over the limit of 100 bytes/,
    );
    oneLineFailure(
      savekit(['inspect', sample], { SAVEKIT_MAX_SIZE: '100' }),
      /too large: 120 bytes, over the limit of 100 bytes/,
    );
    expect(savekit(['--max-size', '1k', 'inspect', sample]).code).toBe(0);
    expect(savekit(['inspect', sample], { SAVEKIT_MAX_SIZE: '1M' }).code).toBe(0);
    const bad = savekit(['inspect', sample], { SAVEKIT_MAX_SIZE: 'lots' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^savekit: SAVEKIT_MAX_SIZE="lots" is not a size/);
    expect(savekit(['--max-size', 'lots', 'inspect', sample]).code).toBe(2);
    // A JSON document to build is held to it as well.
    const json = join(fresh('max-json'), 's.json');
    writeFileSync(json, savekit(['dump', sample]).stdout);
    oneLineFailure(
      savekit(['--max-size', '200', 'build', json, '-o', join(scratch.path, 'never.sks')]),
      /s\.json: too large/,
    );
  });

  test('--help documents the limit and what is refused', () => {
    const help = savekit(['--help']).stdout;
    expect(help).toContain('--max-size <size>');
    expect(help).toMatch(/default: 1 GiB, or\s+SAVEKIT_MAX_SIZE/);
    expect(help).toMatch(/a FIFO, a device or a socket is refused/);
  });

  test('a folder save holding a FIFO, or over the limit, is refused in one line', () => {
    const folder = fresh('tree-fifo');
    for (const [name, bytes] of ourSaveTree()) {
      mkdirSync(dirname(join(folder, name)), { recursive: true });
      writeFileSync(join(folder, name), bytes);
    }
    expect(savekit(['verify', folder]).code).toBe(0);
    oneLineFailure(savekit(['--max-size', '500', 'inspect', folder]), /too large: larger than the limit of 500 bytes/);
    mkfifo(join(folder, 'tapestries', 'pipe'));
    oneLineFailure(savekit(['inspect', folder]), /tapestries\/pipe: not a regular file .* in the save folder/);
  });
});

describe('writing -o', () => {
  let json: string;
  beforeAll(() => {
    json = join(fresh('json'), 's.json');
    writeFileSync(json, savekit(['dump', sample]).stdout);
  });

  test('onto a symbolic link: the target gets the save, the link stays', () => {
    const dir = fresh('link-out');
    const real = join(dir, 'real.sks');
    writeFileSync(real, 'old');
    const link = join(dir, 'link.sks');
    symlinkSync('real.sks', link);
    const run = savekit(['build', json, '-o', link]);
    expect(run.code).toBe(0);
    expect(run.stderr.trim()).toBe(`wrote ${real} (skirmish)`);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('real.sks');
    expect(readFileSync(real)).toEqual(readFileSync(sample));
    // dump -o too.
    const jsonLink = join(dir, 'doc.json');
    writeFileSync(join(dir, 'doc-real.json'), '{}');
    symlinkSync('doc-real.json', jsonLink);
    expect(savekit(['dump', sample, '-o', jsonLink]).code).toBe(0);
    expect(lstatSync(jsonLink).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'doc-real.json'), 'utf8'))).toMatchObject({ format: 'skirmish' });
  });

  test('onto a symbolic link to nothing: refused', () => {
    const dir = fresh('dangling');
    const link = join(dir, 'link.sks');
    symlinkSync('missing.sks', link);
    oneLineFailure(savekit(['build', json, '-o', link]), /a symbolic link to a file that does not exist/);
    expect(existsSync(join(dir, 'missing.sks'))).toBe(false);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  test('edit on a symbolic link changes the real save and keeps the link', () => {
    const dir = fresh('edit-link');
    const real = join(dir, 'real.sks');
    copyFileSync(sample, real);
    const link = join(dir, 'link.sks');
    symlinkSync('real.sks', link);
    const editor = join(dir, 'editor.cjs');
    writeFileSync(
      editor,
      "const fs = require('fs'); const f = process.argv[2]; fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace('\"body\": 42', '\"body\": 43'));\n",
    );
    const run = savekit(['edit', link], { EDITOR: `"${process.execPath}" "${editor}"`, TMPDIR: dir });
    expect(run.stderr).toBe(`wrote ${real} through the link ${link}; the previous save is ${real}.bak\n`);
    expect(run.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(`${real}.bak`)).toEqual(readFileSync(sample));
    const turn = JSON.parse(savekit(['dump', real]).stdout).document.chunks[1];
    expect(turn).toEqual({ id: 'Turn', body: 43 });
    expect(JSON.parse(savekit(['dump', link]).stdout).document.chunks[1]).toEqual(turn);
  });

  test('onto a FIFO: refused at once (never opened, never replaced)', () => {
    const dir = fresh('fifo-out');
    const fifo = join(dir, 'out.sks');
    mkfifo(fifo);
    oneLineFailure(
      savekit(['build', json, '-o', fifo]),
      /out\.sks: a FIFO \(named pipe\): savekit writes saves only to regular files; nothing was written/,
    );
    oneLineFailure(savekit(['dump', sample, '-o', fifo]), /a FIFO/);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    // Through a link to it as well.
    symlinkSync('out.sks', join(dir, 'link.sks'));
    oneLineFailure(savekit(['build', json, '-o', join(dir, 'link.sks')]), /a symbolic link to .*out\.sks, a FIFO/);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(leftovers(dir)).toEqual([]);
  });

  test('onto a device: refused, the device left as it is', () => {
    // A null device of our own (root only), so that a regression could never replace the real /dev/null.
    const dir = fresh('device-out');
    const device = join(dir, 'null');
    if (process.getuid?.() !== 0 || spawnSync('mknod', [device, 'c', '1', '3']).status !== 0) return;
    oneLineFailure(
      savekit(['build', json, '-o', device]),
      /null: a character device: savekit writes saves only to regular files/,
    );
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
  });

  test('onto a folder (EISDIR): one line, the folder untouched', () => {
    const dir = fresh('eisdir');
    const target = fresh('eisdir/target.sks');
    writeFileSync(join(target, 'keep.txt'), 'mine');
    oneLineFailure(savekit(['build', json, '-o', target]), /target\.sks: is a folder \(EISDIR\)/);
    expect(readdirSync(target)).toEqual(['keep.txt']);
    expect(leftovers(dir)).toEqual([]);
  });

  test('under a file (ENOTDIR): one line', () => {
    const dir = fresh('enotdir');
    const file = join(dir, 'file.sks');
    copyFileSync(sample, file);
    oneLineFailure(
      savekit(['build', json, '-o', join(file, 'x.sks')]),
      /file\.sks\/x\.sks: cannot write: a part of the path is not a folder \(ENOTDIR\); nothing was written$/m,
    );
    expect(readFileSync(file)).toEqual(readFileSync(sample));
  });

  test('in a folder without write permission (EACCES): one line, the old save intact', () => {
    if (process.getuid?.() === 0) return; // root writes anywhere
    const dir = fresh('eacces');
    const save = join(dir, 'save.sks');
    writeFileSync(save, 'old');
    chmodSync(dir, 0o555);
    try {
      oneLineFailure(
        savekit(['build', json, '-o', save]),
        /save\.sks: cannot write: permission denied \(EACCES\); the old save is unchanged/,
      );
      expect(readFileSync(save, 'utf8')).toBe('old');
    } finally {
      chmodSync(dir, 0o755);
    }
  });

  test('past the file size limit (EFBIG, ulimit -f): one line, the old file intact, no temporary left', () => {
    const dir = fresh('efbig');
    const out = join(dir, 'out.json');
    writeFileSync(out, 'old content');
    // ulimit -f 4: files of at most 4 KiB; the JSON of a 16 KB EDGE save is larger.
    const command = `ulimit -f 4; exec "${process.execPath}" "${bin}" dump "${edgeSample}" -o "${out}"`;
    const run = spawnSync('bash', ['-c', command], {
      encoding: 'utf8',
      timeout: HANG_GUARD_MS,
      env: { ...process.env, NO_COLOR: '1' },
    });
    oneLineFailure(
      { code: run.status, signal: run.signal, stdout: run.stdout, stderr: run.stderr },
      /out\.json: cannot write: file too large for the file system or the file size limit \(ulimit -f\) \(EFBIG\); the old save is unchanged$/m,
    );
    expect(readFileSync(out, 'utf8')).toBe('old content');
    expect(readdirSync(dir)).toEqual(['out.json']);
  });
});

describe('names are printed escaped', () => {
  const nasty = 'evil\u001b]0;pwned\u0007\nname\u009b31m.sks';
  const shown = 'evil\\x1b]0;pwned\\x07\\x0aname\\x9b31m.sks';

  test('a file name with ESC, BEL, a newline and a C1 control', () => {
    const dir = fresh('names');
    writeFileSync(join(dir, nasty), 'not a save');
    const run = savekit(['inspect', nasty], {}, dir);
    oneLineFailure(run, /no registered format recognises this file/);
    expect(run.stderr).toContain(`savekit: ${shown}: `);
    expect(controls(run.stderr)).toEqual([]);
    // verify walking the folder: skipped, named escaped.
    copyFileSync(sample, join(dir, `ok${nasty}`));
    const verify = savekit(['verify', '.'], {}, dir);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toContain(`skipped ./${shown}: no format recognises it`);
    expect(verify.stdout).toContain(`ok ./ok${shown} (skirmish, 120 bytes)`);
    expect(controls(verify.stdout)).toEqual([]);
    // --json: the same names, as valid JSON that parses back to them.
    const json = savekit(['verify', '--json', '.'], {}, dir);
    expect(controls(json.stdout)).toEqual([]);
    expect(JSON.parse(json.stdout).skipped).toEqual([`./${nasty}`]);
    // A missing file, an output path.
    expect(savekit(['inspect', `missing${nasty}`], {}, dir).stderr).toBe(
      `savekit: missing${shown}: no such file or folder\n`,
    );
    const build = savekit(['build', join(scratch.path, 'json', 's.json'), '-o', `out${nasty}`], {}, dir);
    expect(build.stderr).toBe(`wrote out${shown} (skirmish)\n`);
  });

  test('a name that is not UTF-8 is shown as \\x bytes', () => {
    const dir = fresh('binary-names');
    const raw = Buffer.concat([Buffer.from('bad'), Buffer.from([0xff, 0x1b, 0xc3]), Buffer.from('.sks')]);
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), raw]), 'x');
    const run = savekit(['verify', dir]);
    expect(run.stderr).toContain('skipped bad\\xff\\x1b\\xc3.sks: its name is not UTF-8');
    expect(controls(run.stderr)).toEqual([]);
  });

  test('entry names in a folder save (inspect, dump)', () => {
    const folder = fresh('tree-names');
    for (const [name, bytes] of ourSaveTree()) {
      mkdirSync(dirname(join(folder, name)), { recursive: true });
      writeFileSync(join(folder, name), bytes);
    }
    writeFileSync(join(folder, 'tapestries', 'x\u001b[2Jy'), 'z');
    const inspect = savekit(['inspect', '--full', folder]);
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toContain('tapestries/x\\x1b[2Jy');
    expect(inspect.stdout).not.toContain('\u001b');
    const dump = savekit(['dump', folder]);
    expect(dump.stdout).not.toContain('\u001b');
    expect(JSON.parse(dump.stdout).document.save.files['tapestries/x\u001b[2Jy']).toBe('7a');
  });
});

describe('folder saves: never written through a link out of the folder', () => {
  function writeTree(folder: string): void {
    for (const [name, bytes] of ourSaveTree()) {
      mkdirSync(dirname(join(folder, name)), { recursive: true });
      writeFileSync(join(folder, name), bytes);
    }
  }

  test('build -o F where F/computers links outside, and the document has files["computers/evil.txt"]', () => {
    const dir = fresh('escape');
    const source = join(dir, 'source');
    writeTree(source);
    const doc = JSON.parse(savekit(['dump', source]).stdout);
    doc.document.save.files['computers/evil.txt'] = Buffer.from('evil').toString('hex');
    const json = join(dir, 'doc.json');
    writeFileSync(json, JSON.stringify(doc));
    const outside = fresh('escape/outside');
    const F = join(dir, 'F');
    writeTree(F);
    symlinkSync(outside, join(F, 'computers'));
    const run = savekit(['build', json, '-o', F]);
    // Nothing outside F; F is not replaced (savekit cannot read it as a save: a link out of it).
    expect(readdirSync(outside)).toEqual([]);
    oneLineFailure(
      run,
      /F: not replaced: it is not a save savekit can read: .*computers: a symbolic link out of the save folder/,
    );
    expect(lstatSync(join(F, 'computers')).isSymbolicLink()).toBe(true);
    // Removing the link, F is a save and is replaced whole: computers/ is a real folder in it.
    rmSync(join(F, 'computers'));
    expect(savekit(['build', json, '-o', F]).code).toBe(0);
    expect(lstatSync(join(F, 'computers')).isDirectory()).toBe(true);
    expect(readFileSync(join(F, 'computers', 'evil.txt'), 'utf8')).toBe('evil');
    expect(readdirSync(outside)).toEqual([]);
    expect(savekit(['verify', F]).code).toBe(0);
  });

  test('build -o onto a folder that is not a save is refused; a new or empty folder is written', () => {
    const dir = fresh('not-a-save');
    const source = join(dir, 'source');
    writeTree(source);
    const json = join(dir, 'doc.json');
    writeFileSync(json, savekit(['dump', source]).stdout);
    const home = fresh('not-a-save/home');
    writeFileSync(join(home, 'notes.txt'), 'mine');
    oneLineFailure(savekit(['build', json, '-o', home]), /home: not replaced: a folder of other files, not a save/);
    expect(readdirSync(home)).toEqual(['notes.txt']);
    const empty = fresh('not-a-save/empty');
    expect(savekit(['build', json, '-o', empty]).code).toBe(0);
    expect(savekit(['build', json, '-o', join(dir, 'new')]).code).toBe(0);
    expect(savekit(['verify', empty, join(dir, 'new')]).code).toBe(0);
    // Onto a file, or a FIFO: a folder save needs a folder.
    const fifo = join(dir, 'pipe');
    mkfifo(fifo);
    oneLineFailure(savekit(['build', json, '-o', fifo]), /pipe: a FIFO \(named pipe\), not a folder/);
  });

  test('edit of a folder save keeps the old folder as FOLDER.bak, beside it', () => {
    const dir = fresh('edit-tree');
    const folder = join(dir, 'world');
    writeTree(folder);
    const editor = join(dir, 'editor.cjs');
    writeFileSync(
      editor,
      "const fs = require('fs'); const f = process.argv[2]; fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace('Nimbus 0', 'Nimbus 1'));\n",
    );
    const run = savekit(['edit', folder], { EDITOR: `"${process.execPath}" "${editor}"`, TMPDIR: dir });
    expect(run.stderr).toBe(`wrote ${folder}; the previous save is ${folder}.bak\n`);
    expect(run.code).toBe(0);
    expect(JSON.parse(savekit(['dump', folder]).stdout).document.save.meta.name).toBe('Nimbus 1');
    expect(JSON.parse(savekit(['dump', `${folder}.bak`]).stdout).document.save.meta.name).toBe('Nimbus 0');
  });
});
