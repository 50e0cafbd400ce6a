// The pieces under the careful file-system behaviour, in-process: the escaping of names, the mapping
// of file-system errors to one line (ENOSPC and EROFS cannot be caused in a test; the mapping is
// what is tested), the bounded read, sizes.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pc from 'picocolors';
import { SaveFailure } from '../src/errors';
import {
  DEFAULT_MAX_SAVE_BYTES,
  fileSystemFailure,
  fileSystemMessage,
  formatSize,
  parseSize,
  readFileBounded,
} from '../src/io';
import { safeLine, showJson, showName } from '../src/show';
import { renderTree } from '../src/tree';

const errno = (code: string, syscall = 'write') =>
  Object.assign(new Error(`${code}: something, ${syscall}`), { code, syscall, path: '/x/.save.sks.1.tmp' });

describe('showName', () => {
  test('control characters, DEL, C1, bidi controls and separators are escaped; other text is not', () => {
    expect(showName('a\u001b[31mb')).toBe('a\\x1b[31mb');
    expect(showName('line\nbreak\ttab\r')).toBe('line\\x0abreak\\x09tab\\x0d');
    expect(showName('del\u007f c1\u009b nul\u0000')).toBe('del\\x7f c1\\x9b nul\\x00');
    expect(showName('abc\u202egpj.exe')).toBe('abc\\u202egpj.exe');
    expect(showName('a\u2028b')).toBe('a\\u2028b');
    expect(showName('Bridge at Ütersen ░▒▓ 🚀')).toBe('Bridge at Ütersen ░▒▓ 🚀');
    expect(showName('lone \ud800 surrogate \udc00')).toBe('lone \\ud800 surrogate \\udc00');
    // Once is enough: escaping again changes nothing.
    expect(showName(showName('x\u001by'))).toBe('x\\x1by');
  });

  test('bytes: UTF-8 decoded, anything else as \\x', () => {
    expect(showName(Buffer.from('plain ü'))).toBe('plain ü');
    expect(showName(Uint8Array.of(0x61, 0xff, 0x1b, 0xc3, 0x62, 0xe2, 0x82))).toBe('a\\xff\\x1b\\xc3b\\xe2\\x82');
    expect(showName(Uint8Array.of(0xed, 0xa0, 0x80))).toBe('\\xed\\xa0\\x80'); // an encoded surrogate
    expect(showName(Uint8Array.of(0xc0, 0xaf))).toBe('\\xc0\\xaf'); // overlong "/"
  });

  test('showJson: the same JSON value, nothing raw a terminal acts on', () => {
    const value = { name: 'a\u007fb\u009bc\u202ed', 'key\u0085': ['\u001b'] };
    const text = showJson(JSON.stringify(value, null, 2));
    expect(JSON.parse(text)).toEqual(value);
    expect(text).not.toMatch(/[\u007f-\u009f\u202e]/);
    expect(text.split('\n').length).toBe(JSON.stringify(value, null, 2).split('\n').length);
  });

  test('safeLine: the last guard keeps newlines, tabs and (only when colouring) colour codes', () => {
    expect(safeLine('a\nb\tc')).toBe('a\nb\tc');
    expect(safeLine('\u001b]0;title\u0007')).toBe('\\x1b]0;title\\x07');
    const red = pc.createColors(true).red('x');
    expect(safeLine(red, true)).toBe(red);
    expect(safeLine(red, false)).toBe('\\x1b[31mx\\x1b[39m');
  });

  test('renderTree escapes keys and strings of the document', () => {
    const lines = renderTree({ 'name\u001b[2J': 'v\u009b', files: { 'a\nb': 1 } }, Infinity, pc.createColors(false));
    expect(lines.join('\n')).toBe(
      ['document {2}', '  name\\x1b[2J: "v\\u009b"', '  files {1}', '    a\\x0ab: 1'].join('\n'),
    );
  });
});

describe('file-system errors are one line', () => {
  test.each([
    ['ENOSPC', 'no space left on the device (ENOSPC)'],
    ['EDQUOT', 'disk quota exceeded (EDQUOT)'],
    ['EROFS', 'the file system is read-only (EROFS)'],
    ['EFBIG', 'file too large for the file system or the file size limit (ulimit -f) (EFBIG)'],
    ['EISDIR', 'is a folder (EISDIR)'],
    ['EACCES', 'permission denied (EACCES)'],
    ['EPERM', 'operation not permitted (EPERM)'],
    ['ENOTDIR', 'a part of the path is not a folder (ENOTDIR)'],
    ['EWHATEVER', 'file-system error (EWHATEVER)'],
  ])('%s', (code, phrase) => {
    expect(fileSystemMessage(errno(code))).toBe(phrase);
    const failure = fileSystemFailure(errno(code), 'save.sks', 'write', true);
    expect(failure).toBeInstanceOf(SaveFailure);
    expect((failure as SaveFailure).exitCode).toBe(1);
    // The user's name for the save, not the temporary file's.
    expect((failure as SaveFailure).message).toBe(`save.sks: cannot write: ${phrase}; the old save is unchanged`);
    expect((fileSystemFailure(errno(code), 'new.sks', 'write') as SaveFailure).message).toBe(
      `new.sks: cannot write: ${phrase}; nothing was written`,
    );
    expect((fileSystemFailure(errno(code), 'in.sks', 'read') as SaveFailure).message).toBe(
      `in.sks: cannot read: ${phrase}`,
    );
  });

  test('other errors pass through unchanged', () => {
    const bug = new TypeError('x is undefined');
    expect(fileSystemMessage(bug)).toBeUndefined();
    expect(fileSystemFailure(bug, 'save.sks', 'write')).toBe(bug);
    expect(fileSystemMessage('ENOSPC')).toBeUndefined();
  });
});

describe('readFileBounded', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'savekit-io-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  test('reads a file; refuses one over the limit before reading', () => {
    const path = join(work, 'f.bin');
    writeFileSync(path, Buffer.alloc(1000, 7));
    expect(readFileBounded(path, 1000)).toEqual(new Uint8Array(1000).fill(7));
    expect(() => readFileBounded(path, 999)).toThrow(
      'f.bin: too large: 1,000 bytes, over the limit of 999 bytes (--max-size or SAVEKIT_MAX_SIZE sets another)',
    );
  });

  // A file whose size says 0 but that has content (as /proc files do; as a file growing while it is
  // read does): the limit holds on the bytes read, not on what stat said.
  test('the limit holds on the bytes read, whatever stat said', () => {
    if (!existsSync('/proc/self/maps')) return;
    expect(() => readFileBounded('/proc/self/maps', 64)).toThrow(/too large: larger than the limit of 64 bytes/);
    expect(readFileBounded('/proc/self/maps', DEFAULT_MAX_SAVE_BYTES).length).toBeGreaterThan(64);
  });

  test('a character device is refused (never opened)', () => {
    expect(() => readFileBounded('/dev/zero')).toThrow('/dev/zero: a character device, not a save');
  });
});

test('sizes: parsed with binary units, shown for people', () => {
  expect(parseSize('1024')).toBe(1024);
  expect(parseSize('64k')).toBe(65536);
  expect(parseSize('512M')).toBe(512 * 1024 ** 2);
  expect(parseSize('2G')).toBe(2 * 1024 ** 3);
  expect(parseSize('1.5GiB')).toBe(1.5 * 1024 ** 3);
  for (const bad of ['', 'lots', '-1', '0', '8G', '1e9', '12 apples']) expect(parseSize(bad)).toBeUndefined();
  expect(formatSize(DEFAULT_MAX_SAVE_BYTES)).toBe('1 GiB');
  expect(formatSize(3 * 1024 ** 3)).toBe('3 GiB');
  expect(formatSize(3_000_000_000)).toBe('2.8 GiB (3,000,000,000 bytes)');
  expect(formatSize(120)).toBe('120 bytes');
});
